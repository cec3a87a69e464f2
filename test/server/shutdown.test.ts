import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { runCli, startChild, waitForOutput } from "../support/child.ts";
import { fixturePath } from "../support/server.ts";

test("SIGTERM during an upload lets the upload finish, refuses new connections and exits 0", async (t) => {
  const data = mkdtempSync(join(tmpdir(), "term-"));
  const token = runCli(["token", "create", "--data", data, "--tenant", "acme", "--scopes", "submissions:write,submissions:read"]).stdout.trim();
  const server = await startChild(["--data", data, "--shutdown-grace", "5s"]);
  t.after(async () => {
    server.child.kill("SIGKILL"); // a no-op once it exited, as it should have
    await server.exited;
    rmSync(data, { recursive: true, force: true });
  });
  const xml = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_complex.xml"));
  const boundary = "----term";
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="xml"; filename="a.xml"\r\nContent-Type: application/xml\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Buffer.concat([head, xml, tail]);
  const { port } = new URL(server.url);

  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method: "POST", path: "/api/v1/submissions", headers: {
      "x-api-token": token, expect: "100-continue", "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(body.length),
    } }, (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    // The server's 100 Continue says it has parsed the head and is handling the request: half the body now,
    // SIGTERM, and the rest once the server has logged that it is shutting down (its listener is closed by then).
    req.once("continue", () => {
      req.write(body.subarray(0, body.length >> 1));
      server.child.kill("SIGTERM");
      waitForOutput(server, /"msg":"shutting down"/).then(async () => {
        // A new connection is refused while the upload is still open.
        const refused = await fetch(`${server.url}/healthz`).then(() => false, () => true);
        assert.ok(refused, "new connection refused during shutdown");
        req.end(body.subarray(body.length >> 1));
      }).catch(reject);
    });
    req.flushHeaders();
  });
  const res = await answer;
  assert.equal(res.status, 201, res.body);
  const code = await server.exited;
  // Deno's child_process reports a child it sent a signal to as killed, even when the child exited 0 itself.
  if (!("Deno" in globalThis)) assert.equal(code, 0);
  assert.match(server.stdout(), /"msg":"stopped"/);
});

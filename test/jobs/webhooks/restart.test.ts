import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { runCli, startChild } from "../../support/child.ts";
import { fixturePath } from "../../support/server.ts";

test("an event reaches a receiver that was down for three attempts exactly once, across a kill -9 and restart", async () => {
  const data = mkdtempSync(join(tmpdir(), "whk-"));
  const token = runCli(["token", "create", "--data", data, "--tenant", "acme", "--scopes", "documents:read,documents:write,webhooks:write"]).stdout.trim();
  let up = false;
  const got: { id: string; type: string }[] = [];
  const rx = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      if (up) got.push({ id: req.headers["webhook-id"] as string, type: (JSON.parse(body) as { type: string }).type });
      res.writeHead(up ? 204 : 503);
      res.end();
    });
  });
  await new Promise<void>((r) => rx.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(rx.address() as { port: number }).port}/`;
  const args = ["--data", data, "--webhook-allow-private", "on", "--webhook-retry-schedule", "300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms", "--rate-limit", "off"];
  let child = await startChild(args);
  try {
    const reg = await fetch(`${child.url}/api/v1/webhooks`, {
      method: "POST", headers: { "x-api-token": token, "content-type": "application/json" }, body: JSON.stringify({ url, events: ["document.created"] }),
    });
    assert.equal(reg.status, 201);
    mkdirSync(join(data, "inbox", "acme"), { recursive: true });
    writeFileSync(join(data, "inbox", "acme", "A.xml"), readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml")));
    await fetch(`${child.url}/api/v1/documents/sync`, { method: "POST", headers: { "x-api-token": token } });
    // Three or more refused attempts, then the process dies without warning.
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && !/"attempts":3/.test(readState(data))) await new Promise((r) => setTimeout(r, 50));
    child.child.kill("SIGKILL");
    await child.exited;
    assert.match(readState(data), /"attempts":[3-9]/, "three attempts failed before the crash");
    up = true;
    child = await startChild(args);
    while (Date.now() < deadline + 15_000 && got.length === 0) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1000)); // time for a duplicate to show up, if one were coming
    assert.equal(got.length, 1);
    assert.equal(got[0]!.type, "document.created");
  } finally {
    child.child.kill("SIGKILL");
    await child.exited;
    rx.close();
  }
});

function readState(data: string): string {
  try {
    const dir = join(data, "tenants", "acme", "delivery");
    return readdirSync(dir).map((n) => readFileSync(join(dir, n), "utf8")).join("\n");
  } catch {
    return "";
  }
}

/**
 * `offline_when_unavailable` with WORKERS=2 (README "Offline invoices"): the sender runs in one process and the
 * uploads arrive in the others, and every one of them sees KSeF's outage from its first unanswered request.
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { runCli, startChild } from "../../../support/child.ts";
import { startKsefSimulator } from "../../../support/ksef_simulator.ts";
import { onlineSessions } from "../../../support/ksef_simulator_online.ts";
import { batchSessions } from "../../../support/ksef_simulator_batch.ts";
import { makeOfflineCertificate } from "../../../support/offline_certificates.ts";
import { fa3, NIP, TOKEN } from "./send_setup.ts";

// One upload on a connection of its own: the cluster's round robin hands consecutive ones to alternate workers.
function upload(url: string, token: string, xml: Uint8Array): Promise<{ status: number; body: Record<string, unknown> }> {
  const boundary = "b0undary";
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="xml"; filename="i.xml"\r\nContent-Type: application/xml\r\n\r\n`),
    xml, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/v1/submissions`, {
      method: "POST", agent: false,
      headers: { "x-api-token": token, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(body.length) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown> }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

test("with WORKERS=2, uploads to every worker are issued offline once KSeF has not answered for offline_when_unavailable", { skip: "Deno" in globalThis ? "node:cluster is Node's" : false, timeout: 120_000 }, async (t) => {
  const data = mkdtempSync(join(tmpdir(), "offline-workers-"));
  t.after(() => rmSync(data, { recursive: true, force: true }));
  const side = onlineSessions();
  const batch = batchSessions(side);
  const sim = await startKsefSimulator({
    tokens: [{ token: TOKEN, nip: NIP, permissions: ["InvoiceRead", "InvoiceWrite"] }],
    routes: [...batch.routes, ...side.routes], rawRoutes: batch.rawRoutes, limitGroup: (m, p) => batch.limitGroup(m, p) ?? side.limitGroup(m, p),
  });
  t.after(() => sim.close());
  const cert = makeOfflineCertificate(data, "offline", { key: "rsa2048" });
  writeFileSync(join(data, "sources.json"), JSON.stringify({ acme: [{
    name: "ksef", type: "ksef", environment: sim.url, nip: NIP, token: TOKEN, send: true, send_mode: "online",
    offline_certificate: cert.certificateFile, offline_key: cert.keyFile, offline_when_unavailable: "3s",
  }] }));
  const token = runCli(["token", "create", "--data", data, "--tenant", "acme", "--scopes", "submissions:read,submissions:write"]).stdout.trim();
  // Every online-session request is answered 503 from now on; the moment the first arrives is the outage's start.
  side.failNext(1_000_000, 503);
  let firstUnanswered = 0;
  let seen: () => void = () => {};
  const unanswered = new Promise<void>((done) => (seen = done));
  side.onRequest = () => {
    if (firstUnanswered === 0) firstUnanswered = Date.now();
    seen();
  };
  const server = await startChild(["--data", data, "--workers", "2", "--rate-limit", "off"]);
  try {
    const first = await upload(server.url, token, fa3("W/0"));
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal((first.body.ksef as { mode: string }).mode, "online", "KSeF not yet asked");
    await unanswered;
    // Well past 3 s after the first 503 (the server notes it a moment after the simulator sent it), and long before
    // the sender's retries (1 + 2 + 4 + 8 + 16 s) give up.
    await new Promise((r) => setTimeout(r, firstUnanswered + 5_000 - Date.now()));
    const later = [];
    for (let i = 1; i <= 4; i++) later.push(await upload(server.url, token, fa3(`W/${i}`)));
    assert.ok(Date.now() - firstUnanswered < 31_000, "before the sender's retries give up");
    assert.deepEqual(later.map((r) => [r.status, (r.body.ksef as { mode: string } | null)?.mode]), Array.from({ length: 4 }, () => [201, "offline"]));
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
  }
});

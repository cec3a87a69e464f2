/**
 * `ksef.certificate_expiring` delivered through a real server (README "Webhooks"): the expiry watch appends each
 * notice to the tenant's notices feed, and the delivery worker sends it, signed as Standard Webhooks specifies, to
 * the endpoints subscribed to it or to "*", once per threshold (one event for the nearest when several are crossed at
 * once), restarts included. The signature is checked here with
 * node:crypto on its own, not with the server's signer.
 */
import assert from "node:assert/strict";
import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { runCli, startChild, type ChildServer } from "../../support/child.ts";
import { makeKsefCertificate } from "../../support/ksef_certificates.ts";
import { fixturePath } from "../../support/server.ts";
import { type ReceivedHook, webhookReceiver } from "../../support/webhook_receiver.ts";

/** The whole test; every wait below is for an event or a state, this bounds them all. */
const TEST_TIMEOUT_MS = 90_000;
/** Requests to the server while polling a state it has no event for (a sync run, the outbox depth). */
const STATE_POLL_MS = 50;
const NIP = "5265877635";
const DAY = 86_400_000;

/** One request the receiver got, on the path that names its endpoint. */

test("ksef.certificate_expiring reaches the endpoints subscribed to it or to *, signed, once for the 7-day threshold when 30 and 7 are crossed together, not again after a restart", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const data = mkdtempSync(join(tmpdir(), "whk-cert-"));
  const token = runCli(["token", "create", "--data", data, "--tenant", "acme", "--scopes", "documents:read,documents:write,webhooks:read,webhooks:write"]).stdout.trim();
  const rx = webhookReceiver();
  let child: ChildServer | null = null;
  const stop = async (): Promise<void> => {
    if (!child) return;
    child.child.kill("SIGTERM");
    await child.exited;
    child = null;
  };
  t.after(async () => {
    await stop();
    rx.server.closeAllConnections();
    rx.server.close();
    rmSync(data, { recursive: true, force: true });
  });
  await new Promise<void>((r) => rx.server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(rx.server.address() as { port: number }).port}`;
  const args = ["--data", data, "--demo", "off", "--webhook-allow-private", "on", "--rate-limit", "off"];
  const api = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${child!.url}${path}`, { ...init, headers: { "x-api-token": token, "content-type": "application/json", ...init.headers } });

  // First start, before the source has a certificate: the three endpoints, and a document that each endpoint's
  // pass reads past (so each has a saved position that the outbox depth counts from).
  child = await startChild(args);
  const secrets: Record<string, string> = {};
  for (const [path, events] of [["/ksef", ["ksef.certificate_expiring"]], ["/all", ["*"]], ["/docs", ["document.created"]]] as const) {
    const res = await api("/api/v1/webhooks", { method: "POST", body: JSON.stringify({ url: `${base}${path}`, events }) });
    assert.equal(res.status, 201);
    secrets[path] = ((await res.json()) as { secret: string }).secret;
  }
  mkdirSync(join(data, "inbox", "acme"), { recursive: true });
  writeFileSync(join(data, "inbox", "acme", "A.xml"), readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml")));
  const sync = await api("/api/v1/documents/sync", { method: "POST" });
  assert.equal(sync.status, 202);
  await rx.until((all) => all.some((r) => r.path === "/docs") && all.some((r) => r.path === "/all"));
  await drained(child);
  await stop();

  // Second start, with a certificate ending in 5 days: the 30- and 7-day thresholds are crossed at once, one event.
  const notAfter = new Date(Date.now() + 5 * DAY);
  const cert = makeKsefCertificate(data, "auth", { nip: NIP, key: "ec", notAfter });
  writeFileSync(join(data, "sources.json"), JSON.stringify({ acme: [{ name: "ksef", type: "ksef", environment: "test", nip: NIP, certificate: "auth.crt.pem", key: "auth.key.pem" }] }));
  const before = rx.all.length;
  child = await startChild(args);
  // The notices are in the feed before "listening" (the check runs first), so the depth counts them until delivered.
  await drained(child);
  const fired = rx.all.slice(before);
  for (const path of ["/ksef", "/all"]) {
    const got = fired.filter((r) => r.path === path);
    assert.equal(got.length, 1, `${path}: ${JSON.stringify(got.map((r) => r.body))}`);
    for (const r of got) {
      assert.ok(validSignature(secrets[path]!, r), `${path}: a valid Standard Webhooks signature`);
      const body = JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, unknown> };
      assert.equal(body.type, "ksef.certificate_expiring");
      assert.match(body.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.match(r.headers["webhook-id"] as string, /^evt_[0-9A-Z]{26}$/);
      assert.deepEqual(Object.keys(body.data).sort(), ["days_left", "not_after", "serial", "source", "subject", "threshold_days", "type"]);
      assert.deepEqual([body.data.source, body.data.type, body.data.serial, body.data.days_left, body.data.threshold_days], ["ksef", "authentication", cert.serial, 4, 7]);
      assert.equal(Date.parse(body.data.not_after as string), Math.floor(notAfter.getTime() / 1000) * 1000);
      assert.match(body.data.subject as string, /organizationIdentifier=VATPL-5265877635/);
    }
  }
  assert.deepEqual(fired.filter((r) => r.path === "/docs"), [], "an endpoint subscribed to document.created only gets none");
  await stop();

  // Third start: the thresholds were sent; nothing new is appended, so the drained outbox stays empty.
  const sent = rx.all.length;
  child = await startChild(args);
  await drained(child);
  assert.deepEqual(rx.all.slice(sent).map((r) => [r.path, r.body]), [], "no event again after a restart");
});

/** Waits until the outbox is empty (webhook_outbox_depth 0): every endpoint has read past every feed entry. */
async function drained(server: ChildServer): Promise<void> {
  for (;;) {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    if (/^webhook_outbox_depth 0$/m.test(text)) return;
    await new Promise((r) => setTimeout(r, STATE_POLL_MS));
  }
}

/** Standard Webhooks: base64 HMAC-SHA256 of "{id}.{timestamp}.{body}" with the secret's decoded bytes, as "v1,<sig>". */
function validSignature(secret: string, r: ReceivedHook): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const id = r.headers["webhook-id"] as string, ts = r.headers["webhook-timestamp"] as string;
  const expected = Buffer.from(createHmac("sha256", key).update(`${id}.${ts}.${r.body}`).digest("base64"));
  return (r.headers["webhook-signature"] as string).split(" ").some((s) => {
    const given = Buffer.from(s.replace(/^v1,/, ""));
    return s.startsWith("v1,") && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

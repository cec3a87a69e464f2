import assert from "node:assert/strict";
import { test } from "node:test";
import { parseKsefSourceConfig } from "../../../../storage/ksef/connection/config.ts";
import { sendingConfigs } from "../../../../storage/ksef/send/send_config.ts";

const entry = (name: string, extra: Record<string, unknown> = {}) => ({
  name, type: "ksef", environment: "test", nip: "5260250274", token: "20251010-EC-0000000000-0000000000-00|nip-5260250274|0000", ...extra,
});

test("`send` is a boolean, false by default", () => {
  assert.equal(parseKsefSourceConfig(entry("ksef"), "acme[0]").send, false);
  assert.equal(parseKsefSourceConfig(entry("ksef", { send: true }), "acme[0]").send, true);
  assert.throws(() => parseKsefSourceConfig(entry("ksef", { send: "yes" }), "acme[0]"), /"send" must be true or false/);
});

// As readSourcesFile hands the entries on: each checked by its type's parser.
const parsed = (e: Record<string, unknown>) => ({ type: "ksef", config: parseKsefSourceConfig(e, "x[0]") });

test("the sending tenants, and a tenant with two sending ksef entries refused by name", () => {
  const one = sendingConfigs({ acme: [parsed(entry("ksef", { send: true })), parsed(entry("other"))], beta: [parsed(entry("ksef"))], gamma: [{ type: "http", config: { name: "erp" } }] }, "/data");
  assert.deepEqual(one.map((c) => [c.tenant, c.nip]), [["acme", "5260250274"]]);
  assert.throws(() => sendingConfigs({ acme: [parsed(entry("ksef", { send: true })), parsed(entry("other", { send: true }))] }, "/data"), /acme: "ksef" and "other" both have "send": true/);
});

test("the server refuses to start with two sending ksef entries for one tenant", async () => {
  const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { runCli } = await import("../../../support/child.ts");
  const data = mkdtempSync(join(tmpdir(), "ksef-send-config-"));
  try {
    writeFileSync(join(data, "sources.json"), JSON.stringify({ acme: [entry("ksef", { send: true }), entry("other", { send: true })] }));
    const r = runCli(["serve", "--data", data, "--port", "0"]);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /both have "send": true/);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});

test("`send_mode` is auto, online or batch, auto by default, and reaches the sending configuration", () => {
  assert.equal(parseKsefSourceConfig(entry("ksef"), "acme[0]").sendMode, "auto");
  for (const mode of ["auto", "online", "batch"]) assert.equal(parseKsefSourceConfig(entry("ksef", { send_mode: mode }), "acme[0]").sendMode, mode);
  assert.throws(() => parseKsefSourceConfig(entry("ksef", { send_mode: "bulk" }), "acme[0]"), /"send_mode" must be "auto", "online", "batch"/);
  assert.deepEqual(sendingConfigs({ acme: [parsed(entry("ksef", { send: true, send_mode: "batch" }))] }, "/data").map((c) => c.sendMode), ["batch"]);
});

test("the offline fields: paths relative to sources.json's directory, both files or neither, a duration", () => {
  const c = sendingConfigs({ acme: [parsed(entry("ksef", { send: true, offline_certificate: "certs/off.crt.pem", offline_key: "/keys/off.key.pem", offline_when_unavailable: "10m" }))] }, "/data");
  assert.deepEqual(c[0]!.offline, { certificateFile: "/data/certs/off.crt.pem", keyFile: "/keys/off.key.pem" });
  assert.equal(c[0]!.offlineWhenUnavailableMs, 600_000);
  assert.throws(() => parseKsefSourceConfig(entry("ksef", { send: true, offline_certificate: "a.pem" }), "acme[0]"), /"offline_certificate" and "offline_key" go together/);
  assert.throws(() => parseKsefSourceConfig(entry("ksef", { send: true, offline_certificate: 7, offline_key: "k.pem" }), "acme[0]"), /"offline_certificate" must be the path/);
  assert.throws(() => parseKsefSourceConfig(entry("ksef", { send: true, offline_certificate: "a.pem", offline_key: "k.pem", offline_when_unavailable: "soon" }), "acme[0]"), /"offline_when_unavailable" must be a duration/);
  assert.throws(() => parseKsefSourceConfig(entry("ksef", { send: true, offline_when_unavailable: "5m" }), "acme[0]"), /"offline_when_unavailable" needs "offline_certificate"/);
  assert.throws(() => parseKsefSourceConfig(entry("ksef", { offline_certificate: "a.pem", offline_key: "k.pem" }), "acme[0]"), /needs "send": true/);
});

test("the server refuses to start with an Offline certificate that cannot serve, naming the file but not the key", async () => {
  const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { runCli } = await import("../../../support/child.ts");
  const { makeOfflineCertificate } = await import("../../../support/offline_certificates.ts");
  const data = mkdtempSync(join(tmpdir(), "ksef-offline-config-"));
  try {
    makeOfflineCertificate(data, "one", { key: "p256" });
    makeOfflineCertificate(data, "two", { key: "p256" });
    // The key of another certificate: it cannot sign for this one.
    writeFileSync(join(data, "sources.json"), JSON.stringify({ acme: [entry("ksef", { send: true, offline_certificate: "one.crt.pem", offline_key: "two.key.pem" })] }));
    const r = runCli(["serve", "--data", data, "--port", "0"]);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /offline_key .*two\.key\.pem is not the private key of offline_certificate .*one\.crt\.pem/);
    assert.doesNotMatch(r.stderr, /PRIVATE KEY/);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});

test("after startup, a sending entry whose certificate ended keeps its tenant's last configuration; other tenants take effect", async () => {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { makeKsefCertificate } = await import("../../../support/ksef_certificates.ts");
  const dir = mkdtempSync(join(tmpdir(), "ksef-send-config-"));
  try {
    const DAY = 86_400_000;
    const ended = makeKsefCertificate(dir, "ended", { nip: "5260250274", notBefore: new Date(Date.now() - 3 * DAY), notAfter: new Date(Date.now() - DAY) });
    const { token: _token, ...noToken } = entry("ksef", { send: true });
    const all = {
      acme: [parsed({ ...noToken, certificate: ended.certificateFile, key: ended.keyFile })],
      beta: [parsed(entry("ksef", { send: true, send_mode: "online" }))],
    };
    assert.throws(() => sendingConfigs(all, dir), /ended\.crt\.pem expired on/, "at startup the file is refused");
    const previous = sendingConfigs({ acme: [parsed(entry("ksef", { send: true }))], beta: [parsed(entry("ksef", { send: true }))] }, dir);
    const heard: string[] = [];
    const now = sendingConfigs(all, dir, { previous, onEntryError: (e) => heard.push(e.message) });
    assert.equal(heard.length, 1);
    assert.match(heard[0]!, /^sources\.json acme: source "ksef": certificate .*ended\.crt\.pem expired on /);
    assert.deepEqual(now.map((c) => [c.tenant, c.sendMode]), [["acme", "auto"], ["beta", "online"]]);
    assert.equal(now[0], previous[0], "acme keeps its last configuration");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("after startup, a tenant whose Offline key no longer fits keeps its last configuration; another tenant's change takes effect", async () => {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { makeOfflineCertificate } = await import("../../../support/offline_certificates.ts");
  const { OfflineCertificates } = await import("../../../../storage/ksef/send/send_hook.ts");
  const dir = mkdtempSync(join(tmpdir(), "ksef-offline-reload-"));
  try {
    makeOfflineCertificate(dir, "a", { key: "p256" });
    makeOfflineCertificate(dir, "b", { key: "p256", serial: "02" });
    const offline = (cert: string, key: string) => ({ offline_certificate: cert, offline_key: key });
    const certificates = new OfflineCertificates();
    // As the server reads sources.json: the sending configurations, then their Offline certificates.
    const previous = certificates.load(sendingConfigs({
      acme: [parsed(entry("ksef", { send: true, ...offline("a.crt.pem", "a.key.pem") }))],
      beta: [parsed(entry("ksef", { send: true, ...offline("b.crt.pem", "b.key.pem") }))],
    }, dir));
    // Reloaded: acme's key is now another certificate's, and beta sends in batches.
    const all = {
      acme: [parsed(entry("ksef", { send: true, ...offline("a.crt.pem", "b.key.pem") }))],
      beta: [parsed(entry("ksef", { send: true, send_mode: "batch", ...offline("b.crt.pem", "b.key.pem") }))],
    };
    assert.throws(() => certificates.load(sendingConfigs(all, dir)), /b\.key\.pem is not the private key of offline_certificate .*a\.crt\.pem/, "at startup the file is refused");
    const heard: string[] = [];
    const tolerate = { previous, onEntryError: (e: RangeError) => heard.push(e.message) };
    const now = certificates.load(sendingConfigs(all, dir, tolerate), tolerate);
    assert.equal(heard.length, 1);
    assert.match(heard[0]!, /^sources\.json acme: offline_key .*b\.key\.pem is not the private key of offline_certificate .*a\.crt\.pem/);
    assert.doesNotMatch(heard[0]!, /PRIVATE KEY/);
    assert.deepEqual(now.map((c) => [c.tenant, c.sendMode]), [["acme", "auto"], ["beta", "batch"]]);
    assert.equal(now[0], previous[0], "acme keeps its last configuration");
    assert.equal(certificates.usable(now[0]!)?.serialNumber, certificates.usable(previous[0]!)?.serialNumber, "and its Offline certificate still signs KOD II");
    assert.notEqual(certificates.usable(now[0]!), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the server, after sources.json changes, keeps the last configuration of a tenant whose Offline key no longer fits, logs why, and applies another tenant's change", { timeout: 60_000 }, async (t) => {
  const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { runCli, startChild, waitForOutput } = await import("../../../support/child.ts");
  const { makeOfflineCertificate } = await import("../../../support/offline_certificates.ts");
  const { fa3, NIP, TOKEN } = await import("./send_setup.ts");
  const data = mkdtempSync(join(tmpdir(), "ksef-offline-reload-server-"));
  // Port 9 refuses here: the sender's attempts fail at once, and nothing leaves 127.0.0.1.
  const ksef = (extra: Record<string, unknown>) => entry("ksef", { environment: "http://127.0.0.1:9/v2", nip: NIP, token: TOKEN, send: true, ...extra });
  const write = (acmeKey: string, betaOffline: boolean) => writeFileSync(join(data, "sources.json"), JSON.stringify({
    acme: [ksef({ offline_certificate: "a.crt.pem", offline_key: acmeKey })],
    beta: [ksef(betaOffline ? { offline_certificate: "b.crt.pem", offline_key: "b.key.pem" } : {})],
  }));
  makeOfflineCertificate(data, "a", { key: "p256" });
  makeOfflineCertificate(data, "b", { key: "p256", serial: "02" });
  write("a.key.pem", true);
  const token = (tenant: string) => runCli(["token", "create", "--data", data, "--tenant", tenant, "--scopes", "submissions:read,submissions:write"]).stdout.trim();
  const tokens = { acme: token("acme"), beta: token("beta") };
  const server = await startChild(["--data", data, "--demo", "off", "--rate-limit", "off"]);
  t.after(async () => {
    server.child.kill("SIGTERM");
    await server.exited;
    rmSync(data, { recursive: true, force: true });
  });
  const offlineUpload = async (tenant: "acme" | "beta", number: string) => {
    const form = new FormData();
    form.append("xml", new Blob([new Uint8Array(fa3(number))], { type: "application/xml" }), "invoice.xml");
    form.append("ksef_mode", "offline");
    const res = await fetch(`${server.url}/api/v1/submissions`, { method: "POST", headers: { "x-api-token": tokens[tenant] }, body: form });
    return { status: res.status, body: (await res.json()) as { ksef?: { mode: string }; error?: { details?: { issue?: string } } } };
  };
  assert.deepEqual((await offlineUpload("acme", "A/1")).status, 201);
  assert.deepEqual((await offlineUpload("beta", "B/1")).status, 201);

  // acme's key is now another certificate's; beta no longer has an Offline certificate.
  write("b.key.pem", false);
  const beta = await offlineUpload("beta", "B/2");
  assert.equal(beta.status, 422, "beta's new configuration is in force");
  assert.equal(beta.body.error?.details?.issue, "offline_certificate_missing");
  const acme = await offlineUpload("acme", "A/2");
  assert.equal(acme.status, 201, "acme keeps its last good configuration and still issues offline");
  assert.equal(acme.body.ksef?.mode, "offline");
  const [line] = await waitForOutput(server, /\{[^\n]*"msg":"sources\.json: a source cannot be used"[^\n]*\n/);
  const logged = JSON.parse(line!) as { level: string; error: string };
  assert.equal(logged.level, "error");
  assert.match(logged.error, /^sources\.json acme: offline_key .*b\.key\.pem is not the private key of offline_certificate .*a\.crt\.pem/);
});

/**
 * A KSeF certificate's end said before it bites (README "KSeF certificates from the command line"): at 30, 7 and 1
 * days, once per certificate and threshold, one notice for the nearest when several are crossed at once, restarts
 * included (the state file in the data directory). Through the
 * watch with an injected clock, and through the real server: its log, /readyz and the /metrics gauge.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import type { Logger } from "../../../../lib/observe/log.ts";
import { CertificateExpiryWatch, watchedCertificates } from "../../../../storage/ksef/certificates/expiry_watch.ts";
import { startChild } from "../../../support/child.ts";
import { makeKsefCertificate } from "../../../support/ksef_certificates.ts";

const NIP = "5265877635";
const DAY = 86_400_000;
const dir = mkdtempSync(join(tmpdir(), "ksef-expiry-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function dataWith(name: string, notAfter: Date): { data: string; serial: string } {
  const data = join(dir, name);
  const c = makeKsefCertificate(data, "auth", { nip: NIP, key: "ec", notAfter });
  writeFileSync(join(data, "sources.json"), JSON.stringify({ acme: [{ name: "ksef", type: "ksef", environment: "test", nip: NIP, certificate: "auth.crt.pem", key: "auth.key.pem" }] }));
  return { data, serial: c.serial };
}

function recordingLogger(): { logger: Logger; warnings: Record<string, unknown>[] } {
  const warnings: Record<string, unknown>[] = [];
  const none = () => {};
  return { warnings, logger: { debug: none, info: none, error: none, warn: (msg, f) => void (msg === "ksef.certificate_expiring" && warnings.push(f ?? {})), enabled: () => true } };
}

test("a certificate ending in 5 days fires one 7-day notice, once across a restart, and never the 30-day one; the 1-day one only when its day comes", async () => {
  const start = Date.now();
  const { data, serial } = dataWith("watch", new Date(start + 5 * DAY));
  const { readSourcesFile } = await import("../../../../storage/sources/sources_file.ts");
  const { SOURCE_TYPES } = await import("../../../../storage/registry.ts");
  let now = start;
  const make = (log: Logger) => new CertificateExpiryWatch({ dataDir: data, logger: log, now: () => now, certificates: () => watchedCertificates(readSourcesFile(data, SOURCE_TYPES), data, now) });
  const first = recordingLogger();
  const watch = make(first.logger);
  assert.deepEqual((await watch.check()).map((n) => n.threshold), [7]);
  assert.deepEqual(await watch.check(), [], "not again in the same process");
  assert.equal(first.warnings.length, 1);
  const n = first.warnings[0]!;
  assert.deepEqual({ ...n, not_after: undefined }, { tenant: "acme", threshold_days: 7, source: "ksef", type: "authentication", serial, subject: n.subject, not_after: undefined, days_left: 4 });
  assert.match(n.subject as string, /organizationIdentifier=VATPL-5265877635/);
  assert.match(watch.warnings()[0]!, /^acme: the KSeF authentication certificate [0-9A-F]+ of source "ksef" \(which signs in\) ends on .* in 4 days: enroll a new one with `ksef certificates enroll --tenant acme --source ksef --type authentication`$/);
  assert.deepEqual(watch.gauges(), [{ labels: { tenant: "acme", source: "ksef", type: "authentication" }, value: 4 }]);

  const restarted = recordingLogger();
  now = start + 3 * DAY; // 2 days left: nothing new, and the 30-day threshold was settled with the 7-day one
  assert.deepEqual(await make(restarted.logger).check(), []);
  now = start + 4.5 * DAY; // half a day left: the 1-day notice, once
  assert.deepEqual((await make(restarted.logger).check()).map((x) => [x.threshold, x.payload.days_left]), [[1, 0]]);
  assert.deepEqual(await make(restarted.logger).check(), []);
  assert.equal(restarted.warnings.length, 1);
});

test("a notice is recorded as sent only once notify() has taken it: a failing notify leaves it due, a later check sends it", async () => {
  const start = Date.now();
  const { data } = dataWith("notify", new Date(start + 40 * DAY));
  const { readSourcesFile } = await import("../../../../storage/sources/sources_file.ts");
  const { SOURCE_TYPES } = await import("../../../../storage/registry.ts");
  const told: [number, number][] = [];
  let failAt: number | null = 7;
  let now = start + 15 * DAY; // 25 days left: the 30-day notice
  const watch = new CertificateExpiryWatch({
    dataDir: data, logger: recordingLogger().logger, now: () => now,
    certificates: () => watchedCertificates(readSourcesFile(data, SOURCE_TYPES), data, now),
    // Stands for the server's append to the notices feed; the state file is written only after it resolves.
    notify: async (n, at) => {
      if (n.threshold === failAt) throw new Error("storage down");
      told.push([n.threshold, at]);
    },
  });
  assert.deepEqual((await watch.check()).map((n) => n.threshold), [30]);
  now = start + 35 * DAY; // 5 days left: the 7-day notice, whose notify fails
  await assert.rejects(watch.check(), /storage down/);
  assert.deepEqual(told, [[30, start + 15 * DAY]]);
  failAt = null;
  assert.deepEqual((await watch.check()).map((n) => n.threshold), [7], "the 7-day notice stayed due");
  assert.deepEqual(told, [[30, start + 15 * DAY], [7, start + 35 * DAY]]);
  assert.deepEqual(await watch.check(), []);
});

test("a certificate far from its end fires nothing and warns of nothing", async () => {
  const { data } = dataWith("far", new Date(Date.now() + 90 * DAY));
  const log = recordingLogger();
  const watch = new CertificateExpiryWatch({ dataDir: data, logger: log.logger, certificates: () => watchedCertificates({ acme: [{ type: "ksef", config: { name: "ksef", credentials: { kind: "certificate", certificateFile: "auth.crt.pem", keyFile: "auth.key.pem", subjectIdentifier: "certificate_subject" } } as never }] }, data, Date.now()) });
  assert.deepEqual(await watch.check(), []);
  assert.deepEqual(watch.warnings(), []);
  assert.equal(watch.gauges()[0]!.value, 89);
});

test("the server says a certificate's end in its log, on /readyz and in the days-left gauge; a restart does not repeat the notices", async () => {
  const { data, serial } = dataWith("server", new Date(Date.now() + 5 * DAY));
  const notices = (out: string) => out.split("\n").filter((l) => l.includes('"msg":"ksef.certificate_expiring"')).map((l) => JSON.parse(l) as Record<string, unknown>);
  let server = await startChild(["--data", data, "--demo", "off"]);
  try {
    const ready = (await (await fetch(`${server.url}/readyz`)).json()) as { warnings?: string[] };
    assert.ok(ready.warnings?.some((w) => w.includes(`certificate ${serial} of source "ksef"`) && w.includes("in 4 days")), JSON.stringify(ready));
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    assert.match(metrics, /^ksef_certificate_days_left\{tenant="acme",source="ksef",type="authentication"\} 4$/m);
    const fired = notices(server.stdout());
    assert.deepEqual(fired.map((f) => [f.level, f.threshold_days, f.serial, f.days_left]), [["warn", 7, serial, 4]]);
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
  }
  server = await startChild(["--data", data, "--demo", "off"]);
  try {
    // The check runs before "listening" is logged, so the output up to it holds every notice of this start.
    assert.deepEqual(notices(server.stdout()), []);
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
  }
});

/**
 * The end of KSeF tokens said before it bites (README "KSeF"): a server with a ksef source on a token warns at
 * startup and on /readyz that KSeF takes tokens until 31 December 2026 and what to use instead; after that date (the
 * source's clock) a token's refusal says that tokens ended and how to move to a certificate. The token never shows.
 */
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { signInWarnings } from "../../../../storage/ksef/connection/sign_in_choice.ts";
import { KSEF_TOKENS_END_MS } from "../../../../storage/ksef/connection/token_signin.ts";
import { SOURCE_TYPES } from "../../../../storage/registry.ts";
import { readSourcesFile } from "../../../../storage/sources/sources_file.ts";
import { startChild } from "../../../support/child.ts";
import { makeKsefCertificate } from "../../../support/ksef_certificates.ts";
import { startServer } from "../../../support/server.ts";
import { NIP, setup, TOKEN } from "../receive/ksef_setup.ts";

const SECRET = TOKEN.split("|")[2]!;

function dataWithTokenSource(): string {
  const dir = mkdtempSync(join(tmpdir(), "ksef-token-end-"));
  writeFileSync(join(dir, "sources.json"), JSON.stringify({ acme: [{ name: "ksef", type: "ksef", environment: "test", nip: NIP, token: TOKEN }] }));
  return dir;
}

test("a server with a ksef source on a token warns at startup and on /readyz that tokens end on 31 December 2026", async () => {
  const data = dataWithTokenSource();
  const server = await startChild(["--data", data, "--demo", "off"]);
  try {
    const line = server.stdout().split("\n").find((l) => l.includes("31 December 2026"));
    assert.ok(line, server.stdout());
    const logged = JSON.parse(line) as { level: string; warning: string };
    assert.equal(logged.level, "warn");
    assert.match(logged.warning, /^acme: KSeF source "ksef" signs in with a KSeF token, which KSeF takes only until 31 December 2026: sign in with a certificate instead: put "certificate" and "key" \(or "pkcs12"\)/);
    const ready = (await (await fetch(`${server.url}/readyz`)).json()) as { status: string; warnings?: string[] };
    assert.equal(ready.status, "ready");
    assert.deepEqual(ready.warnings, [logged.warning]);
    assert.ok(!server.stdout().includes(SECRET), "the token is not logged");
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
    rmSync(data, { recursive: true, force: true });
  }
});

test("a server whose ksef sources sign in with certificates has no token warning on /readyz", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ksef-token-end-cert-"));
  const cert = makeKsefCertificate(dir, "seal", { nip: NIP });
  const entry = { type: "ksef", config: { name: "ksef", credentials: { kind: "certificate", certificateFile: cert.certificateFile, keyFile: cert.keyFile, subjectIdentifier: "certificate_subject" } } as never };
  // The files are read (a certificate a year long, its key file 600): no warning of any kind, none swallowed.
  assert.deepEqual(signInWarnings({ acme: [entry] }, dir, Date.now()), []);
  const server = await startServer({ warnings: () => signInWarnings({ acme: [entry] }, dir, Date.now()) });
  try {
    const ready = (await (await fetch(`${server.url}/readyz`)).json()) as { status: string; warnings?: string[] };
    assert.deepEqual(ready, { status: "ready", warning_count: 0 });
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("signInWarnings() says a certificate's key file that others can read, and lets errors other than a file's through", () => {
  const dir = mkdtempSync(join(tmpdir(), "ksef-token-end-cert-"));
  try {
    const cert = makeKsefCertificate(dir, "seal", { nip: NIP });
    chmodSync(cert.keyFile, 0o644);
    const entry = (credentials: unknown) => ({ type: "ksef", config: { name: "ksef", credentials } as never });
    assert.deepEqual(signInWarnings({ acme: [entry({ kind: "certificate", certificateFile: cert.certificateFile, keyFile: cert.keyFile, subjectIdentifier: "certificate_subject" })] }, dir, Date.now()),
      [`acme: KSeF source "ksef": key ${cert.keyFile} can be read by other users of this machine: chmod 600 it`]);
    // A file that cannot be read is the source's failure to report; a malformed entry is a bug, not a quiet [].
    assert.deepEqual(signInWarnings({ acme: [entry({ kind: "certificate", certificateFile: join(dir, "none.pem"), keyFile: join(dir, "none.pem"), subjectIdentifier: "certificate_subject" })] }, dir, Date.now()), []);
    assert.throws(() => signInWarnings({ acme: [entry({ kind: "certificate", subjectIdentifier: "certificate_subject" })] }, dir, Date.now()), TypeError);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("after 31 December 2026, /readyz says KSeF no longer takes the source's token", async () => {
  const data = dataWithTokenSource();
  const after = KSEF_TOKENS_END_MS + 86_400_000;
  const server = await startServer({ warnings: () => signInWarnings(readSourcesFile(data, SOURCE_TYPES), data, after) });
  try {
    const ready = (await (await fetch(`${server.url}/readyz`)).json()) as { warnings: string[] };
    assert.equal(ready.warnings.length, 1);
    assert.match(ready.warnings[0]!, /no longer takes since 31 December 2026: sign in with a certificate instead/);
  } finally {
    await server.close();
    rmSync(data, { recursive: true, force: true });
  }
});

for (const c of [
  { what: "before the end, a refused token says only what KSeF said", now: Date.parse("2026-12-30T12:00:00Z"), ended: false },
  { what: "after 31 December 2026, a refused token says that tokens ended and how to move to a certificate", now: KSEF_TOKENS_END_MS + 1, ended: true },
]) {
  test(c.what, async () => {
    const s = await setup({}, { now: () => c.now, subjects: ["Subject1"], since: c.now - 86_400_000 });
    try {
      s.sim.failNextAuthentication(450);
      const run = await s.sync();
      const error = run.error as { code: string; message: string };
      assert.equal(error.code, "KSEF_TOKEN_REJECTED");
      if (c.ended) assert.match(error.message, /^KSeF no longer takes KSeF tokens \(they ended on 31 December 2026\): sign in with a certificate instead: put "certificate" and "key" \(or "pkcs12"\).* KSeF said: KSeF rejected the KSeF token \(450 /);
      else assert.match(error.message, /^KSeF rejected the KSeF token \(450 /);
      assert.ok(!JSON.stringify(run).includes(SECRET));
    } finally {
      await s.close();
    }
  });
}

for (const c of [
  { what: "after 31 December 2026, a 404 to the token sign-in says that tokens ended", fail: (s: Awaited<ReturnType<typeof setup>>) => {
    s.sim.beforeRequest = (_method, path) => {
      if (path.endsWith("/auth/ksef-token")) s.sim.failNext(1, 404);
    };
  }, said: /KSeF said: KSeF answered HTTP 404 to POST \/auth\/ksef-token/, code: "KSEF_TOKEN_REJECTED" },
  { what: "after 31 December 2026, an authentication ended with 415 says that tokens ended", fail: (s: Awaited<ReturnType<typeof setup>>) => s.sim.failNextAuthentication(415), said: /KSeF said: The KSeF token has no permissions in the context of NIP \d+ \(415 /, code: "KSEF_TOKEN_REJECTED" },
  { what: "after 31 December 2026, a 5xx stays KSEF_UNAVAILABLE and still says that tokens ended", fail: (s: Awaited<ReturnType<typeof setup>>) => s.sim.failNextAuthentication(500), said: /KSeF said: KSeF could not finish the authentication \(500 /, code: "KSEF_UNAVAILABLE" },
]) {
  test(c.what, async () => {
    const now = KSEF_TOKENS_END_MS + 1;
    const s = await setup({}, { now: () => now, subjects: ["Subject1"], since: now - 86_400_000 });
    try {
      c.fail(s);
      const run = await s.sync();
      const error = run.error as { code: string; message: string };
      assert.equal(error.code, c.code);
      assert.match(error.message, /^KSeF no longer takes KSeF tokens \(they ended on 31 December 2026\): sign in with a certificate instead/);
      assert.match(error.message, c.said);
      assert.ok(!JSON.stringify(run).includes(SECRET));
      // A 404 is not in open-api.json: it stands for whatever KSeF answers once the token sign-in is gone.
      if (c.code === "KSEF_TOKEN_REJECTED" && c.said.source.includes("404")) assert.match(s.sim.takeViolations().join("\n"), /404/);
    } finally {
      await s.close();
    }
  });
}

/**
 * CPU time of the document KSeF's sign-in sends: building an AuthTokenRequest (lib/ksef/auth_token_request.ts)
 * and signing it in XAdES-BES (lib/formats/xades/sign_enveloped.ts), with RSA-2048 and ECDSA P-256 keys, against
 * a same-run baseline: one bare `crypto.sign` of the same request's bytes with the same key. The difference is
 * what the XML costs (three parses, four canonicalisations, three digests, the certificate's issuer); the row
 * "no-op signer" shows it alone. Keys and certificates come from `openssl`, as in the tests.
 * Run: npx tsx bench/ksef_signin.bench.ts [--quick]
 */
import { createPrivateKey, sign } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { signEnveloped } from "../lib/formats/xades/sign_enveloped.ts";
import type { Signer } from "../lib/formats/xades/signer.ts";
import { authTokenRequestXml } from "../lib/ksef/auth_token_request.ts";
import { makeSigningCertificate, PERSON_SUBJECT, SEAL_SUBJECT } from "../test/support/xades_tools.ts";

const quick = process.argv.includes("--quick");
const budgetMs = quick ? 300 : 2000;
const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
console.log(`KSeF sign-in document (AuthTokenRequest + XAdES-BES), ${deno !== undefined ? `Deno ${deno.version.deno}` : `Node ${process.version}`}, CPU time${quick ? ", quick" : ""}`);

const _cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Best CPU microseconds per call of an async `run` over three rounds, after a warm-up. */
async function _bestMicros(run: () => Promise<unknown> | unknown): Promise<number> {
  for (let i = 0; i < 20; i++) await run();
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    let n = 0;
    const start = performance.now();
    const from = _cpuMs();
    while (performance.now() - start < budgetMs / 3 || n < 5) {
      await run();
      n++;
    }
    best = Math.min(best, ((_cpuMs() - from) * 1000) / n);
  }
  return best;
}

const input = { challenge: "20250625-CR-20F5EE4000-DA48AE4124-46", context: { type: "Nip", value: "5265877635" }, subjectIdentifierType: "certificateSubject" } as const;
const signingTime = new Date("2026-11-29T03:00:00Z");
const dir = mkdtempSync(join(tmpdir(), "ksef-signin-bench-"));
try {
  const rows = [["key", "crypto.sign (baseline)", "build + sign", "ratio", "XML overhead", "no-op signer", "signed size"]];
  for (const [kind, key, subject] of [["rsa", "rsa2048", PERSON_SUBJECT], ["ec", "p256", SEAL_SUBJECT]] as const) {
    const cert = makeSigningCertificate(dir, kind, { key, subject });
    const privateKey = createPrivateKey(readFileSync(cert.keyFile));
    const options = kind === "ec" ? { key: privateKey, dsaEncoding: "ieee-p1363" as const } : privateKey;
    const signer: Signer = { certificate: cert.der, keyType: kind, sign: (data) => Promise.resolve(new Uint8Array(sign("sha256", data, options))) };
    const request = authTokenRequestXml(input);
    const bare = await _bestMicros(() => sign("sha256", request, options));
    const ours = await _bestMicros(() => signEnveloped(authTokenRequestXml(input), signer, { signingTime }));
    const fixed = new Uint8Array(kind === "ec" ? 64 : 256);
    const noop: Signer = { certificate: cert.der, keyType: kind, sign: () => Promise.resolve(fixed) };
    const xmlOnly = await _bestMicros(() => signEnveloped(authTokenRequestXml(input), noop, { signingTime }));
    const size = (await signEnveloped(request, noop, { signingTime })).length;
    rows.push([
      kind === "rsa" ? "RSA-2048" : "P-256",
      `${bare.toFixed(0)} µs`,
      `${ours.toFixed(0)} µs`,
      `${(ours / bare).toFixed(2)}x`,
      `${(ours - bare).toFixed(0)} µs`,
      `${xmlOnly.toFixed(0)} µs`,
      `${size} B`,
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i]!)).join("  "));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

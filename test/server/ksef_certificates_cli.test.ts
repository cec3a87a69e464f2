/**
 * `server.ts ksef certificates …` (README "KSeF certificates from the command line") as a child process against the
 * KSeF simulator: signed in with the company's (test) seal, it enrolls an Authentication and an Offline
 * certificate whose files are then used by a real server: the new Authentication certificate signs in and a sync
 * succeeds; revoked, its next sign-in fails with KSEF_CERTIFICATE_REJECTED. limits, list, show, the token's
 * one line, usage errors; key files of mode 600 and no key in any output.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash, createPrivateKey, X509Certificate } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { verifyKsefCertificateLink } from "../../lib/formats/pdf/ksef_certificate_link.ts";
import { childEnv, runCli, serverCommand, startChild } from "../support/child.ts";
import { curl } from "../support/curl.ts";
import { pdfQrCodes } from "../support/pdf_text.ts";
import { fixturePath } from "../support/server.ts";
import { makeKsefCertificate, type KsefTestCertificate } from "../support/ksef_certificates.ts";
import { startKsefSimulator, type KsefSimulator } from "../support/ksef_simulator.ts";

const NIP = "5451824119"; // the seller of the FA(3) sample, so that its offline upload is the source's own invoice
const TOKEN = `20251010-EC-0000000000-0000000000-00|nip-${NIP}|${"7".repeat(64)}`;

let sim: KsefSimulator;
let dir: string;
let seal: KsefTestCertificate;
const outputs: string[] = []; // every stdout and stderr of the commands, searched for keys at the end

before(async () => {
  sim = await startKsefSimulator({ tokens: [{ token: TOKEN, nip: NIP, permissions: ["InvoiceRead"] }], certificates: [{ nip: NIP, permissions: ["InvoiceRead"] }] });
  dir = mkdtempSync(join(tmpdir(), "ksef-certs-cli-"));
  seal = makeKsefCertificate(join(dir, "seal"), "seal", { nip: NIP, key: "ec" });
});
after(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A data directory whose tenant acme has one ksef source signing in with `signIn`'s fields. */
function dataDir(name: string, signIn: Record<string, string>): string {
  const data = join(dir, name);
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, "sources.json"), JSON.stringify({ acme: [{ name: "ksef", type: "ksef", environment: sim.url, nip: NIP, subjects: ["Subject1"], ...signIn }] }));
  return data;
}

/** Runs the command to its end without blocking this process (the simulator answers it from here). */
function cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const [cmd, ...pre] = serverCommand();
  const child = spawn(cmd!, [...pre, ...args], { env: childEnv(), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((done) => child.on("close", (status) => {
    outputs.push(stdout, stderr);
    done({ status, stdout, stderr });
  }));
}

let auth: { crt: string; key: string; serial: string };
let offline: { crt: string; key: string; serial: string };

test("ksef certificates --help prints the usage of every subcommand; a usage error is one line and exit 2", () => {
  const help = runCli(["ksef", "certificates", "--help"]);
  assert.equal(help.status, 0);
  for (const sub of ["limits", "enroll", "list", "revoke SERIAL", "show FILE", "--type authentication|offline", "--key rsa|ec", "--out DIR"]) assert.ok(help.stdout.includes(sub), sub);
  const noType = runCli(["ksef", "certificates", "enroll", "--tenant", "acme"]);
  assert.equal(noType.status, 2);
  assert.match(noType.stderr, /^ksef certificates enroll needs --type authentication or --type offline\n/);
  const badSerial = runCli(["ksef", "certificates", "revoke", "XYZ", "--tenant", "acme"]);
  assert.equal(badSerial.status, 2);
  assert.match(badSerial.stderr, /^A KSeF certificate serial is 16 hexadecimal digits/);
});

test("limits: signed in with the seal, KSeF's certificate and request limits", async () => {
  const data = dataDir("limits", { certificate: seal.certificateFile, key: seal.keyFile });
  const r = await cli(["ksef", "certificates", "limits", "--tenant", "acme", "--data", data]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "can request: yes\ncertificates: 100 of 100 left\nrequests: 300 of 300 left\n");
});

test("enroll --type authentication and --type offline write a certificate KSeF issued for the key made here, key files of mode 600", async () => {
  const data = dataDir("enroll", { certificate: seal.certificateFile, key: seal.keyFile });
  const out = join(dir, "issued"); // made by enroll
  for (const [type, name, key] of [["authentication", "acme auth", "ec"], ["offline", "acme-offline", "rsa"]] as const) {
    const r = await cli(["ksef", "certificates", "enroll", "--tenant", "acme", "--type", type, "--name", name, "--key", key, "--out", out, "--data", data]);
    assert.equal(r.status, 0, r.stderr);
    const crt = join(out, `${name}.crt.pem`);
    const keyFile = join(out, `${name}.key.pem`);
    assert.ok(r.stdout.includes(`certificate: ${crt}\n`), r.stdout);
    assert.ok(r.stdout.includes(`key: ${keyFile} (mode 600)\n`), r.stdout);
    const fields = type === "authentication" ? `"certificate":"${crt}", "key":"${keyFile}"` : `"offline_certificate":"${crt}", "offline_key":"${keyFile}"`;
    assert.ok(r.stdout.endsWith(`${fields}\n`), r.stdout);
    for (const f of [crt, keyFile]) assert.equal(statSync(f).mode & 0o777, 0o600, f);
    const x = new X509Certificate(readFileSync(crt));
    const issued = sim.certificates.issued.find((c) => c.serial === x.serialNumber.toUpperCase());
    assert.ok(issued, "issued by the simulator");
    assert.equal(issued.type, type === "authentication" ? "Authentication" : "Offline");
    assert.equal(issued.name, name);
    assert.ok(x.checkPrivateKey(createPrivateKey(readFileSync(keyFile))), "the certificate is for the key written");
    assert.equal(x.publicKey.asymmetricKeyType, key);
    // Exactly the enrollment data's subject: the seal's.
    assert.deepEqual(x.subject.split("\n").sort(), new X509Certificate(readFileSync(seal.certificateFile)).subject.split("\n").sort());
    const v = { crt, key: keyFile, serial: issued.serial };
    if (type === "authentication") auth = v;
    else offline = v;
  }
});

test("show prints subject, serial, validity, type, SHA-256 fingerprint and days left, with no network", () => {
  const r = runCli(["ksef", "certificates", "show", offline.crt]);
  assert.equal(r.status, 0, r.stderr);
  const x = new X509Certificate(readFileSync(offline.crt));
  const lines = Object.fromEntries(r.stdout.trim().split("\n").map((l) => [l.slice(0, l.indexOf(": ")), l.slice(l.indexOf(": ") + 2)]));
  assert.equal(lines.serial, offline.serial);
  assert.equal(lines.type, "Offline");
  assert.match(lines.subject!, new RegExp(`organizationIdentifier=VATPL-${NIP}`));
  assert.equal(lines["valid until"], new Date(x.validTo).toISOString());
  assert.equal(lines["sha-256 fingerprint"], createHash("sha256").update(x.raw).digest("hex").toUpperCase());
  assert.equal(Number(lines["days left"]), Math.floor((Date.parse(x.validTo) - Date.now()) / 86_400_000));
  const none = runCli(["ksef", "certificates", "show", join(dir, "nothing.pem")]);
  assert.equal(none.status, 1);
  assert.equal(none.stderr.trim().split("\n").length, 1);
});

test("list shows both certificates as Active", async () => {
  const data = dataDir("list", { certificate: seal.certificateFile, key: seal.keyFile });
  const r = await cli(["ksef", "certificates", "list", "--tenant", "acme", "--data", data]);
  assert.equal(r.status, 0, r.stderr);
  for (const [serial, type] of [[auth.serial, "Authentication"], [offline.serial, "Offline"]]) {
    assert.match(r.stdout, new RegExp(`^${serial}\\s+${type}\\s+Active\\s`, "m"));
  }
});

test("a server with the new Authentication certificate signs in and syncs; once revoked, its sync fails with KSEF_CERTIFICATE_REJECTED", async () => {
  const data = dataDir("serve", { certificate: auth.crt, key: auth.key });
  const made = runCli(["token", "create", "--tenant", "acme", "--scopes", "documents:read,documents:write", "--data", data]);
  assert.equal(made.status, 0, made.stderr);
  const h = { "x-api-token": made.stdout.trim(), "content-type": "application/json" };
  const server = await startChild(["--data", data, "--demo", "off"]);
  const sync = async (): Promise<Record<string, unknown>> => {
    const started = (await (await fetch(`${server.url}/api/v1/documents/sync`, { method: "POST", headers: h, body: JSON.stringify({ source: "ksef" }) })).json()) as { id: string };
    for (;;) {
      const run = (await (await fetch(`${server.url}/api/v1/documents/sync/${started.id}`, { headers: h })).json()) as Record<string, unknown>;
      if (run.status === "succeeded" || run.status === "failed") return run;
      await new Promise((r) => setTimeout(r, 50)); // polling the run; the outcome, not the time, is asserted
    }
  };
  try {
    const bodies = sim.xades.bodies.length;
    const ok = await sync();
    assert.equal(ok.status, "succeeded", JSON.stringify(ok));
    const signed = sim.xades.bodies.slice(bodies).map((b) => b.toString());
    const der = new X509Certificate(readFileSync(auth.crt)).raw.toString("base64");
    assert.ok(signed.some((b) => b.replace(/\s+/g, "").includes(der)), "signed in with the new certificate");

    const sealData = dataDir("revoke", { certificate: seal.certificateFile, key: seal.keyFile });
    const revoked = await cli(["ksef", "certificates", "revoke", auth.serial.toLowerCase(), "--tenant", "acme", "--data", sealData]);
    assert.equal(revoked.status, 0, revoked.stderr);
    assert.equal(revoked.stdout, `revoked ${auth.serial}\n`);
    const listed = await cli(["ksef", "certificates", "list", "--tenant", "acme", "--data", sealData]);
    assert.match(listed.stdout, new RegExp(`^${auth.serial}\\s+Authentication\\s+Revoked\\s`, "m"));

    sim.expireAccessTokens();
    sim.expireRefreshTokens();
    const failed = await sync();
    assert.equal(failed.status, "failed");
    assert.equal((failed.error as { code: string }).code, "KSEF_CERTIFICATE_REJECTED", JSON.stringify(failed));
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
  }
});

test("a server with the new Offline certificate signs KOD II of an offline invoice with it", async () => {
  // Sending goes to a closed port: the offline invoice's PDF is made at upload, while KSeF is away.
  const data = join(dir, "offline-serve");
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, "sources.json"), JSON.stringify({ acme: [{
    name: "ksef", type: "ksef", environment: "http://127.0.0.1:9/v2", nip: NIP, certificate: seal.certificateFile, key: seal.keyFile,
    send: true, offline_certificate: offline.crt, offline_key: offline.key,
  }] }));
  const made = runCli(["token", "create", "--tenant", "acme", "--scopes", "submissions:read,submissions:write", "--data", data]);
  assert.equal(made.status, 0, made.stderr);
  const token = made.stdout.trim();
  const today = new Date().toISOString().slice(0, 10);
  const xml = join(data, "offline.xml");
  writeFileSync(xml, readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_Przyklad_4_EUR.xml"), "utf8").replace(/<P_1>[^<]*<\/P_1>/, `<P_1>${today}</P_1>`).replace(/<P_2>[^<]*<\/P_2>/, "<P_2>CERT/OFF/1</P_2>"));
  const server = await startChild(["--data", data, "--demo", "off"]);
  try {
    const r = await curl(`${server.url}/api/v1/submissions`, token, ["-F", `xml=@${xml}`, "-F", "ksef_mode=offline"]);
    assert.equal(r.status, 201, r.body.toString());
    const id = (JSON.parse(r.body.toString()) as { id: string }).id;
    const pdf = new Uint8Array(await (await fetch(`${server.url}/api/v1/submissions/${id}/pdf`, { headers: { "x-api-token": token } })).arrayBuffer());
    const kod2 = pdfQrCodes(pdf).filter((c) => c.includes("/certificate/"));
    assert.equal(kod2.length, 1);
    assert.ok(kod2[0]!.includes(`/${offline.serial}/`), kod2[0]);
    const cert = new X509Certificate(readFileSync(offline.crt));
    assert.ok(verifyKsefCertificateLink(kod2[0]!, cert.publicKey), "KOD II verifies with the new Offline certificate's public key");
    assert.ok(!verifyKsefCertificateLink(kod2[0]!, new X509Certificate(readFileSync(auth.crt)).publicKey), "and not with another key");
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
  }
});

test("a source on a KSeF token: enroll, list and revoke say in one line that certificates need a certificate sign-in, and the two ways out", async () => {
  const data = dataDir("token", { token: TOKEN });
  for (const args of [["enroll", "--type", "offline"], ["list"], ["revoke", "0123456789ABCDEF"]]) {
    const r = await cli(["ksef", "certificates", ...args, "--tenant", "acme", "--data", data]);
    assert.equal(r.status, 1, args.join(" "));
    assert.equal(r.stdout, "");
    assert.equal(r.stderr.split("\n").length, 2, r.stderr); // one line and its newline
    assert.match(r.stderr, /^KSeF issues certificates only to a sign-in made with a certificate/);
    assert.match(r.stderr, /Ministry of Finance's web application/);
    assert.match(r.stderr, /qualified seal as the source's certificate\/key or pkcs12/);
    assert.ok(!r.stderr.includes(TOKEN.split("|")[2]!), "the token never shows");
  }
});

test("no private key appears in any output", () => {
  const keys = [seal.keyFile, auth.key, offline.key].map((f) => readFileSync(f, "utf8"));
  const all = outputs.join("\n");
  assert.ok(!all.includes("PRIVATE KEY"));
  for (const k of keys) {
    const body = k.split("\n").filter((l) => l && !l.startsWith("-----"));
    for (const line of body) assert.ok(!all.includes(line), "a line of a key was printed");
  }
});

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { DerError } from "../../../lib/formats/asn1/der.ts";
import { decodePem } from "../../../lib/formats/asn1/pem.ts";
import { formatName, parseCertificate } from "../../../lib/formats/x509/certificate.ts";

const dir = mkdtempSync(join(tmpdir(), "x509-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A self-signed certificate made by openssl with the given serial, validity and key usage. */
function make(name: string, o: { serial: string; usage?: string; days?: number; subj?: string; enddate?: string }): Uint8Array {
  const file = join(dir, `${name}.crt`);
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", join(dir, `${name}.key`), "-out", file,
    "-days", String(o.days ?? 5), "-utf8", "-subj", o.subj ?? "/CN=Test", "-set_serial", o.serial, ...(o.usage ? ["-addext", `keyUsage=critical,${o.usage}`] : [])], { stdio: "pipe" });
  return decodePem(readFileSync(file, "utf8"))[0]!.der;
}

test("parseCertificate() reads serial, names, validity, key and key usage as node:crypto and openssl do", () => {
  const cases = [
    { what: "an 8-byte serial, digitalSignature", serial: "0x01F20A5D352AE590", usage: "digitalSignature", hex: "01F20A5D352AE590", keyUsage: ["digitalSignature"] },
    { what: "a serial with its high bit set (a DER sign octet)", serial: "0xF20A5D352AE59001", usage: "nonRepudiation", hex: "F20A5D352AE59001", keyUsage: ["nonRepudiation"] },
    { what: "several bits across two octets", serial: "0x05", usage: "digitalSignature,keyCertSign,decipherOnly", hex: "05", keyUsage: ["digitalSignature", "keyCertSign", "decipherOnly"] },
    { what: "no key usage", serial: "0x06", hex: "06", keyUsage: null },
  ];
  for (const { what, serial, usage, hex, keyUsage } of cases) {
    const der = make(hex, { serial, ...(usage ? { usage } : {}) });
    const info = parseCertificate(der);
    const x509 = new X509Certificate(der);
    assert.equal(info.serialHex, hex, what);
    assert.equal(info.serialDecimal, BigInt(`0x${hex}`).toString(), what);
    assert.deepEqual(info.keyUsage, keyUsage, what);
    assert.equal(info.notBefore, Date.parse(x509.validFrom), what);
    assert.equal(info.notAfter, Date.parse(x509.validTo), what);
    assert.deepEqual(Buffer.from(info.spki), x509.publicKey.export({ type: "spki", format: "der" }), what);
  }
});

test("parseCertificate() gives a negative serial in decimal as openssl prints it", () => {
  const info = parseCertificate(make("negative", { serial: "-300" }));
  assert.equal(info.serialDecimal, "-300");
  assert.equal(info.serialHex, "FED4"); // the DER INTEGER's two's complement octets
});

test("parseCertificate() reads a validity past 2049 as GeneralizedTime and names with their attributes in order", () => {
  const der = make("long", { serial: "0x07", days: 40 * 365, subj: "/CN=Łukasz Żółć/GN=Łukasz/SN=Żółć/serialNumber=TINPL-5265877635/C=PL/organizationIdentifier=VATPL-5265877635" });
  const info = parseCertificate(der);
  assert.equal(info.notAfter, Date.parse(new X509Certificate(der).validTo));
  assert.ok(new Date(info.notAfter).getUTCFullYear() >= 2050);
  assert.equal(formatName(info.subject), "CN=Łukasz Żółć, GN=Łukasz, SN=Żółć, serialNumber=TINPL-5265877635, C=PL, organizationIdentifier=VATPL-5265877635");
  assert.deepEqual(info.subject.map((a) => a.oid), ["2.5.4.3", "2.5.4.42", "2.5.4.4", "2.5.4.5", "2.5.4.6", "2.5.4.97"]);
});

test("parseCertificate() refuses what is not a certificate with a DerError", () => {
  const der = make("cut", { serial: "0x08" });
  for (const input of [der.subarray(0, der.length - 1), new Uint8Array([0x30, 0x00]), decodePem(readFileSync(join(dir, "cut.key"), "utf8"))[0]!.der]) {
    assert.throws(() => parseCertificate(input), DerError);
  }
});

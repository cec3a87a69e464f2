/**
 * certificateIssuerSerial against `openssl x509`: the issuer's RDNs last to first (openssl's `dn_rev`), the
 * RFC 4514 §3 types by short name with openssl's RFC 2253 escaping (the same characters as RFC 4514 §2.4),
 * every other type as its OID and `#` with the hex of its DER (openssl's `oid,dump_all,dump_der`), and the
 * serial openssl prints in hex, in decimal.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { DerError } from "../../../lib/formats/asn1/der.ts";
import { certificateIssuerSerial } from "../../../lib/formats/xades/issuer_serial.ts";
import { makeSigningCertificate, PERSON_SUBJECT, SEAL_SUBJECT } from "../../support/xades_tools.ts";

const DIR = mkdtempSync(join(tmpdir(), "issuer-serial-test-"));
after(() => rmSync(DIR, { recursive: true, force: true }));

/** The RFC 4514 §3 attribute types, as openssl's `sname` spells them. */
const SHORT = new Set(["CN", "L", "ST", "O", "OU", "C", "street", "DC", "UID"]);

/** What the issuer name should be, from openssl's two one-RDN-per-line printings of it. */
function _expectedIssuer(certificateFile: string): string {
  const lines = (nameopt: string) =>
    execFileSync("openssl", ["x509", "-in", certificateFile, "-noout", "-issuer", "-nameopt", nameopt]).toString("utf8")
      .split("\n").slice(1).map((l) => l.trimStart()).filter((l) => l !== "");
  const named = lines("sep_multiline,dn_rev,esc_2253,esc_ctrl,utf8,sname");
  const dumped = lines("sep_multiline,dn_rev,oid,dump_all,dump_der");
  assert.equal(named.length, dumped.length);
  return named.map((line, i) => {
    const avas = line.split(" + ");
    const dumps = dumped[i]!.split(" + ");
    assert.equal(avas.length, dumps.length);
    return avas.map((ava, j) => {
      const type = ava.slice(0, ava.indexOf("="));
      if (SHORT.has(type)) return type === "street" ? `STREET${ava.slice(type.length)}` : ava;
      const dump = dumps[j]!;
      return dump.slice(0, dump.indexOf("=#") + 2) + dump.slice(dump.indexOf("=#") + 2).toLowerCase();
    }).sort().join("+");
  }).join(",");
}

function _expectedSerial(certificateFile: string): string {
  const hex = execFileSync("openssl", ["x509", "-in", certificateFile, "-noout", "-serial"]).toString().trim().replace(/^serial=/, "");
  return BigInt(`0x${hex}`).toString();
}

const CASES: { what: string; subject: string; serial?: string; multivalue?: boolean; issuerName?: string }[] = [
  {
    what: "a personal certificate of KSeF's guide (givenName, surname, serialNumber by OID)",
    subject: PERSON_SUBJECT,
    issuerName: "C=PL,CN=Jan Kowalski,2.5.4.5=#131054494e504c2d35323635383737363335,2.5.4.4=#0c084b6f77616c736b69,2.5.4.42=#0c034a616e",
  },
  { what: "a company seal (organizationIdentifier by OID)", subject: SEAL_SUBJECT },
  {
    what: "characters RFC 4514 escapes, non-ASCII text and a multi-valued RDN",
    subject: '/C=PL/O=#Łódź, "Sp" <x>; a\\\\b /CN=a+UID=x=y+serialNumber=TINPL-1 /street=ul. Długa 1/DC=example/L=Kraków/ST=małopolskie/OU=  lead',
    multivalue: true,
  },
  { what: "a serial with its high bit set (DER adds a zero byte)", subject: "/CN=x", serial: "0x80" },
  { what: "a 20-byte serial", subject: "/CN=x", serial: "0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF" },
];

describe("certificateIssuerSerial() agrees with openssl", () => {
  CASES.forEach(({ what, subject, serial, multivalue, issuerName }, i) => {
    test(what, () => {
      const cert = makeSigningCertificate(DIR, `c${i}`, { key: "p256", subject, ...(serial === undefined ? {} : { serial }), ...(multivalue ? { multivalue } : {}) });
      const got = certificateIssuerSerial(cert.der);
      // RFC 4514 §2.2 leaves the order of one RDN's values open (openssl's dn_rev reverses them): compare them sorted.
      const sorted = got.issuerName.split(/(?<!\\),/).map((rdn) => rdn.split(/(?<!\\)\+/).sort().join("+")).join(",");
      assert.equal(sorted, _expectedIssuer(cert.certificateFile));
      if (issuerName !== undefined) assert.equal(got.issuerName, issuerName);
      assert.equal(got.serialNumber, _expectedSerial(cert.certificateFile));
    });
  });
});

describe("certificateIssuerSerial()", () => {
  test("refuses bytes that are not a certificate", () => {
    assert.throws(() => certificateIssuerSerial(new Uint8Array([0x30, 0x03, 0x02, 0x01])), DerError);
    assert.throws(() => certificateIssuerSerial(new TextEncoder().encode("-----BEGIN CERTIFICATE-----")), DerError);
    const cert = makeSigningCertificate(DIR, "truncated", { key: "p256", subject: "/CN=x" });
    assert.throws(() => certificateIssuerSerial(cert.der.subarray(0, 40)), DerError);
  });
});

/**
 * signEnveloped's signatures checked by others than our code: `xmlsec1 --verify` (XML-DSig, both references
 * and the signature value) with RSA-2048 and P-256 certificates made by `openssl`; the document digest
 * against `xmllint --exc-c14n`; the certificate digest and serial against `openssl`. Tampering with the
 * document, the signed properties or the signature value must make xmlsec1 refuse it.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { signEnveloped, XADES_URIS } from "../../../lib/formats/xades/sign_enveloped.ts";
import type { Signer } from "../../../lib/formats/xades/signer.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import type { XmlElement } from "../../../lib/formats/xml/tree.ts";
import { authTokenRequestXml } from "../../../lib/ksef/auth_token_request.ts";
import { makeSigningCertificate, PERSON_SUBJECT, SEAL_SUBJECT, type TestCertificate, testSigner, xmlsecVerify } from "../../support/xades_tools.ts";

const CHALLENGE = "20250625-CR-20F5EE4000-DA48AE4124-46";
const TIME = new Date("2026-11-29T02:30:15.678Z");
const REQUEST = authTokenRequestXml({ challenge: CHALLENGE, context: { type: "Nip", value: "5265877635" }, subjectIdentifierType: "certificateSubject" });
const _utf8 = new TextEncoder();
const _text = (b: Uint8Array) => new TextDecoder().decode(b);

let dir = "";
let rsa: TestCertificate;
let ec: TestCertificate;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "xades-test-"));
  rsa = makeSigningCertificate(dir, "rsa", { key: "rsa2048", subject: PERSON_SUBJECT, serial: "0x00C0FFEE0123456789ABCDEF" });
  ec = makeSigningCertificate(dir, "ec", { key: "p256", subject: SEAL_SUBJECT });
});
after(() => rmSync(dir, { recursive: true, force: true }));

function _child(el: XmlElement, local: string): XmlElement {
  const c = el.children.find((x) => x.local === local);
  assert.ok(c, `no ${local} in ${el.local}`);
  return c;
}

function _path(el: XmlElement, ...locals: string[]): XmlElement {
  return locals.reduce(_child, el);
}

/** Replaces the first `from` in the bytes by `to` (same length or not); fails when `from` is absent. */
function _tamper(signed: Uint8Array, from: string, to: string): Uint8Array {
  const text = _text(signed);
  assert.ok(text.includes(from), `${from} not in the document`);
  return _utf8.encode(text.replace(from, to));
}

for (const kind of ["rsa", "ec"] as const) {
  describe(`signEnveloped() with ${kind === "rsa" ? "RSA-2048 (a personal certificate)" : "ECDSA P-256 (a company seal)"}`, () => {
    const cert = () => (kind === "rsa" ? rsa : ec);
    let signer: ReturnType<typeof testSigner>;
    let signed: Uint8Array;
    before(async () => {
      signer = testSigner(cert(), kind);
      signed = await signEnveloped(REQUEST, signer, { signingTime: TIME });
    });

    test("xmlsec1 verifies the AuthTokenRequest's signature, both references and the value", () => {
      const r = xmlsecVerify(dir, signed, cert().certificateFile);
      assert.ok(r.ok, r.output);
      assert.match(r.output, /SignedInfo References \(ok\/all\): 2\/2/);
    });

    test("xmlsec1 refuses it with another certificate's key", () => {
      assert.equal(xmlsecVerify(dir, signed, (kind === "rsa" ? ec : rsa).certificateFile).ok, false);
    });

    test("xmlsec1 refuses it once the challenge is changed", () => {
      assert.equal(xmlsecVerify(dir, _tamper(signed, CHALLENGE, CHALLENGE.replace("-46", "-47")), cert().certificateFile).ok, false);
    });

    test("xmlsec1 refuses it once the signing time (in SignedProperties) is changed", () => {
      assert.equal(xmlsecVerify(dir, _tamper(signed, "2026-11-29T02:30:15Z", "2026-11-29T02:30:16Z"), cert().certificateFile).ok, false);
    });

    test("xmlsec1 refuses it once a bit of the signature value is flipped", () => {
      const sv = _path(parseXml(signed).root, "Signature", "SignatureValue").text;
      const bytes = Buffer.from(sv, "base64");
      bytes[5]! ^= 0x01;
      assert.equal(xmlsecVerify(dir, _tamper(signed, sv, bytes.toString("base64")), cert().certificateFile).ok, false);
    });

    test("the document is the unsigned bytes with ds:Signature just before the root's end tag", () => {
      const end = _text(REQUEST).lastIndexOf("</AuthTokenRequest>");
      const text = _text(signed);
      assert.equal(text.slice(0, end), _text(REQUEST).slice(0, end));
      assert.ok(text.slice(end).startsWith(`<ds:Signature xmlns:ds="${XADES_URIS.ds}" Id="Signature-`));
      assert.ok(text.endsWith("</ds:Signature></AuthTokenRequest>"));
    });

    test("the document reference's digest is SHA-256 of xmllint's exclusive canonical form of the unsigned document", () => {
      const file = join(dir, `unsigned-${kind}.xml`);
      writeFileSync(file, REQUEST);
      const canonical = execFileSync("xmllint", ["--exc-c14n", file]);
      const references = _path(parseXml(signed).root, "Signature", "SignedInfo").children.filter((c) => c.local === "Reference");
      assert.equal(_child(references[0]!, "DigestValue").text, createHash("sha256").update(canonical).digest("base64"));
    });

    test("SigningCertificate holds openssl's SHA-256 of the certificate and its serial in decimal", () => {
      const der = execFileSync("openssl", ["x509", "-in", cert().certificateFile, "-outform", "DER"]);
      const digest = execFileSync("openssl", ["dgst", "-sha256", "-binary"], { input: der }).toString("base64");
      const serialHex = execFileSync("openssl", ["x509", "-in", cert().certificateFile, "-noout", "-serial"]).toString().trim().replace(/^serial=/, "");
      const signedCert = _path(parseXml(signed).root, "Signature", "Object", "QualifyingProperties", "SignedProperties", "SignedSignatureProperties", "SigningCertificate", "Cert");
      assert.equal(_path(signedCert, "CertDigest", "DigestValue").text, digest);
      assert.equal(_path(signedCert, "IssuerSerial", "X509SerialNumber").text, BigInt(`0x${serialHex}`).toString());
      const keyInfo = _path(parseXml(signed).root, "Signature", "KeyInfo", "X509Data", "X509Certificate").text;
      assert.equal(keyInfo, der.toString("base64"));
    });

    test("the SignatureMethod follows the key type, and the signer signs once with that algorithm", () => {
      const signedInfo = _path(parseXml(signed).root, "Signature", "SignedInfo");
      const method = _child(signedInfo, "SignatureMethod").attrs.find((a) => a.local === "Algorithm")!.value;
      assert.equal(method, kind === "rsa" ? XADES_URIS.rsaSha256 : XADES_URIS.ecdsaSha256);
      assert.deepEqual(signer.calls.map((c) => c.algorithm), [kind === "rsa" ? "rsa-pkcs1-sha256" : "ecdsa-p256-sha256"]);
      const value = Buffer.from(_path(parseXml(signed).root, "Signature", "SignatureValue").text, "base64");
      assert.equal(value.length, kind === "rsa" ? 256 : 64);
    });
  });
}

describe("signEnveloped()", () => {
  test("writes the XAdES-BES structure KSeF expects", async () => {
    const signed = await signEnveloped(REQUEST, testSigner(ec, "ec"), { signingTime: TIME, id: "abc" });
    const text = _text(signed);
    assert.doesNotMatch(text.slice(text.indexOf("<ds:Signature")), />\s+</, "no white space between the signature's tags");
    const signature = parseXml(signed).root.children.at(-1)!;
    const attr = (el: XmlElement, name: string) => el.attrs.find((a) => a.local === name)?.value;
    assert.equal(signature.ns, XADES_URIS.ds);
    assert.equal(attr(signature, "Id"), "Signature-abc");
    const signedInfo = _child(signature, "SignedInfo");
    assert.equal(attr(_child(signedInfo, "CanonicalizationMethod"), "Algorithm"), "http://www.w3.org/2001/10/xml-exc-c14n#");
    const [doc, props] = signedInfo.children.filter((c) => c.local === "Reference");
    assert.equal(attr(doc!, "URI"), "");
    assert.deepEqual(_child(doc!, "Transforms").children.map((t) => attr(t, "Algorithm")), [XADES_URIS.envelopedSignature, "http://www.w3.org/2001/10/xml-exc-c14n#"]);
    assert.equal(attr(props!, "URI"), "#SignedProperties-abc");
    assert.equal(attr(props!, "Type"), "http://uri.etsi.org/01903#SignedProperties");
    assert.deepEqual(_child(props!, "Transforms").children.map((t) => attr(t, "Algorithm")), ["http://www.w3.org/2001/10/xml-exc-c14n#"]);
    for (const ref of [doc!, props!]) assert.equal(attr(_child(ref, "DigestMethod"), "Algorithm"), "http://www.w3.org/2001/04/xmlenc#sha256");
    const qp = _path(signature, "Object", "QualifyingProperties");
    assert.equal(qp.ns, XADES_URIS.xades);
    assert.equal(attr(qp, "Target"), "#Signature-abc");
    const sp = _child(qp, "SignedProperties");
    assert.equal(attr(sp, "Id"), "SignedProperties-abc");
    assert.equal(_path(sp, "SignedSignatureProperties", "SigningTime").text, "2026-11-29T02:30:15Z");
  });

  test("gives each signature its own Ids", async () => {
    const ids = await Promise.all([1, 2].map(async () => {
      const signature = parseXml(await signEnveloped(REQUEST, testSigner(ec, "ec"), { signingTime: TIME })).root.children.at(-1)!;
      return signature.attrs.find((a) => a.local === "Id")!.value;
    }));
    assert.match(ids[0]!, /^Signature-[0-9a-f-]{36}$/);
    assert.notEqual(ids[0], ids[1]);
  });

  const OTHER_DOCUMENTS: { what: string; input: Uint8Array }[] = [
    { what: "a document with a byte order mark", input: new Uint8Array([0xef, 0xbb, 0xbf, ..._utf8.encode('<?xml version="1.0"?><a>x</a>')]) },
    { what: "an empty root element", input: _utf8.encode('<r xmlns="urn:r" a="1" />\n') },
    {
      what: "a prefixed root with namespaces, comments, PIs, CR LF and non-ASCII text",
      input: _utf8.encode('<?xml version="1.0" encoding="UTF-8"?>\r\n<!-- before -->\r\n<p:r xmlns:p="urn:p" xmlns="urn:d" xmlns:ds="urn:not-dsig">\r\n' +
        '  <a ds:x="&#x9;"><!-- c -->Zażółć &amp; gęślą <?pi x?></a>\r\n  <b xmlns=""/>\r\n</p:r >\r\n\r\n'),
    },
  ];
  for (const { what, input } of OTHER_DOCUMENTS) {
    test(`signs ${what} so that xmlsec1 verifies it`, async () => {
      const signed = await signEnveloped(input, testSigner(rsa, "rsa"), { signingTime: TIME });
      const r = xmlsecVerify(dir, signed, rsa.certificateFile);
      assert.ok(r.ok, r.output);
    });
  }

  test("keeps the bytes before the signature, a byte order mark included", async () => {
    const input = OTHER_DOCUMENTS[0]!.input;
    const signed = await signEnveloped(input, testSigner(rsa, "rsa"), { signingTime: TIME });
    assert.deepEqual(signed.subarray(0, input.length - 4), input.subarray(0, input.length - 4));
  });

  test("refuses what it cannot sign as asked", async () => {
    const signer = testSigner(ec, "ec");
    const latin2 = _utf8.encode('<?xml version="1.0" encoding="ISO-8859-2"?><a>x</a>');
    await assert.rejects(signEnveloped(latin2, signer, { signingTime: TIME }), /UTF-8/);
    await assert.rejects(signEnveloped(_utf8.encode("<a/><!-- after -->"), signer, { signingTime: TIME }), /after the root/);
    await assert.rejects(signEnveloped(REQUEST, signer, { signingTime: new Date(Number.NaN) }), RangeError);
    await assert.rejects(signEnveloped(REQUEST, signer, { signingTime: TIME, id: 'x"y' }), RangeError);
    await assert.rejects(signEnveloped(REQUEST, { ...signer, keyType: "dsa" } as unknown as Signer, { signingTime: TIME }), TypeError);
  });

  test("refuses an ECDSA signature that is not r || s of 64 bytes (a DER one)", async () => {
    const der: Signer = { certificate: ec.der, keyType: "ec", sign: () => Promise.resolve(new Uint8Array(70)) };
    await assert.rejects(signEnveloped(REQUEST, der, { signingTime: TIME }), /r \|\| s/);
  });
});

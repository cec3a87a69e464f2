/**
 * An enveloped XAdES-BES signature over a KSeF `AuthTokenRequest` made by `xmlsec1 --sign` from a template, not by
 * this project's code (lib/formats/xades): a second signer for tests, so that the simulator's checks
 * (ksef_simulator_xades.ts) are proven against a signature that the project did not make. Shaped as
 * auth/podpis-xades.md asks: exclusive C14N, SHA-256, `SignedProperties` with SigningTime and SigningCertificate.
 */
import { execFile } from "node:child_process";
import { createHash, X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { XadesTools } from "../../storage/ksef/connection/xades_signin.ts";

const run = promisify(execFile);
const DS = "http://www.w3.org/2000/09/xmldsig#";
const EXC = "http://www.w3.org/2001/10/xml-exc-c14n#";
const SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";

/** What the template may leave out or change, for tests of the simulator's checks. */
export interface XmlsecXadesOptions {
  /** Leave out SignedProperties (and its reference). */
  noSignedProperties?: boolean;
  /** The SigningCertificate digest of another certificate. */
  wrongCertDigest?: boolean;
  /** Another SignatureMethod (e.g. rsa-sha1), CanonicalizationMethod, or DigestMethod for both references. */
  signatureMethod?: string;
  canonicalization?: string;
  digestMethod?: string;
  /** Another transform in place of exclusive C14N in the whole document's reference. */
  wholeTransform?: string;
  /** The signature as the root's first child instead of its last. */
  signatureFirst?: boolean;
  /** The CertDigest by SHA-1 (its DigestMethod and value). */
  certDigestSha1?: boolean;
  /** No IssuerSerial, or another serial number (decimal) in it. */
  noIssuerSerial?: boolean;
  serialNumber?: string;
}

/** Signs `unsigned` (an AuthTokenRequest without a signature) with the PEM key `keyFile` and certificate `der`. */
export async function xmlsecSignAuthRequest(unsigned: Uint8Array, keyFile: string, der: Uint8Array, signingTime: Date, o: XmlsecXadesOptions = {}): Promise<Uint8Array> {
  const cert = new X509Certificate(der);
  const method = o.signatureMethod ?? (cert.publicKey.asymmetricKeyType === "ec" ? "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256" : "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");
  const certHash = o.certDigestSha1 ? "sha1" : "sha256";
  const digest = createHash(certHash).update(o.wrongCertDigest ? Buffer.from("another certificate") : der).digest("base64");
  const certDigestMethod = o.certDigestSha1 ? "http://www.w3.org/2000/09/xmldsig#sha1" : SHA256;
  const refDigest = o.digestMethod ?? SHA256;
  const c14n = o.canonicalization ?? EXC;
  const serial = o.serialNumber ?? BigInt(`0x${cert.serialNumber}`).toString();
  const issuerSerial = o.noIssuerSerial ? "" : `<xades:IssuerSerial><ds:X509IssuerName>${_escape(cert.issuer.split("\n").reverse().join(", "))}</ds:X509IssuerName><ds:X509SerialNumber>${serial}</ds:X509SerialNumber></xades:IssuerSerial>`;
  const props = o.noSignedProperties ? "" : `<ds:Object><xades:QualifyingProperties xmlns:xades="http://uri.etsi.org/01903/v1.3.2#" Target="#Signature-1"><xades:SignedProperties Id="SignedProperties-1"><xades:SignedSignatureProperties><xades:SigningTime>${signingTime.toISOString()}</xades:SigningTime><xades:SigningCertificate><xades:Cert><xades:CertDigest><ds:DigestMethod Algorithm="${certDigestMethod}"/><ds:DigestValue>${digest}</ds:DigestValue></xades:CertDigest>${issuerSerial}</xades:Cert></xades:SigningCertificate></xades:SignedSignatureProperties></xades:SignedProperties></xades:QualifyingProperties></ds:Object>`;
  const propsRef = o.noSignedProperties ? "" : `<ds:Reference Type="http://uri.etsi.org/01903#SignedProperties" URI="#SignedProperties-1"><ds:Transforms><ds:Transform Algorithm="${EXC}"/></ds:Transforms><ds:DigestMethod Algorithm="${refDigest}"/><ds:DigestValue></ds:DigestValue></ds:Reference>`;
  const signature = `<ds:Signature xmlns:ds="${DS}" Id="Signature-1"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="${c14n}"/><ds:SignatureMethod Algorithm="${method}"/><ds:Reference URI=""><ds:Transforms><ds:Transform Algorithm="${DS}enveloped-signature"/><ds:Transform Algorithm="${o.wholeTransform ?? EXC}"/></ds:Transforms><ds:DigestMethod Algorithm="${refDigest}"/><ds:DigestValue></ds:DigestValue></ds:Reference>${propsRef}</ds:SignedInfo><ds:SignatureValue></ds:SignatureValue><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${Buffer.from(der).toString("base64")}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>${props}</ds:Signature>`;
  const text = new TextDecoder().decode(unsigned);
  // The root's last child, or with signatureFirst its first (after the root's start tag).
  const end = o.signatureFirst ? text.indexOf(">", text.indexOf("<AuthTokenRequest")) + 1 : text.lastIndexOf("</");
  const dir = mkdtempSync(join(tmpdir(), "xmlsec-sign-"));
  try {
    writeFileSync(join(dir, "t.xml"), text.slice(0, end) + signature + text.slice(end));
    await run("xmlsec1", ["--sign", "--privkey-pem", keyFile, "--id-attr:Id", "SignedProperties", "--output", join(dir, "s.xml"), join(dir, "t.xml")]);
    return new Uint8Array(readFileSync(join(dir, "s.xml")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function _escape(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;");
}

/** An `AuthTokenRequest` as auth/subject-identifier-type-*.md shows it, for xmlsecXadesTools(). */
function _authTokenRequest(o: { challenge: string; context: { type: "Nip"; value: string }; subjectIdentifierType: string }): Uint8Array {
  return new TextEncoder().encode(`<?xml version="1.0" encoding="utf-8"?>\n<AuthTokenRequest xmlns="http://ksef.mf.gov.pl/auth/token/2.0"><Challenge>${o.challenge}</Challenge><ContextIdentifier><Nip>${o.context.value}</Nip></ContextIdentifier><SubjectIdentifierType>${o.subjectIdentifierType}</SubjectIdentifierType></AuthTokenRequest>`);
}

/**
 * XadesTools (storage/ksef/connection/xades_signin.ts) that sign with xmlsec1 and the unencrypted PEM `keyFile`
 * instead of the Signer: the sign-in flow with a signature this project did not make. `spoil` changes the signed
 * bytes before they are sent (a tampered signature), `before` the request before it is signed (another challenge).
 */
export function xmlsecXadesTools(keyFile: string, o: XmlsecXadesOptions & { before?: (unsigned: string) => string; spoil?: (signed: string) => string } = {}): XadesTools {
  return {
    authTokenRequestXml: _authTokenRequest,
    async signEnveloped(unsigned, signer, { signingTime }) {
      const input = o.before ? new TextEncoder().encode(o.before(new TextDecoder().decode(unsigned))) : unsigned;
      const signed = await xmlsecSignAuthRequest(input, keyFile, signer.certificate, signingTime, o);
      return o.spoil ? new TextEncoder().encode(o.spoil(new TextDecoder().decode(signed))) : signed;
    },
  };
}

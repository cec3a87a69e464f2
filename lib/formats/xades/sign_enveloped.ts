/**
 * signEnveloped: an enveloped XAdES-BES signature (ETSI EN 319 132-1; XAdES 1.3.2 namespace) over a whole XML
 * document, appended as the root's last child, as KSeF's sign-in takes it (KSeF docs "Podpis XAdES",
 * "Uwierzytelnianie" §2.1): exclusive canonicalisation, SHA-256 digests, RSA PKCS#1 v1.5 or ECDSA with
 * SHA-256 by the certificate's key type, and SignedProperties with SigningTime and SigningCertificate.
 * It signs what the bytes say: every digest is taken over the canonical form of the very document it returns.
 * @module
 */

import { Buffer } from "node:buffer";
import { createHash, randomUUID } from "node:crypto";
import { C14N_ALGORITHMS, canonicalBytes, canonicalizeDocument, canonicalizeElement } from "../xml/c14n.ts";
import { parseXml } from "../xml/parse.ts";
import type { XmlDocument, XmlElement } from "../xml/tree.ts";
import { certificateIssuerSerial } from "./issuer_serial.ts";
import type { SignatureAlgorithm, Signer } from "./signer.ts";

/** Namespace and algorithm URIs of XML-DSig 1.1 and XAdES. */
export const XADES_URIS = {
  ds: "http://www.w3.org/2000/09/xmldsig#",
  xades: "http://uri.etsi.org/01903/v1.3.2#",
  /** The Type of the Reference to SignedProperties (XAdES §6.3.1). */
  signedProperties: "http://uri.etsi.org/01903#SignedProperties",
  envelopedSignature: "http://www.w3.org/2000/09/xmldsig#enveloped-signature",
  sha256: "http://www.w3.org/2001/04/xmlenc#sha256",
  rsaSha256: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
  ecdsaSha256: "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256",
} as const;

/** Options of signEnveloped. */
export interface SignEnvelopedOptions {
  /** The XAdES SigningTime: the caller's clock. */
  signingTime: Date;
  /**
   * What the Ids of the signature's elements end in (`Signature-<id>`, `SignedProperties-<id>`): a random UUID
   * by default, so that two signatures in one document never clash. Letters, digits, '-', '_' and '.'.
   */
  id?: string;
}

/**
 * Signs a UTF-8 XML document: the same bytes with `ds:Signature` inserted just before the root's end tag,
 * with no white space around it, so that the enveloped-signature transform gives back what was digested.
 */
export async function signEnveloped(unsigned: Uint8Array, signer: Signer, options: SignEnvelopedOptions): Promise<Uint8Array> {
  const time = options.signingTime;
  if (!(time instanceof Date) || Number.isNaN(time.getTime())) throw new RangeError("signingTime must be a valid Date");
  const id = options.id ?? randomUUID();
  if (!/^[A-Za-z0-9_.-]+$/.test(id)) throw new RangeError(`Signature id must be letters, digits, '-', '_' or '.', got ${JSON.stringify(id)}`);
  const [algorithm, methodUri] = _algorithm(signer.keyType);

  const text = _utf8Text(unsigned);
  const splice = _insertionPoint(text, parseXml(unsigned, { content: true }));
  const parts: _Parts = {
    signatureId: `Signature-${id}`,
    signedPropertiesId: `SignedProperties-${id}`,
    methodUri,
    certificate: Buffer.from(signer.certificate).toString("base64"),
    signedProperties: _signedProperties(`SignedProperties-${id}`, time, signer.certificate),
  };

  // 1. The references' digests, over the document as it will be sent (any digests in SignedInfo: the
  //    enveloped transform removes the whole Signature, and SignedProperties is apart from SignedInfo).
  const draft = _parse(splice(_signature(parts, _signedInfo(parts, "", ""), "")));
  const documentDigest = _sha256(canonicalizeDocument(draft.doc, { exclude: draft.signature }));
  const propertiesDigest = _sha256(canonicalizeElement(draft.doc, draft.signedProperties));
  const signedInfo = _signedInfo(parts, documentDigest, propertiesDigest);

  // 2. The signature value, over the canonical SignedInfo in its place in the document.
  const unsignedValue = _parse(splice(_signature(parts, signedInfo, "")));
  const signedBytes = canonicalBytes(canonicalizeElement(unsignedValue.doc, unsignedValue.signedInfo));
  const value = await signer.sign(signedBytes, algorithm);
  if (algorithm === "ecdsa-p256-sha256" && value.length !== 64) {
    throw new TypeError(`ECDSA P-256 signature must be r || s of 64 bytes (IEEE P1363), got ${value.length}`);
  }

  // 3. The document sent, checked to canonicalise to exactly what was digested and signed.
  const signed = splice(_signature(parts, signedInfo, Buffer.from(value).toString("base64")));
  const final = _parse(signed);
  if (
    _sha256(canonicalizeDocument(final.doc, { exclude: final.signature })) !== documentDigest ||
    _sha256(canonicalizeElement(final.doc, final.signedProperties)) !== propertiesDigest ||
    canonicalizeElement(final.doc, final.signedInfo) !== canonicalizeElement(unsignedValue.doc, unsignedValue.signedInfo)
  ) {
    throw new Error("Signed document does not canonicalize to what was signed");
  }
  return canonicalBytes(signed);
}

interface _Parts {
  signatureId: string;
  signedPropertiesId: string;
  methodUri: string;
  certificate: string;
  signedProperties: string;
}

/** The SignatureMethod for the key type: not RSA-PSS nor SHA-1, which KSeF refuses in practice. */
function _algorithm(keyType: Signer["keyType"]): [SignatureAlgorithm, string] {
  if (keyType === "rsa") return ["rsa-pkcs1-sha256", XADES_URIS.rsaSha256];
  if (keyType === "ec") return ["ecdsa-p256-sha256", XADES_URIS.ecdsaSha256];
  throw new TypeError(`Unknown signer key type ${String(keyType)}`);
}

function _utf8Text(bytes: Uint8Array): string {
  try {
    // ignoreBOM keeps a byte order mark in the text, so the bytes round-trip unchanged.
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new TypeError("Cannot sign: the document is not UTF-8");
  }
}

/**
 * Where the signature goes: just before the root's end tag (an empty root tag `<r/>` is opened up). Returns
 * the function that makes the whole document with a given signature there.
 */
function _insertionPoint(text: string, doc: XmlDocument): (signature: string) => string {
  if (doc.encoding !== "utf-8") throw new TypeError(`Cannot sign: the document must be UTF-8, not ${doc.encoding}`);
  if ((doc.after ?? []).length > 0) throw new TypeError("Cannot sign: the document has comments or processing instructions after the root");
  const root = doc.root;
  const qname = root.prefix === "" ? root.local : `${root.prefix}:${root.local}`;
  let end = text.length;
  while (end > 0 && " \t\r\n".includes(text[end - 1]!)) end--;
  const at = text.lastIndexOf("</", end);
  if (at >= 0 && new RegExp(`^</${qname.replace(/[.]/g, "\\.")}[ \\t\\r\\n]*>$`).test(text.slice(at, end))) {
    return (signature) => text.slice(0, at) + signature + text.slice(at);
  }
  if (text.endsWith("/>", end) && root.content!.length === 0) {
    // Nothing but white space follows the root, so the last '/>' closes the root's own empty tag.
    return (signature) => `${text.slice(0, end - 2)}>${signature}</${qname}>${text.slice(end)}`;
  }
  throw new TypeError("Cannot sign: the root's end tag was not found");
}

interface _Parsed {
  doc: XmlDocument;
  signature: XmlElement;
  signedInfo: XmlElement;
  signedProperties: XmlElement;
}

/** Parses a document with our signature as the root's last child and finds the signature's parts. */
function _parse(text: string): _Parsed {
  const doc = parseXml(text, { content: true });
  const signature = doc.root.children[doc.root.children.length - 1];
  if (signature === undefined || signature.ns !== XADES_URIS.ds || signature.local !== "Signature") {
    throw new Error("Signature is not the root's last child");
  }
  const signedInfo = _child(signature, XADES_URIS.ds, "SignedInfo");
  const properties = _child(_child(_child(signature, XADES_URIS.ds, "Object"), XADES_URIS.xades, "QualifyingProperties"), XADES_URIS.xades, "SignedProperties");
  return { doc, signature, signedInfo, signedProperties: properties };
}

function _child(el: XmlElement, ns: string, local: string): XmlElement {
  const child = el.children.find((c) => c.ns === ns && c.local === local);
  if (child === undefined) throw new Error(`Signature has no ${local}`);
  return child;
}

/** XML-DSig §4.4: two references, the document (enveloped) and the SignedProperties, both exclusive C14N. */
function _signedInfo(p: _Parts, documentDigest: string, propertiesDigest: string): string {
  const exc = `<ds:Transform Algorithm="${C14N_ALGORITHMS.exclusive}"/>`;
  const digestMethod = `<ds:DigestMethod Algorithm="${XADES_URIS.sha256}"/>`;
  return `<ds:SignedInfo><ds:CanonicalizationMethod Algorithm="${C14N_ALGORITHMS.exclusive}"/><ds:SignatureMethod Algorithm="${p.methodUri}"/>` +
    `<ds:Reference URI=""><ds:Transforms><ds:Transform Algorithm="${XADES_URIS.envelopedSignature}"/>${exc}</ds:Transforms>${digestMethod}<ds:DigestValue>${documentDigest}</ds:DigestValue></ds:Reference>` +
    `<ds:Reference Type="${XADES_URIS.signedProperties}" URI="#${p.signedPropertiesId}"><ds:Transforms>${exc}</ds:Transforms>${digestMethod}<ds:DigestValue>${propertiesDigest}</ds:DigestValue></ds:Reference>` +
    "</ds:SignedInfo>";
}

/** The whole ds:Signature; its namespaces declared on itself and on QualifyingProperties, no white space. */
function _signature(p: _Parts, signedInfo: string, value: string): string {
  return `<ds:Signature xmlns:ds="${XADES_URIS.ds}" Id="${p.signatureId}">${signedInfo}<ds:SignatureValue>${value}</ds:SignatureValue>` +
    `<ds:KeyInfo><ds:X509Data><ds:X509Certificate>${p.certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>` +
    `<ds:Object><xades:QualifyingProperties xmlns:xades="${XADES_URIS.xades}" Target="#${p.signatureId}">${p.signedProperties}</xades:QualifyingProperties></ds:Object>` +
    "</ds:Signature>";
}

/** XAdES-BES's signed properties: SigningTime and SigningCertificate (digest, issuer and serial of the certificate). */
function _signedProperties(id: string, time: Date, certificate: Uint8Array): string {
  const { issuerName, serialNumber } = certificateIssuerSerial(certificate);
  const digest = createHash("sha256").update(certificate).digest("base64");
  // xsd:dateTime in UTC to the second.
  const signingTime = time.toISOString().replace(/\.\d{3}Z$/, "Z");
  return `<xades:SignedProperties Id="${id}"><xades:SignedSignatureProperties><xades:SigningTime>${signingTime}</xades:SigningTime>` +
    `<xades:SigningCertificate><xades:Cert><xades:CertDigest><ds:DigestMethod Algorithm="${XADES_URIS.sha256}"/><ds:DigestValue>${digest}</ds:DigestValue></xades:CertDigest>` +
    `<xades:IssuerSerial><ds:X509IssuerName>${_escapeText(issuerName)}</ds:X509IssuerName><ds:X509SerialNumber>${serialNumber}</ds:X509SerialNumber></xades:IssuerSerial>` +
    "</xades:Cert></xades:SigningCertificate></xades:SignedSignatureProperties></xades:SignedProperties>";
}

function _sha256(canonical: string): string {
  return createHash("sha256").update(canonicalBytes(canonical)).digest("base64");
}

function _escapeText(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"));
}

/**
 * Reads what this project needs from an X.509 certificate (RFC 5280 §4.1): serial number, issuer and subject
 * names, validity, the public key (SubjectPublicKeyInfo, for node:crypto), and the key usage extension (§4.2.1.3)
 * by which a KSeF certificate shows its type (certyfikaty-KSeF.md: Authentication has digitalSignature, Offline
 * nonRepudiation). It does not verify the issuer's signature or a chain: KSeF does that when it is used.
 * @module
 */
import { child, children, content, contextTag, DerError, encoding, parseDer, readBitString, readIntegerBytes, readOid, readString, readTime, TAG, type DerNode } from "../asn1/der.ts";

/** One attribute of a name: its OID, and its text. */
export interface NameAttribute {
  oid: string;
  value: string;
}

/** The parts of a certificate this project uses. */
export interface CertificateInfo {
  /** The serial number's content octets (without a DER sign octet) in upper-case hex, and in decimal. */
  serialHex: string;
  serialDecimal: string;
  /** The names as lists of attributes in the certificate's order (RDNs flattened). */
  issuer: NameAttribute[];
  subject: NameAttribute[];
  /** Validity, ms since the epoch. */
  notBefore: number;
  notAfter: number;
  /** The SubjectPublicKeyInfo, DER. */
  spki: Uint8Array;
  /** Names of the key usage bits set (RFC 5280 §4.2.1.3), or null without the extension. */
  keyUsage: KeyUsage[] | null;
}

/** RFC 5280 §4.2.1.3's bits, in bit order. */
export const KEY_USAGES = ["digitalSignature", "nonRepudiation", "keyEncipherment", "dataEncipherment", "keyAgreement", "keyCertSign", "cRLSign", "encipherOnly", "decipherOnly"] as const;
export type KeyUsage = (typeof KEY_USAGES)[number];

/** Short names of the attribute types KSeF certificates and their CSRs carry (certyfikaty-KSeF.md §2; RFC 4519). */
export const NAME_OIDS: Readonly<Record<string, string>> = {
  "2.5.4.3": "CN", "2.5.4.4": "SN", "2.5.4.5": "serialNumber", "2.5.4.6": "C", "2.5.4.7": "L", "2.5.4.8": "ST",
  "2.5.4.10": "O", "2.5.4.11": "OU", "2.5.4.42": "GN", "2.5.4.45": "x500UniqueIdentifier", "2.5.4.97": "organizationIdentifier",
};
const _KEY_USAGE_OID = "2.5.29.15";

/** Reads a DER certificate; DerError when it is not one. */
export function parseCertificate(der: Uint8Array): CertificateInfo {
  const cert = children(parseDer(der), TAG.SEQUENCE);
  const tbs = children(child(cert, 0, TAG.SEQUENCE), TAG.SEQUENCE);
  // TBSCertificate: [0] version (optional), serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, …
  let i = tbs[0]?.tag === contextTag(0) ? 1 : 0;
  const serialBytes = readIntegerBytes(child(tbs, i++));
  const start = serialBytes[0] === 0 && serialBytes.length > 1 ? 1 : 0;
  const serialHex = [...serialBytes.subarray(start)].map((b) => b.toString(16).padStart(2, "0")).join("").toUpperCase();
  // A negative serial (RFC 5280 §4.1.2.2 forbids it, some CAs wrote them) in decimal as X.690 §8.3.3 reads it:
  // two's complement. XAdES's X509SerialNumber is this integer in decimal.
  let serial = 0n;
  for (const b of serialBytes) serial = (serial << 8n) | BigInt(b);
  if ((serialBytes[0]! & 0x80) !== 0) serial -= 1n << BigInt(8 * serialBytes.length);
  const serialDecimal = serial.toString();
  i++; // signature algorithm
  const issuer = readName(child(tbs, i++, TAG.SEQUENCE));
  const validity = children(child(tbs, i++, TAG.SEQUENCE), TAG.SEQUENCE);
  const notBefore = readTime(child(validity, 0));
  const notAfter = readTime(child(validity, 1));
  const subject = readName(child(tbs, i++, TAG.SEQUENCE));
  const spki = encoding(child(tbs, i++, TAG.SEQUENCE));
  let keyUsage: KeyUsage[] | null = null;
  for (const node of tbs.slice(i)) {
    if (node.tag !== contextTag(3)) continue;
    for (const ext of children(child(children(node), 0, TAG.SEQUENCE))) {
      const parts = children(ext, TAG.SEQUENCE);
      if (readOid(child(parts, 0)) !== _KEY_USAGE_OID) continue;
      const value = child(parts, parts.length - 1, TAG.OCTET_STRING);
      const { bits } = readBitString(parseDer(content(value)));
      keyUsage = KEY_USAGES.filter((_, bit) => ((bits[bit >> 3] ?? 0) & (0x80 >> (bit & 7))) !== 0);
    }
  }
  return { serialHex, serialDecimal, issuer, subject, notBefore, notAfter, spki, keyUsage };
}

/** A Name (RFC 5280 §4.1.2.4) as its attributes in order. */
export function readName(node: DerNode): NameAttribute[] {
  const out: NameAttribute[] = [];
  for (const rdn of children(node, TAG.SEQUENCE)) {
    for (const atv of children(rdn, TAG.SET)) {
      const parts = children(atv, TAG.SEQUENCE);
      out.push({ oid: readOid(child(parts, 0)), value: readString(child(parts, 1)) });
    }
  }
  return out;
}

/** A name as one line, most significant first as written in the certificate, e.g. `CN=Jan Kowalski, C=PL`. */
export function formatName(name: readonly NameAttribute[]): string {
  return name.map((a) => `${NAME_OIDS[a.oid] ?? a.oid}=${a.value.replace(/([,+"\\<>;])/g, "\\$1")}`).join(", ");
}

export { DerError };

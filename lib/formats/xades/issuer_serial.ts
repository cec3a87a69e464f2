/**
 * A certificate's issuer and serial number as XAdES's IssuerSerial writes them (ETSI EN 319 132-1 / XAdES
 * 1.3.2 `ds:X509IssuerName`, `ds:X509SerialNumber`; XML-DSig §4.4.4): the issuer Distinguished Name as an
 * RFC 4514 string and the serial as a decimal integer. Read from the certificate's DER (RFC 5280 §4.1) with a
 * minimal reader of the few DER types involved; it checks no signature and decodes no extension.
 * @module
 */

/** The issuer name (RFC 4514) and serial number (decimal) of a certificate. */
export interface IssuerSerial {
  issuerName: string;
  serialNumber: string;
}

const SEQUENCE = 0x30;
const SET = 0x31;
const INTEGER = 0x02;
const OID = 0x06;
const VERSION = 0xa0;

/** Reads the issuer and serial number of an X.509 certificate given as DER. */
export function certificateIssuerSerial(der: Uint8Array): IssuerSerial {
  const cert = _read(der, 0, SEQUENCE);
  const tbs = _read(der, cert.start, SEQUENCE);
  let p = tbs.start;
  // RFC 5280 §4.1: version [0] EXPLICIT DEFAULT v1, serialNumber, signature, issuer, …
  if (der[p] === VERSION) p = _read(der, p, VERSION).end;
  const serial = _read(der, p, INTEGER);
  const algorithm = _read(der, serial.end, SEQUENCE);
  const issuer = _read(der, algorithm.end, SEQUENCE);
  return { issuerName: _name(der, issuer.start, issuer.end), serialNumber: _decimal(der.subarray(serial.start, serial.end)) };
}

/**
 * RFC 4514 §2.3 names the attribute types of its §3 table by their short names, which every RFC 4514 parser
 * must know; any other type is written as its dotted OID with the value as `#` and the hex of its BER (§2.4),
 * the one form a parser reads back to the same name whatever descriptors it knows (serialNumber, givenName,
 * organizationIdentifier of qualified certificates among them).
 */
const _SHORT_NAMES: Record<string, string> = {
  "2.5.4.3": "CN",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
  "2.5.4.6": "C",
  "2.5.4.9": "STREET",
  "0.9.2342.19200300.100.1.25": "DC",
  "0.9.2342.19200300.100.1.1": "UID",
};

/** RFC 4514 §2.1: the RDNs of a Name from the last to the first, joined by ','; one RDN's values by '+'. */
function _name(der: Uint8Array, start: number, end: number): string {
  const rdns: string[] = [];
  for (let p = start; p < end;) {
    const rdn = _read(der, p, SET);
    const values: string[] = [];
    for (let q = rdn.start; q < rdn.end;) {
      const atv = _read(der, q, SEQUENCE);
      const type = _read(der, atv.start, OID);
      const oid = _oid(der.subarray(type.start, type.end));
      const value = _tlv(der, type.end);
      if (value.end !== atv.end) throw new TypeError("Cannot read the certificate: malformed attribute in the issuer name");
      const short = _SHORT_NAMES[oid];
      const text = short === undefined ? null : _string(der[type.end]!, der.subarray(value.start, value.end));
      values.push(short !== undefined && text !== null ? `${short}=${_escape(text)}` : `${oid}=#${_hex(der.subarray(type.end, value.end))}`);
      q = atv.end;
    }
    rdns.push(values.join("+"));
    p = rdn.end;
  }
  return rdns.reverse().join(",");
}

/** RFC 4514 §2.4: backslash before '"', '+', ',', ';', '<', '>', '\', a leading '#' or space, a trailing space; NUL as \00. */
function _escape(s: string): string {
  let out = "";
  const last = s.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = s[i]!;
    if (c === "\0") out += "\\00";
    else if ('"+,;<>\\'.includes(c) || (i === 0 && (c === "#" || c === " ")) || (i === last && c === " ")) out += `\\${c}`;
    else out += c;
  }
  return out;
}

/** The text of a directory string (X.520 DirectoryString and the like), or null for a type not decoded here. */
function _string(tag: number, bytes: Uint8Array): string | null {
  try {
    switch (tag) {
      case 0x0c: // UTF8String
        return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      case 0x13: // PrintableString
      case 0x16: // IA5String
        return bytes.every((b) => b < 0x80) ? String.fromCharCode(...bytes) : null;
      case 0x1e: // BMPString: UTF-16BE
        return new TextDecoder("utf-16be", { fatal: true }).decode(bytes);
      default:
        return null;
    }
  } catch {
    return null;
  }
}

/** An INTEGER's content octets (two's complement, big-endian) in decimal. */
function _decimal(bytes: Uint8Array): string {
  if (bytes.length === 0) throw new TypeError("Cannot read the certificate: empty serial number");
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  if (bytes[0]! & 0x80) n -= 1n << BigInt(bytes.length * 8);
  return n.toString();
}

/** An OBJECT IDENTIFIER's content octets in dotted decimal (X.690 §8.19). */
function _oid(bytes: Uint8Array): string {
  const arcs: bigint[] = [];
  let v = 0n;
  for (const b of bytes) {
    v = (v << 7n) | BigInt(b & 0x7f);
    if ((b & 0x80) === 0) {
      arcs.push(v);
      v = 0n;
    }
  }
  if (arcs.length === 0) throw new TypeError("Cannot read the certificate: empty object identifier");
  const first = arcs[0]!;
  const head = first < 40n ? [0n, first] : first < 80n ? [1n, first - 40n] : [2n, first - 80n];
  return [...head, ...arcs.slice(1)].join(".");
}

function _hex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

/** A DER element at `p` that must have tag `tag`. */
function _read(der: Uint8Array, p: number, tag: number): { start: number; end: number } {
  if (der[p] !== tag) throw new TypeError(`Cannot read the certificate: expected DER tag 0x${tag.toString(16)} at offset ${p}`);
  return _tlv(der, p);
}

/** The content of the DER element at `p` (X.690 §8.1: one-byte tag, definite length). */
function _tlv(der: Uint8Array, p: number): { start: number; end: number } {
  if (p + 2 > der.length || (der[p]! & 0x1f) === 0x1f) throw new TypeError("Cannot read the certificate: truncated or unsupported DER");
  let len = der[p + 1]!;
  let start = p + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || start + n > der.length) throw new TypeError("Cannot read the certificate: bad DER length");
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + der[start + i]!;
    start += n;
  }
  const end = start + len;
  if (end > der.length) throw new TypeError("Cannot read the certificate: truncated DER");
  return { start, end };
}

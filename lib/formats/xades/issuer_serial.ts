/**
 * A certificate's issuer and serial number as XAdES's IssuerSerial writes them (ETSI EN 319 132-1 / XAdES
 * 1.3.2 `ds:X509IssuerName`, `ds:X509SerialNumber`; XML-DSig §4.4.4): the issuer Distinguished Name as an
 * RFC 4514 string and the serial as a decimal integer, read with the project's DER reader (RFC 5280 §4.1).
 * @module
 */
import { child, children, contextTag, DerError, encoding, parseDer, readOid, readString, TAG, type DerNode } from "../asn1/der.ts";
import { parseCertificate } from "../x509/certificate.ts";

/** The issuer name (RFC 4514) and serial number (decimal) of a certificate. */
export interface IssuerSerial {
  issuerName: string;
  serialNumber: string;
}

/** Reads the issuer and serial number of an X.509 certificate given as DER; DerError when it is not one. */
export function certificateIssuerSerial(der: Uint8Array): IssuerSerial {
  const tbs = children(child(children(parseDer(der), TAG.SEQUENCE), 0, TAG.SEQUENCE), TAG.SEQUENCE);
  // RFC 5280 §4.1: version [0] EXPLICIT DEFAULT v1, serialNumber, signature, issuer, …
  const issuer = child(tbs, tbs[0]?.tag === contextTag(0) ? 3 : 2, TAG.SEQUENCE);
  return { issuerName: _name(issuer), serialNumber: parseCertificate(der).serialDecimal };
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
function _name(name: DerNode): string {
  const rdns = children(name, TAG.SEQUENCE).map((rdn) =>
    children(rdn, TAG.SET).map((atv) => {
      const [type, value] = children(atv, TAG.SEQUENCE);
      if (type === undefined || value === undefined) throw new DerError("Malformed attribute in the issuer name");
      const oid = readOid(type);
      const short = _SHORT_NAMES[oid];
      const text = short === undefined ? null : _text(value);
      return short !== undefined && text !== null ? `${short}=${_escape(text)}` : `${oid}=#${_hex(encoding(value))}`;
    }).join("+"));
  return rdns.reverse().join(",");
}

/** The text of a directory string, or null for a type RFC 4514 then writes as `#` and hex. */
function _text(value: DerNode): string | null {
  try {
    return readString(value);
  } catch {
    return null;
  }
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

function _hex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}


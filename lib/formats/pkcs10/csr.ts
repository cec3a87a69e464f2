/**
 * A PKCS#10 certification request (RFC 2986) for a KSeF certificate (certyfikaty-KSeF.md §3): the subject exactly
 * as GET /certificates/enrollments/data gives it, the public key, and a signature made through a `Signer`-like
 * callback, so the key may live in an HSM. Signatures: sha256WithRSAEncryption (RSA PKCS#1 v1.5) or
 * ecdsa-with-SHA256 with the value in DER (RFC 3279 §2.2.3's Ecdsa-Sig-Value, not XML-DSig's r || s). No
 * extensions or challenge password: KSeF sets the certificate's contents itself.
 * @module
 */
import { derBitString, derContext, derInteger, derNull, derOid, derPrintableString, derSequence, derSet, derUtf8String, isPrintableString } from "../asn1/der_writer.ts";
import { encodePem } from "../asn1/pem.ts";
import type { NameAttribute } from "../x509/certificate.ts";
import type { Signer } from "../xades/signer.ts";

/** open-api.json `CertificateEnrollmentDataResponse`: the subject a KSeF CSR must carry. */
export interface CertificateEnrollmentData {
  commonName: string;
  countryName: string;
  /** certyfikaty-KSeF.md §2: givenName may come more than once, as a list. */
  givenName?: string | string[] | null;
  surname?: string | null;
  serialNumber?: string | null;
  uniqueIdentifier?: string | null;
  organizationName?: string | null;
  organizationIdentifier?: string | null;
}

/** certyfikaty-KSeF.md §2's attribute types, by the field names of the enrollment data, in the order they are written. */
export const ENROLLMENT_ATTRIBUTES = [
  ["commonName", "2.5.4.3"],
  ["givenName", "2.5.4.42"],
  ["surname", "2.5.4.4"],
  ["serialNumber", "2.5.4.5"],
  ["organizationName", "2.5.4.10"],
  ["organizationIdentifier", "2.5.4.97"],
  ["countryName", "2.5.4.6"],
  ["uniqueIdentifier", "2.5.4.45"],
] as const;

/**
 * X.520 gives these PrintableString syntax (countryName, serialNumber); a value outside its characters, and every
 * other attribute, is written as UTF8String (RFC 5280 §4.1.2.6's choice for DirectoryString).
 */
const _PRINTABLE = new Set(["2.5.4.6", "2.5.4.5"]);
const _OID = {
  SHA256_WITH_RSA: "1.2.840.113549.1.1.11",
  ECDSA_WITH_SHA256: "1.2.840.10045.4.3.2",
} as const;
/** The bytes of each of r and s of a P-256 signature. */
const _P256_BYTES = 32;

/** What signs the request: the key pair's public key (SubjectPublicKeyInfo, DER) and a Signer's `keyType` and `sign`. */
export interface CsrOptions {
  /** The subject's attributes in order, each in an RDN of its own (enrollmentSubject() makes them from KSeF's data). */
  subject: readonly NameAttribute[];
  /** SubjectPublicKeyInfo, DER (e.g. `createPublicKey(key).export({ type: "spki", format: "der" })`). */
  publicKey: Uint8Array;
  signer: Pick<Signer, "keyType" | "sign">;
}

/**
 * The subject of KSeF's enrollment data as attributes, in ENROLLMENT_ATTRIBUTES' order, every given value as
 * given (KSeF refuses a request whose subject differs). RangeError for a missing commonName or countryName, an
 * unknown field, or a value a field's string type cannot hold.
 */
export function enrollmentSubject(data: CertificateEnrollmentData): NameAttribute[] {
  const known = new Set<string>(ENROLLMENT_ATTRIBUTES.map(([name]) => name));
  for (const key of Object.keys(data)) if (!known.has(key)) throw new RangeError(`Unknown enrollment data field: ${key}`);
  if (typeof data.commonName !== "string" || data.commonName === "") throw new RangeError("The enrollment data has no commonName");
  if (typeof data.countryName !== "string" || !/^[A-Z]{2}$/.test(data.countryName)) throw new RangeError("The enrollment data's countryName is not a two-letter country code");
  const out: NameAttribute[] = [];
  for (const [name, oid] of ENROLLMENT_ATTRIBUTES) {
    const v = data[name];
    if (v === undefined || v === null) continue;
    for (const value of Array.isArray(v) ? v : [v]) {
      if (typeof value !== "string" || value === "") throw new RangeError(`The enrollment data's ${name} is not a non-empty string`);
      out.push({ oid, value });
    }
  }
  return out;
}

/** The request, DER. */
export async function buildCsr(options: CsrOptions): Promise<Uint8Array> {
  const info = derSequence([
    derInteger(0), // RFC 2986 §4.1: version 0 (v1)
    encodeName(options.subject),
    options.publicKey,
    derContext(0, new Uint8Array(0)), // attributes: none
  ]);
  const rsa = options.signer.keyType === "rsa";
  const signature = await options.signer.sign(info, rsa ? "rsa-pkcs1-sha256" : "ecdsa-p256-sha256");
  return derSequence([
    info,
    // RFC 4055 §5 keeps the NULL parameters of sha256WithRSAEncryption; RFC 5758 §3.2 omits ECDSA's.
    rsa ? derSequence([derOid(_OID.SHA256_WITH_RSA), derNull()]) : derSequence([derOid(_OID.ECDSA_WITH_SHA256)]),
    derBitString(rsa ? signature : ecdsaP1363ToDer(signature)),
  ]);
}

/** The request as PEM (`CERTIFICATE REQUEST`, RFC 7468 §7). */
export function csrToPem(der: Uint8Array): string {
  return encodePem("CERTIFICATE REQUEST", der);
}

/** A Name (RFC 5280 §4.1.2.4) with each attribute in an RDN of its own, in the given order. */
export function encodeName(attributes: readonly NameAttribute[]): Uint8Array {
  return derSequence(attributes.map((a) => derSet([derSequence([derOid(a.oid), _PRINTABLE.has(a.oid) && isPrintableString(a.value) ? derPrintableString(a.value) : derUtf8String(a.value)])])));
}

/** An ECDSA P-256 signature r || s (IEEE P1363) as RFC 3279's DER `SEQUENCE { r INTEGER, s INTEGER }`. */
export function ecdsaP1363ToDer(signature: Uint8Array): Uint8Array {
  if (signature.length !== 2 * _P256_BYTES) throw new RangeError(`An ECDSA P-256 signature is ${2 * _P256_BYTES} bytes (r || s)`);
  const int = (bytes: Uint8Array) => {
    let hex = "";
    for (const b of bytes) hex += b.toString(16).padStart(2, "0");
    return derInteger(BigInt(`0x${hex}`));
  };
  return derSequence([int(signature.subarray(0, _P256_BYTES)), int(signature.subarray(_P256_BYTES))]);
}


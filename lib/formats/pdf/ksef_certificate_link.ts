/**
 * The KSeF certificate verification link ("KOD II") of an offline invoice (kody-qr.md, "KOD II - Weryfikacja
 * certyfikatu"): https://qr{-test|-demo|}.ksef.mf.gov.pl/certificate/{context identifier type}/{context
 * identifier}/{seller NIP}/{certificate serial number}/{SHA-256 of the file, Base64URL}/{signature, Base64URL}.
 * The signature is over the link without `https://` and without the signature segment (and so without a trailing
 * `/`), made with the private key of a KSeF certificate of type Offline: RSASSA-PSS (SHA-256, MGF1-SHA-256, a
 * 32-byte salt, keys of 2048 bits or more) or ECDSA P-256 with SHA-256 in IEEE P1363 form (R || S, 64 bytes),
 * the form kody-qr.md recommends. Signs through a `Signer` (the key may be in a file, an HSM or a KMS) or with a
 * key in memory. Builds and signs only: reading the key and certificate is the caller's.
 * @module
 */

import { Buffer } from "node:buffer";
import { sign, verify, type KeyObject } from "node:crypto";
import { signatureOptions } from "../xades/key_sign.ts";
import type { Signer } from "../xades/signer.ts";
import { ksefQrHost, sha256Base64Url, type KsefQrEnvironment } from "./ksef_link.ts";

/** uwierzytelnianie.md `ContextIdentifier` types, as kody-qr.md lists them for the link. */
export const KSEF_CONTEXT_TYPES = ["Nip", "InternalId", "NipVatUe", "PeppolId"] as const;
export type KsefContextType = (typeof KSEF_CONTEXT_TYPES)[number];

/** kody-qr.md, "Algorytmy podpisu": RSASSA-PSS keys of at least 2048 bits. */
export const MIN_RSA_BITS = 2048;
/** Node's name of NIST P-256 (secp256r1), the one curve kody-qr.md and certyfikaty-KSeF.md allow. */
const _P256 = "prime256v1";

/** What KOD II is made of. */
export interface KsefCertificateLinkInput {
  /** The KSeF environment of the invoice (its QR host); default "prod". */
  environment?: KsefQrEnvironment;
  /** The type of the context the invoice is issued in (the session's `ContextIdentifier`). */
  contextType: KsefContextType;
  /** The context identifier's value, e.g. the NIP the KSeF token or session belongs to. */
  contextId: string;
  /** The seller's NIP (`Podmiot1`). */
  sellerNip: string;
  /** The serial number of the KSeF certificate of type Offline, in hex as KSeF shows it (e.g. `01F20A5D352AE590`). */
  certificateSerial: string;
  /** SHA-256 of the invoice file: 32 bytes, 64 hex digits or base64url. */
  xmlSha256: Uint8Array | string;
  /** The certificate's private key: RSA of 2048 bits or more, or EC P-256. */
  privateKey: KeyObject;
}

/**
 * The string that is signed: the link without `https://` and without the signature segment, e.g.
 * `qr-test.ksef.mf.gov.pl/certificate/Nip/1111111111/1111111111/01F20A5D352AE590/UtQp9Gpc…` (kody-qr.md, "Format podpisu").
 */
export function ksefCertificateLinkPayload(input: Omit<KsefCertificateLinkInput, "privateKey">): string {
  if (!KSEF_CONTEXT_TYPES.includes(input.contextType)) {
    throw new RangeError(`Unknown KSeF context identifier type: ${String(input.contextType)} (expected ${KSEF_CONTEXT_TYPES.join(", ")})`);
  }
  const serial = input.certificateSerial.trim().toUpperCase();
  if (!/^[0-9A-F]+$/.test(serial)) throw new RangeError("The certificate serial number must be hexadecimal");
  const parts = [input.contextType, input.contextId.trim(), input.sellerNip.trim(), serial];
  if (parts.some((p) => p === "")) throw new RangeError("The context identifier and the seller NIP must not be empty");
  return `${ksefQrHost(input.environment)}/certificate/${parts.map(encodeURIComponent).join("/")}/${sha256Base64Url(input.xmlSha256)}`;
}

/** The KOD II link of an offline invoice, signed with the KSeF Offline certificate's private key. */
export function buildKsefCertificateLink(input: KsefCertificateLinkInput): string {
  const payload = ksefCertificateLinkPayload(input);
  return `https://${payload}/${signKsefLinkPayload(payload, input.privateKey)}`;
}

/** What KOD II is made of when a Signer signs it. */
export type KsefSignedLinkInput = Omit<KsefCertificateLinkInput, "privateKey"> & {
  /** Signs with the Offline certificate's key (its `keyType` picks RSASSA-PSS or ECDSA). */
  signer: Signer;
};

/** The KOD II link of an offline invoice, signed through `signer` (kody-qr.md's algorithms). */
export async function signKsefCertificateLink(input: KsefSignedLinkInput): Promise<string> {
  const payload = ksefCertificateLinkPayload(input);
  return `https://${payload}/${await signKsefLinkPayloadWith(payload, input.signer)}`;
}

/**
 * The Base64URL signature of `payload` through `signer`: RSASSA-PSS (SHA-256, MGF1-SHA-256, 32-byte salt) for an
 * RSA key, ECDSA P-256 in IEEE P1363 form for an EC key (kody-qr.md, "Algorytmy podpisu").
 */
export async function signKsefLinkPayloadWith(payload: string, signer: Signer): Promise<string> {
  const data = new TextEncoder().encode(payload);
  const signature = await signer.sign(data, signer.keyType === "rsa" ? "rsa-pss-sha256" : "ecdsa-p256-sha256");
  return Buffer.from(signature).toString("base64url");
}

/** The Base64URL signature of `payload` (kody-qr.md's algorithms); RangeError for a key that KSeF does not accept. */
export function signKsefLinkPayload(payload: string, privateKey: KeyObject): string {
  if (privateKey.type !== "private") throw new RangeError("KOD II is signed with a private key");
  const data = new TextEncoder().encode(payload);
  return Buffer.from(sign("sha256", data, _signOptions(privateKey))).toString("base64url");
}

/** True when `link` (a KOD II) carries a valid signature of its own payload by `publicKey` (the certificate's key). */
export function verifyKsefCertificateLink(link: string, publicKey: KeyObject): boolean {
  const m = /^https:\/\/(.+)\/([A-Za-z0-9_-]+)$/.exec(link);
  if (m === null) return false;
  return verify("sha256", new TextEncoder().encode(m[1]!), _signOptions(publicKey), Buffer.from(m[2]!, "base64url"));
}

/** The kind of key KOD II accepts, or a message saying why this one is not; never mentions the key's content. */
export function describeKsefSigningKey(key: KeyObject): { kind: "rsa" | "ec"; bits: number } | { error: string } {
  const type = key.asymmetricKeyType;
  const d = key.asymmetricKeyDetails ?? {};
  if (type === "rsa" || type === "rsa-pss") {
    const bits = d.modulusLength ?? 0;
    return bits >= MIN_RSA_BITS ? { kind: "rsa", bits } : { error: `an RSA key of ${bits} bits (KSeF needs ${MIN_RSA_BITS} or more)` };
  }
  if (type === "ec") {
    return d.namedCurve === _P256 ? { kind: "ec", bits: 256 } : { error: `an EC key on ${d.namedCurve ?? "an unnamed curve"} (KSeF needs P-256)` };
  }
  return { error: `a key of type ${type ?? "unknown"} (KSeF needs RSA of ${MIN_RSA_BITS} bits or more, or EC P-256)` };
}

function _signOptions(key: KeyObject) {
  const kind = describeKsefSigningKey(key);
  if ("error" in kind) throw new RangeError(`KOD II cannot be signed with ${kind.error}`);
  return signatureOptions(key, kind.kind, kind.kind === "rsa" ? "rsa-pss-sha256" : "ecdsa-p256-sha256");
}

/**
 * A signature with a node:crypto key for each SignatureAlgorithm, the one place its options are set: RSA PKCS#1
 * v1.5; RSASSA-PSS with MGF1-SHA-256 and a 32-byte salt (kody-qr.md, KOD II); ECDSA as r || s (IEEE P1363), the
 * form XML-DSig (RFC 4050 §3.3) and KOD II take.
 * @module
 */
import { constants, sign, type KeyObject } from "node:crypto";
import type { SignatureAlgorithm } from "./signer.ts";

/** kody-qr.md, "Algorytmy podpisu": RSASSA-PSS with a 32-byte salt. */
const _PSS_SALT_BYTES = 32;

/** node:crypto's sign and verify options for a key and an algorithm. */
export interface SignatureOptions {
  key: KeyObject;
  padding?: number;
  saltLength?: number;
  dsaEncoding?: "ieee-p1363";
}

/** The options for `algorithm` with `key` (private to sign, public to verify); RangeError if the key cannot. */
export function signatureOptions(key: KeyObject, keyType: "rsa" | "ec", algorithm: SignatureAlgorithm): SignatureOptions {
  if (algorithm === "rsa-pkcs1-sha256" && keyType === "rsa") return { key, padding: constants.RSA_PKCS1_PADDING };
  if (algorithm === "rsa-pss-sha256" && keyType === "rsa") return { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: _PSS_SALT_BYTES };
  if (algorithm === "ecdsa-p256-sha256" && keyType === "ec") return { key, dsaEncoding: "ieee-p1363" };
  throw new RangeError(`${keyType === "rsa" ? "An RSA" : "An EC"} key cannot sign ${String(algorithm)}`);
}

/** The SHA-256 signature of `data` with a private key. */
export function signWithKey(key: KeyObject, keyType: "rsa" | "ec", data: Uint8Array, algorithm: SignatureAlgorithm): Uint8Array {
  return new Uint8Array(sign("sha256", data, signatureOptions(key, keyType, algorithm)));
}

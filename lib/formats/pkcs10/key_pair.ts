/**
 * A new key pair for a KSeF certificate request (certyfikaty-KSeF.md §3: RSA of 2048 bits or EC on NIST P-256,
 * EC recommended), made with node:crypto, with a signer for buildCsr(). Writing the key to a file is the caller's.
 * @module
 */
import { createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { signWithKey } from "../xades/key_sign.ts";
import type { SignatureAlgorithm, Signer } from "../xades/signer.ts";

/** A fresh key pair: the private key (a KeyObject, never printed by accident), its SubjectPublicKeyInfo and a signer. */
export interface CsrKeyPair {
  privateKey: KeyObject;
  /** SubjectPublicKeyInfo, DER. */
  publicKey: Uint8Array;
  signer: Pick<Signer, "keyType" | "sign">;
}

/** certyfikaty-KSeF.md §3: RSA keys are of 2048 bits. */
export const CSR_RSA_BITS = 2048;

/** A new RSA 2048 or EC P-256 key pair. */
export function generateCsrKeyPair(kind: "rsa" | "ec"): CsrKeyPair {
  const { privateKey } = kind === "rsa"
    ? generateKeyPairSync("rsa", { modulusLength: CSR_RSA_BITS, publicExponent: 65537 })
    : generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  return {
    privateKey,
    publicKey: new Uint8Array(createPublicKey(privateKey).export({ type: "spki", format: "der" })),
    signer: {
      keyType: kind,
      sign: (data: Uint8Array, algorithm: SignatureAlgorithm) => Promise.resolve(signWithKey(privateKey, kind, data, algorithm)),
    },
  };
}

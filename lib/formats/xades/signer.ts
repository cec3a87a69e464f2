/**
 * What signs for this project: KSeF sign-in (an XAdES signature over `AuthTokenRequest`) and KOD II of offline
 * invoices (kody-qr.md). An interface rather than a key, so that an embedder can keep the key in an HSM, a smart
 * card or a cloud KMS; the built-in one reads PEM, DER or PKCS#12 files.
 * @module
 */

/** RSA PKCS#1 v1.5 with SHA-256; RSASSA-PSS with SHA-256, MGF1-SHA-256 and a 32-byte salt; ECDSA P-256 with SHA-256. */
export type SignatureAlgorithm = "rsa-pkcs1-sha256" | "rsa-pss-sha256" | "ecdsa-p256-sha256";

/** A certificate and the means to sign with its private key. */
export interface Signer {
  /** The signing certificate, DER. */
  readonly certificate: Uint8Array;
  /** The type of the certificate's key, which decides the algorithms it can sign with. */
  readonly keyType: "rsa" | "ec";
  /**
   * The signature of `data` (the signer hashes it): RSA signatures as their bytes, ECDSA as r || s of 32 bytes
   * each (IEEE P1363), the form XML-DSig and KOD II both use.
   */
  sign(data: Uint8Array, algorithm: SignatureAlgorithm): Promise<Uint8Array>;
}

/**
 * The simulator's public keys (KSeF's `klucze-publiczne-do-szyfrowania.md`):
 * each published with `certificateId` (SHA-256 of the certificate's DER) and
 * `publicKeyId` (SHA-256 of its SubjectPublicKeyInfo DER), both Base64. An
 * emergency rotation (§3.2.2) withdraws the current key: it is no longer
 * listed, and a request naming its `publicKeyId` gets 21470 (§4.3). The keys
 * are self-signed test fixtures (test/fixtures/ksef/SOURCES.md).
 */
import { constants, createHash, privateDecrypt, X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { fixturePath } from "./server.ts";

/** One key pair with its certificate. */
interface SimKey {
  certificate: string;
  certificateId: string;
  publicKeyId: string;
  validFrom: string;
  validTo: string;
  keyPem: string;
  withdrawn: boolean;
}

/** The outcome of decrypting with the key a request names. */
export type Decrypted = { ok: true; plain: Buffer } | { ok: false; unknownKey: boolean };

/** The simulator's key ring: the fixture keys in order; the first not withdrawn is current. */
export class SimKeys {
  #keys: SimKey[];
  #validTo: string | undefined;

  constructor(validTo?: string) {
    this.#validTo = validTo;
    this.#keys = [["simulator_cert.pem", "simulator_key.pem"], ["simulator_cert2.pem", "simulator_key2.pem"]].map(([cert, key]) => {
      const x509 = new X509Certificate(readFileSync(fixturePath("ksef", cert!), "utf8"));
      const spki = x509.publicKey.export({ type: "spki", format: "der" });
      return {
        certificate: x509.raw.toString("base64"),
        certificateId: createHash("sha256").update(x509.raw).digest("base64"),
        publicKeyId: createHash("sha256").update(spki).digest("base64"),
        validFrom: new Date(x509.validFrom).toISOString(),
        validTo: new Date(x509.validTo).toISOString(),
        keyPem: readFileSync(fixturePath("ksef", key!), "utf8"),
        withdrawn: false,
      };
    });
  }

  /** GET /security/public-key-certificates: the current key for both usages. */
  published(): Record<string, unknown>[] {
    const k = this.#current();
    return ["KsefTokenEncryption", "SymmetricKeyEncryption"].map((usage) => ({
      certificate: k.certificate, certificateId: k.certificateId, publicKeyId: k.publicKeyId,
      validFrom: k.validFrom, validTo: this.#validTo ? new Date(this.#validTo).toISOString() : k.validTo, usage: [usage],
    }));
  }

  /** Withdraws the current key and publishes the next (§3.2.2). */
  rotate(): void {
    const k = this.#current();
    if (this.#keys.indexOf(k) === this.#keys.length - 1) throw new Error("simulator: no further fixture key to rotate to");
    k.withdrawn = true;
  }

  /** RSA-OAEP SHA-256 decryption with the key `publicKeyId` names (the current one when absent). */
  decrypt(publicKeyId: unknown, data: string): Decrypted {
    const k = publicKeyId === undefined || publicKeyId === null ? this.#current() : this.#keys.find((x) => x.publicKeyId === publicKeyId && !x.withdrawn);
    if (!k) return { ok: false, unknownKey: true };
    try {
      return { ok: true, plain: privateDecrypt({ key: k.keyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" }, Buffer.from(data, "base64")) };
    } catch {
      return { ok: false, unknownKey: false };
    }
  }

  #current(): SimKey {
    return this.#keys.find((k) => !k.withdrawn)!;
  }
}

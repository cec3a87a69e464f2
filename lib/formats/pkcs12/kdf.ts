/**
 * The PKCS#12 key derivation (RFC 7292 Appendix B.2) that derives the integrity key of a PFX's MacData (ID 3),
 * with the password as a BMPString with two trailing zero octets (Appendix B.1). Only the MAC uses it here: keys
 * and certificates encrypted with the PKCS#12 PBE schemes of Appendix C (3DES, RC2) are refused by the reader.
 * In one go, or in slices that let an event loop breathe between them; threads are the caller's business.
 * @module
 */
import { createHash } from "node:crypto";

/** RFC 7292 B.3: the purpose byte for MAC keys. */
export const PKCS12_MAC_ID = 3;

/** The block size `v` (bits / 8) of the hashes the MAC may use. */
const _BLOCK_BYTES: Readonly<Record<string, number>> = { sha1: 64, sha224: 64, sha256: 64, sha384: 128, sha512: 128 };

/** The password in RFC 7292 B.1's form: big-endian UTF-16 code units, then two zero octets. */
export function bmpPassword(passphrase: string): Uint8Array {
  const out = new Uint8Array(passphrase.length * 2 + 2);
  for (let i = 0; i < passphrase.length; i++) {
    const c = passphrase.charCodeAt(i);
    out[2 * i] = c >> 8;
    out[2 * i + 1] = c & 0xff;
  }
  return out;
}

/** `n` bytes of key material for `id` from `password` (bmpPassword()) and `salt`, iterated `iterations` times. */
export function pkcs12Kdf(hash: string, id: number, password: Uint8Array, salt: Uint8Array, iterations: number, n: number): Uint8Array {
  const steps = _pkcs12Kdf(hash, id, password, salt, iterations, n);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * pkcs12Kdf() in slices: it awaits `pause()` after each KDF_SLICE_ITERATIONS hashes, so that a caller on an event
 * loop can let other work run between them (where no thread can take the derivation: Deno, README "KSeF").
 */
export async function pkcs12KdfSliced(hash: string, id: number, password: Uint8Array, salt: Uint8Array, iterations: number, n: number, pause: () => Promise<void>): Promise<Uint8Array> {
  const steps = _pkcs12Kdf(hash, id, password, salt, iterations, n);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}

/**
 * Hashes between two pauses of pkcs12KdfSliced(): a hash object per iteration costs 1-5 µs (measured 4.7 µs on a
 * busy 2-core test machine), so a slice holds the loop 2-10 ms, well inside the 100 ms a /healthz may wait.
 */
export const KDF_SLICE_ITERATIONS = 2048;

// The derivation as steps: it yields after every KDF_SLICE_ITERATIONS hashes and returns the key material.
function* _pkcs12Kdf(hash: string, id: number, password: Uint8Array, salt: Uint8Array, iterations: number, n: number): Generator<void, Uint8Array> {
  const v = _BLOCK_BYTES[hash];
  if (v === undefined) throw new RangeError(`No PKCS#12 KDF for ${hash}`);
  const D = new Uint8Array(v).fill(id);
  const fill = (src: Uint8Array): Uint8Array => {
    const out = new Uint8Array(v * Math.ceil(src.length / v));
    for (let i = 0; i < out.length; i++) out[i] = src[i % src.length]!;
    return out;
  };
  const I = new Uint8Array([...fill(salt), ...fill(password)]);
  const out = new Uint8Array(n);
  for (let done = 0; done < n;) {
    let A: Uint8Array = createHash(hash).update(D).update(I).digest();
    for (let r = 1; r < iterations; r++) {
      A = createHash(hash).update(A).digest();
      if (r % KDF_SLICE_ITERATIONS === 0) yield;
    }
    out.set(A.subarray(0, Math.min(A.length, n - done)), done);
    done += A.length;
    if (done >= n) break;
    // Ij = (Ij + B + 1) mod 2^(8v), B being A repeated to v bytes.
    const B = new Uint8Array(v);
    for (let i = 0; i < v; i++) B[i] = A[i % A.length]!;
    for (let j = 0; j < I.length; j += v) {
      let carry = 1;
      for (let i = v - 1; i >= 0; i--) {
        const s = I[j + i]! + B[i]! + carry;
        I[j + i] = s & 0xff;
        carry = s >> 8;
      }
    }
  }
  return out;
}

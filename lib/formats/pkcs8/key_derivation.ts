/**
 * The password-based key derivations the key readers need (PBKDF2, RFC 8018 §5.2; the PKCS#12 KDF, RFC 7292
 * Appendix B.2) as requests a reader hands to a `DeriveKey`, so that the same reader runs with derivations done
 * at once (deriveKeySync) or elsewhere (readWithAsyncDerivation: on a thread, or in slices) without the event loop
 * waiting out seconds of hashing. It does not start threads: a caller that has them passes its own derivation.
 * @module
 */
import { pbkdf2, pbkdf2Sync } from "node:crypto";
import { pkcs12Kdf, pkcs12KdfSliced } from "../pkcs12/kdf.ts";

/** One derivation: PBKDF2 over the password's bytes, or the PKCS#12 KDF (`id` its purpose byte, the password a BMPString). */
export type KdfRequest =
  | { kind: "pbkdf2"; hash: string; password: Uint8Array; salt: Uint8Array; iterations: number; length: number }
  | { kind: "pkcs12"; hash: string; id: number; password: Uint8Array; salt: Uint8Array; iterations: number; length: number };

/** What a reader calls for each derivation it needs; synchronous, since the readers are. */
export type DeriveKey = (request: KdfRequest) => Uint8Array;

/** Does the derivation now, on this thread. */
export function deriveKeySync(r: KdfRequest): Uint8Array {
  if (r.kind === "pbkdf2") return pbkdf2Sync(r.password, r.salt, r.iterations, r.length, r.hash);
  return pkcs12Kdf(r.hash, r.id, r.password, r.salt, r.iterations, r.length);
}

/**
 * Does the derivation without holding the event loop: PBKDF2 through node:crypto's asynchronous pbkdf2() (the
 * runtime's thread pool, on Node and Deno alike), the PKCS#12 KDF in slices with a timer turn between them
 * (pkcs12KdfSliced(): the loop runs other work in between; a caller with a thread does better, see kdf_thread.ts).
 */
export function deriveKeyAsync(r: KdfRequest): Promise<Uint8Array> {
  if (r.kind === "pkcs12") return pkcs12KdfSliced(r.hash, r.id, r.password, r.salt, r.iterations, r.length, _nextTurn);
  return new Promise((resolve, reject) => pbkdf2(r.password, r.salt, r.iterations, r.length, r.hash, (e, key) => (e ? reject(e) : resolve(new Uint8Array(key)))));
}

/**
 * The rounds a reader may need: each derivation it asks for is one (a PKCS#12 file's MAC, its encrypted
 * contents, the shrouded key inside them), and the readers' own limits allow a handful. Past this the input
 * changed between rounds (a file rewritten while read).
 */
export const MAX_DERIVATION_ROUNDS = 16;

/**
 * What `read` returns, its derivations done by `derive` (asynchronous): `read` runs until it asks for a key not
 * yet derived, that one is derived, and `read` runs again from the start with it, until it needs none. A reader
 * is cheap beside its derivations (a parse and an AES decryption), so running it again costs little; it must
 * let the error a DeriveKey throws pass through its own catch blocks.
 */
export async function readWithAsyncDerivation<T>(read: (derive: DeriveKey) => T, derive: (r: KdfRequest) => Promise<Uint8Array> = deriveKeyAsync): Promise<T> {
  const known = new Map<string, Uint8Array>();
  for (let round = 0; round < MAX_DERIVATION_ROUNDS; round++) {
    let wanted: KdfRequest | null = null;
    try {
      return read((r) => {
        const key = known.get(_keyOf(r));
        if (key !== undefined) return key;
        wanted = r;
        throw new DerivationPending();
      });
    } catch (e) {
      if (!(e instanceof DerivationPending) || wanted === null) throw e;
    }
    const r: KdfRequest = wanted;
    known.set(_keyOf(r), await derive(r));
  }
  throw new RangeError(`The input asked for more than ${MAX_DERIVATION_ROUNDS} key derivations: it changed while it was read`);
}

/** Thrown through a reader by readWithAsyncDerivation()'s DeriveKey when the key is not derived yet; never escapes it. */
export class DerivationPending extends Error {
  constructor() {
    super("A key derivation is pending");
    this.name = "DerivationPending";
  }
}

function _keyOf(r: KdfRequest): string {
  const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  // Not the password: it is the same throughout one read (the kind tells its two encodings apart).
  return [r.kind, r.hash, r.kind === "pkcs12" ? r.id : "", hex(r.salt), r.iterations, r.length].join("|");
}

function _nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

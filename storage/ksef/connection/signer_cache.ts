/**
 * A memo of loaded signers (README "KSeF"): reading a key file may mean a PKCS#12 or PBES2 key derivation of a
 * second or more (OpenSSL 3 writes PKCS#12 files with 2,048 iterations; others use 600,000), and the signer is asked
 * for on every sync, upload and /readyz. An entry is reused while every file it read is the same file (device,
 * inode, size, mtime, ctime: a rewrite, touch or chmod shows) and the passphrase is the same (an HMAC of it under a
 * key of this process: the passphrase itself is not kept). A failure is remembered the same way.
 * @module
 */
import { createHmac, randomBytes } from "node:crypto";
import { statSync } from "node:fs";

/** Entries kept: a server has one per configured signer; past this the oldest goes (a bound, not a working size). */
const _MAX_ENTRIES = 256;

type _Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Loaded signers by what they were loaded from. */
export class SignerCache<T> {
  #entries = new Map<string, { identity: string; outcome: _Outcome<T> }>();
  #hmacKey = randomBytes(32);
  /** How many times a load ran (tests count decryptions with it). */
  loads = 0;

  /**
   * The value `load` gives for `paths` (and `what`, the rest that shapes the result), reusing the last one while
   * the files and `passphrase` are unchanged; `load`'s error is rethrown likewise.
   */
  get(what: string, paths: readonly string[], passphrase: string | undefined, load: () => T): T {
    const key = JSON.stringify([what, paths]);
    const identity = this.#identity(paths, passphrase);
    const hit = identity === null ? undefined : this.#entries.get(key);
    let outcome: _Outcome<T>;
    if (hit !== undefined && hit.identity === identity) {
      outcome = hit.outcome;
    } else {
      this.loads++;
      try {
        outcome = { ok: true, value: load() };
      } catch (error) {
        outcome = { ok: false, error };
      }
      this.#entries.delete(key);
      if (identity !== null) this.#entries.set(key, { identity, outcome });
      if (this.#entries.size > _MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    }
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  // null when a file cannot be stat()ed: the load then runs and says what is wrong with it.
  #identity(paths: readonly string[], passphrase: string | undefined): string | null {
    const parts: string[] = [];
    for (const path of paths) {
      try {
        const s = statSync(path, { bigint: true });
        parts.push(`${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.mode}`);
      } catch {
        return null;
      }
    }
    parts.push(passphrase === undefined ? "-" : createHmac("sha256", this.#hmacKey).update(passphrase).digest("hex"));
    return parts.join("|");
  }
}

/**
 * A memo of loaded signers (README "KSeF"): reading a key file may mean a PKCS#12 or PBES2 key derivation of a
 * second or more (OpenSSL 3 writes PKCS#12 files with 2,048 iterations; others use 600,000), and the signer is asked
 * for on every sync, upload and /readyz. An entry is reused while every file it read is the same file (device,
 * inode, size, mtime, ctime: a rewrite, touch or chmod shows) and the passphrase is the same (an HMAC of it under a
 * key of this process: the passphrase itself is not kept). A failure is remembered the same way. Loads may be
 * asynchronous (their key derivations off the event loop); once `deferLoads` is set (a server, after its start),
 * a synchronous get() of what is not loaded starts that load and throws SignerLoading instead of deriving there.
 * @module
 */
import { createHmac, randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import { deriveKeyAsync, type KdfRequest } from "../../../lib/formats/pkcs8/key_derivation.ts";

/** Entries kept: a server has one per configured signer; past this the oldest goes (a bound, not a working size). */
const _MAX_ENTRIES = 256;

type _Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * A signer whose files are being read in the background (SignerCache.deferLoads): `ready` resolves once the load
 * has ended, well or not, and asking again then gives its outcome. A RangeError, so that a caller that does
 * without an unusable signer (keeps what it had, leaves it out) does the same meanwhile.
 */
export class SignerLoading extends RangeError {
  readonly ready: Promise<void>;
  constructor(ready: Promise<void>) {
    super("The signing key is being read (its key derivation runs in the background): try again in a moment");
    this.name = "SignerLoading";
    this.ready = ready;
  }
}

/** Loaded signers by what they were loaded from. */
export class SignerCache<T> {
  #entries = new Map<string, { identity: string; outcome: _Outcome<T> }>();
  #loading = new Map<string, { identity: string; done: Promise<void> }>();
  #hmacKey = randomBytes(32);
  /** How many times a load ran (tests count decryptions with it). */
  loads = 0;
  /** A get() of what is not loaded starts loadAsync in the background and throws SignerLoading (see the module). */
  deferLoads = false;
  /** How asynchronous loads derive keys: default in slices on the event loop (key_derivation.ts); a server passes a thread's. */
  deriveAsync: (r: KdfRequest) => Promise<Uint8Array> = deriveKeyAsync;

  /**
   * The value `load` gives for `paths` (and `what`, the rest that shapes the result), reusing the last one while
   * the files and `passphrase` are unchanged; `load`'s error is rethrown likewise. With `deferLoads`, a value not
   * loaded is loaded by `loadAsync`, in the background, and this throws SignerLoading meanwhile.
   */
  get(what: string, paths: readonly string[], passphrase: string | undefined, load: () => T, loadAsync?: () => Promise<T>): T {
    const key = JSON.stringify([what, paths]);
    const identity = this.#identity(paths, passphrase);
    const hit = identity === null ? undefined : this.#entries.get(key);
    let outcome: _Outcome<T>;
    if (hit !== undefined && hit.identity === identity) {
      outcome = hit.outcome;
    } else if (this.deferLoads && loadAsync !== undefined && identity !== null) {
      // (A file that cannot be stat()ed is loaded at once below: its load fails before any key derivation.)
      throw new SignerLoading(this.#startLoad(key, identity, loadAsync));
    } else {
      this.loads++;
      try {
        outcome = { ok: true, value: load() };
      } catch (error) {
        outcome = { ok: false, error };
      }
      this.#keep(key, identity, outcome);
    }
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /** get() with the load done by `loadAsync` and awaited (one load at a time for the same files). */
  async getAsync(what: string, paths: readonly string[], passphrase: string | undefined, loadAsync: () => Promise<T>): Promise<T> {
    const key = JSON.stringify([what, paths]);
    for (let tries = 0; ; tries++) {
      const identity = this.#identity(paths, passphrase);
      const hit = identity === null ? undefined : this.#entries.get(key);
      if (hit !== undefined && hit.identity === identity) {
        if (!hit.outcome.ok) throw hit.outcome.error;
        return hit.outcome.value;
      }
      // A load of other files under this key, or files that change as fast as they are read: load once more, here.
      if (identity === null || tries > 2) {
        this.loads++;
        return loadAsync();
      }
      await this.#startLoad(key, identity, loadAsync);
    }
  }

  // The load of `key` at `identity`, started unless one runs; resolves once its outcome is kept.
  #startLoad(key: string, identity: string, loadAsync: () => Promise<T>): Promise<void> {
    const running = this.#loading.get(key);
    if (running !== undefined && running.identity === identity) return running.done;
    this.loads++;
    const done = loadAsync().then((value): _Outcome<T> => ({ ok: true, value }), (error: unknown): _Outcome<T> => ({ ok: false, error })).then((outcome) => {
      if (this.#loading.get(key)?.done === done) this.#loading.delete(key);
      this.#keep(key, identity, outcome);
    });
    this.#loading.set(key, { identity, done });
    return done;
  }

  #keep(key: string, identity: string | null, outcome: _Outcome<T>): void {
    this.#entries.delete(key);
    if (identity !== null) this.#entries.set(key, { identity, outcome });
    if (this.#entries.size > _MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
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

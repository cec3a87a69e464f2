/**
 * The embedded default storage: everything under one data directory.
 *
 *   tokens.json                      token records (hashes only), replaced atomically
 *   secrets/NAME.key                 installation secrets (cursor signing)
 *   tenants/TENANT/                  one FileTenantStore each (record logs, blobs)
 *
 * The token file is re-read when it changes on disk, so `token create|revoke`
 * from another process takes effect in the running server within a second.
 * @module
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TokenRecord } from "../../lib/contracts/tokens.ts";
import type { Storage, TenantStore, TokenStore } from "../../lib/contracts/storage.ts";
import { removeTempLeftovers, writeFileAtomic } from "../atomic.ts";
import { withFileLock } from "./lock.ts";
import { FileTenantStore } from "./tenant.ts";
import { isValidTenantId } from "../../lib/contracts/ids.ts";
import { signalUnavailable } from "../../lib/contracts/storage_errors.ts";
import { fileUnavailableCode } from "./unavailable.ts";

const TOKEN_RELOAD_MS = 500; // README “Configuration”: the running server sees token changes within a second

/** Options of the file store. */
export interface FileStorageOptions {
  /** fsync every write (default true); bulk imports may turn it off and call flush(). */
  durable?: boolean;
  /** Other processes use the same directory at the same time (WORKERS > 1): writes lock, reads catch up. */
  shared?: boolean;
}

/** The file store rooted at `dir`. */
export class FileStorage implements Storage {
  readonly dir: string;
  readonly tokens: TokenStore;
  #tenants = new Map<string, FileTenantStore>();
  #durable: boolean;
  #shared: boolean;

  constructor(dir: string, options: FileStorageOptions = {}) {
    this.dir = dir;
    this.#durable = options.durable ?? true;
    this.#shared = options.shared ?? false;
    for (const sub of ["", "secrets", "tenants"]) mkdirSync(join(dir, sub), { recursive: true });
    removeTempLeftovers(dir);
    removeTempLeftovers(join(dir, "secrets"));
    this.tokens = signalUnavailable(new _FileTokenStore(join(dir, "tokens.json")), fileUnavailableCode);
  }

  tenant(id: string): TenantStore {
    let t = this.#tenants.get(id);
    if (!t) {
      if (!isValidTenantId(id)) throw new TypeError(`Invalid tenant id: ${id}`);
      const dir = join(this.dir, "tenants", id);
      if (existsSync(dir)) _cleanTenantDir(dir, !this.#shared);
      // A full disk and its kind reach the core as StorageUnavailableError (503), not as a bug.
      t = signalUnavailable(new FileTenantStore(id, dir, this.#durable, this.#shared), fileUnavailableCode);
      this.#tenants.set(id, t);
    }
    return t;
  }

  async tenants(): Promise<string[]> {
    return readdirSync(join(this.dir, "tenants")).filter(isValidTenantId).sort();
  }

  async secret(name: string): Promise<Uint8Array> {
    const path = join(this.dir, "secrets", `${name}.key`);
    if (!existsSync(path)) writeFileAtomic(path, crypto.getRandomValues(new Uint8Array(32)));
    return readFileSync(path);
  }

  async check(): Promise<void> {
    const probe = join(this.dir, `.ready-probe-${process.pid}`);
    try {
      await writeFile(probe, "ok");
    } finally {
      await rm(probe, { force: true });
    }
  }

  async close(): Promise<void> {
    for (const t of this.#tenants.values()) t.close();
    this.#tenants.clear();
  }

  /** Makes non-durable writes durable. */
  flush(): void {
    for (const t of this.#tenants.values()) t.flush();
  }
}

/**
 * Removes what a crashed predecessor left. When this process is the directory's only user, in-flight idempotency
 * markers go too: their pid may belong to this very process after a restart (pid 1 in a container), which would
 * make the key look held forever.
 */
function _cleanTenantDir(dir: string, soleUser: boolean): void {
  removeTempLeftovers(dir);
  if (soleUser) rmSync(join(dir, "idempotency-inflight"), { recursive: true, force: true });
  for (const sub of ["blobs", "derived"]) {
    const root = join(dir, sub);
    if (!existsSync(root)) continue;
    for (const shard of readdirSync(root)) removeTempLeftovers(join(root, shard));
  }
}

class _FileTokenStore implements TokenStore {
  #path: string;
  #byKey = new Map<string, TokenRecord>();
  #mtime = -1;
  #checkedAt = 0;

  constructor(path: string) {
    this.#path = path;
    this.#reload(true);
  }

  #reload(force: boolean): void {
    const now = Date.now();
    if (!force && now - this.#checkedAt < TOKEN_RELOAD_MS) return;
    this.#checkedAt = now;
    let mtime = 0;
    try {
      const st = statSync(this.#path);
      mtime = st.mtimeMs + st.ino; // a rename changes the inode even within one mtime tick
    } catch {
      mtime = 0;
    }
    if (mtime === this.#mtime) return;
    this.#mtime = mtime;
    const list: TokenRecord[] = mtime ? (JSON.parse(readFileSync(this.#path, "utf8")) as { tokens: TokenRecord[] }).tokens : [];
    this.#byKey = new Map(list.map((t) => [t.key_id, t]));
  }

  #save(): void {
    writeFileAtomic(this.#path, JSON.stringify({ tokens: [...this.#byKey.values()] }, null, 1));
    this.#mtime = -1;
  }

  async find(keyId: string): Promise<TokenRecord | null> {
    this.#reload(false);
    return this.#byKey.get(keyId) ?? null;
  }

  async create(token: TokenRecord): Promise<void> {
    if (!isValidTenantId(token.tenant)) throw new TypeError(`Invalid tenant id: ${token.tenant}`);
    this.#update(() => void this.#byKey.set(token.key_id, token));
  }

  async list(tenant?: string): Promise<TokenRecord[]> {
    this.#reload(true);
    return [...this.#byKey.values()].filter((t) => tenant === undefined || t.tenant === tenant);
  }

  async revoke(keyId: string, now: string): Promise<boolean> {
    return this.#update(() => {
      const t = this.#byKey.get(keyId);
      if (!t) return false;
      if (t.revoked_at === null) this.#byKey.set(keyId, { ...t, revoked_at: now });
      return true;
    });
  }

  /**
   * Reads, changes and writes the file under a lock: `token create` and `token revoke` run in their own processes
   * beside a server, and two read-modify-writes at once would lose one (a revocation, say).
   */
  #update<T>(change: () => T): T {
    return withFileLock(`${this.#path}.lock`, () => {
      this.#reload(true);
      const result = change();
      this.#save();
      return result;
    });
  }
}

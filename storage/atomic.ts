/**
 * Crash-safe whole-file writes: temp file → fsync → rename → fsync of the
 * directory. After `kill -9` or power loss the target is either the old or the
 * new content, never a mix. A write that fails removes its temp file; what a
 * crash leaves (`*.tmp-*`) is removed at startup.
 * @module
 */
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";

let _seq = 0;

/** Writes `data` to `path` atomically and durably. */
export function writeFileAtomic(path: string, data: Uint8Array | string): void {
  const tmp = `${path}.tmp-${process.pid}-${++_seq}`;
  const fd = openSync(tmp, "w", 0o600);
  try {
    try {
      const bytes = typeof data === "string" ? Buffer.from(data) : data;
      let off = 0;
      while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    // A failed write (disk full) gives back what it took, so the disk recovers without a restart (issue 15 #12).
    rmSync(tmp, { force: true });
    throw e;
  }
  fsyncDir(dirname(path));
}

/** Makes a directory entry change (create, rename) durable. */
export function fsyncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on directories (EINVAL); the rename is then as durable as they allow.
  } finally {
    closeSync(fd);
  }
}

/**
 * Removes temp files that a crash left in `dir` (not recursive): those of processes that are gone. Another
 * live process on a shared data directory may be writing its own right now.
 */
export function removeTempLeftovers(dir: string): number {
  let n = 0;
  for (const name of readdirSync(dir)) {
    const m = /\.tmp-(\d+)-\d+$/.exec(name);
    if (m && !isProcessAlive(Number(m[1]))) {
      rmSync(join(dir, name), { force: true });
      n++;
    }
  }
  return n;
}

/** True while process `pid` exists (its lock or temp files are then not leftovers). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

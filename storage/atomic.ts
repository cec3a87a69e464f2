/**
 * Crash-safe whole-file writes: temp file → fsync → rename → fsync of the
 * directory. After `kill -9` or power loss the target is either the old or the
 * new content, never a mix. A write that fails removes its temp file; what a
 * crash leaves (`*.tmp-*`) is removed at startup.
 *
 * The stores write through the asynchronous functions (libuv's thread pool), so a
 * flush never holds up the event loop; writeFilesAtomic() writes several files
 * with one flush per directory (group commit, README "How data is kept (file store)").
 * The synchronous writeFileAtomic() is for processes that do nothing else meanwhile
 * (the `token` command) and for small position files of the document sources.
 * @module
 */
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";

let _seq = 0;

function _tempName(path: string): string {
  return `${path}.tmp-${process.pid}-${++_seq}`;
}

/** Writes `data` to `path` atomically and durably, blocking (see the module note for who may). */
export function writeFileAtomic(path: string, data: Uint8Array | string): void {
  const tmp = _tempName(path);
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
    // A failed write (disk full) gives back what it took, so the disk recovers without a restart.
    rmSync(tmp, { force: true });
    throw e;
  }
  fsyncDir(dirname(path));
}

/** Writes `data` to `path` atomically and durably, off the event loop. */
export async function writeFileAtomicAsync(path: string, data: Uint8Array | string): Promise<void> {
  const [result] = await writeFilesAtomic([{ path, data }]);
  if (result) throw result;
}

/**
 * Writes several files atomically and durably: every temp file written and flushed concurrently, renamed, then one
 * flush per directory. Returns, per file, null when it is durable or the error that stopped it (its temp file
 * removed); one file failing (disk full) does not fail the others.
 */
export async function writeFilesAtomic(files: { path: string; data: Uint8Array | string }[]): Promise<(Error | null)[]> {
  const results = await Promise.all(files.map(async ({ path, data }): Promise<Error | null> => {
    const tmp = _tempName(path);
    try {
      const fh = await open(tmp, "w", 0o600);
      try {
        await fh.writeFile(data);
        await fh.datasync();
      } finally {
        await fh.close();
      }
      await rename(tmp, path);
      return null;
    } catch (e) {
      await rm(tmp, { force: true }).catch(() => {});
      return e as Error;
    }
  }));
  const dirs = new Set(files.filter((_, i) => results[i] === null).map((f) => dirname(f.path)));
  await Promise.all([...dirs].map(fsyncDirAsync));
  return results;
}

/** Makes a directory entry change (create, rename) durable, blocking. */
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

/** Makes a directory entry change (create, rename) durable, off the event loop. */
export async function fsyncDirAsync(dir: string): Promise<void> {
  const fh = await open(dir, "r");
  try {
    await fh.sync();
  } catch {
    // Some filesystems refuse fsync on directories (EINVAL); the rename is then as durable as they allow.
  } finally {
    await fh.close();
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

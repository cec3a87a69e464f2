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
import { close, closeSync, fdatasync, fsync, fsyncSync, open, openSync, readdirSync, renameSync, rmSync, write, writeSync, writev } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";

let _seq = 0;

// The callback API on plain fds (libuv's pool, like fs/promises): the calls every runtime this runs on implements.
const _done = <T>(resolve: (v: T) => void, reject: (e: unknown) => void) => (err: NodeJS.ErrnoException | null, v?: T): void => (err ? reject(err) : resolve(v as T));

/** Opens a file off the event loop; the fd is for the functions below. */
export function openAsync(path: string, flags: string, mode = 0o600): Promise<number> {
  return new Promise((resolve, reject) => open(path, flags, mode, _done(resolve, reject)));
}

export function closeAsync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => close(fd, _done(resolve, reject)));
}

export function fdatasyncAsync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fdatasync(fd, _done(resolve, reject)));
}

export function fsyncAsync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, _done(resolve, reject)));
}

/** Pieces one vectored write takes at most (IOV_MAX on Linux and macOS). */
const IOV_MAX = 1024;

/**
 * Writes `pieces` one after another at the descriptor's position, with vectored writes (a few calls for many
 * pieces; Node hands them to the system as they are, Deno's node:fs joins them first); a write that stops short goes
 * on from where it stopped.
 */
export async function writevAllAsync(fd: number, pieces: readonly Uint8Array[]): Promise<void> {
  let rest = pieces.filter((p) => p.length > 0);
  while (rest.length > 0) {
    const group = rest.slice(0, IOV_MAX);
    let n = await new Promise<number>((resolve, reject) => writev(fd, group, null, _done(resolve, reject)));
    let i = 0;
    for (; i < group.length && n >= group[i]!.length; i++) n -= group[i]!.length;
    rest = i < group.length ? [group[i]!.subarray(n), ...rest.slice(i + 1)] : rest.slice(i);
  }
}

/** Writes all of `bytes` at `position` (null: at the file's end, for a descriptor opened to append). */
export async function writeAllAsync(fd: number, bytes: Uint8Array, position: number | null): Promise<void> {
  let off = 0;
  while (off < bytes.length) {
    const at = position === null ? null : position + off;
    off += await new Promise<number>((resolve, reject) => write(fd, bytes, off, bytes.length - off, at, _done(resolve, reject)));
  }
}

/** Writes `data` to a new file at `path` and flushes it (data and size), closing it whatever happens. */
async function _writeFlushed(path: string, data: Uint8Array | string, flags: string): Promise<void> {
  const fd = await openAsync(path, flags);
  try {
    await writeAllAsync(fd, typeof data === "string" ? Buffer.from(data) : data, null);
    await fdatasyncAsync(fd);
  } finally {
    await closeAsync(fd);
  }
}

/** Appends `data` to `path` (created if need be) and flushes it. */
export function appendFlushed(path: string, data: Uint8Array | string): Promise<void> {
  return _writeFlushed(path, data, "a");
}

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
      await _writeFlushed(tmp, data, "w");
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
  const fd = await openAsync(dir, "r");
  try {
    await fsyncAsync(fd);
  } catch {
    // Some filesystems refuse fsync on directories (EINVAL); the rename is then as durable as they allow.
  } finally {
    await closeAsync(fd);
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

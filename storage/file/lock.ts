/**
 * A cross-process lock for a shared data directory: a lock file created with
 * O_EXCL that names its holder's pid. A lock whose holder has died (kill -9) is
 * broken by renaming it away, so only one waiter can break it. The stores take it
 * asynchronously around a group commit (withFileLockAsync: waiters sleep 1 ms on a
 * timer, the event loop goes on); the blocking withFileLock is for the `token`
 * command, a process that does nothing else meanwhile.
 * @module
 */
import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { readFile, rename, rm, stat } from "node:fs/promises";
import { closeAsync, openAsync, writeAllAsync } from "../atomic.ts";
import { isHolderAlive, ownStamp, parseStamp } from "./process_stamp.ts";

const WAIT_LIMIT_MS = 10_000; // a write holds the lock for an fsync or two: this is a stuck holder
const _sleeper = new Int32Array(new SharedArrayBuffer(4));


/** Runs `fn` holding the lock file at `path`. */
export function withFileLock<T>(path: string, fn: () => T): T {
  const started = Date.now();
  while (!_create(path)) {
    const holder = _holder(path);
    if (holder === null) continue; // released meanwhile
    if (holder.pid > 0 && !isHolderAlive(holder)) {
      try {
        renameSync(path, `${path}.broken-${process.pid}`);
        rmSync(`${path}.broken-${process.pid}`, { force: true });
      } catch {
        // Another waiter broke it first.
      }
      continue;
    }
    if (Date.now() - started > WAIT_LIMIT_MS) throw new Error(`Cannot take the lock ${path}: held by process ${holder.pid}`);
    Atomics.wait(_sleeper, 0, 0, 1);
  }
  try {
    return fn();
  } finally {
    rmSync(path, { force: true });
  }
}

/** Runs `fn` holding the lock file at `path`, waiting for it without blocking the event loop. */
export async function withFileLockAsync<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  while (!(await _createAsync(path))) {
    const holder = await _holderAsync(path);
    if (holder === null) continue; // released meanwhile
    if (holder.pid > 0 && !isHolderAlive(holder)) {
      await rename(path, `${path}.broken-${process.pid}`).then(() => rm(`${path}.broken-${process.pid}`, { force: true }), () => {}); // another waiter broke it first
      continue;
    }
    if (Date.now() - started > WAIT_LIMIT_MS) throw new Error(`Cannot take the lock ${path}: held by process ${holder.pid}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  try {
    return await fn();
  } finally {
    await rm(path, { force: true });
  }
}

/** Creates a marker file naming this process; false when a live process holds it already. */
export async function claimMarkerAsync(path: string): Promise<boolean> {
  for (;;) {
    if (await _createAsync(path)) return true;
    const holder = await _holderAsync(path);
    if (holder === null) continue;
    // 0: another process created the file and has not written its pid yet, unless it died in between.
    if (holder.pid === 0 && !(await _olderThanAsync(path, WAIT_LIMIT_MS))) return false;
    if (holder.pid > 0 && isHolderAlive(holder)) return false; // a reused pid with another start time is not it
    await rm(path, { force: true }); // left by a process that died mid-request
  }
}

async function _createAsync(path: string): Promise<boolean> {
  try {
    const fd = await openAsync(path, "wx", 0o644);
    try {
      await writeAllAsync(fd, Buffer.from(ownStamp()), null);
    } finally {
      await closeAsync(fd);
    }
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    return false;
  }
}

/** The holder `path` names (pid 0 while its creator has not written it), or null when the file is gone. */
async function _holderAsync(path: string): Promise<{ pid: number; started: string | null } | null> {
  try {
    return parseStamp(await readFile(path, "utf8"));
  } catch {
    return null;
  }
}

async function _olderThanAsync(path: string, ms: number): Promise<boolean> {
  try {
    return Date.now() - (await stat(path)).mtimeMs > ms;
  } catch {
    return true;
  }
}

/** Creates `path` naming this process; false when it exists. */
function _create(path: string): boolean {
  try {
    const fd = openSync(path, "wx");
    writeSync(fd, ownStamp());
    closeSync(fd);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    return false;
  }
}

/** The pid in `path` (0 while its creator has not written it), or null when the file is gone. */
function _holder(path: string): { pid: number; started: string | null } | null {
  try {
    return parseStamp(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
}

/**
 * Who holds a lock or marker file: a pid alone cannot tell, because pids are
 * reused (a restarted container's process is pid 1 again, with the same pid as
 * the one that died holding the file). A holder is named by its pid and its
 * start time, from field 22 (starttime) of Linux's /proc/<pid>/stat (proc(5));
 * where there is no /proc, by its pid alone, as before.
 * @module
 */
import { readFileSync } from "node:fs";
import { isProcessAlive } from "../atomic.ts";

/** The start time of process `pid` in clock ticks since boot, or null where /proc cannot tell. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

let _own: string | null | undefined;

/** What this process writes into a file it holds: `<pid>` or `<pid> <start time>`. */
export function ownStamp(): string {
  _own ??= processStartTime(process.pid);
  return _own === null ? String(process.pid) : `${process.pid} ${_own}`;
}

/**
 * True while the holder that `stamp` names runs: its pid is alive and, where both are known, started when the
 * stamp says (else the pid was reused by a process that never held the file).
 */
export function isHolderAlive(stamp: { pid: number; started: string | null }): boolean {
  if (!isProcessAlive(stamp.pid)) return false;
  if (stamp.started === null) return true;
  const now = processStartTime(stamp.pid);
  return now === null || now === stamp.started;
}

/** The holder a file's text names; pid 0 while its creator has not written it. */
export function parseStamp(text: string): { pid: number; started: string | null } {
  const [pid, started] = text.trim().split(" ");
  return { pid: Number(pid) || 0, started: started || null };
}

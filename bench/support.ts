/**
 * Shared plumbing of the HTTP benchmarks: command-line options, server child
 * processes (bench/support_server.ts) pinned to one core, wrk pinned to the
 * other, wrk's output parsed into numbers, /proc memory readings and tables.
 * It measures nothing by itself. Needs `wrk` on PATH (Debian: apt-get install wrk).
 * @module
 */
import type { Buffer } from "node:buffer";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import process from "node:process";
export { createRandom } from "../test/support/random.ts";

/** The repository root (the server child runs with this as its working directory). */
export const ROOT = join(import.meta.dirname, "..");
const CHILD_SCRIPT = join(ROOT, "bench", "support_server.ts");
const STARTUP_TIMEOUT_MS = 60_000; // a 1M-document store opens in well under this even on a busy machine

/** Options shared by the HTTP benches. */
export interface BenchOptions {
  /** Seconds per wrk run. */
  duration: number;
  /** How many times each figure is taken (interleaved); tables show every run and use the best. */
  runs: number;
  /** Raw --name=value flags, for bench-specific ones. */
  flags: Map<string, string>;
}

/** Parses `--duration=10s --runs=2` and any other `--name=value` flags. */
export function parseBenchArgs(argv: string[], defaults: { duration: number; runs: number }): BenchOptions {
  const flags = new Map<string, string>();
  for (const a of argv) {
    const m = /^--([a-z0-9-]+)(?:=(.*))?$/.exec(a);
    if (!m) throw new RangeError(`Unknown argument: ${a} (expected --name=value)`);
    flags.set(m[1]!, m[2] ?? "true");
  }
  const d = flags.get("duration");
  const duration = d === undefined ? defaults.duration : Number(/^(\d+)s?$/.exec(d)?.[1] ?? NaN);
  if (!Number.isInteger(duration) || duration < 1) throw new RangeError(`--duration must be whole seconds, e.g. 10s, not ${d}`);
  const r = flags.get("runs");
  const runs = r === undefined ? defaults.runs : Number(r);
  if (!Number.isInteger(runs) || runs < 1) throw new RangeError(`--runs must be a positive integer, not ${r}`);
  return { duration, runs, flags };
}

/** True when processes can be pinned: taskset exists and there are at least two cores. */
export const CAN_PIN = availableParallelism() >= 2 && spawnSync("taskset", ["-c", "0", "true"]).status === 0;

function _pinned(core: number, cmd: string, args: string[]): [string, string[]] {
  return CAN_PIN ? ["taskset", ["-c", String(core), cmd, ...args]] : [cmd, args];
}

/** Fails early, with the install hint, when wrk is missing. */
export function requireWrk(): string {
  const r = spawnSync("wrk", ["--version"], { encoding: "utf8" });
  if (r.error) {
    process.stderr.write("wrk is not installed: apt-get install -y wrk (Debian) or brew install wrk\n");
    process.exit(2);
  }
  return (r.stdout + r.stderr).split("\n")[0]!.replace(/ \[.*$/, "").trim();
}

/** The header line every bench prints first. */
export function printEnvironment(title: string, wrkVersion: string): void {
  console.log(title);
  console.log(`node ${process.version}, ${wrkVersion}, ${availableParallelism()} cores, ` +
    (CAN_PIN ? "server pinned to core 0 (taskset -c 0), wrk to core 1" : "no pinning (taskset or a second core missing)"));
}

/** A server child process. */
export interface ChildServer {
  pid: number;
  url: string;
  /** Process spawn to its "listening" line, in ms. */
  startupMs: number;
  /** What the child reported with its listening line (e.g. open_ms). */
  info: Record<string, unknown>;
  stop(): Promise<void>;
}

/** Spawns `bench/support_server.ts <mode> …args` pinned to core 0 and waits for its listening line. */
export async function startChild(mode: "app" | "bytes" | "stream", args: string[]): Promise<ChildServer> {
  const [cmd, argv] = _pinned(0, process.execPath, ["--import", "tsx", CHILD_SCRIPT, mode, ...args]);
  const started = performance.now();
  const child: ChildProcess = spawn(cmd, argv, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const info = await new Promise<Record<string, unknown>>((resolve, reject) => {
    let buf = "";
    const timer = setTimeout(() => reject(new Error(`${mode} server did not start within ${STARTUP_TIMEOUT_MS} ms`)), STARTUP_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      buf += chunk.toString("utf8");
      for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let msg: Record<string, unknown> | null = null;
        try {
          msg = JSON.parse(line) as Record<string, unknown>;
        } catch {
          process.stderr.write(`[${mode} server] ${line}\n`);
        }
        if (msg?.msg === "listening") {
          clearTimeout(timer);
          child.stdout!.off("data", onData);
          // The app logs a line per request, as server.ts does (the cost is part of what is measured): only the
          // lines that are not request lines are shown.
          let rest = buf;
          child.stdout!.on("data", (c: Buffer) => {
            rest += c.toString("utf8");
            const cut = rest.lastIndexOf("\n") + 1;
            for (const l of rest.slice(0, cut).split("\n")) if (l && !l.includes('"msg":"request"')) process.stderr.write(`[${mode} server] ${l}\n`);
            rest = rest.slice(cut);
          });
          resolve(msg);
          return;
        }
        if (msg) process.stderr.write(`[${mode} server] ${line}\n`);
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${mode} server exited with ${code} before listening`));
    });
  });
  const startupMs = performance.now() - started;
  // With taskset the pid is node's own: taskset execs it.
  return {
    pid: child.pid!, url: String(info.url), startupMs, info,
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    }),
  };
}

/** Resident and peak resident memory of a process, in MiB, from /proc/PID/status (null off Linux). */
export function memoryOf(pid: number): { rss: number; hwm: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (k: string): number => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, "m").exec(s)?.[1] ?? NaN);
    return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
  } catch {
    return null;
  }
}

/**
 * CPU time a process has used so far (user + system, all its threads), in ms, from /proc/PID/stat (null off
 * Linux). Per request it is a steadier figure than req/s where other work shares the cores.
 */
export function cpuMsOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** USER_HZ: the unit of the times in /proc/PID/stat (`getconf CLK_TCK`), 100 on Linux everywhere. */
const CLOCK_TICKS = 100;

/** One wrk run's figures. */
export interface WrkResult {
  rps: number;
  /** Latency percentiles in ms. */
  p50: number;
  p99: number;
  requests: number;
  /** Responses that were not 2xx/3xx, plus socket errors: must be 0 for the figure to count. */
  errors: number;
  /** Bytes read per second, as wrk reports it (MiB/s). */
  mibPerSec: number;
}

function _ms(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === "us" ? v / 1000 : m[2] === "ms" ? v : m[2] === "s" ? v * 1000 : v * 60_000;
}

function _mib(text: string): number {
  const m = /^([\d.]+)(B|KB|MB|GB)$/.exec(text.trim());
  if (!m) return NaN;
  return Number(m[1]) * ({ B: 1 / 1024 ** 2, KB: 1 / 1024, MB: 1, GB: 1024 } as const)[m[2] as "B"];
}

/** Parses wrk's --latency report. */
export function parseWrk(out: string): WrkResult {
  const num = (re: RegExp): string => re.exec(out)?.[1] ?? "";
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    rps: Number(num(/Requests\/sec:\s+([\d.]+)/)),
    p50: _ms(num(/^\s+50%\s+(\S+)/m)),
    p99: _ms(num(/^\s+99%\s+(\S+)/m)),
    requests: Number(num(/(\d+) requests in/)),
    errors: Number(num(/Non-2xx or 3xx responses: (\d+)/) || 0) +
      (sock ? Number(sock[1]) + Number(sock[2]) + Number(sock[3]) + Number(sock[4]) : 0),
    mibPerSec: _mib(num(/Transfer\/sec:\s+(\S+)/)),
  };
}

/**
 * Runs `wrk -t1 -c<connections> -d<seconds>s --latency` pinned to core 1; `script` is a wrk Lua script (see
 * pathsScript); `onTick` is called every 200 ms meanwhile; a warm-up may complete no request.
 */
export async function runWrk(
  url: string,
  options: { connections: number; seconds: number; headers?: Record<string, string>; script?: string; onTick?: () => void; warmUp?: boolean },
): Promise<WrkResult> {
  // A page-mode request at 1M documents can wait behind 49 others for seconds: only a hung server should time out.
  const args = ["-t1", `-c${options.connections}`, `-d${options.seconds}s`, "--latency", "--timeout", "30s"];
  if (options.script) args.push("-s", options.script);
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push("-H", `${k}: ${v}`);
  args.push(url);
  const [cmd, argv] = _pinned(1, "wrk", args);
  const child = spawn(cmd, argv, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (out += c.toString("utf8")));
  const tick = options.onTick ? setInterval(options.onTick, 200) : null;
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (tick) clearInterval(tick);
  const r = parseWrk(out);
  if (code !== 0 || !Number.isFinite(r.rps) || (r.requests === 0 && !options.warmUp)) throw new Error(`wrk failed (exit ${code}):\n${out}`);
  return r;
}

/** A wrk Lua script that asks for one of `paths` (path and query) at random on every request, with wrk's headers. */
export function pathsScript(paths: string[]): string {
  return `local paths = {\n${paths.map((p) => `  ${JSON.stringify(p)},`).join("\n")}\n}\n` +
    "request = function() return wrk.format(nil, paths[math.random(#paths)]) end\n";
}

/**
 * Waits until a server has worked off what wrk left queued when it stopped (node finishes requests whose
 * client is gone): answers to `url` come back fast again. Without this, slow page-mode requests would
 * bleed into the next measurement.
 */
export async function settle(url: string, headers: Record<string, string> = {}): Promise<void> {
  const deadline = performance.now() + 120_000;
  while (performance.now() < deadline) {
    const t0 = performance.now();
    await (await fetch(url, { headers })).arrayBuffer();
    if (performance.now() - t0 < 20) return;
  }
  throw new Error(`${url} stays slow after the load stopped`);
}

/** A fixed-width text table. */
export function printTable(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
}

/** `12,345` for req/s. */
export function fmtRps(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** Milliseconds with 2 significant decimals. */
export function fmtMs(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
}

/** A ratio as `0.62×`. */
export function fmtRatio(n: number): string {
  return `${n.toFixed(2)}×`;
}


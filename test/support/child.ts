/**
 * The real server as a child process (`node --import tsx server.ts`), for
 * tests that kill it, restart it or send it signals.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { join } from "node:path";

const ROOT = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..", "..");

/** The command that runs server.ts on this runtime. */
export function serverCommand(): string[] {
  const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;
  if (deno) return [deno.execPath(), "run", "-A", join(ROOT, "server.ts")];
  const major = Number(process.versions.node.split(".")[0]);
  // Node 23.6+ strips types itself; Node 20 goes through tsx.
  return major >= 23 ? [process.execPath, join(ROOT, "server.ts")] : [process.execPath, "--import", "tsx", join(ROOT, "server.ts")];
}

/** The child's environment: ours without DATABASE_URL (CI sets it for the Postgres tests), plus `env`. */
export function childEnv(env: Record<string, string> = {}): Record<string, string | undefined> {
  // Deno's process.env is a proxy that does not spread; its own API gives a plain copy.
  const deno = (globalThis as { Deno?: { env: { toObject(): Record<string, string> } } }).Deno;
  const base: Record<string, string | undefined> = deno ? deno.env.toObject() : { ...process.env };
  // Empty rather than deleted: Deno's child_process merges the parent's environment into `env`.
  return { ...base, DATABASE_URL: "", ...env };
}

/** Runs a server subcommand to completion; `input` is its stdin. */
export function runCli(args: string[], env: Record<string, string> = {}, input?: string | Uint8Array): { status: number | null; stdout: string; stderr: string } {
  const [cmd, ...pre] = serverCommand();
  const r = spawnSync(cmd!, [...pre, ...args], { cwd: ROOT, env: childEnv(env), encoding: "utf8", ...(input === undefined ? {} : { input }) });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A started server child and its URL. */
export interface ChildServer {
  child: ChildProcess;
  url: string;
  stdout(): string;
  exited: Promise<number | null>;
}

/** Starts `server.ts serve` (or `command serve`) with `args` and resolves once it logs "listening". */
export function startChild(args: string[], env: Record<string, string> = {}, command = serverCommand()): Promise<ChildServer> {
  const [cmd, ...pre] = command;
  const child = spawn(cmd!, [...pre, "serve", "--port", "0", ...args], { cwd: ROOT, env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 20_000);
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /"msg":"listening","url":"([^"]+)"/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, stdout: () => out, exited });
      }
    });
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

/** Resolves once the child's combined output matches `re`. */
export function waitForOutput(server: ChildServer, re: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const m = re.exec(server.stdout());
      if (m) resolve(m);
      return m !== null;
    };
    if (check()) return;
    const onData = (): void => {
      if (check()) {
        server.child.stdout!.off("data", onData);
        server.child.stderr!.off("data", onData);
      }
    };
    // startChild's own listeners run first (registered earlier), so stdout() already holds the new chunk.
    server.child.stdout!.on("data", onData);
    server.child.stderr!.on("data", onData);
    server.child.once("exit", () => reject(new Error(`exited before ${re}: ${server.stdout()}`)));
  });
}

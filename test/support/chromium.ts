/**
 * Debian's headless chromium as a test instrument: loads a URL, returns the DOM
 * as the browser built it (--dump-dom) and every console message the page
 * caused (errors, CSP violations, failed loads: chromium logs them as CONSOLE
 * lines with --enable-logging=stderr), or takes a screenshot. Child process and
 * flags only, so it runs the same on Node 20, Node 24 and Deno.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where Debian installs chromium; CHROMIUM overrides it. */
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
/** A page that takes longer than this to load is a failure, not a hang. */
const LOAD_TIMEOUT_MS = 60_000;

/** The node:test `skip` value for a browser test: a reason locally without chromium; never under CI=true (the test then fails). */
export function chromiumSkip(): string | false {
  if (existsSync(CHROMIUM) || process.env.CI === "true") return false;
  return `chromium is not installed (${CHROMIUM}); apt-get install chromium`;
}

/** Throws when chromium is missing: in CI a browser test must fail, not pass by skipping. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) throw new Error(`CI=true but chromium is missing at ${CHROMIUM}: .ci/run installs it`);
}

/** What a page load produced. */
export interface PageLoad {
  dom: string;
  /** The text of every console message, in order. */
  console: string[];
}

const FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--disable-extensions", "--enable-logging=stderr", "--v=0",
];

function _run(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const profile = mkdtempSync(join(tmpdir(), "chromium-"));
  return new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    execFile(CHROMIUM, [...FLAGS, `--user-data-dir=${profile}`, ...args], { timeout: LOAD_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`chromium failed: ${err.message}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  }).finally(() => rmSync(profile, { recursive: true, force: true, maxRetries: 5 }));
}

/** Loads `url` and returns the DOM and the console messages. */
export async function loadPage(url: string): Promise<PageLoad> {
  const { stdout, stderr } = await _run(["--dump-dom", url]);
  // [pid:tid:date:LEVEL:CONSOLE:line] "message", source: url (line)
  const messages = stderr.split("\n").filter((l) => /:CONSOLE[:(\]]/.test(l)).map((l) => l.replace(/^\[[^\]]*\]\s*/, ""));
  return { dom: stdout, console: messages };
}

/** Saves a PNG screenshot of `url` at `width`×`height` to `file`. */
export async function screenshot(url: string, file: string, width = 1280, height = 2000): Promise<void> {
  await _run([`--screenshot=${file}`, `--window-size=${width},${height}`, url]);
}

/**
 * Debian's headless chromium as a test instrument: loads a URL, returns the DOM
 * as the browser built it (--dump-dom) and every console message the page
 * caused (errors, CSP violations, failed loads: chromium logs them as CONSOLE
 * lines with --enable-logging=stderr), or takes a screenshot. Child process and
 * flags only, so it runs the same on Node 20, Node 24 and Deno. BrowserPage drives a page over the DevTools
 * protocol (clicks, typing, files, screenshots, console and network events) through chromium's debugging pipe.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { Buffer } from "node:buffer";
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

// ---------------------------------------------------------------------------------------------------------------
// Driving a page: the DevTools protocol over --remote-debugging-pipe (file descriptors 3 and 4, each message JSON
// ended by a NUL byte: chromium's own pipe transport), so no WebSocket client and no dependency is needed.

/** One event of the page's session. */
export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
}

/** A headless chromium with one page, driven over the DevTools protocol. */
export class BrowserPage {
  #child: import("node:child_process").ChildProcess;
  #profile: string;
  #next = 1;
  #waiting = new Map<number, { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  #buffer = Buffer.alloc(0);
  #session = "";
  #targetId = "";
  #cover: string | null = null;
  /** Every event of the page's session, in order (console messages, log entries, requests, dialogs). */
  readonly events: CdpEvent[] = [];

  private constructor(child: import("node:child_process").ChildProcess, profile: string) {
    this.#child = child;
    this.#profile = profile;
    const out = child.stdio[4] as NodeJS.ReadableStream;
    out.on("data", (chunk: Buffer) => this.#read(chunk));
  }

  /** Starts chromium with a blank page of `width`×`height` CSS pixels, listening to its console, log, network and dialogs. */
  static async open(width = 1280, height = 900): Promise<BrowserPage> {
    const { spawn } = await import("node:child_process");
    const profile = mkdtempSync(join(tmpdir(), "chromium-cdp-"));
    const child = spawn(CHROMIUM, [...FLAGS.filter((f) => f !== "--enable-logging=stderr"), `--user-data-dir=${profile}`, "--remote-debugging-pipe", `--window-size=${width},${height}`, "about:blank"], {
      stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"],
    });
    const page = new BrowserPage(child, profile);
    const { targetInfos } = await page.send("Target.getTargets") as { targetInfos: { targetId: string; type: string }[] };
    const target = targetInfos.find((x) => x.type === "page");
    const targetId = target ? target.targetId : ((await page.send("Target.createTarget", { url: "about:blank" })) as { targetId: string }).targetId;
    page.#targetId = targetId;
    page.#session = ((await page.send("Target.attachToTarget", { targetId, flatten: true })) as { sessionId: string }).sessionId;
    for (const domain of ["Page.enable", "Runtime.enable", "Log.enable", "Network.enable"]) await page.call(domain);
    await page.call("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: width < 600 });
    return page;
  }

  #read(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    let end: number;
    while ((end = this.#buffer.indexOf(0)) >= 0) {
      const msg = JSON.parse(this.#buffer.subarray(0, end).toString("utf8")) as { id?: number; result?: Record<string, unknown>; error?: { message: string }; method?: string; params?: Record<string, unknown> };
      this.#buffer = this.#buffer.subarray(end + 1);
      if (msg.id !== undefined) {
        const w = this.#waiting.get(msg.id);
        this.#waiting.delete(msg.id);
        if (msg.error) w?.reject(new Error(msg.error.message));
        else w?.resolve(msg.result ?? {});
      } else if (msg.method) {
        this.events.push({ method: msg.method, params: msg.params ?? {} });
        // A dialog would hold the page: it is recorded (a test asserts there was none) and dismissed.
        if (msg.method === "Page.javascriptDialogOpening") void this.call("Page.handleJavaScriptDialog", { accept: false }).catch(() => {});
      }
    }
  }

  /** A browser-level command. */
  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.#next++;
    const pipe = this.#child.stdio[3] as NodeJS.WritableStream;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      pipe.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + "\0");
    });
  }

  /** A command to the page's session. */
  call(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return this.send(method, params, this.#session);
  }

  /** Navigates and waits for the load event (or, for another fragment of the same page, for that navigation). */
  async goto(url: string): Promise<void> {
    const loaded = this.events.length;
    await this.call("Page.navigate", { url });
    await this.waitFor(async () => this.events.slice(loaded).some((e) => e.method === "Page.loadEventFired" || e.method === "Page.navigatedWithinDocument"), `load of ${url}`);
  }

  /** Evaluates `expression` in the page (promises awaited) and returns its JSON value. */
  async eval<T = unknown>(expression: string): Promise<T> {
    const r = await this.call("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true }) as { result: { value?: T }; exceptionDetails?: { text: string; exception?: { description?: string } } };
    if (r.exceptionDetails) throw new Error(`In the page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value as T;
  }

  /** Polls `check` every 50 ms until it is true; fails after `timeoutMs` naming `what`. */
  async waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      if (await check()) return;
      if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Waits until `expression` (evaluated in the page) is truthy. */
  until(expression: string, what = expression, timeoutMs?: number): Promise<void> {
    return this.waitFor(async () => Boolean(await this.eval(expression)), what, timeoutMs);
  }

  /** Focuses the element of `selector` and types `text` as keyboard input. */
  async type(selector: string, text: string): Promise<void> {
    await this.eval(`document.querySelector(${JSON.stringify(selector)}).focus()`);
    await this.call("Input.insertText", { text });
  }

  /** Presses a key (e.g. "Enter", "Tab") on the focused element. */
  async press(key: "Enter" | "Tab"): Promise<void> {
    const code = key === "Enter" ? 13 : 9;
    const base = { key, code: key, windowsVirtualKeyCode: code, nativeVirtualKeyCode: code, ...(key === "Enter" ? { text: "\r" } : {}) };
    await this.call("Input.dispatchKeyEvent", { type: "keyDown", ...base });
    await this.call("Input.dispatchKeyEvent", { type: "keyUp", ...base });
  }

  /** Clicks the element of `selector` with the mouse, at its centre. */
  async click(selector: string): Promise<void> {
    const box = await this.eval<{ x: number; y: number } | null>(`(() => { const e = document.querySelector(${JSON.stringify(selector)}); if (!e) return null; e.scrollIntoView({ block: "center" }); const r = e.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()`);
    if (!box) throw new Error(`No element ${selector}`);
    for (const type of ["mousePressed", "mouseReleased"]) await this.call("Input.dispatchMouseEvent", { type, x: box.x, y: box.y, button: "left", clickCount: 1 });
  }

  /** Sets the files of the file input of `selector`. */
  async setFiles(selector: string, files: string[]): Promise<void> {
    const { root } = await this.call("DOM.getDocument") as { root: { nodeId: number } };
    const { nodeId } = await this.call("DOM.querySelector", { nodeId: root.nodeId, selector }) as { nodeId: number };
    await this.call("DOM.setFileInputFiles", { nodeId, files });
  }

  /** A PNG of the page at `width` CSS pixels and its full height. */
  async screenshot(width: number): Promise<Buffer> {
    await this.call("Emulation.setDeviceMetricsOverride", { width, height: 900, deviceScaleFactor: 1, mobile: width < 600 });
    const height = await this.eval<number>("Math.ceil(document.documentElement.scrollHeight)");
    await this.call("Emulation.setDeviceMetricsOverride", { width, height: Math.min(height, 6000), deviceScaleFactor: 1, mobile: width < 600 });
    const { data } = await this.call("Page.captureScreenshot", { format: "png" }) as { data: string };
    return Buffer.from(data, "base64");
  }

  /** Hides the page behind another tab (its `visibilityState` becomes "hidden"), as an operator switching tabs does. */
  async hide(): Promise<void> {
    this.#cover = ((await this.send("Target.createTarget", { url: "about:blank" })) as { targetId: string }).targetId;
    await this.send("Target.activateTarget", { targetId: this.#cover });
    await this.until("document.visibilityState === 'hidden'", "the page hidden");
  }

  /** Brings the page back to the front. */
  async show(): Promise<void> {
    if (this.#cover) await this.send("Target.closeTarget", { targetId: this.#cover });
    this.#cover = null;
    await this.send("Target.activateTarget", { targetId: this.#targetId });
    await this.until("document.visibilityState === 'visible'", "the page visible");
  }

  /** Console messages, log entries (CSP violations, failed loads) and uncaught exceptions, as text. */
  messages(): string[] {
    return this.events.flatMap((e) => {
      if (e.method === "Runtime.consoleAPICalled") return [`console.${String(e.params.type)}: ${JSON.stringify((e.params.args as { value?: unknown; description?: string }[]).map((a) => a.value ?? a.description))}`];
      if (e.method === "Log.entryAdded") {
        const entry = e.params.entry as { level: string; source: string; text: string; url?: string };
        return [`log ${entry.level} ${entry.source}: ${entry.text}${entry.url ? ` (${entry.url})` : ""}`];
      }
      if (e.method === "Runtime.exceptionThrown") return [`exception: ${JSON.stringify(e.params.exceptionDetails)}`];
      return [];
    });
  }

  /** Every URL the page requested. */
  requests(): string[] {
    return this.events.filter((e) => e.method === "Network.requestWillBeSent").map((e) => String((e.params.request as { url: string }).url));
  }

  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.#child.once("exit", () => resolve()));
    this.send("Browser.close").catch(() => {});
    const timer = setTimeout(() => this.#child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
    rmSync(this.#profile, { recursive: true, force: true, maxRetries: 5 });
  }
}

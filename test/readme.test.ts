import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { startChild, waitForOutput } from "./support/child.ts";
import { README as readme, readmeExamples as examples } from "./support/readme_examples.ts";

const ROOT = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..");
const entryPoints = (JSON.parse(readFileSync(join(ROOT, "deno.json"), "utf8")) as { exports: Record<string, string> }).exports;

/**
 * The example with the package's specifiers (`integrator-api`, `integrator-api/stores/file` …) turned into the
 * modules deno.json exports them from, so that it runs on the sources; one that names no entry point throws.
 * test/package/installed.test.ts runs the same examples unchanged against the installed package.
 */
function onSources(code: string): string {
  return code.replace(/(from\s*)"integrator-api(\/[^"]*)?"/g, (_, from: string, sub: string | undefined) => {
    const source = entryPoints[`.${sub ?? ""}`];
    if (!source) throw new Error(`integrator-api${sub ?? ""} is not an entry point of the package (deno.json exports)`);
    return `${from}"${source}"`;
  });
}

/** Asserts that an embedding example imports the package by name, never a path into it. */
function assertImportsThePackage(code: string): void {
  assert.match(code, /from "integrator-api"/);
  assert.doesNotMatch(code, /from "\.{1,2}\//);
}

function run(code: string): { status: number | null; stdout: string; stderr: string } {
  // The example's imports become the sources' paths (onSources), relative to the project root where it runs.
  const file = join(ROOT, `.readme-example-${process.pid}.ts`);
  writeFileSync(file, onSources(code));
  try {
    const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;
    const major = Number(process.versions.node.split(".")[0]);
    const [cmd, ...args] = deno ? [deno.execPath(), "run", "-A", file] : major >= 23 ? [process.execPath, file] : [process.execPath, "--import", "tsx", file];
    const data = mkdtempSync(join(tmpdir(), "readme-"));
    const r = spawnSync(cmd!, args, { cwd: ROOT, encoding: "utf8", env: { ...process.env, EXAMPLE_DATA: data }, timeout: 30_000 });
    rmSync(data, { recursive: true, force: true });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(file, { force: true });
  }
}

describe("README", () => {
  test("opens with the install-and-start command and the test command", () => {
    const lines = readme.split("\n").slice(0, 6).join("\n");
    assert.match(lines, /npm install && npm start/);
    assert.match(lines, /npm test/);
  });

  test("the node:http embedding example runs and answers /healthz", () => {
    const code = examples().get("embed-node");
    assert.ok(code, "example present");
    assertImportsThePackage(code);
    const r = run(code);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^200 \{"status":"ok"\}/);
  });

  test("the fetch-handler embedding example runs and answers 401", () => {
    const code = examples().get("embed-deno");
    assert.ok(code, "example present");
    assertImportsThePackage(code);
    const r = run(code);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^401 UNAUTHENTICATED/);
  });

  test("the verify-webhook example accepts the server's own signatures and refuses tampered, foreign and old ones", () => {
    const code = examples().get("verify-webhook");
    assert.ok(code, "example present");
    const driver = `
import { generateWebhookSecret, webhookHeaders } from "./lib/jobs/webhooks/signature.ts";
const secret = generateWebhookSecret();
const body = '{"type":"document.created","timestamp":"2026-11-21T23:25:01.123Z","data":{}}';
const now = Math.floor(Date.now() / 1000);
const headers = { ...webhookHeaders(secret, "evt_01JDQ3W5Y8ZK4M6N7P8Q9R0S1T", now, body) };
console.log([
  verifyWebhook(secret, headers, body),
  verifyWebhook(secret, headers, body.replace("created", "updated")),
  verifyWebhook(generateWebhookSecret(), headers, body),
  verifyWebhook(secret, { ...webhookHeaders(secret, "evt_01JDQ3W5Y8ZK4M6N7P8Q9R0S1T", now - 600, body) }, body),
  verifyWebhook(secret, { ...headers, "webhook-signature": "v1,AAAA " + headers["webhook-signature"] }, body),
].join(" "));
`;
    const r = run(code + driver);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), "true false false false true");
  });

  test("the curl tour runs line by line against a fresh server, every line succeeding", { timeout: 60_000 }, async () => {
    const tour = /## A tour with curl[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    assert.ok(tour, "tour present");
    // A receiver on 127.0.0.1 stands in for https://example.com/hook (tests reach no other host).
    const received: string[] = [];
    const waiting: { until: () => boolean; done: () => void }[] = [];
    /** Resolves once what the receiver got satisfies `until`. */
    const deliveries = (until: () => boolean): Promise<void> => new Promise((done) => (until() ? done() : waiting.push({ until, done })));
    const receiver = createServer((req, res) => {
      req.resume().on("end", () => {
        received.push(String(req.headers["webhook-id"]));
        for (const w of waiting) if (w.until()) w.done();
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    const data = mkdtempSync(join(tmpdir(), "tour-data-"));
    const cwd = mkdtempSync(join(tmpdir(), "tour-cwd-"));
    symlinkSync(join(ROOT, "storage"), join(cwd, "storage")); // -F xml=@storage/demo/… as from the project root
    const server = await startChild(["--data", data, "--webhook-allow-private", "on"]);
    const shell = spawn("bash", ["--norc", "--noprofile"], { cwd, stdio: ["pipe", "pipe", "pipe"] });
    try {
      const [, token] = await waitForOutput(server, /\nexport TOKEN=(itk_[A-Za-z0-9_-]+)\n/);
      // The only changes: the server's real address and the local receiver.
      const lines = tour.replaceAll("http://127.0.0.1:8080", server.url).replaceAll("https://example.com/hook", hook).split("\n").filter((l) => l.trim() !== "");
      let out = "";
      let err = "";
      shell.stdout.on("data", (d: Buffer) => (out += d.toString()));
      shell.stderr.on("data", (d: Buffer) => (err += d.toString()));
      /** Runs one line in the shell; resolves with its exit code, output and error output. */
      const runLine = (line: string, i: number): Promise<{ code: number; output: string; errors: string }> => {
        const start = out.length, errStart = err.length;
        const marker = `__line_${i}_done__`;
        return new Promise((resolve, reject) => {
          const onData = (): void => {
            const m = new RegExp(`${marker} (\\d+)\\n`).exec(out.slice(start));
            if (!m) return;
            shell.stdout.off("data", onData);
            resolve({ code: Number(m[1]), output: out.slice(start, start + m.index), errors: err.slice(errStart) });
          };
          shell.stdout.on("data", onData);
          shell.once("exit", () => reject(new Error(`the shell exited at: ${line}`)));
          shell.stdin.write(`${line}\necho; echo "${marker} $?"\n`);
        });
      };
      await runLine(`export TOKEN=${token}`, -1);
      for (const [i, line] of lines.entries()) {
        // Retrying a delivery needs one: wait for the first to reach the receiver (the worker polls every 250 ms).
        if (line.startsWith("EVT=")) {
          await deliveries(() => received.length > 0);
          // The worker logs the attempt once the receiver has answered: wait (bounded) until the log lists it.
          await runLine('for i in $(seq 200); do curl -s -H "$T" "$A/webhooks/$WHK/deliveries" | grep -q event_id && break; sleep 0.05; done', -2);
        }
        const r = await runLine(line, i);
        assert.equal(r.code, 0, `${line}\n${r.output}${r.errors}`);
        assert.equal(r.errors, "", line);
        assert.doesNotMatch(r.output, /"error":\{"code"/, line);
        if (line.includes("/retry")) {
          const id = (JSON.parse(r.output) as { event_id: string }).event_id;
          await deliveries(() => received.filter((x) => x === id).length === 2); // the retried event arrives once more
        }
      }
    } finally {
      shell.stdin.end();
      server.child.kill("SIGTERM");
      await server.exited;
      await new Promise<void>((r) => receiver.close(() => r()));
      rmSync(data, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

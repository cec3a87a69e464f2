/**
 * server.ts as a user meets it (README “Configuration”): help and usage errors with their
 * exit codes, a port in use as one line, the first-start banner, the hint to
 * create a token when there is none, and `token create`'s key id on stderr.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { runCli, startChild, waitForOutput, type ChildServer } from "../support/child.ts";

const ROOT = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..", "..");
const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), "cli-"));
  dirs.push(d);
  return d;
};

async function stop(server: ChildServer): Promise<void> {
  server.child.kill("SIGTERM");
  await server.exited;
}

describe("the command line", () => {
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  test("--help and token --help print the usage on stdout and exit 0", () => {
    const serve = runCli(["--help"]);
    assert.equal(serve.status, 0);
    assert.match(serve.stdout, /^Usage: server\.ts \[serve\]/);
    assert.match(serve.stdout, /--webhook-retry-schedule LIST +WEBHOOK_RETRY_SCHEDULE +5s,5m/);
    const token = runCli(["token", "--help"]);
    assert.equal(token.status, 0);
    assert.match(token.stdout, /^Usage: server\.ts token create --tenant ID --scopes a,b/);
  });

  test("an unknown flag or subcommand is an error with the usage, exit 2", () => {
    for (const [args, message] of [[["--prot", "9000"], /Unknown option: --prot/], [["tokn"], /Unknown command: tokn/], [["token", "delete"], /Unknown token subcommand: delete/]] as const) {
      const r = runCli([...args]);
      assert.equal(r.status, 2, args.join(" "));
      assert.equal(r.stdout, "");
      assert.match(r.stderr, message);
      assert.match(r.stderr, /Usage: server\.ts/);
    }
  });

  test("--help lists the operator settings with their variables and defaults, and a bad range stops the start naming its setting", () => {
    const help = runCli(["--help"]).stdout;
    assert.match(help, /--ops-allow CIDRS +OPS_ALLOW +127\.0\.0\.0\/8,::1 /);
    assert.match(help, /--ops-token TOKEN +OPS_TOKEN +none /);
    assert.match(help, /--trust-proxy CIDRS +TRUST_PROXY +none /);
    for (const [args, env, name] of [[["--ops-allow", "10.0.0/8"], {}, "OPS_ALLOW"], [[], { TRUST_PROXY: "proxy.internal" }, "TRUST_PROXY"], [[], { OPS_TOKEN: "short" }, "OPS_TOKEN"]] as const) {
      const r = runCli(["serve", "--data", tempDir(), ...args], env);
      assert.equal(r.status, 2, name);
      assert.match(r.stderr, new RegExp(`^${name} `), name);
    }
  });

  test("the operator settings reach the server: flags win over the environment", async () => {
    const token = "ops-token-0123456789abcdef";
    const server = await startChild(["--data", tempDir(), "--demo", "off", "--ops-allow", "10.0.0.0/8"], { OPS_ALLOW: "127.0.0.0/8", OPS_TOKEN: token });
    try {
      assert.equal((await fetch(`${server.url}/metrics`)).status, 403);
      assert.equal((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
    } finally {
      await stop(server);
    }
  });

  test("a port in use ends with one line, exit 1", async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, "127.0.0.1", done));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = runCli(["serve", "--port", String(port), "--data", tempDir()]);
      assert.equal(r.status, 1);
      assert.equal(r.stderr, `port ${port} is in use: set PORT or --port\n`);
    } finally {
      await new Promise<void>((done) => blocker.close(() => done()));
    }
  });

  test("the first start prints `export TOKEN=…` ready to paste once the demo invoices, one of each format, are documents, and that token works", async () => {
    const server = await startChild(["--data", tempDir()]);
    try {
      const [, token] = await waitForOutput(server, /\nexport TOKEN=(itk_[A-Za-z0-9_-]+)\n/);
      const res = await fetch(`${server.url}/api/v1/documents`, { headers: { "x-api-token": token! } });
      assert.equal(res.status, 200);
      const demo = readdirSync(join(ROOT, "storage", "demo")).filter((n) => n.endsWith(".xml") || n.endsWith(".json"));
      const docs = ((await res.json()) as { data: { format: string | null }[] }).data;
      assert.equal(docs.length, demo.length, "the first curl already lists them all");
      assert.deepEqual([...new Set(docs.map((d) => d.format))].sort(), ["cii", "ksef-fa-rr1", "ksef-fa2", "ksef-fa3", "ksef-pef3", "ubl"], "one of each format");
      assert.match(server.stdout(), /curl -s -H "X-API-Token: \$TOKEN" http:\/\/127\.0\.0\.1:\d+\/api\/v1\/documents/);
    } finally {
      await stop(server);
    }
  });

  test("with DEMO=off on an empty directory the log says how to create a token", async () => {
    const server = await startChild(["--data", tempDir(), "--demo", "off"]);
    try {
      const [line] = await waitForOutput(server, /\{[^\n]*"no API token exists yet[^\n]*\n/);
      assert.equal((JSON.parse(line!) as { level: string }).level, "warn");
      assert.match(line!, /npm run token -- create --tenant acme --scopes /);
      assert.doesNotMatch(server.stdout(), /export TOKEN=/);
    } finally {
      await stop(server);
    }
  });

  test("token create prints the token alone on stdout and its key id on stderr", () => {
    const r = runCli(["token", "create", "--data", tempDir(), "--tenant", "acme", "--scopes", "documents:read"]);
    assert.equal(r.status, 0, r.stderr);
    const m = /^itk_([a-f0-9]+)_[A-Za-z0-9_-]+\n$/.exec(r.stdout);
    assert.ok(m, r.stdout);
    assert.match(r.stderr, new RegExp(`key id: ${m[1]} .*token -- revoke ${m[1]}`));
  });

  test("npm start runs server.ts under node itself, with no launcher process in between", () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    assert.equal(scripts.start, "node --import tsx server.ts serve");
    assert.equal(scripts.token, "node --import tsx server.ts token");
  });
});

// What a command line or a tenant id from outside must not do, through the real command (server.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, startChild } from "../support/child.ts";

for (const { what, args } of [
  { what: "an empty --expires-in (a token that never expires)", args: ["--tenant", "acme", "--expires-in", ""] },
  { what: "--expires-in= with nothing after it", args: ["--tenant", "acme", "--expires-in="] },
  { what: "--expires-in 0s (a token expired at birth)", args: ["--tenant", "acme", "--expires-in", "0s"] },
  { what: "--tenant given twice", args: ["--tenant", "a", "--tenant", "b"] },
  { what: "--scopes given twice, once with =", args: ["--tenant", "a", "--scopes=documents:write"] },
]) {
  test(`token create refuses ${what}: usage error, exit 2, no token made`, () => {
    const dir = mkdtempSync(join(tmpdir(), "cli-hostile-"));
    try {
      const r = runCli(["token", "create", "--data", dir, "--scopes", "documents:read", ...args]);
      assert.equal(r.status, 2, r.stdout + r.stderr);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /--expires-in must be a duration above zero|is given more than once/);
      assert.equal(runCli(["token", "list", "--data", dir]).stdout, "");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("a tenant named constructor syncs; __proto__ and toString are refused as tenant ids", { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cli-tenant-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const bad of ["__proto__", "toString"]) {
    const r = runCli(["token", "create", "--data", dir, "--tenant", bad, "--scopes", "documents:read"]);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /Invalid tenant id/);
  }
  const made = runCli(["token", "create", "--data", dir, "--tenant", "constructor", "--scopes", "documents:read,documents:write"]);
  assert.equal(made.status, 0, made.stderr);
  const token = made.stdout.trim();
  const server = await startChild(["--data", dir, "--demo", "off"]);
  t.after(async () => {
    server.child.kill("SIGKILL");
    await server.exited;
  });
  const headers = { "x-api-token": token };
  const res = await fetch(`${server.url}/api/v1/documents/sync`, { method: "POST", headers });
  assert.equal(res.status, 202, await res.clone().text());
  const run = (await res.json()) as { id: string };
  for (;;) {
    const r = (await (await fetch(`${server.url}/api/v1/documents/sync/${run.id}`, { headers })).json()) as { status: string };
    if (r.status === "succeeded") break;
    assert.ok(r.status === "queued" || r.status === "running", JSON.stringify(r));
    await new Promise((done) => setImmediate(done));
  }
  assert.equal((await fetch(`${server.url}/api/v1/documents`, { headers })).status, 200);
});

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

// The per-test time limit .ci/run gives Deno (deno_test_timeout.ts): a test that never ends fails with its name,
// and the tests after it still run. DENO_BIN is set by .ci/run; without it (a developer's machine) this is skipped.
const denoBin = process.env["DENO_BIN"];
const preload = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "deno_test_timeout.ts");

test("under Deno, a test that never ends fails after TEST_TIMEOUT_MS with its name, and the next test runs", { skip: !denoBin && (process.env["CI"] ? false : "DENO_BIN is not set") }, () => {
  assert.ok(denoBin, "CI=true but DENO_BIN is not set: .ci/run sets it");
  const dir = mkdtempSync(join(tmpdir(), "deno-timeout-"));
  try {
    writeFileSync(join(dir, "stuck.test.ts"), [
      'import { createServer } from "node:http";',
      'import { test } from "node:test";',
      'test("waits for ever on an open server", async () => { createServer().listen(0, "127.0.0.1"); await new Promise(() => {}); });',
      'test("runs after it", () => { console.log("AFTER-RAN"); });',
    ].join("\n"));
    const started = Date.now();
    const r = spawnSync(denoBin, ["test", "-A", "--no-check", "--preload", preload, join(dir, "stuck.test.ts")], {
      encoding: "utf8", env: { ...process.env, TEST_TIMEOUT_MS: "1500", NO_COLOR: "1" }, timeout: 60_000,
    });
    const out = r.stdout + r.stderr;
    assert.notEqual(r.status, 0, out);
    assert.match(out, /test timed out after 1500 ms: waits for ever on an open server/);
    assert.match(out, /AFTER-RAN/);
    assert.ok(Date.now() - started < 30_000, "the stuck test was ended by its limit, not by the spawn's");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

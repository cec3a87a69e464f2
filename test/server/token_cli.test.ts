import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { childEnv, serverCommand } from "../support/child.ts";

test("token list piped into a reader that stops early (| head -3) exits 0 without a stack trace", () => {
  const dir = mkdtempSync(join(tmpdir(), "tokcli-"));
  try {
    // 3000 tokens: far more output than a pipe holds, so the writer meets the closed pipe.
    const tokens = Array.from({ length: 3000 }, (_, i) => ({
      key_id: `k${String(i).padStart(15, "0")}`, tenant: "acme", secret_sha256: "0".repeat(64), scopes: ["documents:read"],
      created_at: "2026-01-01T00:00:00.000Z", expires_at: null, revoked_at: null,
    }));
    writeFileSync(join(dir, "tokens.json"), JSON.stringify({ tokens }));
    const cmd = serverCommand().map((a) => `'${a}'`).join(" ");
    const r = spawnSync("bash", ["-c", `${cmd} token list --data '${dir}' | head -3; echo "status=\${PIPESTATUS[0]}" >&2`], { env: childEnv(), encoding: "utf8", timeout: 30_000 });
    assert.equal(r.stdout.trim().split("\n").length, 3);
    assert.match(r.stderr, /status=0\s*$/, r.stderr);
    assert.doesNotMatch(r.stderr, /EPIPE|\n\s+at /, r.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

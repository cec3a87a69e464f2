import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";

const ROOT = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..");
const readme = readFileSync(join(ROOT, "README.md"), "utf8");

/** The ```ts blocks of the README that start with `// example: NAME`. */
function examples(): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of readme.matchAll(/```ts\n\/\/ example: ([a-z-]+)\n([\s\S]*?)```/g)) out.set(m[1]!, m[2]!);
  return out;
}

function run(code: string): { status: number | null; stdout: string; stderr: string } {
  // The example imports ./lib/mod.ts, so it runs from the project root.
  const file = join(ROOT, `.readme-example-${process.pid}.ts`);
  writeFileSync(file, code);
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
    const r = run(code);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^200 \{"status":"ok"\}/);
  });

  test("the fetch-handler embedding example runs and answers 401", () => {
    const code = examples().get("embed-deno");
    assert.ok(code, "example present");
    const r = run(code);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^401 UNAUTHENTICATED/);
  });
});

/**
 * writeFileAtomic() under a write that fails part-way: the file-size limit of a
 * child process (`ulimit -f`, SIGXFSZ ignored) makes the kernel refuse the rest
 * with EFBIG, as a full disk refuses with ENOSPC, without needing a mount.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeAsync, openAsync, writevAllAsync } from "../../storage/atomic.ts";

const ATOMIC = new URL("../../storage/atomic.ts", import.meta.url).pathname;

// The child is a Node process (ulimit and tsx); the module under test is the same on every runtime.
test("writeFileAtomic() removes its temp file when the write fails, and leaves the old content", { skip: "Deno" in globalThis ? "drives a Node child" : false }, () => {
  const dir = mkdtempSync(join(tmpdir(), "atomic-"));
  try {
    const script = `
      import { writeFileAtomic } from ${JSON.stringify(ATOMIC)};
      import { readFileSync } from "node:fs";
      const path = ${JSON.stringify(join(dir, "target"))};
      writeFileAtomic(path, "old");
      try { writeFileAtomic(path, new Uint8Array(256 * 1024)); console.log("written"); }
      catch (e) { console.log(e.code, readFileSync(path, "utf8")); }`;
    // 64 KiB per file at most: the 256 KiB write fails part-way.
    const r = spawnSync("bash", ["-c", `trap '' XFSZ; ulimit -f 64; exec "${process.execPath}" --import tsx --input-type=module -e "$0"`, script], { encoding: "utf8" });
    assert.equal(r.stdout.trim(), "EFBIG old", r.stderr);
    assert.deepEqual(readdirSync(dir), ["target"], "no temp file is left");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("writevAllAsync() writes more pieces than one vectored write takes, in order, empty ones included", async () => {
  const dir = mkdtempSync(join(tmpdir(), "atomic-"));
  try {
    const pieces = Array.from({ length: 2500 }, (_, i) => new TextEncoder().encode(i % 7 === 0 ? "" : `${i},`));
    const path = join(dir, "pieces");
    const fd = await openAsync(path, "w");
    try {
      await writevAllAsync(fd, pieces);
    } finally {
      await closeAsync(fd);
    }
    const want = Array.from({ length: 2500 }, (_, i) => (i % 7 === 0 ? "" : `${i},`)).join("");
    assert.equal(readFileSync(path, "utf8"), want);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

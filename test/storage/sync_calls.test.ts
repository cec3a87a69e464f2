/**
 * No blocking file-system call on a write path of the file store (README "How data is kept (file store)"): every
 * `*Sync(` call in storage/file/ and storage/atomic.ts must sit in a function of the allowlist below, which says
 * why it may block (startup, a read of the page cache, a command-line process, bulk seeding). A new one fails.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

const ROOT = join(import.meta.dirname, "..", "..");

/** "file:function" → why it may block. */
const ALLOWED: Record<string, string> = {
  "storage/atomic.ts:writeFileAtomic": "for the `token` command (a process that does nothing else) and the sources' small position files",
  "storage/atomic.ts:fsyncDir": "used by writeFileAtomic only",
  "storage/atomic.ts:removeTempLeftovers": "startup: clears what a crash left, before serving",
  "storage/atomic.ts:isProcessAlive": "a signal-0 probe, no file-system call (matched by name only)",
  "storage/file/lock.ts:withFileLock": "the token file's lock, taken by the `token` command; the stores take withFileLockAsync",
  "storage/file/lock.ts:_create": "used by withFileLock only",
  "storage/file/lock.ts:_holder": "used by withFileLock only",
  "storage/file/process_stamp.ts:processStartTime": "reads /proc/<pid>/stat: procfs, answered from the kernel, no disk (only when a lock or marker holder is checked)",
  "storage/file/record_log.ts:constructor": "startup: opens the files",
  "storage/file/record_log.ts:flush": "bulk seeding with durable: false (benchmarks), never a server's path",
  "storage/file/record_log.ts:close": "shutdown",
  "storage/file/record_log.ts:#repairTail": "at open, or under the lock after another process died mid-append (cuts its torn tail)",
  "storage/file/record_log.ts:catchUp": "WORKERS > 1: an fstat and preads of what other processes appended (page cache reads)",
  "storage/file/record_log.ts:#recover": "startup recovery",
  "storage/file/record_log.ts:_writeAll": "used by commitSync and #recover only",
  "storage/file/record_log.ts:_readAll": "reads: a pread of a record or feed entry from the page cache (microseconds)",
  "storage/file/verdict_log.ts:constructor": "opening a tenant: opens documents.verdicts and reads what it holds",
  "storage/file/verdict_log.ts:catchUp": "at open, and WORKERS > 1: an fstat and preads of the verdicts other processes appended (page cache reads)",
  "storage/file/verdict_log.ts:commit": "only after a failed append: cuts the file back to its last whole entry",
  "storage/file/verdict_log.ts:close": "shutdown",
  "storage/file/tenant.ts:constructor": "opening a tenant: once per tenant and process",
  "storage/file/tenant.ts:upsertDocumentSync": "bulk seeding with durable: false (benchmarks); refuses a durable store",
  "storage/file/idempotency.ts:constructor": "opening a tenant",
  "storage/file/idempotency.ts:refresh": "reads: new lines of the day's key file (WORKERS > 1)",
  "storage/file/delivery_log.ts:#read": "reads: an endpoint's attempt log, bounded by the attempts kept",
  "storage/file/delivery_log.ts:pending": "reads: the retry-now requests of one endpoint (a few small files)",
  "storage/file/webhooks.ts:deliveryState": "reads: one small file",
  "storage/file/blob_dir.ts:get": "reads: a blob of up to 256 KiB, then cached (larger ones are streamed)",
  "storage/file/blob_dir.ts:constructor": "opening a tenant: whether single-file blobs from before packs are there",
  "storage/file/blob_packs.ts:#refresh": "opening a tenant, and reads that miss (WORKERS > 1): a stat, a short listing of folders, the tables of new packs; once per finished writer's folder, its table of contents written",
  "storage/file/blob_packs.ts:#readToc": "used by #refresh only: a finished writer's table of contents, one read",
  "storage/file/blob_packs.ts:_readTable": "used by #refresh only: a pack's table, one read",
  "storage/file/blob_packs.ts:read": "reads: a blob of up to 256 KiB for BlobDir.get, then cached",
  "storage/file/blob_packs.ts:holds": "reads: a key's few bytes in a pack, when two keys' 32-bit hashes collide or a large blob is opened",
  "storage/file/store.ts:constructor": "startup",
  "storage/file/store.ts:tenant": "opening a tenant: once per tenant and process",
  "storage/file/store.ts:tenants": "reads: lists the tenant directories",
  "storage/file/store.ts:secret": "created once per installation at first use, then read",
  "storage/file/store.ts:_cleanTenantDir": "opening a tenant: clears what a crash left",
  "storage/file/store.ts:#reload": "reads: the token file, when its mtime changed",
};

const KEYWORDS = new Set(["if", "for", "while", "switch", "catch", "return", "await", "try"]);
const DECLARATION = /^(?:export )?(?:async )?function\*? ?(\w+)|^ {2}(?:static )?(?:async )?(?:get |set )?(#?\w+)\s*(?:<[^>]*>)?\(/;

/** The `*Sync(` calls of a source text, each as "function" (the enclosing top-level function or class member). */
export function syncCalls(source: string): { fn: string; line: number; call: string }[] {
  const out: { fn: string; line: number; call: string }[] = [];
  let fn = "(module)";
  source.split("\n").forEach((text, i) => {
    const decl = text.trimEnd().endsWith(";") ? null : DECLARATION.exec(text); // a call statement declares nothing
    const name = decl ? decl[1] ?? decl[2]! : null;
    if (name && !KEYWORDS.has(name)) fn = name;
    if (/^\s*(\/\/|\*|\/\*)/.test(text) || text.startsWith("import ")) return;
    for (const m of text.matchAll(/\b(\w+Sync)\(/g)) if (m[1] !== name) out.push({ fn, line: i + 1, call: m[1]! });
  });
  return out;
}

function files(): string[] {
  const dir = join(ROOT, "storage", "file");
  return ["storage/atomic.ts", ...readdirSync(dir).filter((n) => n.endsWith(".ts")).map((n) => `storage/file/${n}`)];
}

test("the scanner finds a blocking call and names its function", () => {
  const found = syncCalls("export class A {\n  async put(x: number) {\n    if (x) {\n    fsyncSync(x);\n  }\n  }\n}\nfunction _b() {\n  return readSync(1);\n}\n");
  assert.deepEqual(found.map((f) => `${f.fn}:${f.call}`), ["put:fsyncSync", "_b:readSync"]);
});

test("every blocking file-system call of the file store is on the allowlist, with its reason", () => {
  const unlisted: string[] = [];
  const used = new Set<string>();
  for (const file of files()) {
    for (const c of syncCalls(readFileSync(join(ROOT, file), "utf8"))) {
      const key = `${file}:${c.fn}`;
      used.add(key);
      if (!(key in ALLOWED)) unlisted.push(`${file}:${c.line} ${c.call}() in ${c.fn}`);
    }
  }
  assert.deepEqual(unlisted, [], "a write path must use the asynchronous API (fs/promises or callbacks)");
  const stale = Object.keys(ALLOWED).filter((k) => !used.has(k) && !k.endsWith(":isProcessAlive"));
  assert.deepEqual(stale, [], "allowlist entries that match nothing any more");
});

/**
 * Blob packs (README "How data is kept (file store)"): a group of blobs is one file; another process's packs are
 * found on a miss; blobs stored one file each by an older version are still read.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { decodePackTable, encodePack, packTableLength } from "../../../storage/file/blob_pack.ts";
import { BlobDir } from "../../../storage/file/blob_dir.ts";
import { hash32 } from "../../../storage/file/hash32.ts";
import { serverCommand } from "../../support/child.ts";

const enc = new TextEncoder();
const sha = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), "packs-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) (out.set(c, at), (at += c.length));
  return out;
}

async function collect(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const p of stream) parts.push(p);
  return Buffer.concat(parts).toString("latin1");
}

/** All pack files under a blob directory. */
function packFiles(dir: string): string[] {
  const packs = join(dir, "packs");
  return readdirSync(packs).flatMap((f) => readdirSync(join(packs, f)).map((p) => join(f, p)));
}

test("a pack's table gives each blob's offset and size, and the key sits just before the bytes", () => {
  const big = new Uint8Array(300 * 1024).fill(7); // passed through as a chunk of its own
  const blobs = [{ key: "k-one", bytes: enc.encode("first") }, { key: "k-two", bytes: big }, { key: "k-three", bytes: new Uint8Array(0) }];
  const file = concat(encodePack(blobs));
  const length = packTableLength(file.subarray(0, 16));
  assert.ok(length !== null && length < 100);
  const entries = decodePackTable(file.subarray(0, length), file.length)!;
  assert.deepEqual(entries.map((e) => [e.key, e.size]), [["k-one", 5], ["k-two", big.length], ["k-three", 0]]);
  for (const [i, e] of entries.entries()) {
    assert.deepEqual(file.subarray(e.offset, e.offset + e.size), blobs[i]!.bytes);
    assert.equal(Buffer.from(file.subarray(e.offset - e.key.length, e.offset)).toString(), e.key);
  }
});

test("a truncated or foreign file is not taken for a pack", () => {
  const file = concat(encodePack([{ key: "k-one", bytes: enc.encode("first") }]));
  const length = packTableLength(file)!;
  assert.equal(decodePackTable(file.subarray(0, length), file.length - 1), null, "the bytes end before the blob does");
  assert.equal(packTableLength(enc.encode("<?xml version='1.0'?><a/>")), null);
});

test("blobs put in one turn are one pack, read back whole, and found by a second reader of the directory", async (t) => {
  const dir = tempDir(t);
  const blobs = new BlobDir(dir, { packed: true });
  const contents = Array.from({ length: 50 }, (_, i) => enc.encode(`<Invoice n="${i}"/>`));
  const infos = await Promise.all(contents.map((c) => blobs.putContent(c)));
  assert.deepEqual(infos.map((i) => i.sha256), contents.map(sha));
  assert.equal(packFiles(dir).length, 1, "one group, one pack");
  const other = new BlobDir(dir, { packed: true }); // another process's view: it reads the packs from disk
  for (const c of contents) {
    assert.equal(Buffer.from(await blobs.get(sha(c))!.bytes()).toString(), Buffer.from(c).toString());
    assert.equal(Buffer.from(await other.get(sha(c))!.bytes()).toString(), Buffer.from(c).toString());
  }
  assert.equal(other.get("f".repeat(64)), null);
  // Putting what is already there writes nothing.
  await blobs.putContent(contents[3]!);
  await other.putContent(contents[4]!);
  assert.equal(packFiles(dir).length, 1);
});

test("a reader finds packs written after its first look, in a folder it knew and in a new one", async (t) => {
  const dir = tempDir(t);
  const writer = new BlobDir(dir, { packed: true });
  const reader = new BlobDir(dir, { packed: true });
  const a = enc.encode("a".repeat(100));
  await writer.putContent(a);
  assert.ok(reader.get(sha(a)));
  const b = enc.encode("b".repeat(100));
  await writer.putContent(b); // pack 1 of the folder the reader knows
  assert.equal(Buffer.from(await reader.get(sha(b))!.bytes()).toString(), "b".repeat(100));
  const c = enc.encode("c".repeat(100));
  await new BlobDir(dir, { packed: true }).putContent(c); // a folder of its own
  assert.equal(Buffer.from(await reader.get(sha(c))!.bytes()).toString(), "c".repeat(100));
});

test("another process's packs, and a dead process's, are found; its leftover temp file is removed", async (t) => {
  const dir = tempDir(t);
  const reader = new BlobDir(dir, { packed: true });
  assert.equal(reader.get("0".repeat(64)), null); // its first look: nothing there yet
  const script = `import { BlobDir } from ${JSON.stringify(new URL("../../../storage/file/blob_dir.ts", import.meta.url).href)};
    await new BlobDir(${JSON.stringify(dir)}, { packed: true }).put("${"0".repeat(64)}", new TextEncoder().encode("from the other process"));`;
  const file = join(dir, "writer.mts");
  writeFileSync(file, script);
  const [cmd, ...args] = serverCommand();
  args[args.length - 1] = file; // the same runtime and loader, another script
  const r = spawnSync(cmd!, args, { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const folder = readdirSync(join(dir, "packs"))[0]!;
  writeFileSync(join(dir, "packs", folder, `1.pack.tmp-${folder.split("-")[0]}-1`), "half a pack");
  assert.equal(Buffer.from(await reader.get("0".repeat(64))!.bytes()).toString(), "from the other process");
  assert.deepEqual(readdirSync(join(dir, "packs", folder)).sort(), ["0.pack", "toc"], "the dead writer's temp file is gone");
});

test("a large packed blob streams any byte range", async (t) => {
  const dir = tempDir(t);
  const blobs = new BlobDir(dir, { packed: true });
  const big = enc.encode(Array.from({ length: 40_000 }, (_, i) => `line ${i}\n`).join(""));
  assert.ok(big.length > 256 * 1024);
  await Promise.all([blobs.putContent(enc.encode("small neighbour")), blobs.putContent(big)]);
  const got = new BlobDir(dir, { packed: true }).get(sha(big))!;
  assert.equal(got.size, big.length);
  const text = Buffer.from(big).toString("latin1");
  assert.equal(await collect(got.stream(0, big.length)), text);
  assert.equal(await collect(got.stream(1_000, 300_000)), text.slice(1_000, 300_000));
  assert.equal(Buffer.from(await got.bytes()).toString("latin1"), text);
});

test("blobs stored one file each, as before packs, are still read and not written again", async (t) => {
  const dir = tempDir(t);
  const old = enc.encode("<Invoice>stored by an older version</Invoice>");
  const key = sha(old);
  mkdirSync(join(dir, key.slice(0, 2)), { recursive: true });
  writeFileSync(join(dir, key.slice(0, 2), key), old);
  const blobs = new BlobDir(dir, { packed: true });
  assert.equal(Buffer.from(await blobs.get(key)!.bytes()).toString(), Buffer.from(old).toString());
  await blobs.putContent(old);
  assert.deepEqual(readdirSync(dir), [key.slice(0, 2)], "no pack for a blob that was there");
});

test("keys whose 32-bit hashes collide are told apart by the key in the pack", async (t) => {
  // Two keys with the same FNV-1a hash, found once by a birthday search over `key-N` (checked here).
  const [k1, k2] = ["key-901258", "key-1540052"];
  assert.equal(hash32(k1), hash32(k2));
  const dir = tempDir(t);
  const blobs = new BlobDir(dir, { packed: true });
  await blobs.put(k1, enc.encode("one"));
  assert.equal(blobs.get(k2), null);
  await blobs.put(k2, enc.encode("two"));
  const fresh = new BlobDir(dir, { packed: true });
  assert.equal(Buffer.from(await fresh.get(k1)!.bytes()).toString(), "one");
  assert.equal(Buffer.from(await fresh.get(k2)!.bytes()).toString(), "two");
});

test("a finished writer's folder gets a table of contents, and later opens read it instead of each pack", async (t) => {
  const dir = tempDir(t);
  const contents = Array.from({ length: 5 }, (_, i) => enc.encode(`<Invoice n="${i}"/>`));
  // Five packs by one writer process that is gone by now (a folder named for a pid that does not run).
  const writer = new BlobDir(dir, { packed: true });
  for (const c of contents) await writer.putContent(c);
  const [own] = readdirSync(join(dir, "packs"));
  const dead = own!.replace(/^\d+/, String(DEAD_PID));
  renameSync(join(dir, "packs", own!), join(dir, "packs", dead));
  assert.ok(!existsSync(join(dir, "packs", dead, "toc")));
  new BlobDir(dir, { packed: true }); // the first open after the writer: pack by pack, then the table of contents
  assert.ok(existsSync(join(dir, "packs", dead, "toc")));
  // With every pack's head spoilt, only the table of contents can still say where the blobs are.
  for (let i = 0; i < contents.length; i++) {
    const pack = join(dir, "packs", dead, `${i}.pack`);
    const bytes = readFileSync(pack);
    bytes.fill(0, 0, 16);
    writeFileSync(pack, bytes);
  }
  const later = new BlobDir(dir, { packed: true });
  for (const c of contents) assert.equal(Buffer.from(await later.get(sha(c))!.bytes()).toString(), Buffer.from(c).toString());
});

/** A pid no process has: above the kernel's pid_max (at most 2^22). */
const DEAD_PID = 4_194_304 + 1;

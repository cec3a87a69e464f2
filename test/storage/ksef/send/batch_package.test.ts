import assert from "node:assert/strict";
import { createDecipheriv, createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { SubmissionRecord } from "../../../../lib/contracts/storage.ts";
import { readZip } from "../../../../lib/formats/zip/read.ts";
import { buildBatchPackage, MAX_PARTS } from "../../../../storage/ksef/send/batch_package.ts";
import { MemoryStorage } from "../../../../storage/memory.ts";
import { SimKeys } from "../../../support/ksef_simulator_keys.ts";

const dir = join(import.meta.dirname, "../../../fixtures/samples/ksef-fa3");
const invoices = readdirSync(dir).filter((f) => f.endsWith(".xml")).sort().map((f) => readFileSync(join(dir, f)));
const keys = new SimKeys();
const cert = { ...keys.published().find((c) => (c.usage as string[]).includes("SymmetricKeyEncryption"))! } as never;

async function build(partBytes: number) {
  const store = new MemoryStorage().tenant("t");
  const subs: SubmissionRecord[] = [];
  for (const [i, xml] of invoices.entries()) {
    const blob = await store.putBlob(xml);
    subs.push({ id: `sub_${i}`, sha256: blob.sha256, size: blob.size } as SubmissionRecord);
  }
  const pkg = await buildBatchPackage({ store, subs, cert, id: "p1", partBytes });
  return { store, subs, pkg };
}

// What KSeF does with a package: each part decrypted with the session key (unwrapped with its private key), joined.
async function unpack(r: Awaited<ReturnType<typeof build>>): Promise<Buffer> {
  const unwrapped = keys.decrypt(r.pkg.encryption.publicKeyId, r.pkg.encryption.encryptedSymmetricKey);
  assert.ok(unwrapped.ok);
  const plain: Buffer[] = [];
  for (const part of r.pkg.parts) {
    const bytes = Buffer.from(await (await r.store.getDerived(part.key))!.bytes());
    assert.equal(part.fileSize, bytes.length);
    assert.equal(part.fileHash, createHash("sha256").update(bytes).digest("base64"));
    const d = createDecipheriv("aes-256-cbc", unwrapped.plain, Buffer.from(r.pkg.encryption.initializationVector, "base64"));
    plain.push(Buffer.concat([d.update(bytes), d.final()]));
  }
  return Buffer.concat(plain);
}

for (const partBytes of [1_000, 4_096, 100_000_000]) {
  test(`buildBatchPackage() in parts of ${partBytes} bytes: each decrypts alone, and together they are the ZIP of every invoice`, async () => {
    const r = await build(partBytes);
    const zip = await unpack(r);
    assert.equal(r.pkg.fileSize, zip.length);
    assert.equal(r.pkg.fileHash, createHash("sha256").update(zip).digest("base64"));
    assert.equal(r.pkg.parts.length, Math.ceil(zip.length / partBytes), "every part but the last is full");
    assert.deepEqual(r.pkg.parts.map((p) => p.ordinalNumber), r.pkg.parts.map((_, i) => i + 1));
    const entries = readZip(zip);
    assert.deepEqual(entries.map((e) => e.name), r.subs.map((s) => `${s.id}.xml`));
    for (const [i, e] of entries.entries()) assert.deepEqual(Buffer.from(e.bytes()), invoices[i]);
    assert.deepEqual(r.pkg.files.map((f) => f.hash), invoices.map((x) => createHash("sha256").update(x).digest("base64")));
  });
}

test(`buildBatchPackage() refuses a package of more than ${MAX_PARTS} parts`, async () => {
  await assert.rejects(build(200), RangeError);
});

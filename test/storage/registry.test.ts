import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { FileStorage } from "../../storage/file/store.ts";
import { SourceError, type SourceItem } from "../../lib/contracts/document_source.ts";
import { makeKsefCertificate } from "../support/ksef_certificates.ts";
import { openStorage, readConfiguredSources, SOURCE_TYPES, STORAGE_SCHEMES } from "../../storage/registry.ts";

test("openStorage() opens the file store without a DATABASE_URL", async () => {
  const dir = mkdtempSync(join(tmpdir(), "registry-"));
  try {
    const s = await openStorage({ dataDir: dir, databaseUrl: null, shared: false });
    assert.ok(s instanceof FileStorage);
    await s.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("openStorage() refuses a DATABASE_URL whose scheme no backend serves, listing the known ones and not echoing the URL", async () => {
  for (const url of ["mysql://root:secret@db/x", "postgress://u:secret@db/x", "not a url"]) {
    await assert.rejects(openStorage({ dataDir: ".", databaseUrl: url, shared: false }), (e: Error) =>
      e instanceof RangeError && /no storage backend serves \(known: postgres:, postgresql:\)/.test(e.message) && !e.message.includes("secret"));
  }
});

test("the registries name every backend scheme and source type that README documents", () => {
  assert.deepEqual(Object.keys(STORAGE_SCHEMES), ["postgres:", "postgresql:"]);
  assert.deepEqual(Object.keys(SOURCE_TYPES), ["http", "ksef"]);
});

test("a configured http source takes no document larger than the server's upload limit (UPLOAD_LIMIT)", async () => {
  const upstream = createServer((req, res) => {
    if (req.url!.startsWith("/api/v1/documents?")) return res.end(JSON.stringify({ data: [{ id: "doc_big", xml_available: true }], next_cursor: "c1", has_more: false }));
    res.end(`<a>${" ".repeat(2000)}</a>`);
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  const dir = mkdtempSync(join(tmpdir(), "registry-"));
  try {
    const url = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
    writeFileSync(join(dir, "sources.json"), JSON.stringify({ acme: [{ name: "erp", type: "http", url, token: "itk_x" }] }));
    const [source] = readConfiguredSources(dir, 1000).acme!;
    const items: SourceItem[] = [];
    for await (const item of source!.pull(new AbortController().signal)) items.push(item);
    assert.deepEqual(items.map((i) => [i.external_id, i.error?.code]), [["doc_big", "PAYLOAD_TOO_LARGE"]]);
    assert.match(items[0]!.error!.message, /larger than 1000 bytes/);
  } finally {
    upstream.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("after startup, a ksef entry whose certificate ended fails only its own runs; the other entries and tenants take effect", async () => {
  const dir = mkdtempSync(join(tmpdir(), "registry-"));
  try {
    const DAY = 86_400_000;
    const ended = makeKsefCertificate(dir, "ended", { nip: "5265877635", notBefore: new Date(Date.now() - 3 * DAY), notAfter: new Date(Date.now() - DAY) });
    writeFileSync(join(dir, "sources.json"), JSON.stringify({
      acme: [{ name: "ksef", type: "ksef", environment: "test", nip: "5265877635", certificate: ended.certificateFile, key: ended.keyFile }, { name: "erp", type: "http", url: "http://127.0.0.1:9", token: "itk_x" }],
      beta: [{ name: "erp", type: "http", url: "http://127.0.0.1:9", token: "itk_y" }],
    }));
    // At startup (no onEntryError) the file is refused, naming the certificate.
    assert.throws(() => readConfiguredSources(dir, 1000), (e) => e instanceof RangeError && e.message.includes("ended.crt.pem expired on"));
    const heard: string[] = [];
    const all = readConfiguredSources(dir, 1000, SOURCE_TYPES, (e) => heard.push(e.message));
    assert.deepEqual(heard.length, 1);
    assert.match(heard[0]!, /^sources\.json acme: source "ksef": certificate .*ended\.crt\.pem expired on /);
    assert.deepEqual(all.acme!.map((s) => [s.name, s.type]), [["ksef", "ksef"], ["erp", "http"]]);
    assert.deepEqual(all.beta!.map((s) => s.name), ["erp"]);
    assert.equal(all.acme![0]!.ksef?.qrEnvironment, "test");
    await assert.rejects(async () => {
      for await (const _ of all.acme![0]!.pull(new AbortController().signal)) { /* nothing comes */ }
    }, (e) => e instanceof SourceError && e.code === "KSEF_CERTIFICATE_EXPIRED" && /^sources\.json acme: source "ksef": certificate "ended\.crt\.pem" expired on /.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

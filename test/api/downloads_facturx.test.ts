/**
 * `GET …/pdf?as=factur-x|zugferd` through a real server (README "Getting a Factur-X PDF", the OpenAPI document): a
 * CII invoice comes back as a PDF/A-3b that carries its stored XML byte for byte, under its own cache key and ETag,
 * dated by its record; other formats are 422 naming the format; a bad `as` is 400, and `/xml` does not take it.
 */
import { after, before, describe, test } from "node:test";
import { readInvoice } from "../../lib/formats/invoice/read.ts";
import { parseXml } from "../../lib/formats/xml/parse.ts";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";
import { errorOf } from "../support/api.ts";

const sample = (dir: string, file: string): Buffer => readFileSync(fixturePath("samples", dir, file));
const CII = sample("cii", "mustang_factur-x.xml");
const XRECHNUNG = sample("cii", "xrechnung_01.01a-INVOICE_uncefact.xml");
const UBL = sample("ubl", "peppol-bis3_base-example.xml");
const KSEF = sample("ksef-fa3", "FA_3_complex.xml");

const TOOLS = ["qpdf", "pdfdetach"];
const missingTools = TOOLS.filter((t) => spawnSync(t, ["--version"]).error !== undefined);
const skipTools = missingTools.length > 0 && process.env.PDF_TOOLS === "skip" ? `not installed: ${missingTools.join(", ")}` : false;

/** Runs a tool asynchronously (the server runs in this process, so it must not be blocked). */
function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { maxBuffer: 64 << 20 }, (err, stdout, stderr) => (err ? reject(new Error(`${cmd} failed: ${stdout}${stderr}`)) : resolve(stdout)));
  });
}

const tmp = mkdtempSync(join(tmpdir(), "itest-facturx-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
let fileCount = 0;
function tempPdf(bytes: Uint8Array): string {
  const path = join(tmp, `download-${++fileCount}.pdf`);
  writeFileSync(path, bytes);
  return path;
}

/** The embedded file's name (pdfdetach -list) and bytes (pdfdetach -save). */
async function embedded(pdf: Uint8Array): Promise<{ name: string; bytes: Buffer }> {
  const path = tempPdf(pdf);
  const list = (await run("pdfdetach", ["-list", path])).trim().split("\n");
  assert.equal(list[0], "1 embedded files");
  const out = join(tmp, `embedded-${fileCount}.xml`);
  await run("pdfdetach", ["-save", "1", "-o", out, path]);
  return { name: list[1]!.replace(/^1: /, ""), bytes: readFileSync(out) };
}

describe("Factur-X and ZUGFeRD PDF downloads", () => {
  let s: TestServer;
  let token: string;
  let other: string;
  const ids: Record<string, string> = {};
  const created: Record<string, string> = {};

  before(async () => {
    s = await startServer({ storage: "memory" });
    token = (await s.token("acme")).token;
    other = (await s.token("globex")).token;
    s.drop("acme", "cii.xml", CII);
    s.drop("acme", "ksef.xml", KSEF);
    const runRecord = await s.sync(token);
    assert.equal(runRecord.status, "succeeded", JSON.stringify(runRecord));
    const feed = (await (await s.fetch("/api/v1/documents", token)).json()) as { data: { id: string; external_id: string }[] };
    for (const d of feed.data) ids[`doc:${d.external_id}`] = d.id;
    for (const [name, bytes] of [["cii", CII], ["xrechnung", XRECHNUNG], ["ubl", UBL]] as const) {
      const form = new FormData();
      form.append("xml", new Blob([new Uint8Array(bytes)], { type: "application/xml" }), `${name}.xml`);
      const res = await s.fetch("/api/v1/submissions", token, { method: "POST", body: form });
      assert.equal(res.status, 201, await res.clone().text());
      const body = (await res.json()) as { id: string; created_at: string };
      ids[`sub:${name}`] = body.id;
      created[name] = body.created_at;
    }
  });
  after(() => s.close());

  const get = async (path: string, t = token, init: RequestInit = {}) => {
    const res = await s.fetch(path, t, init);
    return { res, body: Buffer.from(await res.arrayBuffer()) };
  };

  test("a CII submission's ?as=factur-x is a PDF that carries its stored XML as factur-x.xml and passes qpdf --check", { skip: skipTools }, async () => {
    const { res, body } = await get(`/api/v1/submissions/${ids["sub:cii"]}/pdf?as=factur-x`);
    assert.equal(res.status, 200, body.toString("utf8").slice(0, 300));
    assert.equal(res.headers.get("content-type")?.split(";")[0], "application/pdf");
    assert.equal(res.headers.get("content-length"), String(body.length));
    await run("qpdf", ["--check", tempPdf(body)]);
    const file = await embedded(body);
    assert.equal(file.name, "factur-x.xml");
    assert.ok(file.bytes.equals(CII), "the stored XML, byte for byte");
    assert.match(body.toString("latin1"), /<pdfaid:part>3<\/pdfaid:part>/);
  });

  test("a CII document's ?as=factur-x carries the XML from the inbox", { skip: skipTools }, async () => {
    const { res, body } = await get(`/api/v1/documents/${ids["doc:cii"]}/pdf?as=factur-x`);
    assert.equal(res.status, 200, body.toString("utf8").slice(0, 300));
    const file = await embedded(body);
    assert.equal(file.name, "factur-x.xml");
    assert.ok(file.bytes.equals(CII));
  });

  test("?as=zugferd of an XRechnung submission embeds xrechnung.xml, ZUGFeRD 2.3's name for its profile XRECHNUNG", { skip: skipTools }, async () => {
    const { res, body } = await get(`/api/v1/submissions/${ids["sub:xrechnung"]}/pdf?as=zugferd`);
    assert.equal(res.status, 200, body.toString("utf8").slice(0, 300));
    const file = await embedded(body);
    assert.equal(file.name, "xrechnung.xml");
    assert.ok(file.bytes.equals(XRECHNUNG));
    assert.match(body.toString("latin1"), /<fx:ConformanceLevel>XRECHNUNG<\/fx:ConformanceLevel>/);
  });

  test("the file is dated by the submission's created_at, and is the same bytes with the same ETag on every request", async () => {
    const path = `/api/v1/submissions/${ids["sub:cii"]}/pdf?as=factur-x`;
    const a = await get(path);
    const b = await get(path);
    assert.ok(a.body.equals(b.body));
    assert.equal(a.res.headers.get("etag"), b.res.headers.get("etag"));
    const d = created["cii"]!;
    const info = `D:${d.slice(0, 4)}${d.slice(5, 7)}${d.slice(8, 10)}${d.slice(11, 13)}${d.slice(14, 16)}${d.slice(17, 19)}+00'00'`;
    assert.ok(a.body.includes(`/CreationDate (${info})`), info);
    assert.ok(a.body.includes(`<xmp:CreateDate>${d.slice(0, 19)}Z</xmp:CreateDate>`));
    const c = await get(path, token, { headers: { "if-none-match": a.res.headers.get("etag")! } });
    assert.equal(c.res.status, 304);
  });

  test("the plain rendering, ?as=factur-x and ?as=zugferd are kept apart: three ETags", async () => {
    const base = `/api/v1/submissions/${ids["sub:cii"]}/pdf`;
    const etags = await Promise.all(["", "?as=factur-x", "?as=zugferd"].map(async (q) => (await get(base + q)).res.headers.get("etag")));
    assert.equal(new Set(etags).size, 3, etags.join(" "));
    const plain = (await get(base)).body.toString("latin1");
    assert.doesNotMatch(plain, /\/EmbeddedFiles|\/Metadata/);
  });

  test("?as=factur-x takes lang too, and HEAD answers with GET's headers", async () => {
    const path = `/api/v1/submissions/${ids["sub:cii"]}/pdf?as=factur-x&lang=pl`;
    const g = await get(path);
    assert.equal(g.res.status, 200);
    assert.equal(g.res.headers.get("content-disposition"), 'attachment; filename="RE-20201121_508_pl.pdf"');
    const head = await s.fetch(path, token, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("etag"), g.res.headers.get("etag"));
    assert.equal(head.headers.get("content-length"), String(g.body.length));
  });

  test("a UBL submission's ?as=factur-x carries the invoice written as CII: the same invoice, valid", { skip: skipTools }, async () => {
    const { res, body } = await get(`/api/v1/submissions/${ids["sub:ubl"]}/pdf?as=factur-x`);
    assert.equal(res.status, 200, body.toString("utf8").slice(0, 500));
    await run("qpdf", ["--check", tempPdf(body)]);
    const file = await embedded(body);
    assert.equal(file.name, "factur-x.xml");
    const cii = readInvoice(parseXml(new Uint8Array(file.bytes)));
    const ubl = readInvoice(parseXml(new Uint8Array(UBL)));
    assert.equal(cii.format, "cii");
    assert.deepEqual([cii.number, cii.issue_date, cii.totals, cii.vat_breakdown.length, cii.lines.length], [ubl.number, ubl.issue_date, ubl.totals, ubl.vat_breakdown.length, ubl.lines.length]);
    const verdict = await (await s.fetch("/api/v1/validate", token, { method: "POST", headers: { "content-type": "application/xml" }, body: new Uint8Array(file.bytes) })).json() as { valid: boolean };
    assert.equal(verdict.valid, true);
  });

  test("a KSeF document's ?as=zugferd embeds its CII, or says with 422 which rule the CII would break", async () => {
    const res = await s.fetch(`/api/v1/documents/${ids["doc:ksef"]}/pdf?as=zugferd`, token);
    if (res.status === 200) return assert.equal(res.headers.get("content-type")?.split(";")[0], "application/pdf");
    const e = await errorOf(res, 422, "VALIDATION_ERROR");
    assert.equal((e.details as { issue: string }).issue, "not_valid_cii");
    assert.match(e.message, /^This invoice cannot be written as a valid CII invoice: /);
  });

  test("an unknown ?as is 400 naming the values, and /xml does not take as", async () => {
    const bad = await errorOf(await s.fetch(`/api/v1/submissions/${ids["sub:cii"]}/pdf?as=pdfa`, token), 400, "BAD_REQUEST");
    assert.deepEqual(bad.details, { field: "as", issue: "invalid_value" });
    assert.equal(bad.message, "as must be one of factur-x, zugferd");
    const xml = await errorOf(await s.fetch(`/api/v1/submissions/${ids["sub:cii"]}/xml?as=factur-x`, token), 400, "BAD_REQUEST");
    assert.deepEqual(xml.details, { field: "as", issue: "unknown parameter" });
  });

  test("another tenant's submission is 404 with ?as as without", async () => {
    await errorOf(await s.fetch(`/api/v1/submissions/${ids["sub:cii"]}/pdf?as=factur-x`, other), 404, "NOT_FOUND");
  });
});

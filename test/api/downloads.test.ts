/**
 * The PDF downloads (README “Documents and the inbox”, the OpenAPI document, README “The PDF”) through a real server:
 * `GET /documents/{id}/pdf` and `GET /submissions/{id}/pdf` follow the download
 * rules (Content-Length, strong ETag, 304, Content-Disposition, HEAD, Range),
 * honour `lang`, and produce a PDF that qpdf accepts and whose text (pdftotext)
 * holds the invoice number, the seller and the labels of the chosen language.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { execFile, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";
import { errorOf, type ApiErrorBody } from "../support/api.ts";

const sample = (dir: string, file: string): Buffer => readFileSync(fixturePath("samples", dir, file));
const COMPLEX = sample("ksef-fa3", "FA_3_complex.xml");
const PEPPOL = sample("ubl", "peppol-bis3_base-example.xml");
const FACTURX = sample("cii", "mustang_factur-x.xml");

const TOOLS = ["qpdf", "pdftotext"];
const missingTools = TOOLS.filter((t) => spawnSync(t, ["--version"]).error !== undefined);

const METADATA = {
  type: "invoice", format: "ksef-fa3", number: "FV/2026/11/001", issue_date: "2026-11-20", currency: "PLN",
  seller: { name: "Przykładowa Sp. z o.o.", tax_id: "5260250274" }, buyer: { name: "Kowalski i Syn", tax_id: "1234563218" },
  totals: { net: "1000.00", tax: "230.00", gross: "1230.00" },
};



/** Runs a tool asynchronously (the server runs in this process, so it must not be blocked). */
function run(cmd: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(" ")} failed: ${stdout}${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

const tmp = mkdtempSync(join(tmpdir(), "itest-pdf-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
let fileCount = 0;
function tempPdf(bytes: Uint8Array): string {
  const path = join(tmp, `download-${++fileCount}.pdf`);
  writeFileSync(path, bytes);
  return path;
}

/** pdftotext of `bytes`, whitespace runs folded into single spaces. */
async function textOf(bytes: Uint8Array): Promise<string> {
  const r = await run("pdftotext", ["-enc", "UTF-8", tempPdf(bytes), "-"]);
  return r.stdout.replace(/\s+/g, " ");
}

async function download(s: TestServer, path: string, token: string, headers: Record<string, string> = {}): Promise<{ res: Response; body: Buffer }> {
  const res = await s.fetch(path, token, { headers });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

interface Target {
  what: string;
  path: () => string;
  token: () => string;
  number: string;
  seller: string;
  filename: string;
  /** Labels of the language used when no `lang` is given. */
  defaultLang: "pl" | "en";
}

describe("PDF downloads (README “Documents and the inbox”, the OpenAPI document, README “The PDF”)", () => {
  let s: TestServer;
  let token: string;
  let other: string;
  const ids: Record<string, string> = {};

  before(async () => {
    s = await startServer();
    token = (await s.token("acme")).token;
    other = (await s.token("globex")).token;
    s.drop("acme", "ksef.xml", COMPLEX);
    s.drop("acme", "ubl.xml", PEPPOL);
    s.drop("acme", "meta-only.json", JSON.stringify(METADATA));
    const runRecord = await s.sync(token);
    assert.equal(runRecord.status, "succeeded", JSON.stringify(runRecord));
    const feed = (await (await s.fetch("/api/v1/documents", token)).json()) as { data: { id: string; external_id: string }[] };
    for (const d of feed.data) ids[`doc:${d.external_id}`] = d.id;
    for (const [name, bytes] of [["ksef", COMPLEX], ["ubl", PEPPOL], ["cii", FACTURX]] as const) {
      const form = new FormData();
      form.append("xml", new Blob([new Uint8Array(bytes)], { type: "application/xml" }), `${name}.xml`);
      const res = await s.fetch("/api/v1/submissions", token, { method: "POST", body: form });
      assert.equal(res.status, 201, await res.clone().text());
      ids[`sub:${name}`] = ((await res.json()) as { id: string }).id;
    }
  });
  after(() => s.close());

  test("the PDF tools are installed", () => {
    assert.deepEqual(missingTools, [], "apt-get install qpdf poppler-utils");
  });

  const targets: Target[] = [
    { what: "a KSeF document", path: () => `/api/v1/documents/${ids["doc:ksef"]}/pdf`, token: () => token, number: "FA/2025/12/001", seller: "ABC Spółka z ograniczoną odpowiedzialnością", filename: "FA_2025_12_001.pdf", defaultLang: "pl" },
    { what: "a UBL document", path: () => `/api/v1/documents/${ids["doc:ubl"]}/pdf`, token: () => token, number: "Snippet1", seller: "SupplierOfficialName Ltd", filename: "Snippet1.pdf", defaultLang: "en" },
    { what: "a KSeF submission", path: () => `/api/v1/submissions/${ids["sub:ksef"]}/pdf`, token: () => token, number: "FA/2025/12/001", seller: "ABC Spółka z ograniczoną odpowiedzialnością", filename: "FA_2025_12_001.pdf", defaultLang: "pl" },
    { what: "a UBL submission", path: () => `/api/v1/submissions/${ids["sub:ubl"]}/pdf`, token: () => token, number: "Snippet1", seller: "SupplierOfficialName Ltd", filename: "Snippet1.pdf", defaultLang: "en" },
    { what: "a CII submission", path: () => `/api/v1/submissions/${ids["sub:cii"]}/pdf`, token: () => token, number: "RE-20201121/508", seller: "Bei Spiel GmbH", filename: "RE-20201121_508.pdf", defaultLang: "en" },
  ];

  for (const t of targets) {
    describe(t.what, () => {
      test("is 200 application/pdf with Content-Length, Content-Disposition …pdf and Cache-Control", async () => {
        const { res, body } = await download(s, t.path(), t.token());
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("content-type")?.split(";")[0], "application/pdf");
        assert.equal(res.headers.get("content-length"), String(body.length));
        assert.equal(body.subarray(0, 5).toString("latin1"), "%PDF-");
        assert.match(body.subarray(-32).toString("latin1"), /%%EOF\s*$/);
        assert.equal(res.headers.get("content-disposition"), `attachment; filename="${t.filename}"`);
        assert.equal(res.headers.get("cache-control"), "private, no-cache");
      });

      test("has a strong ETag, stable across requests, and If-None-Match answers 304 without a body", async () => {
        const a = await download(s, t.path(), t.token());
        const b = await download(s, t.path(), t.token());
        const etag = a.res.headers.get("etag") ?? "";
        assert.match(etag, /^"[^"]+"$/, "strong, not W/");
        assert.equal(b.res.headers.get("etag"), etag);
        assert.ok(a.body.equals(b.body), "the same bytes (deterministic)");
        const c = await download(s, t.path(), t.token(), { "if-none-match": etag });
        assert.equal(c.res.status, 304);
        assert.equal(c.body.length, 0);
        assert.equal(c.res.headers.get("etag"), etag);
      });

      test("HEAD is 200 with the headers of GET and no body", async () => {
        const get = await download(s, t.path(), t.token());
        const head = await s.fetch(t.path(), t.token(), { method: "HEAD" });
        assert.equal(head.status, 200);
        assert.equal(head.headers.get("content-length"), String(get.body.length));
        assert.equal(head.headers.get("etag"), get.res.headers.get("etag"));
        assert.equal(head.headers.get("content-type"), get.res.headers.get("content-type"));
        assert.equal((await head.arrayBuffer()).byteLength, 0);
      });

      test("Range is 206 with Content-Range and exactly those bytes; an unsatisfiable Range is 416", async () => {
        const whole = (await download(s, t.path(), t.token())).body;
        for (const [range, start, end] of [["bytes=0-99", 0, 100], ["bytes=-64", whole.length - 64, whole.length], ["bytes=1000-", 1000, whole.length]] as const) {
          const part = await download(s, t.path(), t.token(), { range });
          assert.equal(part.res.status, 206, range);
          assert.equal(part.res.headers.get("content-range"), `bytes ${start}-${end - 1}/${whole.length}`);
          assert.equal(part.res.headers.get("content-length"), String(end - start));
          assert.ok(part.body.equals(whole.subarray(start, end)), range);
        }
        const none = await download(s, t.path(), t.token(), { range: `bytes=${whole.length}-` });
        assert.equal(none.res.status, 416);
        assert.equal(none.res.headers.get("content-range"), `bytes */${whole.length}`);
      });

      test("passes qpdf --check", { skip: missingTools.length > 0 }, async () => {
        const { body } = await download(s, t.path(), t.token());
        await run("qpdf", ["--check", tempPdf(body)]);
      });

      test("its text holds the invoice number and the seller's name", { skip: missingTools.length > 0 }, async () => {
        const text = await textOf((await download(s, t.path(), t.token())).body);
        assert.ok(text.includes(t.number), `number ${t.number} in: ${text.slice(0, 400)}`);
        assert.ok(text.includes(t.seller), `seller ${t.seller} in: ${text.slice(0, 400)}`);
      });

      test(`without lang it is in ${t.defaultLang === "pl" ? "Polish" : "English"}; lang=pl and lang=en choose the labels`, { skip: missingTools.length > 0 }, async () => {
        const plain = await textOf((await download(s, t.path(), t.token())).body);
        const pl = await textOf((await download(s, `${t.path()}?lang=pl`, t.token())).body);
        const en = await textOf((await download(s, `${t.path()}?lang=en`, t.token())).body);
        for (const [what, text] of [["lang=pl", pl], [`default (${t.defaultLang})`, t.defaultLang === "pl" ? plain : pl]] as const) {
          assert.match(text, /Faktura|Nota/, `${what}: Polish title`);
          assert.ok(text.includes("Sprzedawca") && text.includes("Nabywca"), `${what}: Polish labels`);
          assert.ok(!text.includes("Seller"), `${what}: no English label`);
        }
        for (const [what, text] of [["lang=en", en], [`default (${t.defaultLang})`, t.defaultLang === "en" ? plain : en]] as const) {
          assert.match(text, /Invoice|invoice/, `${what}: English title`);
          assert.ok(text.includes("Seller") && text.includes("Buyer"), `${what}: English labels`);
          assert.ok(!text.includes("Sprzedawca"), `${what}: no Polish label`);
        }
      });

      test("the language that is not the default is in the file name, so the two renderings do not overwrite each other", async () => {
        const other = t.defaultLang === "pl" ? "en" : "pl";
        const base = t.filename.slice(0, -4);
        const plain = await download(s, `${t.path()}?lang=${t.defaultLang}`, t.token());
        const translated = await download(s, `${t.path()}?lang=${other}`, t.token());
        assert.equal(plain.res.headers.get("content-disposition"), `attachment; filename="${base}.pdf"`);
        assert.equal(translated.res.headers.get("content-disposition"), `attachment; filename="${base}_${other}.pdf"`);
      });

      test("lang=pl and lang=en have different ETags, and one's ETag does not validate the other", async () => {
        const pl = await download(s, `${t.path()}?lang=pl`, t.token());
        const en = await download(s, `${t.path()}?lang=en`, t.token());
        assert.ok(!pl.body.equals(en.body));
        const etagPl = pl.res.headers.get("etag")!;
        assert.notEqual(etagPl, en.res.headers.get("etag"));
        const cross = await download(s, `${t.path()}?lang=en`, t.token(), { "if-none-match": etagPl });
        assert.equal(cross.res.status, 200);
      });

      for (const bad of ["de", "", "english", "pl,en"]) {
        test(`lang=${bad === "" ? "(empty)" : bad} is 400 BAD_REQUEST with field lang`, async () => {
          const error = await errorOf(await s.fetch(`${t.path()}?lang=${encodeURIComponent(bad)}`, t.token()), 400, "BAD_REQUEST");
          assert.equal(error.details.field, "lang");
        });
      }
    });
  }

  test("the same XML renders the same bytes as a document and as a submission (deterministic)", async () => {
    const doc = await download(s, `/api/v1/documents/${ids["doc:ksef"]}/pdf`, token);
    const sub = await download(s, `/api/v1/submissions/${ids["sub:ksef"]}/pdf`, token);
    assert.ok(doc.body.equals(sub.body));
  });

  test("a KSeF PDF prints the KOD I verification link", { skip: missingTools.length > 0 }, async () => {
    const text = (await textOf((await download(s, `/api/v1/documents/${ids["doc:ksef"]}/pdf`, token)).body)).replace(/\s+/g, "");
    const hash = createHash("sha256").update(COMPLEX).digest("base64url");
    assert.ok(text.includes(`https://qr.ksef.mf.gov.pl/invoice/5451824119/15-01-2026/${hash}`), "the link");
  });

  test("a metadata-only document is 404 XML_NOT_AVAILABLE on /pdf (GET and HEAD)", async () => {
    const path = `/api/v1/documents/${ids["doc:meta-only"]}/pdf`;
    await errorOf(await s.fetch(path, token), 404, "XML_NOT_AVAILABLE");
    await errorOf(await s.fetch(`${path}?lang=en`, token), 404, "XML_NOT_AVAILABLE");
    const head = await s.fetch(path, token, { method: "HEAD" });
    assert.equal(head.status, 404);
  });

  test("an unknown or another tenant's id is 404 NOT_FOUND on /pdf", async () => {
    for (const path of [
      "/api/v1/documents/doc_01JD0000000000000000000000/pdf", "/api/v1/submissions/sub_01JD0000000000000000000000/pdf",
      "/api/v1/documents/nope/pdf",
    ]) {
      await errorOf(await s.fetch(path, token), 404, "NOT_FOUND");
    }
    await errorOf(await s.fetch(`/api/v1/documents/${ids["doc:ksef"]}/pdf`, other), 404, "NOT_FOUND");
    await errorOf(await s.fetch(`/api/v1/submissions/${ids["sub:ksef"]}/pdf`, other), 404, "NOT_FOUND");
  });

  test("a token without the read scope is 403 on /pdf", async () => {
    const writeOnly = (await s.token("acme", ["documents:write", "submissions:write"])).token;
    const a = await errorOf(await s.fetch(`/api/v1/documents/${ids["doc:ksef"]}/pdf`, writeOnly), 403, "FORBIDDEN");
    assert.equal(a.details.required_scope, "documents:read");
    const b = await errorOf(await s.fetch(`/api/v1/submissions/${ids["sub:ksef"]}/pdf`, writeOnly), 403, "FORBIDDEN");
    assert.equal(b.details.required_scope, "submissions:read");
  });
});

describe("a large PDF (over 256 KB, the size above which downloads stream)", () => {
  let s: TestServer;
  let token: string;
  let path: string;
  before(async () => {
    s = await startServer();
    token = (await s.token("acme")).token;
    // An FA(3) invoice with an attachment (Zalacznik: KSeF then allows 3,000,000 bytes instead of 1,000,000,
    // "weryfikacja-faktury.md") and its first line repeated 6,000 times: 1.4 MB that render to well over 256 KB.
    const text = sample("ksef-fa3", "FA_3_Zalacznik_Przyklad_1.xml").toString("utf8");
    const line = /<FaWiersz>[\s\S]*?<\/FaWiersz>/.exec(text)![0];
    const lines = Array.from({ length: 6000 }, (_, i) => line.replace(/<NrWierszaFa>\d+<\/NrWierszaFa>/, `<NrWierszaFa>${i + 1}</NrWierszaFa>`));
    const form = new FormData();
    form.append("xml", new Blob([Buffer.from(text.replace(line, lines.join("\n")))], { type: "application/xml" }), "large.xml");
    const res = await s.fetch("/api/v1/submissions", token, { method: "POST", body: form });
    assert.equal(res.status, 201, await res.clone().text());
    path = `/api/v1/submissions/${((await res.json()) as { id: string }).id}/pdf`;
  });
  after(() => s.close());

  test("is served whole with Content-Length, ETag/304, HEAD and Ranges that add up to the whole", async () => {
    const whole = await download(s, path, token);
    assert.equal(whole.res.status, 200);
    assert.ok(whole.body.length > 256 * 1024, `${whole.body.length} bytes`);
    assert.equal(whole.res.headers.get("content-length"), String(whole.body.length));
    const etag = whole.res.headers.get("etag")!;
    assert.equal((await download(s, path, token, { "if-none-match": etag })).res.status, 304);
    const head = await s.fetch(path, token, { method: "HEAD" });
    assert.equal(head.headers.get("content-length"), String(whole.body.length));
    assert.equal((await head.arrayBuffer()).byteLength, 0);
    const mid = 200_000;
    const a = await download(s, path, token, { range: `bytes=0-${mid - 1}` });
    const b = await download(s, path, token, { range: `bytes=${mid}-` });
    assert.equal(a.res.status, 206);
    assert.equal(b.res.status, 206);
    assert.equal(b.res.headers.get("content-range"), `bytes ${mid}-${whole.body.length - 1}/${whole.body.length}`);
    assert.ok(Buffer.concat([a.body, b.body]).equals(whole.body));
  });

  test("passes qpdf --check", { skip: missingTools.length > 0 }, async () => {
    await run("qpdf", ["--check", tempPdf((await download(s, path, token)).body)]);
  });
});

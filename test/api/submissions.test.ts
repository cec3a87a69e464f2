/**
 * The submissions API (the OpenAPI document) through a real server, as clients send it:
 * `curl -F` (file part and plain field), the runtime's fetch with FormData, and
 * hand-made multipart bodies for the malformed cases. Every sample invoice
 * round-trips byte-exact; validation, duplicates, limits, aborted uploads, the
 * feed and the `/xml` download rules are checked against the contract.
 */
import { INVALID_SAMPLES, PACK_FAILING_SAMPLES, RULE_FAILING_SAMPLES } from "../support/invalid_samples.ts";
import { curl } from "../support/curl.ts";
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";
import { STORES } from "../support/stores.ts";
import { errorOf, type ApiErrorBody } from "../support/api.ts";

// ---------------------------------------------------------------- fixtures and helpers

const FORMAT_DIRS = ["ksef-fa2", "ksef-fa3", "ubl", "cii"] as const;
type FormatDir = (typeof FORMAT_DIRS)[number];

interface Sample {
  dir: FormatDir;
  file: string;
  path: string;
  bytes: Buffer;
}

const SAMPLES: Sample[] = FORMAT_DIRS.flatMap((dir) =>
  readdirSync(fixturePath("samples", dir))
    .filter((f) => f.endsWith(".xml"))
    .sort()
    .map((file) => ({ dir, file, path: fixturePath("samples", dir, file), bytes: readFileSync(fixturePath("samples", dir, file)) })),
);

/**
 * Samples that share seller tax id + type + number (SOURCES.md numbers, checked
 * with the readers): in one tenant only the first of each group is accepted.
 */
const SHARED_BUSINESS_KEYS: string[][] = [
  ["ksef-fa2/FA_2_Przyklad_15_UPR.xml", "ksef-fa2/FA_2_Przyklad_9.xml"],
  ["ksef-fa2/FA_2_Przyklad_4_EUR.xml", "ksef-fa3/FA_3_Przyklad_4_EUR.xml"],
  ["ubl/xrechnung_03.01a-INVOICE_ubl_negative.xml", "ubl/xrechnung_03.04a-INVOICE_ubl.xml", "cii/xrechnung_03.01a-INVOICE_uncefact_negative.xml"],
  ["ubl/xrechnung_01.02a-INVOICE_ubl.xml", "cii/xrechnung_01.02a-INVOICE_uncefact.xml"],
  ["ubl/xrechnung_01.18a-INVOICE_ubl_384.xml", "cii/xrechnung_01.18a-INVOICE_uncefact_384.xml"],
  ["ubl/en16931_ubl-tc434-example1.xml", "cii/en16931_CII_example1.xml"],
  ["ubl/en16931_ubl-tc434-example2_NOK.xml", "cii/en16931_CII_business_example_01_NOK.xml"],
];

const sample = (dir: string, file: string): Buffer => readFileSync(fixturePath("samples", dir, file));
const COMPLEX = sample("ksef-fa3", "FA_3_complex.xml");
const PEPPOL = sample("ubl", "peppol-bis3_base-example.xml");
const FACTURX = sample("cii", "mustang_factur-x.xml");

/** `bytes` as text with `from` replaced by `to`; fails when `from` is not there, so an edit cannot silently miss. */
function edited(bytes: Uint8Array, from: string | RegExp, to: string): Buffer {
  const text = Buffer.from(bytes).toString("utf8");
  assert.ok(typeof from === "string" ? text.includes(from) : from.test(text), `fixture holds ${String(from)}`);
  return Buffer.from(text.replace(from, to), "utf8");
}

/** ISO-8859-2 codes of the Polish letters (the rest of the samples used with it is ASCII). */
const LATIN2: Record<string, number> = {
  "ą": 0xb1, "ć": 0xe6, "ę": 0xea, "ł": 0xb3, "ń": 0xf1, "ó": 0xf3, "ś": 0xb6, "ź": 0xbc, "ż": 0xbf,
  "Ą": 0xa1, "Ć": 0xc6, "Ę": 0xca, "Ł": 0xa3, "Ń": 0xd1, "Ó": 0xd3, "Ś": 0xa6, "Ź": 0xac, "Ż": 0xaf,
};

/** `text` encoded as ISO-8859-2; fails on a character it cannot hold. */
function encodeLatin2(text: string): Buffer {
  return Buffer.from(Array.from(text, (c) => {
    const code = c.charCodeAt(0);
    if (code < 0x80) return code;
    const mapped = LATIN2[c];
    assert.ok(mapped !== undefined, `ISO-8859-2 has ${c}`);
    return mapped;
  }));
}

const SUB_ID_RE = /^sub_[0-9A-Z]{26}$/;
const ISO_MS_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DECIMAL_RE = /^-?\d+(\.\d+)?$/;
const sha256 = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");



/** POSTs `bytes` as the `xml` file part through the runtime's fetch with FormData and a Blob. */
function upload(s: TestServer, token: string, bytes: Uint8Array, init: { filename?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  const form = new FormData();
  form.append("xml", new Blob([new Uint8Array(bytes)], { type: "application/xml" }), init.filename ?? "invoice.xml");
  return s.fetch("/api/v1/submissions", token, { method: "POST", body: form, headers: init.headers ?? {} });
}

/** A created submission's JSON, after checking 201. */
async function created(res: Response): Promise<SubmissionJson> {
  const text = await res.text();
  assert.equal(res.status, 201, text);
  return JSON.parse(text) as SubmissionJson;
}

interface SubmissionJson {
  id: string;
  status: string;
  format: string;
  type: string;
  number: string | null;
  issue_date: string | null;
  currency: string | null;
  seller: { name: string | null; tax_id: string | null } | null;
  buyer: { name: string | null; tax_id: string | null } | null;
  totals: { net: string | null; tax: string | null; gross: string | null };
  sha256: string;
  size: number;
  ksef: Record<string, unknown> | null;
  ksef_number: string | null;
  updated_at: string;
  created_at: string;
  links: { self: string; xml: string; pdf: string };
}

interface FeedPage {
  data: SubmissionJson[];
  next_cursor: string;
  has_more: boolean;
}

/** One multipart part to encode by hand. */
interface RawPart {
  name: string;
  filename?: string;
  contentType?: string;
  body: Uint8Array | string;
}

/** A multipart/form-data body with `boundary`, encoded by hand (RFC 7578). */
function multipartBody(boundary: string, parts: RawPart[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += "\r\n";
    if (p.contentType !== undefined) head += `Content-Type: ${p.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, "utf8"), Buffer.from(p.body), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** POSTs a raw body with a Content-Type. */
function postRaw(s: TestServer, token: string, contentType: string | null, body: Uint8Array | string): Promise<Response> {
  const headers: Record<string, string> = contentType === null ? {} : { "content-type": contentType };
  return s.fetch("/api/v1/submissions", token, { method: "POST", headers, body: typeof body === "string" ? body : new Uint8Array(body) });
}

/** How one client uploads a sample file. */
interface Client {
  what: string;
  send(s: TestServer, token: string, sample: Sample): Promise<{ status: number; location: string | null; body: Buffer }>;
}

const CLIENTS: Client[] = [
  {
    what: "curl -F xml=@file (a file part)",
    async send(s, token, smp) {
      const r = await curl(`${s.url}/api/v1/submissions`, token, ["-F", `xml=@${smp.path}`]);
      return { status: r.status, location: r.headers.location ?? null, body: r.body };
    },
  },
  {
    what: "curl -F 'xml=<file' (a plain field)",
    async send(s, token, smp) {
      const r = await curl(`${s.url}/api/v1/submissions`, token, ["-F", `xml=<${smp.path}`]);
      return { status: r.status, location: r.headers.location ?? null, body: r.body };
    },
  },
  {
    // On Deno this is Deno's fetch and FormData: the same code path.
    what: `${(globalThis as { Deno?: unknown }).Deno ? "Deno" : "Node"}'s fetch with FormData and a Blob`,
    async send(s, token, smp) {
      const res = await upload(s, token, smp.bytes, { filename: smp.file });
      return { status: res.status, location: res.headers.get("location"), body: Buffer.from(await res.arrayBuffer()) };
    },
  },
];

/** Every page of a tenant's submissions feed from `query`. */
async function walkFeed(s: TestServer, token: string, query: string): Promise<FeedPage[]> {
  const pages: FeedPage[] = [];
  let cursor: string | null = null;
  for (;;) {
    const res = await s.fetch(`/api/v1/submissions?${query}${cursor ? `&cursor=${cursor}` : ""}`, token);
    assert.equal(res.status, 200);
    const page = (await res.json()) as FeedPage;
    pages.push(page);
    assert.ok(pages.length < 100, "the feed ends");
    if (!page.has_more) return pages;
    cursor = page.next_cursor;
  }
}

let tenantCount = 0;
/** A token of a new tenant with both submission scopes. */
async function freshTenant(s: TestServer): Promise<string> {
  return (await s.token(`t${++tenantCount}`, ["submissions:read", "submissions:write"])).token;
}

// ---------------------------------------------------------------- uploads from real clients

describe("POST /api/v1/submissions from real clients: every sample round-trips byte-exact", () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
  });
  after(() => s.close());

  test("the sample set holds every format", () => {
    for (const dir of FORMAT_DIRS) assert.ok(SAMPLES.filter((x) => x.dir === dir).length >= 10, dir);
  });

  for (const client of CLIENTS) {
    test(`${client.what}: every sample is accepted (or a documented duplicate) and GET …/xml returns its exact bytes`, async () => {
      const shared = await freshTenant(s);
      const idOf = new Map<string, string>();
      const duplicates: string[] = [];
      for (const smp of SAMPLES) {
        const name = `${smp.dir}/${smp.file}`;
        let res = await client.send(s, shared, smp);
        let token = shared;
        if (INVALID_SAMPLES[name] !== undefined || RULE_FAILING_SAMPLES[name] !== undefined || PACK_FAILING_SAMPLES[name] !== undefined) {
          // Fails its official schema, the EN 16931 rules or its CIUS pack: refused with every violation listed (README "Validation").
          assert.equal(res.status, 422, `${name}: ${res.body.toString("utf8")}`);
          const error = (JSON.parse(res.body.toString("utf8")) as { error: ApiErrorBody }).error;
          assert.equal(error.code, "VALIDATION_ERROR", name);
          assert.match(String(error.details.field), /^xml:\//, name);
          assert.ok(Array.isArray(error.details.violations) && error.details.violations.length > 0, name);
          continue;
        }
        if (res.status === 409) {
          const error = (JSON.parse(res.body.toString("utf8")) as { error: ApiErrorBody }).error;
          assert.equal(error.code, "DUPLICATE_SUBMISSION", name);
          const group = SHARED_BUSINESS_KEYS.find((g) => g.includes(name));
          assert.ok(group, `${name}: 409 only for samples that share a business key`);
          assert.equal(error.details.existing_id, idOf.get(group.find((n) => idOf.has(n))!), `${name}: existing_id names the first of its group`);
          duplicates.push(name);
          // Accepted on its own in a tenant of its own.
          token = await freshTenant(s);
          res = await client.send(s, token, smp);
        }
        assert.equal(res.status, 201, `${name}: ${res.body.toString("utf8")}`);
        const sub = JSON.parse(res.body.toString("utf8")) as SubmissionJson;
        assert.match(sub.id, SUB_ID_RE, name);
        assert.equal(res.location, `/api/v1/submissions/${sub.id}`, name);
        assert.equal(sub.format, smp.dir, name);
        assert.equal(sub.sha256, sha256(smp.bytes), name);
        assert.equal(sub.size, smp.bytes.length, name);
        if (token === shared) idOf.set(name, sub.id);
        const xml = await s.fetch(`/api/v1/submissions/${sub.id}/xml`, token);
        assert.equal(xml.status, 200, name);
        assert.equal(xml.headers.get("content-type")?.split(";")[0], "application/xml", name);
        assert.ok(Buffer.from(await xml.arrayBuffer()).equals(smp.bytes), `${name}: byte-exact`);
      }
      const expected = SHARED_BUSINESS_KEYS.flatMap((g) => g.slice(1)).sort();
      assert.deepEqual(duplicates.sort(), expected, "the later samples of each shared business key, and only those, are 409");
    });
  }

  test("parts other than xml are ignored", async () => {
    const token = await freshTenant(s);
    const form = new FormData();
    form.append("note", "hello");
    form.append("xml", new Blob([new Uint8Array(COMPLEX)], { type: "application/xml" }), "FA_3_complex.xml");
    form.append("extra", new Blob([new Uint8Array([0, 1, 2])]), "junk.bin");
    const sub = await created(await s.fetch("/api/v1/submissions", token, { method: "POST", body: form }));
    const xml = await s.fetch(`/api/v1/submissions/${sub.id}/xml`, token);
    assert.ok(Buffer.from(await xml.arrayBuffer()).equals(COMPLEX));
  });

  for (const { what, input } of [
    { what: "a quoted boundary", input: 'multipart/form-data; boundary="quoted-b"' },
    { what: "the media type and parameter name in upper case", input: "Multipart/Form-Data; BOUNDARY=quoted-b" },
    { what: "a charset parameter before the boundary", input: "multipart/form-data; charset=utf-8; boundary=quoted-b" },
  ]) {
    test(`a Content-Type with ${what} is accepted`, async () => {
      const token = await freshTenant(s);
      await created(await postRaw(s, token, input, multipartBody("quoted-b", [{ name: "xml", filename: "a.xml", body: COMPLEX }])));
    });
  }

  test("a hand-made body whose xml part has no filename and no Content-Type is accepted", async () => {
    const token = await freshTenant(s);
    const res = await postRaw(s, token, "multipart/form-data; boundary=plain-field-1", multipartBody("plain-field-1", [{ name: "xml", body: PEPPOL }]));
    const sub = await created(res);
    const xml = await s.fetch(`/api/v1/submissions/${sub.id}/xml`, token);
    assert.ok(Buffer.from(await xml.arrayBuffer()).equals(PEPPOL));
  });
});

// ---------------------------------------------------------------- the 201 body

for (const store of STORES) describe(`the 201 Created answer (the OpenAPI document)${store.label}`, () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ storage: store });
  });
  after(() => s.close());

  test("has Location and exactly the fields of the OpenAPI document with the invoice's values", async () => {
    const token = await freshTenant(s);
    const before = Date.now();
    const res = await upload(s, token, COMPLEX);
    const sub = await created(res);
    assert.deepEqual(Object.keys(sub).sort(), [
      "buyer", "conversion", "created_at", "currency", "format", "id", "issue_date", "ksef", "ksef_number", "links", "number", "seller", "sha256", "size", "source", "status", "totals", "type", "updated_at", "validation",
    ]);
    assert.equal(sub.ksef, null, "a tenant that does not send to KSeF");
    assert.equal(sub.ksef_number, null);
    assert.equal(sub.updated_at, sub.created_at);
    assert.deepEqual((sub as unknown as { validation: unknown }).validation, { valid: true, checks: ["KSEF-FILE", "XSD:FA(3) 1-0E"], errors: [], warnings: [] });
    assert.match(sub.id, SUB_ID_RE);
    assert.equal(res.headers.get("location"), `/api/v1/submissions/${sub.id}`);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    assert.equal(sub.status, "accepted");
    assert.equal(sub.format, "ksef-fa3");
    assert.equal(sub.type, "invoice");
    assert.equal(sub.number, "FA/2025/12/001");
    assert.equal(sub.issue_date, "2026-01-15");
    assert.equal(sub.currency, "PLN");
    assert.equal(sub.seller?.tax_id, "5451824119");
    assert.equal(sub.buyer?.tax_id, "3935777054");
    assert.equal(sub.totals.gross, "5962.00");
    for (const k of ["net", "tax", "gross"] as const) assert.match(sub.totals[k] ?? "", DECIMAL_RE, `totals.${k} is a decimal string`);
    assert.equal(sub.sha256, sha256(COMPLEX));
    assert.equal(sub.size, COMPLEX.length);
    assert.match(sub.created_at, ISO_MS_RE);
    assert.ok(Date.parse(sub.created_at) >= before - 1000 && Date.parse(sub.created_at) <= Date.now() + 1000);
    assert.deepEqual(sub.links, {
      self: `/api/v1/submissions/${sub.id}`, xml: `/api/v1/submissions/${sub.id}/xml`, pdf: `/api/v1/submissions/${sub.id}/pdf`, source: `/api/v1/submissions/${sub.id}/source`, upo: null,
    });
    // Stored as uploaded: no source of its own, and /source gives the XML itself.
    assert.equal((sub as unknown as { source: unknown }).source, null);
    assert.equal((sub as unknown as { conversion: unknown }).conversion, null);
    const source = await s.fetch(sub.links.source, token);
    assert.equal(source.headers.get("content-type"), "application/xml");
    assert.deepEqual(new Uint8Array(await source.arrayBuffer()), new Uint8Array(COMPLEX));
  });

  const complexText = Buffer.from(COMPLEX).toString("utf8");
  const encodings = [
    { what: "ISO-8859-2 (declared)", input: () => encodeLatin2(complexText.replace('encoding="utf-8"', 'encoding="ISO-8859-2"')) },
    { what: "UTF-16LE with a BOM", input: () => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(complexText.replace('encoding="utf-8"', 'encoding="UTF-16"'), "utf16le")]) },
    { what: "UTF-8 with a BOM", input: () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), COMPLEX]) },
  ];
  for (const { what, input } of encodings) {
    // The parser reads them (test/formats/xml), but KSeF accepts FA invoices only in UTF-8 without a BOM ("weryfikacja-faktury.md").
    test(`a KSeF invoice in ${what} is refused by KSeF's file rules (KSEF-FILE)`, async () => {
      const token = await freshTenant(s);
      const error = await errorOf(await upload(s, token, input()), 422, "VALIDATION_ERROR");
      assert.equal(error.details.field, "xml");
      const violations = error.details.violations as { rule: string; path: string }[];
      assert.ok(violations.some((v) => v.rule === "KSEF-FILE" && v.path === "/"), JSON.stringify(violations));
    });
  }

  test("a method other than GET and POST on /api/v1/submissions is 405 with Allow", async () => {
    const token = await freshTenant(s);
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      const res = await s.fetch("/api/v1/submissions", token, { method });
      const allow = res.headers.get("allow") ?? "";
      await errorOf(res, 405, "METHOD_NOT_ALLOWED");
      assert.match(allow, /\bGET\b/, method);
      assert.match(allow, /\bPOST\b/, method);
    }
  });

  test("GET /api/v1/submissions/{id} returns the same JSON as the 201", async () => {
    const token = await freshTenant(s);
    const sub = await created(await upload(s, token, PEPPOL));
    const res = await s.fetch(`/api/v1/submissions/${sub.id}`, token);
    assert.equal(res.status, 200);
    const { invoice, ...compact } = (await res.json()) as Record<string, unknown>;
    assert.deepEqual(compact, sub);
    // The 201 stays compact; GET one adds the whole invoice (README “The invoice object”).
    assert.equal("invoice" in sub, false);
    assert.equal((invoice as { number: string }).number, (sub as { number: string }).number);
    assert.ok(Array.isArray((invoice as { lines: unknown[] }).lines) && (invoice as { lines: unknown[] }).lines.length > 0);
  });
});

// ---------------------------------------------------------------- refusals

describe("refused uploads (the error envelope in the OpenAPI document, the OpenAPI document, README “The PDF”)", () => {
  let s: TestServer;
  let token: string;
  before(async () => {
    s = await startServer();
    token = await freshTenant(s);
  });
  after(() => s.close());

  const notMultipart = [
    { what: "a text/plain body", input: { type: "text/plain", body: Buffer.from(COMPLEX).toString("utf8") } },
    { what: "raw application/xml", input: { type: "application/xml", body: Buffer.from(COMPLEX).toString("utf8") } },
    { what: "urlencoded form", input: { type: "application/x-www-form-urlencoded", body: "xml=%3Ca%2F%3E" } },
    { what: "no Content-Type", input: { type: null, body: "<a/>" } },
  ];
  for (const { what, input } of notMultipart) {
    test(`${what} is 415 UNSUPPORTED_MEDIA_TYPE with details.expected`, async () => {
      const error = await errorOf(await postRaw(s, token, input.type, input.body), 415, "UNSUPPORTED_MEDIA_TYPE");
      assert.equal(error.details.expected, "multipart/form-data, application/json");
    });
  }

  test("a JSON body is an invoice to create (README \"Creating invoices\"): a field it does not know is 400", async () => {
    const error = await errorOf(await postRaw(s, token, "application/json", JSON.stringify({ xml: "<a/>" })), 400, "BAD_REQUEST");
    assert.equal(error.details.field, "xml");
  });

  test("a multipart body without an xml part is 422 with field xml, issue required", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(COMPLEX)]), "invoice.xml");
    const error = await errorOf(await s.fetch("/api/v1/submissions", token, { method: "POST", body: form }), 422, "VALIDATION_ERROR");
    assert.deepEqual(error.details, { field: "xml", issue: "required" });
  });

  test("an empty xml part is 422 with field xml", async () => {
    const error = await errorOf(await upload(s, token, new Uint8Array(0)), 422, "VALIDATION_ERROR");
    assert.equal(error.details.field, "xml");
  });

  const malformed = [
    { what: "a mismatched end tag", input: "<?xml version=\"1.0\"?>\n<Faktura>\n  <P_2>x</P_3>\n</Faktura>\n", line: 3 },
    { what: "a truncated document", input: "<?xml version=\"1.0\"?>\n<Faktura>\n  <P_2>x</P_2>\n", line: 4 },
    { what: "an unquoted attribute", input: "<Invoice\n  a=1/>", line: 2 },
    { what: "text before the root", input: "hello <Invoice/>", line: 1 },
    { what: "an undefined entity", input: "<?xml version=\"1.0\"?>\n<Invoice>&nbsp;</Invoice>", line: 2 },
    { what: "elements nested deeper than 256", input: `<a>\n${"<a>".repeat(300)}${"</a>".repeat(300)}</a>`, line: 2 },
  ];
  test("invalid UTF-8 is 422 with field xml and the line and column of the bad byte", async () => {
    const bytes = Buffer.concat([Buffer.from("<?xml version=\"1.0\"?>\n<Invoice>\n  <ID>x"), Buffer.from([0xff, 0xfe]), Buffer.from("</ID>\n</Invoice>")]);
    const error = await errorOf(await upload(s, token, bytes), 422, "VALIDATION_ERROR");
    assert.equal(error.details.field, "xml");
    assert.match(String(error.details.issue), /line 3, column \d+/);
  });

  for (const { what, input, line } of malformed) {
    test(`malformed XML (${what}) is 422 with field xml and "line ${line}, column C" in the issue`, async () => {
      const error = await errorOf(await upload(s, token, Buffer.from(input)), 422, "VALIDATION_ERROR");
      assert.equal(error.details.field, "xml");
      assert.match(String(error.details.issue), new RegExp(`line ${line}, column \\d+`));
    });
  }

  const doctypes = [
    { what: "an XXE attempt (external entity)", input: "<?xml version=\"1.0\"?>\n<!DOCTYPE foo [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<foo>&xxe;</foo>" },
    { what: "a parameter entity fetching a URL", input: "<?xml version=\"1.0\"?>\n<!DOCTYPE foo [<!ENTITY % ext SYSTEM \"http://127.0.0.1:1/x.dtd\"> %ext;]>\n<foo/>" },
    { what: "billion laughs", input: `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ""};`.repeat(10)}">`).join("")}]>\n<lolz>&lol9;</lolz>` },
    { what: "a harmless DOCTYPE before a real invoice", input: edited(COMPLEX, "?>", "?>\n<!DOCTYPE Faktura>").toString("utf8") },
  ];
  for (const { what, input } of doctypes) {
    test(`a DOCTYPE (${what}) is 422 with field xml and nothing expanded`, async () => {
      const res = await upload(s, token, Buffer.from(input));
      const error = await errorOf(res, 422, "VALIDATION_ERROR");
      assert.equal(error.details.field, "xml");
      assert.match(String(error.details.issue), /DOCTYPE|DTD/i);
      assert.ok(!JSON.stringify(error).includes("root:"), "no file content");
      assert.ok(!JSON.stringify(error).includes("lollol"), "no expansion");
    });
  }

  test("an unsupported root (a KSeF UPO) is 422 naming the root element", async () => {
    const error = await errorOf(await upload(s, token, sample("ksef-upo", "upo-v4-3_faktura-kontekst-nip.xml")), 422, "VALIDATION_ERROR");
    assert.equal(error.details.field, "xml");
    assert.match(String(error.details.issue), /Potwierdzenie/);
  });

  test("an unsupported root in no namespace is 422 naming it", async () => {
    const error = await errorOf(await upload(s, token, Buffer.from("<html><body/></html>")), 422, "VALIDATION_ERROR");
    assert.match(String(error.details.issue), /html/);
  });

  const missing = [
    { what: "KSeF without P_2 (number)", input: edited(COMPLEX, "<P_2>FA/2025/12/001</P_2>", ""), field: "xml:/Faktura/Fa/P_2" },
    { what: "KSeF without P_1 (issue date)", input: edited(COMPLEX, /<P_1>[^<]*<\/P_1>/, ""), field: "xml:/Faktura/Fa/P_1" },
    { what: "KSeF without the seller's NIP", input: edited(COMPLEX, "<NIP>5451824119</NIP>", ""), field: "xml:/Faktura/Podmiot1/DaneIdentyfikacyjne/NIP" },
    { what: "UBL without cbc:ID (number)", input: edited(PEPPOL, "<cbc:ID>Snippet1</cbc:ID>", ""), field: "xml:/Invoice/cbc:ID" },
    {
      what: "UBL without the seller's tax id", input: edited(PEPPOL, "<cbc:CompanyID>GB1232434</cbc:CompanyID>", ""),
      field: "xml:/Invoice/cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID",
    },
    {
      what: "CII without the seller's tax id",
      input: edited(FACTURX, /<ram:SpecifiedTaxRegistration>\s*<ram:ID schemeID="VA">DE136695976<\/ram:ID>\s*<\/ram:SpecifiedTaxRegistration>/, ""),
      field: "xml:/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID",
    },
  ];
  const blank = [
    { what: "KSeF with an empty P_2", input: edited(COMPLEX, "<P_2>FA/2025/12/001</P_2>", "<P_2></P_2>"), field: "xml:/Faktura/Fa/P_2" },
    { what: "KSeF with a P_2 of spaces", input: edited(COMPLEX, "<P_2>FA/2025/12/001</P_2>", "<P_2>   </P_2>"), field: "xml:/Faktura/Fa/P_2" },
    { what: "KSeF with an empty NIP", input: edited(COMPLEX, "<NIP>5451824119</NIP>", "<NIP></NIP>"), field: "xml:/Faktura/Podmiot1/DaneIdentyfikacyjne/NIP" },
    { what: "UBL with an empty cbc:ID", input: edited(PEPPOL, "<cbc:ID>Snippet1</cbc:ID>", "<cbc:ID/>"), field: "xml:/Invoice/cbc:ID" },
    { what: "KSeF with an issue date that is not a date", input: edited(COMPLEX, /<P_1>[^<]*<\/P_1>/, "<P_1>yesterday</P_1>"), field: "xml:/Faktura/Fa/P_1" },
  ];
  for (const { what, input, field } of blank) {
    test(`${what} is 422 with the XML path as field`, async () => {
      const error = await errorOf(await upload(s, token, input), 422, "VALIDATION_ERROR");
      assert.equal(error.details.field, field);
      assert.equal(typeof error.details.issue, "string");
    });
  }

  for (const { what, input, field } of missing) {
    test(`${what} is 422 with the XML path as field, issue required`, async () => {
      const error = await errorOf(await upload(s, token, input), 422, "VALIDATION_ERROR");
      assert.deepEqual(error.details, { field, issue: "required" });
    });
  }

  test("refused uploads create nothing", async () => {
    const page = (await (await s.fetch("/api/v1/submissions", token)).json()) as FeedPage;
    assert.deepEqual(page.data, []);
  });
});

// ---------------------------------------------------------------- duplicates

for (const store of STORES) describe(`duplicates (the OpenAPI document)${store.label}`, () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ storage: store });
  });
  after(() => s.close());

  test("the same bytes again are 409 DUPLICATE_SUBMISSION with details.existing_id", async () => {
    const token = await freshTenant(s);
    const first = await created(await upload(s, token, COMPLEX));
    const error = await errorOf(await upload(s, token, COMPLEX, { filename: "another-name.xml" }), 409, "DUPLICATE_SUBMISSION");
    assert.equal(error.details.existing_id, first.id);
  });

  test("the same seller, type and number with different bytes is 409 naming the first", async () => {
    const token = await freshTenant(s);
    const first = await created(await upload(s, token, COMPLEX));
    const variants = [
      { what: "a comment added", input: edited(COMPLEX, "<Fa>", "<Fa><!-- resent -->") },
      { what: "another total", input: edited(COMPLEX, /<P_15>[^<]*<\/P_15>/, "<P_15>1.00</P_15>") },
      { what: "another issue date", input: edited(COMPLEX, /<P_1>[^<]*<\/P_1>/, "<P_1>2026-02-01</P_1>") },
    ];
    for (const { what, input } of variants) {
      const error = await errorOf(await upload(s, token, input), 409, "DUPLICATE_SUBMISSION");
      assert.equal(error.details.existing_id, first.id, what);
    }
  });

  test("two real samples with the same business key (FA_2_Przyklad_15_UPR, FA_2_Przyklad_9) clash", async () => {
    const token = await freshTenant(s);
    const first = await created(await upload(s, token, sample("ksef-fa2", "FA_2_Przyklad_15_UPR.xml")));
    const error = await errorOf(await upload(s, token, sample("ksef-fa2", "FA_2_Przyklad_9.xml")), 409, "DUPLICATE_SUBMISSION");
    assert.equal(error.details.existing_id, first.id);
  });

  test("the same number and seller with another type is accepted", async () => {
    const token = await freshTenant(s);
    await created(await upload(s, token, PEPPOL));
    const note = await created(await upload(s, token, sample("ubl", "peppol-bis3_base-creditnote-correction.xml")));
    assert.equal(note.number, "Snippet1");
    assert.equal(note.type, "credit_note");
  });

  test("another number from the same seller is accepted", async () => {
    const token = await freshTenant(s);
    await created(await upload(s, token, COMPLEX));
    await created(await upload(s, token, edited(COMPLEX, "<P_2>FA/2025/12/001</P_2>", "<P_2>FA/2025/12/002</P_2>")));
  });

  test("the same invoice in another tenant is accepted", async () => {
    const a = await freshTenant(s);
    const b = await freshTenant(s);
    const first = await created(await upload(s, a, COMPLEX));
    const second = await created(await upload(s, b, COMPLEX));
    assert.notEqual(first.id, second.id);
  });

  test("10 parallel uploads of the same invoice create one submission; the others are 409 naming it", async () => {
    const token = await freshTenant(s);
    const answers = await Promise.all(Array.from({ length: 10 }, async (_, i) => {
      // Half identical bytes, half the same business key with a comment of their own.
      const res = await upload(s, token, i % 2 === 0 ? COMPLEX : edited(COMPLEX, "<Fa>", `<Fa><!-- copy ${i} -->`));
      return { status: res.status, body: (await res.json()) as SubmissionJson & { error?: ApiErrorBody } };
    }));
    const made = answers.filter((a) => a.status === 201);
    assert.equal(made.length, 1, answers.map((a) => a.status).join(" "));
    for (const a of answers.filter((x) => x.status !== 201)) {
      assert.equal(a.status, 409);
      assert.equal(a.body.error?.code, "DUPLICATE_SUBMISSION");
      assert.equal(a.body.error?.details.existing_id, made[0]!.body.id);
    }
    const page = (await (await s.fetch("/api/v1/submissions", token)).json()) as FeedPage;
    assert.equal(page.data.length, 1);
  });

  test("a 409 creates nothing", async () => {
    const token = await freshTenant(s);
    const first = await created(await upload(s, token, COMPLEX));
    await errorOf(await upload(s, token, COMPLEX), 409, "DUPLICATE_SUBMISSION");
    const page = (await (await s.fetch("/api/v1/submissions", token)).json()) as FeedPage;
    assert.deepEqual(page.data.map((d) => d.id), [first.id]);
  });
});

// ---------------------------------------------------------------- malformed multipart

describe("malformed multipart bodies are 400 BAD_REQUEST (the OpenAPI document)", () => {
  let s: TestServer;
  let token: string;
  before(async () => {
    s = await startServer();
    token = await freshTenant(s);
  });
  after(() => s.close());

  const B = "XyZ-boundary-42";
  const CT = `multipart/form-data; boundary=${B}`;
  const xml = Buffer.from(PEPPOL).toString("utf8");
  const cases = [
    { what: "a missing final boundary", input: { type: CT, body: `--${B}\r\nContent-Disposition: form-data; name="xml"\r\n\r\n${xml}\r\n` } },
    { what: "a body cut inside the part headers", input: { type: CT, body: `--${B}\r\nContent-Disposition: form-da` } },
    { what: "a header line starting with a space", input: { type: CT, body: `--${B}\r\n Content-Disposition: form-data; name="xml"\r\n\r\n${xml}\r\n--${B}--\r\n` } },
    { what: 'name=""', input: { type: CT, body: `--${B}\r\nContent-Disposition: form-data; name=""\r\n\r\n${xml}\r\n--${B}--\r\n` } },
    { what: "a part without Content-Disposition", input: { type: CT, body: `--${B}\r\nContent-Type: application/xml\r\n\r\n${xml}\r\n--${B}--\r\n` } },
    { what: "a header line without a colon", input: { type: CT, body: `--${B}\r\nContent-Disposition form-data; name="xml"\r\n\r\n${xml}\r\n--${B}--\r\n` } },
    { what: "no delimiter at all", input: { type: CT, body: xml } },
    { what: "an empty body", input: { type: CT, body: "" } },
    { what: "a Content-Type without a boundary", input: { type: "multipart/form-data", body: `--${B}\r\nContent-Disposition: form-data; name="xml"\r\n\r\n${xml}\r\n--${B}--\r\n` } },
    { what: "a boundary with a forbidden character", input: { type: "multipart/form-data; boundary=a@b", body: "--a@b--\r\n" } },
  ];
  for (const { what, input } of cases) {
    test(`${what} is 400 with details.field and details.issue`, async () => {
      const error = await errorOf(await postRaw(s, token, input.type, input.body), 400, "BAD_REQUEST");
      assert.equal(typeof error.details.field, "string", what);
      assert.equal(typeof error.details.issue, "string", what);
    });
  }

  test("the server still answers on a new connection after malformed bodies", async () => {
    const res = await s.fetch("/api/v1/submissions", token);
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  });
});

// ---------------------------------------------------------------- the upload limit

/** Sends a request with node:http: `chunks` are written in order; `end: false` leaves the body open. */
function sendNode(
  url: string, token: string, init: { headers: Record<string, string>; chunks: Uint8Array[]; end: boolean },
): Promise<{ status: number; headers: IncomingMessage["headers"]; body: string }> {
  const u = new URL(`${url}/api/v1/submissions`);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname, method: "POST", headers: { "x-api-token": token, ...init.headers } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        req.destroy();
      });
    });
    // After an early answer the server may close while we still write: that is not a failure of the test.
    req.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code !== "EPIPE" && e.code !== "ECONNRESET") reject(e);
    });
    req.flushHeaders();
    for (const c of init.chunks) req.write(c);
    if (init.end) req.end();
  });
}

describe("the upload limit (the OpenAPI document, README “Security model”)", () => {
  const LIMIT = 4096;
  const B = "limit-boundary";
  let s: TestServer;
  let token: string;
  before(async () => {
    s = await startServer({ uploadLimit: LIMIT });
    token = await freshTenant(s);
  });
  after(() => s.close());

  /** A multipart body of exactly `size` bytes: a small unsupported xml part (422 when read) and padding. */
  function bodyOfSize(size: number): Buffer {
    const base = multipartBody(B, [{ name: "xml", body: "<a/>" }, { name: "pad", body: "" }]);
    const body = multipartBody(B, [{ name: "xml", body: "<a/>" }, { name: "pad", body: "p".repeat(size - base.length) }]);
    assert.equal(body.length, size);
    return body;
  }

  test("a body of exactly the limit is read (422 for its content, not 413)", async () => {
    const error = await errorOf(await postRaw(s, token, `multipart/form-data; boundary=${B}`, bodyOfSize(LIMIT)), 422, "VALIDATION_ERROR");
    assert.equal(error.details.field, "xml");
  });

  test("a body one byte over the limit with Content-Length is 413 with details.limit_bytes", async () => {
    const error = await errorOf(await postRaw(s, token, `multipart/form-data; boundary=${B}`, bodyOfSize(LIMIT + 1)), 413, "PAYLOAD_TOO_LARGE");
    assert.equal(error.details.limit_bytes, LIMIT);
  });

  test("a chunked body of exactly the limit without Content-Length is read", async () => {
    const body = bodyOfSize(LIMIT);
    const res = await sendNode(s.url, token, { headers: { "content-type": `multipart/form-data; boundary=${B}` }, chunks: [body.subarray(0, 1000), body.subarray(1000)], end: true });
    assert.equal(res.status, 422, res.body);
  });

  test("a chunked body one byte over the limit without Content-Length is 413 with details.limit_bytes", async () => {
    const body = bodyOfSize(LIMIT + 1);
    const res = await sendNode(s.url, token, { headers: { "content-type": `multipart/form-data; boundary=${B}` }, chunks: [body.subarray(0, 2000), body.subarray(2000)], end: true });
    assert.equal(res.status, 413, res.body);
    const error = (JSON.parse(res.body) as { error: ApiErrorBody }).error;
    assert.equal(error.code, "PAYLOAD_TOO_LARGE");
    assert.equal(error.details.limit_bytes, LIMIT);
  });

  test("a declared Content-Length over the limit is 413 before a byte of the body is sent", { timeout: 10_000 }, async () => {
    const res = await sendNode(s.url, token, {
      headers: { "content-type": `multipart/form-data; boundary=${B}`, "content-length": String(LIMIT + 1) }, chunks: [], end: false,
    });
    assert.equal(res.status, 413, res.body);
  });

  test("a chunked body over the limit is 413 while the client is still sending (detected while streaming)", { timeout: 10_000 }, async () => {
    const body = bodyOfSize(LIMIT + 1000);
    // The body is never ended: an answer can only come from the streaming check.
    const res = await sendNode(s.url, token, { headers: { "content-type": `multipart/form-data; boundary=${B}` }, chunks: [body.subarray(0, LIMIT + 500)], end: false });
    assert.equal(res.status, 413, res.body);
  });

  test("the default limit is 10 MiB: a declared 10 MiB + 1 is 413 naming 10485760", { timeout: 10_000 }, async () => {
    const d = await startServer();
    try {
      const t = await freshTenant(d);
      const res = await sendNode(d.url, t, {
        headers: { "content-type": `multipart/form-data; boundary=${B}`, "content-length": String(10 * 1024 * 1024 + 1) }, chunks: [], end: false,
      });
      assert.equal(res.status, 413, res.body);
      assert.equal((JSON.parse(res.body) as { error: ApiErrorBody }).error.details.limit_bytes, 10 * 1024 * 1024);
    } finally {
      await d.close();
    }
  });
});

// ---------------------------------------------------------------- aborted uploads

const FD_DIR = "/proc/self/fd";
const openFds = (): number => readdirSync(FD_DIR).length;

/** Polls `check` (no fixed sleep) until it holds or `ms` pass; returns whether it held. */
async function pollUntil(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/**
 * Opens a raw socket, sends the head and half of a multipart body (with Content-Length, or as
 * one chunk of a chunked body), then destroys the socket.
 */
function abortHalfway(url: string, token: string, body: Buffer, chunked = false): Promise<void> {
  const u = new URL(url);
  const head = [
    "POST /api/v1/submissions HTTP/1.1", `Host: ${u.host}`, `X-API-Token: ${token}`,
    "Content-Type: multipart/form-data; boundary=abort-b", chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${body.length}`, "", "",
  ].join("\r\n");
  const half = body.subarray(0, body.length >> 1);
  return new Promise((resolve, reject) => {
    const sock = connect(Number(u.port), u.hostname, () => {
      sock.write(head);
      const payload = chunked ? Buffer.concat([Buffer.from(`${half.length.toString(16)}\r\n`), half, Buffer.from("\r\n")]) : half;
      sock.write(payload, () => {
        sock.destroy();
        resolve();
      });
    });
    sock.on("error", reject);
  });
}

/** Requests to POST/GET /api/v1/submissions that the server finished, from GET /metrics. */
async function submissionRequests(s: TestServer): Promise<number> {
  const text = await (await fetch(`${s.url}/metrics`)).text();
  const lines = text.matchAll(/^http_requests_total\{route="\/api\/v1\/submissions",status="\d+"\} (\d+)$/gm);
  return [...lines].reduce((n, m) => n + Number(m[1]), 0);
}

describe("aborted uploads (the OpenAPI document, README “Security model”)", () => {
  let s: TestServer;
  let token: string;
  before(async () => {
    s = await startServer();
    token = await freshTenant(s);
  });
  after(() => s.close());

  test("1,000 uploads aborted halfway (Content-Length and chunked), 20 at a time, leave the server answering with flat fds and heap", { skip: !existsSync(FD_DIR), timeout: 120_000 }, async () => {
    const body = multipartBody("abort-b", [{ name: "xml", filename: "x.xml", contentType: "application/xml", body: sample("ubl", "xrechnung_03.04a-INVOICE_ubl.xml") }]);
    // Warm up: one complete upload, so lazily opened files are open before the baseline.
    await created(await upload(s, token, PEPPOL));
    const fdsBefore = openFds();
    await abortHalfway(s.url, token, body);
    assert.ok(await pollUntil(() => openFds() <= fdsBefore, 5_000), "one aborted upload settles");
    const heapBefore = process.memoryUsage().heapUsed;
    for (let round = 0; round < 50; round++) {
      await Promise.all(Array.from({ length: 20 }, (_, i) => abortHalfway(s.url, token, body, i % 2 === 1)));
    }
    // Client sockets close at once; wait until the server has accepted and finished every request
    // (GET /metrics counts them by route), then until its sockets are closed too.
    let seen = 0;
    const handled = await pollUntil(async () => (seen = await submissionRequests(s)) >= 1002, 30_000);
    assert.ok(handled, `the server handled the aborted uploads (${seen} of 1,002 counted)`);
    const settled = await pollUntil(() => openFds() <= fdsBefore + 2, 15_000);
    assert.ok(settled, `open fds went from ${fdsBefore} to ${openFds()}`);
    const heapAfter = process.memoryUsage().heapUsed;
    // No global.gc: a generous bound. 1,000 retained halves of a 200 KB body would be 100 MB.
    assert.ok(heapAfter - heapBefore < 64 * 1024 * 1024, `heap grew by ${Math.round((heapAfter - heapBefore) / 1e6)} MB`);
    const res = await s.fetch("/api/v1/submissions", token);
    assert.equal(res.status, 200);
    const page = (await res.json()) as FeedPage;
    assert.equal(page.data.length, 1, "no aborted upload was stored");
    await created(await upload(s, token, COMPLEX));
  });
});

// ---------------------------------------------------------------- the feed

describe("GET /api/v1/submissions (cursor mode, newest last)", () => {
  let s: TestServer;
  let token: string;
  let other: string;
  const ids: string[] = [];
  const FIVE = [
    sample("ksef-fa3", "FA_3_complex.xml"), sample("ksef-fa2", "FA_2_Przyklad_9.xml"), sample("ubl", "peppol-bis3_base-example.xml"),
    sample("cii", "mustang_factur-x.xml"), sample("ubl", "en16931_ubl-tc434-creditnote1.xml"),
  ];
  before(async () => {
    s = await startServer();
    token = await freshTenant(s);
    other = await freshTenant(s);
  });
  after(() => s.close());

  test("an empty tenant's feed has no data, has_more false and a non-null next_cursor", async () => {
    const res = await s.fetch("/api/v1/submissions", token);
    assert.equal(res.status, 200);
    const page = (await res.json()) as FeedPage;
    assert.deepEqual(Object.keys(page).sort(), ["data", "has_more", "next_cursor"]);
    assert.deepEqual(page.data, []);
    assert.equal(page.has_more, false);
    assert.match(page.next_cursor, /^[A-Za-z0-9_-]+$/);
  });

  test("the feed lists submissions oldest first, newest last, with the JSON of GET /submissions/{id}", async () => {
    for (const bytes of FIVE) ids.push((await created(await upload(s, token, bytes))).id);
    const page = (await (await s.fetch("/api/v1/submissions", token)).json()) as FeedPage;
    assert.deepEqual(page.data.map((d) => d.id), ids);
    assert.equal(page.has_more, false);
    for (const d of page.data) {
      const { invoice: _invoice, ...compact } = (await (await s.fetch(`/api/v1/submissions/${d.id}`, token)).json()) as Record<string, unknown>;
      assert.deepEqual(d, compact);
    }
    const expanded = (await (await s.fetch("/api/v1/submissions?expand=invoice", token)).json()) as FeedPage;
    for (const d of expanded.data) assert.deepEqual(d, await (await s.fetch(`/api/v1/submissions/${d.id}`, token)).json());
  });

  test("walking with a small limit sees every submission once, in order, with next_cursor on every page", async () => {
    for (const limit of [1, 2, 4, 5, 6]) {
      const pages = await walkFeed(s, token, `limit=${limit}`);
      assert.deepEqual(pages.flatMap((p) => p.data.map((d) => d.id)), ids, `limit=${limit}`);
      for (const [i, p] of pages.entries()) {
        assert.ok(p.data.length <= limit);
        assert.match(p.next_cursor, /^[A-Za-z0-9_-]+$/);
        assert.equal(p.has_more, i < pages.length - 1);
      }
    }
  });

  test("a next_cursor stored after the last page returns only submissions made since", async () => {
    const last = (await (await s.fetch("/api/v1/submissions", token)).json()) as FeedPage;
    const empty = (await (await s.fetch(`/api/v1/submissions?cursor=${last.next_cursor}`, token)).json()) as FeedPage;
    assert.deepEqual(empty.data, []);
    assert.equal(empty.has_more, false);
    assert.ok(empty.next_cursor.length > 0);
    const fresh = await created(await upload(s, token, sample("ksef-fa3", "FA_3_Przyklad_4_EUR.xml")));
    ids.push(fresh.id);
    const later = (await (await s.fetch(`/api/v1/submissions?cursor=${last.next_cursor}`, token)).json()) as FeedPage;
    assert.deepEqual(later.data.map((d) => d.id), [fresh.id]);
  });

  test("a tampered cursor is 400 with field cursor", async () => {
    const page = (await (await s.fetch("/api/v1/submissions?limit=1", token)).json()) as FeedPage;
    const c = page.next_cursor;
    const mid = c.length >> 1;
    const tampered = [
      `${c.slice(0, mid)}${c[mid] === "A" ? "B" : "A"}${c.slice(mid + 1)}`,
      c.slice(0, -4),
      `${c}AAAA`,
      "not-a-cursor",
    ];
    for (const t of tampered) {
      const error = await errorOf(await s.fetch(`/api/v1/submissions?cursor=${t}`, token), 400, "BAD_REQUEST");
      assert.equal(error.details.field, "cursor", t);
    }
  });

  test("another tenant's cursor is 400 with field cursor", async () => {
    const page = (await (await s.fetch("/api/v1/submissions?limit=1", token)).json()) as FeedPage;
    const error = await errorOf(await s.fetch(`/api/v1/submissions?cursor=${page.next_cursor}`, other), 400, "BAD_REQUEST");
    assert.equal(error.details.field, "cursor");
  });

  test("a documents cursor is not a submissions cursor", async () => {
    const d = await s.token("docs-and-subs");
    const docs = (await (await s.fetch("/api/v1/documents", d.token)).json()) as { next_cursor: string };
    const error = await errorOf(await s.fetch(`/api/v1/submissions?cursor=${docs.next_cursor}`, d.token), 400, "BAD_REQUEST");
    assert.equal(error.details.field, "cursor");
  });

  for (const { what, input } of [
    { what: "0", input: "0" }, { what: "501", input: "501" }, { what: "not a number", input: "ten" }, { what: "a fraction", input: "1.5" },
  ]) {
    test(`limit ${what} is 400 with field limit`, async () => {
      const error = await errorOf(await s.fetch(`/api/v1/submissions?limit=${input}`, token), 400, "BAD_REQUEST");
      assert.equal(error.details.field, "limit");
    });
  }

  test("HEAD on the list is 200 without a body", async () => {
    const res = await s.fetch("/api/v1/submissions", token, { method: "HEAD" });
    assert.equal(res.status, 200);
    assert.equal((await res.arrayBuffer()).byteLength, 0);
  });

  test("limit defaults to 50", async () => {
    const t = await freshTenant(s);
    for (let i = 0; i < 51; i++) {
      await created(await upload(s, t, edited(COMPLEX, "<P_2>FA/2025/12/001</P_2>", `<P_2>FA/2025/12/${1000 + i}</P_2>`)));
    }
    const first = (await (await s.fetch("/api/v1/submissions", t)).json()) as FeedPage;
    assert.equal(first.data.length, 50);
    assert.equal(first.has_more, true);
    assert.equal(first.data[0]!.number, "FA/2025/12/1000");
    const rest = (await (await s.fetch(`/api/v1/submissions?cursor=${first.next_cursor}`, t)).json()) as FeedPage;
    assert.deepEqual(rest.data.map((d) => d.number), ["FA/2025/12/1050"]);
    assert.equal(rest.has_more, false);
  });

  test("limit 500 is accepted", async () => {
    const res = await s.fetch("/api/v1/submissions?limit=500", token);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as FeedPage).data.length, ids.length);
  });

  test("another tenant's feed does not hold these submissions", async () => {
    const page = (await (await s.fetch("/api/v1/submissions", other)).json()) as FeedPage;
    assert.deepEqual(page.data, []);
  });
});

// ---------------------------------------------------------------- one submission and its XML

describe("GET /api/v1/submissions/{id} and its /xml download (README “Documents and the inbox”, the OpenAPI document)", () => {
  let s: TestServer;
  let token: string;
  let other: string;
  let sub: SubmissionJson;
  before(async () => {
    s = await startServer();
    token = await freshTenant(s);
    other = await freshTenant(s);
    sub = await created(await upload(s, token, COMPLEX));
  });
  after(() => s.close());

  test("another tenant's submission is 404 NOT_FOUND on the JSON, /xml, /pdf and HEAD", async () => {
    for (const path of [`/api/v1/submissions/${sub.id}`, `/api/v1/submissions/${sub.id}/xml`, `/api/v1/submissions/${sub.id}/pdf`]) {
      await errorOf(await s.fetch(path, other), 404, "NOT_FOUND");
      const head = await s.fetch(path, other, { method: "HEAD" });
      assert.equal(head.status, 404, `HEAD ${path}`);
    }
  });

  test("a malformed, an unknown and a foreign id get the same 404 answer", async () => {
    const answers = new Set<string>();
    for (const id of ["nope", "sub_01JD0000000000000000000000", `doc_${sub.id.slice(4)}`, sub.id]) {
      const error = await errorOf(await s.fetch(`/api/v1/submissions/${id}`, other), 404, "NOT_FOUND");
      answers.add(JSON.stringify([error.message, error.details]));
    }
    assert.equal(answers.size, 1);
  });

  test("/xml is 200 application/xml with Content-Length, a strong ETag, Content-Disposition and Cache-Control", async () => {
    const res = await s.fetch(`/api/v1/submissions/${sub.id}/xml`, token);
    assert.equal(res.status, 200);
    const body = Buffer.from(await res.arrayBuffer());
    assert.ok(body.equals(COMPLEX));
    assert.equal(res.headers.get("content-type")?.split(";")[0], "application/xml");
    assert.equal(res.headers.get("content-length"), String(COMPLEX.length));
    assert.match(res.headers.get("etag") ?? "", /^"[^"]+"$/, "strong, not W/");
    assert.equal(res.headers.get("content-disposition"), 'attachment; filename="FA_2025_12_001.xml"');
    assert.equal(res.headers.get("cache-control"), "private, no-cache");
  });

  test("the ETag is stable and If-None-Match answers 304 without a body", async () => {
    const a = await s.fetch(`/api/v1/submissions/${sub.id}/xml`, token);
    const b = await s.fetch(`/api/v1/submissions/${sub.id}/xml`, token);
    await a.arrayBuffer();
    await b.arrayBuffer();
    const etag = a.headers.get("etag")!;
    assert.equal(b.headers.get("etag"), etag);
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const res = await s.fetch(`/api/v1/submissions/${sub.id}/xml`, token, { headers: { "if-none-match": inm } });
      assert.equal(res.status, 304, inm);
      assert.equal((await res.arrayBuffer()).byteLength, 0);
      assert.equal(res.headers.get("etag"), etag);
    }
    const miss = await s.fetch(`/api/v1/submissions/${sub.id}/xml`, token, { headers: { "if-none-match": '"something-else"' } });
    assert.equal(miss.status, 200);
    await miss.arrayBuffer();
  });

  test("HEAD is answered like GET without a body", async () => {
    const res = await s.fetch(`/api/v1/submissions/${sub.id}/xml`, token, { method: "HEAD" });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-length"), String(COMPLEX.length));
    assert.equal(res.headers.get("content-type")?.split(";")[0], "application/xml");
    assert.equal((await res.arrayBuffer()).byteLength, 0);
    const json = await s.fetch(`/api/v1/submissions/${sub.id}`, token, { method: "HEAD" });
    assert.equal(json.status, 200);
    assert.equal((await json.arrayBuffer()).byteLength, 0);
  });

  const ranges = [
    { what: "the first 10 bytes", input: "bytes=0-9", expected: [0, 10] },
    { what: "a middle slice", input: "bytes=100-199", expected: [100, 200] },
    { what: "the last 50 bytes", input: "bytes=-50", expected: [COMPLEX.length - 50, COMPLEX.length] },
    { what: "an open-ended range", input: `bytes=${COMPLEX.length - 7}-`, expected: [COMPLEX.length - 7, COMPLEX.length] },
    { what: "an end past the size", input: `bytes=10-${COMPLEX.length + 1000}`, expected: [10, COMPLEX.length] },
  ];
  for (const { what, input, expected } of ranges) {
    test(`Range ${input} (${what}) is 206 with Content-Range and exactly those bytes`, async () => {
      const res = await s.fetch(`/api/v1/submissions/${sub.id}/xml`, token, { headers: { range: input } });
      assert.equal(res.status, 206);
      const [start, end] = expected as [number, number];
      assert.equal(res.headers.get("content-range"), `bytes ${start}-${end - 1}/${COMPLEX.length}`);
      assert.equal(res.headers.get("content-length"), String(end - start));
      assert.ok(Buffer.from(await res.arrayBuffer()).equals(COMPLEX.subarray(start, end)));
    });
  }

  test("an unsatisfiable Range is 416 with Content-Range bytes */size", async () => {
    for (const range of [`bytes=${COMPLEX.length}-`, `bytes=${COMPLEX.length + 5}-${COMPLEX.length + 10}`]) {
      const res = await s.fetch(`/api/v1/submissions/${sub.id}/xml`, token, { headers: { range } });
      assert.equal(res.status, 416, range);
      assert.equal(res.headers.get("content-range"), `bytes */${COMPLEX.length}`);
      await res.arrayBuffer();
    }
  });

  test("a non-ASCII invoice number gets an ASCII filename and filename*", async () => {
    const t = await freshTenant(s);
    const nonAscii = await created(await upload(s, t, edited(COMPLEX, "<P_2>FA/2025/12/001</P_2>", "<P_2>FV/Żółć/1</P_2>")));
    assert.equal(nonAscii.number, "FV/Żółć/1");
    const res = await s.fetch(`/api/v1/submissions/${nonAscii.id}/xml`, t);
    await res.arrayBuffer();
    const cd = res.headers.get("content-disposition") ?? "";
    assert.match(cd, /^attachment; filename="[\x20-\x7e]+\.xml"; filename\*=UTF-8''/);
    assert.ok(!/filename="[^"]*[/\\][^"]*"/.test(cd), "no path separators");
    const star = /filename\*=UTF-8''(.+)$/.exec(cd)![1]!;
    assert.equal(decodeURIComponent(star), "FV_Żółć_1.xml");
  });

  test("a 2.7 MB invoice (above the size where downloads stream) round-trips byte-exact, with HEAD and Range", async () => {
    const t = await freshTenant(s);
    // With an attachment (Zalacznik), as KSeF allows up to 3,000,000 bytes only then ("weryfikacja-faktury.md").
    const text = sample("ksef-fa3", "FA_3_Zalacznik_Przyklad_1.xml").toString("utf8");
    const line = /<FaWiersz>[\s\S]*?<\/FaWiersz>/.exec(text)![0];
    const lines = Array.from({ length: Math.ceil(2_100_000 / line.length) }, (_, i) => line.replace(/<NrWierszaFa>\d+<\/NrWierszaFa>/, `<NrWierszaFa>${i + 1}</NrWierszaFa>`));
    const big = Buffer.from(text.replace(line, lines.join("\n")), "utf8");
    assert.ok(big.length > 2_000_000);
    const large = await created(await upload(s, t, big));
    const res = await s.fetch(`/api/v1/submissions/${large.id}/xml`, t);
    assert.equal(res.headers.get("content-length"), String(big.length));
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(big));
    const head = await s.fetch(`/api/v1/submissions/${large.id}/xml`, t, { method: "HEAD" });
    assert.equal(head.headers.get("content-length"), String(big.length));
    assert.equal((await head.arrayBuffer()).byteLength, 0);
    const part = await s.fetch(`/api/v1/submissions/${large.id}/xml`, t, { headers: { range: "bytes=1000000-1000999" } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get("content-range"), `bytes 1000000-1000999/${big.length}`);
    assert.ok(Buffer.from(await part.arrayBuffer()).equals(big.subarray(1_000_000, 1_001_000)));
    const cached = await s.fetch(`/api/v1/submissions/${large.id}/xml`, t, { headers: { "if-none-match": res.headers.get("etag")! } });
    assert.equal(cached.status, 304);
    await cached.arrayBuffer();
  });

  test("a method other than GET or HEAD on /xml is 405 with Allow", async () => {
    const res = await s.fetch(`/api/v1/submissions/${sub.id}/xml`, token, { method: "DELETE" });
    await errorOf(res, 405, "METHOD_NOT_ALLOWED");
    assert.match(res.headers.get("allow") ?? "", /GET/);
  });
});

/**
 * Validation at the API (README "Validation"): the 422 refusal of an upload with every
 * violation, POST /api/v1/validate (multipart or application/xml, stores nothing), and
 * the `validation` object of documents, through a real server.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { errorOf } from "../support/api.ts";
import { verdictOf } from "../../lib/formats/validation/read_and_validate.ts";
import { schemaSetOf } from "../../lib/formats/validation/schema_set.ts";
import { readSchemaFiles } from "../../storage/schemas/schema_files.ts";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";

const sample = (dir: string, file: string) => readFileSync(fixturePath("samples", dir, file));
const VALID = sample("ksef-fa3", "FA_3_complex.xml");
const INVALID = sample("ksef-fa3", "FA_3_Przyklad_3_KOR_EUR.xml");
/** The Peppol example whose sum of line net amounts (BT-106) no longer equals its lines: BR-CO-10. */
const BREAKS_BR_CO_10 = Buffer.from(Buffer.from(sample("ubl", "peppol-bis3_base-example.xml")).toString("utf8")
  .replace('<cbc:LineExtensionAmount currencyID="EUR">1300</cbc:LineExtensionAmount>', '<cbc:LineExtensionAmount currencyID="EUR">1301</cbc:LineExtensionAmount>'), "utf8");

interface Violation { rule: string; severity: string; path: string; line: number | null; column: number | null; message: string }

function form(bytes: Uint8Array): FormData {
  const f = new FormData();
  f.append("xml", new Blob([new Uint8Array(bytes)], { type: "application/xml" }), "invoice.xml");
  return f;
}

describe("validation at the API", () => {
  let s: TestServer;
  let token: string;
  before(async () => {
    s = await startServer();
    token = (await s.token("acme")).token;
  });
  after(() => s.close());

  test("an upload that fails its schema is 422 with field xml:<path>, issue and every violation", async () => {
    const error = await errorOf(await s.fetch("/api/v1/submissions", token, { method: "POST", body: form(INVALID) }), 422, "VALIDATION_ERROR");
    const violations = error.details.violations as Violation[];
    assert.equal(error.details.field, "xml:/Faktura/Fa/DaneFaKorygowanej/NrKSeFFaKorygowanej");
    assert.equal(error.details.issue, violations[0]!.message);
    assert.deepEqual(Object.keys(violations[0]!).sort(), ["column", "line", "message", "path", "rule", "severity"]);
    assert.equal(violations[0]!.rule, "XSD");
    assert.equal(violations[0]!.line, 63);
    assert.match(error.message, /does not match the pattern/);
  });

  test("POST /api/v1/validate answers the verdict for multipart and for application/xml, and stores nothing", async () => {
    const t = (await s.token("quiet")).token;
    const ok = await s.fetch("/api/v1/validate", t, { method: "POST", body: form(VALID) });
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { valid: true, format: "ksef-fa3", checks: ["KSEF-FILE", "XSD:FA(3) 1-0E"], errors: [], warnings: [] });
    const bad = await s.fetch("/api/v1/validate", t, { method: "POST", body: new Uint8Array(INVALID), headers: { "content-type": "application/xml" } });
    assert.equal(bad.status, 200);
    const body = (await bad.json()) as { valid: boolean; errors: Violation[] };
    assert.equal(body.valid, false);
    assert.equal(body.errors[0]!.path, "/Faktura/Fa/DaneFaKorygowanej/NrKSeFFaKorygowanej");
    const list = (await (await s.fetch("/api/v1/submissions", t)).json()) as { data: unknown[] };
    assert.deepEqual(list.data, [], "nothing stored");
  });

  test("POST /api/v1/validate refuses what an upload refuses before validation", async () => {
    await errorOf(await s.fetch("/api/v1/validate", token, { method: "POST", body: "<a>", headers: { "content-type": "application/xml" } }), 422, "VALIDATION_ERROR");
    await errorOf(await s.fetch("/api/v1/validate", token, { method: "POST", body: "<a/>", headers: { "content-type": "application/xml" } }), 422, "VALIDATION_ERROR");
    await errorOf(await s.fetch("/api/v1/validate", token, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }), 415, "UNSUPPORTED_MEDIA_TYPE");
    const reader = (await s.token("acme", ["submissions:read"])).token;
    await errorOf(await s.fetch("/api/v1/validate", reader, { method: "POST", body: form(VALID) }), 403, "FORBIDDEN");
  });

  test("GET /documents/{id} carries the verdict: documents are never refused", async () => {
    s.drop("acme", "bad.xml", INVALID);
    s.drop("acme", "good.xml", VALID);
    await s.sync(token);
    const list = (await (await s.fetch("/api/v1/documents?limit=10", token)).json()) as { data: { id: string; external_id: string }[] };
    assert.equal(list.data.length, 2);
    for (const d of list.data) {
      const doc = (await (await s.fetch(`/api/v1/documents/${d.id}`, token)).json()) as { validation: { valid: boolean; checks: string[]; warnings: unknown[] } };
      assert.equal(doc.validation.valid, d.external_id.startsWith("good"), d.external_id);
      assert.deepEqual(doc.validation.checks, ["KSEF-FILE", "XSD:FA(3) 1-0E"]);
    }
  });

  test("an invalid document's verdict says why: the same errors POST /validate gives", async () => {
    const t = (await s.token("peppol")).token;
    s.drop("peppol", "br-co-10.xml", BREAKS_BR_CO_10);
    await s.sync(t);
    const [d] = ((await (await s.fetch("/api/v1/documents", t)).json()) as { data: { id: string }[] }).data;
    const doc = (await (await s.fetch(`/api/v1/documents/${d!.id}`, t)).json()) as { validation: { valid: boolean; errors: Violation[]; warnings: Violation[] } };
    assert.equal(doc.validation.valid, false);
    assert.ok(doc.validation.errors.some((v) => v.rule === "BR-CO-10" && v.severity === "error"), JSON.stringify(doc.validation.errors));
    const verdict = (await (await s.fetch("/api/v1/validate", t, { method: "POST", body: form(BREAKS_BR_CO_10) })).json()) as { errors: Violation[]; warnings: Violation[] };
    assert.deepEqual(doc.validation.errors, verdict.errors);
    assert.deepEqual(doc.validation.warnings, verdict.warnings);
  });

  test("a submission's verdict carries errors too: none, since an error refuses the upload", async () => {
    const t = (await s.token("uploader")).token;
    const created = (await (await s.fetch("/api/v1/submissions", t, { method: "POST", body: form(VALID) })).json()) as { validation: { valid: boolean; errors: unknown[] } };
    assert.deepEqual({ valid: created.validation.valid, errors: created.validation.errors }, { valid: true, errors: [] });
  });
});

test("a document's verdict is judged once per stored XML, not on every GET", async () => {
  const judged: number[] = [];
  const s = await startServer({
    validateOffThread: async (xml) => (judged.push(xml.length), verdictOf(xml, schemaSetOf(readSchemaFiles()))),
  });
  try {
    const token = (await s.token("acme")).token;
    s.drop("acme", "good.xml", VALID);
    await s.sync(token);
    const [doc] = ((await (await s.fetch("/api/v1/documents", token)).json()) as { data: { id: string }[] }).data;
    const first = await (await s.fetch(`/api/v1/documents/${doc!.id}`, token)).json();
    const second = await (await s.fetch(`/api/v1/documents/${doc!.id}`, token)).json();
    assert.deepEqual(second, first);
    assert.equal((first as { validation: { valid: boolean } }).validation.valid, true);
    assert.deepEqual(judged, [VALID.length], "one verdict, by the thread the app was given");
  } finally {
    await s.close();
  }
});

/**
 * Creating invoices from the invoice object (README "Creating invoices") and converting uploads (README "Converting
 * invoices") through a real server: the minimal FA(3) as JSON is written, valid, computed and stored with its JSON
 * as source; refused objects name their JSON path and store nothing; `as=ksef-fa3` and POST /convert.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import { readInvoice } from "../../../lib/formats/invoice/read.ts";
import { fixturePath, startServer, type TestServer } from "../../support/server.ts";
import { MINIMAL_FA3 } from "../../support/minimal_invoice.ts";

let server: TestServer;
let token = "";
before(async () => {
  server = await startServer({ storage: "memory" });
  token = (await server.token()).token;
});
after(() => server.close());

describe("POST /api/v1/submissions with the JSON of an invoice", () => {

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    server.fetch("/api/v1/submissions", token, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
  const count = async () => ((await (await server.fetch("/api/v1/submissions?limit=500", token)).json()) as { data: unknown[] }).data.length;

  test("the minimal FA(3) is written, valid, with its totals computed, and keeps its JSON as source", async () => {
    const res = await post(MINIMAL_FA3);
    assert.equal(res.status, 201, await res.clone().text());
    const sub = (await res.json()) as Record<string, any>;
    assert.equal(sub.format, "ksef-fa3");
    assert.deepEqual(sub.totals, { net: "1599.99", tax: "350.00", gross: "1949.99" }); // 1500 + 99.99; 345.00 + 5.00 (99.99 × 5 % = 4.9995)
    assert.equal(sub.validation.valid, true);
    assert.deepEqual(sub.conversion, { from: "json", losses: [] });
    assert.equal(sub.source.media_type, "application/json");
    const xml = new Uint8Array(await (await server.fetch(sub.links.xml, token)).arrayBuffer());
    const inv = readInvoice(parseXml(xml));
    assert.deepEqual(inv.vat_breakdown.map((r) => [r.ksef_field, r.taxable_amount, r.tax_amount]), [["P_13_1", "1500.00", "345.00"], ["P_13_3", "99.99", "5.00"]]);
    assert.equal(inv.totals.gross, "1949.99");
    assert.equal(inv.annotations?.reverse_charge, false);
    const source = await server.fetch(sub.links.source, token);
    assert.equal(source.headers.get("content-type"), "application/json");
    assert.deepEqual(JSON.parse(await source.text()), MINIMAL_FA3);
    // The same invoice again is a duplicate, as an upload of its XML would be.
    const again = await post(MINIMAL_FA3);
    assert.equal(again.status, 409);
  });

  const refused: { what: string; body: unknown; field: string; rule?: string }[] = [
    { what: "no seller NIP", body: _edit((i) => { delete i.seller.tax_id; }), field: "invoice.seller" },
    { what: "an unknown rate", body: _edit((i) => { i.lines[1].vat_rate = "19"; }), field: "invoice.lines[1].vat_rate", rule: "INVOICE-VAT-RATE" },
    { what: "totals that disagree", body: _edit((i) => { i.totals = { gross: "2000.00" }; }), field: "invoice.totals.gross", rule: "INVOICE-TOTALS" },
    { what: "a line net that disagrees", body: _edit((i) => { i.lines[0].net_amount = "1400.00"; }), field: "invoice.lines[0].net_amount", rule: "INVOICE-LINE-NET" },
    { what: "a wrong type", body: _edit((i) => { i.lines[0].quantity = 10; }), field: "invoice.lines[0].quantity", rule: "INVOICE-JSON" },
    { what: "an unknown field", body: _edit((i) => { i.lines[0].colour = "red"; }), field: "invoice.lines[0].colour", rule: "INVOICE-JSON" },
    { what: "a line name of 5 MB", body: _edit((i) => { i.lines[0].name = "x".repeat(5 * 1024 * 1024); }), field: "invoice.lines[0].name" },
    ...["ksef-fa3", "ubl", "cii"].map((format) => ({
      what: `a control character XML cannot carry, as ${format},`, body: { ...(_edit((i) => { i.lines[0].name = "bell \u0007"; }) as object), format },
      field: "invoice.lines[0].name", rule: "INVOICE-JSON",
    })),
  ];
  for (const r of refused) {
    test(`${r.what} is refused with 422 naming ${r.field}, and nothing is stored`, async () => {
      const before = await count();
      const res = await post(r.body);
      assert.equal(res.status, 422, (await res.clone().text()).slice(0, 500));
      const err = ((await res.json()) as { error: { code: string; details: { field: string; violations: { field?: string; rule: string; path: string }[] } } }).error;
      assert.equal(err.code, "VALIDATION_ERROR");
      const hit = err.details.violations.find((v) => v.field !== undefined && (v.field === r.field || v.field.startsWith(`${r.field}.`)));
      assert.ok(hit, JSON.stringify(err.details.violations.slice(0, 5)));
      if (r.rule) assert.equal(hit.rule, r.rule);
      assert.equal(await count(), before);
    });
  }

  test("the top-level fields are strict: an unknown one is 400, a missing format 422, an unknown format 400", async () => {
    assert.equal((await post({ ...MINIMAL_FA3, colour: "red" })).status, 400);
    assert.equal((await post({ invoice: MINIMAL_FA3.invoice })).status, 422);
    assert.equal((await post({ ...MINIMAL_FA3, format: "ksef-fa2" })).status, 400);
    assert.equal((await post("{not json")).status, 400);
  });
});

describe("converting uploads", () => {

  test("an FA(2) upload with as=ksef-fa3 is stored as FA(3), its upload kept as source", async () => {
    const fa2 = readFileSync(fixturePath("samples", "ksef-fa2", "FA_2_Przyklad_20.xml"));
    const form = new FormData();
    form.set("xml", new Blob([fa2]), "fa2.xml");
    form.set("as", "ksef-fa3");
    const res = await server.fetch("/api/v1/submissions", token, { method: "POST", body: form });
    assert.equal(res.status, 201, await res.clone().text());
    const sub = (await res.json()) as Record<string, any>;
    assert.equal(sub.format, "ksef-fa3");
    assert.equal(sub.conversion.from, "ksef-fa2");
    const source = new Uint8Array(await (await server.fetch(sub.links.source, token)).arrayBuffer());
    assert.deepEqual(source, new Uint8Array(fa2));
    const xml = await (await server.fetch(sub.links.xml, token)).text();
    assert.match(xml, /kodSystemowy="FA \(3\)"/);
  });

  test("POST /convert answers the FA(3) of an FA(2) as XML with its count of losses, and stores nothing", async () => {
    const listed = ((await (await server.fetch("/api/v1/submissions?limit=500", token)).json()) as { data: unknown[] }).data.length;
    const fa2 = readFileSync(fixturePath("samples", "ksef-fa2", "FA_2_Przyklad_20.xml"));
    const res = await server.fetch("/api/v1/convert?to=ksef-fa3", token, { method: "POST", headers: { "content-type": "application/xml" }, body: fa2 });
    assert.equal(res.status, 200, await res.clone().text());
    assert.match(res.headers.get("content-type") ?? "", /^application\/xml/);
    assert.match(res.headers.get("x-conversion-losses") ?? "", /^\d+$/);
    const inv = readInvoice(parseXml(new Uint8Array(await res.arrayBuffer())));
    assert.equal(inv.format, "ksef-fa3");
    const list = (await (await server.fetch("/api/v1/submissions", token)).json()) as { data: unknown[] };
    assert.equal(list.data.length, listed); // nothing stored by the conversion
  });

  test("POST /convert with Accept: application/json answers the losses and the verdict; JSON in, FA(3) out", async () => {
    const res = await server.fetch("/api/v1/convert?to=ksef-fa3", token, {
      method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify({ invoice: MINIMAL_FA3.invoice }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    const body = (await res.json()) as { format: string; xml: string; losses: unknown[]; validation: { valid: boolean } };
    assert.deepEqual(Object.keys(body), ["format", "xml", "losses", "validation"]);
    assert.equal(body.format, "ksef-fa3");
    assert.equal(body.validation.valid, true);
    assert.match(body.xml, /<P_15>1949\.99<\/P_15>/);
  });

  test("POST /convert refuses a foreign seller's UBL as FA(3), naming why", async () => {
    const ubl = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"));
    const res = await server.fetch("/api/v1/convert?to=ksef-fa3", token, { method: "POST", headers: { "content-type": "application/xml" }, body: ubl });
    assert.equal(res.status, 422);
    const err = ((await res.json()) as { error: { details: { field: string; violations: { rule: string }[] } } }).error;
    assert.equal(err.details.field, "invoice.seller.tax_id");
    assert.equal(err.details.violations[0]!.rule, "CONVERSION");
  });

  test("POST /convert needs to=, and takes only the formats written", async () => {
    const fa2 = readFileSync(fixturePath("samples", "ksef-fa2", "FA_2_Przyklad_20.xml"));
    for (const q of ["", "?to=ksef-fa2", "?to=ubl&keep=all"]) {
      const res = await server.fetch(`/api/v1/convert${q}`, token, { method: "POST", headers: { "content-type": "application/xml" }, body: fa2 });
      assert.equal(res.status, 400, q);
    }
  });
});

function _edit(change: (invoice: any) => void): unknown {
  const body = structuredClone(MINIMAL_FA3) as { format: string; invoice: any };
  change(body.invoice);
  return body;
}

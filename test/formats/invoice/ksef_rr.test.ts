/**
 * The KSeF FA_RR(1) reader (lib/formats/invoice/ksef_rr.ts) and its verdict: the project's test invoices in
 * test/fixtures/ksef-rr/ (written for it, valid against schemat_FA_RR(1)_v1-1E.xsd) read into the invoice model
 * with the farmer as seller and the issuing buyer as buyer, every value of the XML in the JSON, and the schema's
 * verdict agreeing with xmllint's where it is installed.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { invoiceJson } from "../../../lib/api/documents/invoice_json.ts";
import { readInvoice, requireSubmissionFields } from "../../../lib/formats/invoice/read.ts";
import { verdictOf } from "../../../lib/formats/validation/read_and_validate.ts";
import { SchemaSet, schemaSetOf } from "../../../lib/formats/validation/schema_set.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import { readSchemaFiles } from "../../../storage/schemas/schema_files.ts";
import { coverage } from "../../support/invoice_coverage.ts";
import { fixturePath } from "../../support/server.ts";
import { hasXmllint } from "../../support/xsd_oracle.ts";

const FILES = ["fa_rr1_vat_rr.xml", "fa_rr1_kor_vat_rr.xml", "fa_rr1_invalid.xml"] as const;
const bytes = (file: string) => readFileSync(fixturePath("ksef-rr", file));
const read = (file: string) => readInvoice(parseXml(bytes(file)));

describe("KSeF FA_RR(1) reader", () => {
  test("readInvoice() reads a VAT RR invoice: the farmer is the seller, the issuing buyer the buyer", () => {
    const inv = read("fa_rr1_vat_rr.xml");
    assert.equal(inv.format, "ksef-fa-rr1");
    assert.equal(inv.profile, "FA_RR (1)");
    assert.equal(inv.type, "invoice");
    assert.deepEqual(inv.kind, { code: "VAT_RR", text: "VAT RR invoice (farm produce bought from a flat-rate farmer)" });
    assert.equal(inv.number, "RR/2026/11/0042");
    assert.equal(inv.issue_date, "2026-11-20");
    assert.equal(inv.issue_place, "Kutno");
    assert.equal(inv.delivery?.date, "2026-11-18");
    assert.equal(inv.seller.name, "Jan Nowak Gospodarstwo Rolne");
    assert.deepEqual(inv.seller.tax_id, { value: "7251801126", country: "PL", scheme: "NIP" });
    assert.equal(inv.seller.supplier_number, "DOST-0427");
    assert.equal(inv.buyer.name, "Młyn-Pol Zakłady Zbożowe Sp. z o.o.");
    assert.equal(inv.buyer.address?.gln, "5901234123457");
    assert.deepEqual(inv.third_parties.map((t) => [t.name, t.role?.code]), [["Punkt Skupu Żychlin", "2"]]);
    assert.deepEqual(inv.totals, {
      line_net: null, allowances: null, charges: null, net: "20275.00", tax: "1419.25", tax_in_tax_currency: null,
      net_in_tax_currency: null, gross: "21694.25", gross_in_tax_currency: null,
      gross_in_words: "dwadzieścia jeden tysięcy sześćset dziewięćdziesiąt cztery złote 25/100",
      prepaid: null, rounding: null, payable: "21544.25",
    });
    assert.deepEqual(inv.vat_breakdown.map((v) => [v.rate, v.taxable_amount, v.tax_amount, v.ksef_field]), [["7", "20275.00", "1419.25", "P_11_1"]]);
    const [l1, l2] = inv.lines;
    assert.deepEqual(
      [l1?.name, l1?.unit, l1?.quantity, l1?.quality_class, l1?.net_price, l1?.net_amount, l1?.vat_rate, l1?.vat_amount, l1?.amount_with_vat],
      ["Pszenica konsumpcyjna", "t", "12.5", "klasa I", "950.00", "11875.00", "7", "831.25", "12706.25"],
    );
    assert.deepEqual(l1?.classifications.map((c) => c.scheme), ["PKWiU", "CN"]);
    assert.equal(l2?.delivery_date, "2026-11-19");
    assert.deepEqual(l2?.standard_item_id, { value: "05901234123457", scheme: "GTIN" });
    assert.deepEqual(inv.payment?.means, { code: "1", text: "Bank transfer" });
    assert.deepEqual(inv.payment?.accounts.map((a) => [a.held_by, a.number]), [
      ["seller", "61109010140000071219812874"], ["buyer", "27114020040000300201355387"],
    ]);
    assert.deepEqual(inv.payment?.proof_documents, [{ number: "PRZELEW/2026/11/20/0042", date: "2026-11-20" }]);
    assert.deepEqual(inv.additional_info[1], { line_number: "2", key: "Wilgotność", value: "8,5 %" });
    assert.equal(inv.settlement?.deductions_total, "150.00");
    assert.equal(inv.registers[0]?.krs, "0000123456");
    assert.equal(inv.annotations, null);
    assert.equal(inv.correction, null);
    requireSubmissionFields(inv);
  });

  test("readInvoice() reads a KOR_VAT_RR correction with its before rows and the corrected invoice", () => {
    const inv = read("fa_rr1_kor_vat_rr.xml");
    assert.equal(inv.type, "correction");
    assert.equal(inv.correction?.reason, "Błędna masa towaru w kwicie wagowym");
    assert.deepEqual(inv.correction?.type, { code: "4", text: "Effective on the date the amount due is refunded in whole or in part" });
    assert.deepEqual(inv.references.preceding_invoices, [{
      number: "RR/2026/11/0042", issue_date: "2026-11-20", ksef_number: "5260250274-20261120-0A1B2C3D4E5F-CA", in_ksef: true,
    }]);
    assert.deepEqual(inv.lines.map((l) => l.before_correction), [true, false]);
    assert.equal(inv.totals.net, "-475.00");
    assert.deepEqual(inv.buyer.status, { code: "2", text: "In restructuring proceedings" });
    assert.deepEqual([inv.payment?.means?.code, inv.payment?.means_text], ["other", "Potrącenie z kolejną dostawą"]);
  });

  test("readInvoice() without lines keeps every field but the lines", () => {
    const inv = readInvoice(parseXml(bytes("fa_rr1_vat_rr.xml")), { lines: false });
    assert.deepEqual(inv.lines, []);
    assert.equal(inv.totals.gross, "21694.25");
  });

  for (const file of FILES) {
    test(`every value of ${file} is in the invoice JSON`, () => {
      const doc = parseXml(bytes(file));
      const c = coverage(doc.root, JSON.parse(invoiceJson(readInvoice(doc))));
      assert.deepEqual(c.missing, []);
      assert.ok(c.total > 25, `${c.total} values counted`);
    });
  }
});

describe("KSeF FA_RR(1) validation", () => {
  const schemas = schemaSetOf(readSchemaFiles());

  test("the valid test invoices pass KSeF's file rules and the FA_RR(1) schema", () => {
    for (const file of ["fa_rr1_vat_rr.xml", "fa_rr1_kor_vat_rr.xml"]) {
      const v = verdictOf(bytes(file), schemas);
      assert.deepEqual([v.valid, v.format, v.checks, v.errors], [true, "ksef-fa-rr1", ["KSEF-FILE", "XSD:FA_RR(1) 1-1E"], []], file);
    }
  });

  test("the invalid test invoice fails on its refund rate and its payment form", () => {
    const v = verdictOf(bytes("fa_rr1_invalid.xml"), schemas);
    assert.equal(v.valid, false);
    assert.deepEqual(v.errors.map((e) => [e.rule, e.path, e.line]), [
      ["XSD", "/Faktura/FakturaRR/FakturaRRWiersz/P_9", 50],
      ["XSD", "/Faktura/FakturaRR/Platnosc/FormaPlatnosci", 55],
    ]);
  });

  test("an embedder's schema files without FA_RR's leave its schema check out of `checks`, not the file rules", () => {
    const { ksef, ubl, cii } = readSchemaFiles();
    const v = verdictOf(bytes("fa_rr1_invalid.xml"), new SchemaSet({ ksef, ubl, cii }));
    assert.deepEqual([v.valid, v.checks], [true, ["KSEF-FILE"]]);
  });

  test("an FA_RR invoice with a byte-order mark breaks KSeF's file rules", () => {
    const v = verdictOf(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes("fa_rr1_vat_rr.xml")]), schemas);
    assert.deepEqual(v.errors.map((e) => e.rule), ["KSEF-FILE"]);
  });

  test("xmllint gives the same verdicts on the test invoices", { skip: !hasXmllint() && "xmllint is not installed" }, () => {
    const dir = mkdtempSync(join(tmpdir(), "fa-rr-"));
    try {
      for (const f of readSchemaFiles().ksef_rr ?? []) {
        const text = Buffer.from(f.bytes).toString("utf8").replace(/schemaLocation="http:\/\/crd\.gov\.pl\/[^"]*\/([^"/]+\.xsd)"/g, 'schemaLocation="$1"');
        writeFileSync(join(dir, f.path), text);
      }
      for (const file of FILES) {
        const r = spawnSync("xmllint", ["--noout", "--schema", join(dir, "schemat_FA_RR(1)_v1-1E.xsd"), fixturePath("ksef-rr", file)], { encoding: "utf8" });
        assert.equal(r.status === 0, verdictOf(bytes(file), schemas).valid, `${file}: ${r.stderr}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Converting between formats (README "Converting invoices"): real invoices converted each way are valid by the
 * target's schema and rules (ours, and `xmllint --schema` where it is installed) and keep their number and totals;
 * what cannot convert is refused with a reason. The mapping tables each way.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { completeInvoice, type WrittenFormat } from "../../../lib/formats/invoice/compute.ts";
import { convertInvoice } from "../../../lib/formats/invoice/convert.ts";
import type { Invoice } from "../../../lib/formats/invoice/model.ts";
import { readInvoice } from "../../../lib/formats/invoice/read.ts";
import { unitCodeOf, unitNameOf } from "../../../lib/formats/invoice/units.ts";
import { ksefRate, ksefRateOf } from "../../../lib/formats/invoice/vat_rates.ts";
import { writeInvoice } from "../../../lib/formats/invoice/write_invoice.ts";
import { verdictOf } from "../../../lib/formats/validation/read_and_validate.ts";
import { schemaSetOf } from "../../../lib/formats/validation/schema_set.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import { readSchemaFiles } from "../../../storage/schemas/schema_files.ts";
import { fixturePath } from "../../support/server.ts";
import { hasXmllint, oracleSchemas, xmllintVerdicts } from "../../support/xsd_oracle.ts";

const schemas = schemaSetOf(readSchemaFiles());
const tmp = mkdtempSync(join(tmpdir(), "convert-"));
/** Every written document, checked by xmllint against the official XSDs in one run at the end. */
const written: { what: string; file: string; entry: "fa3" | "ublInvoice" | "ublCreditNote" | "cii" }[] = [];

function read(dir: string, file: string): Invoice {
  return readInvoice(parseXml(readFileSync(fixturePath("samples", dir, file))));
}

/** Converts, fills in what the target computes, writes; the written bytes and our verdict. */
function convert(inv: Invoice, to: WrittenFormat): { xml: string; valid: boolean; errors: string[]; refusals: string[]; back: Invoice } {
  const c = convertInvoice(inv, to);
  completeInvoice(c.invoice, to);
  const xml = writeInvoice(c.invoice, to, { now: new Date("2026-12-06T10:00:00Z") }).xml;
  const report = verdictOf(new TextEncoder().encode(xml), schemas);
  return { xml, valid: report.valid, errors: report.errors.map((e) => `${e.rule} ${e.path} ${e.message}`), refusals: c.refusals.map((r) => r.message), back: readInvoice(parseXml(xml)) };
}

function assertXmllint(xml: string, to: WrittenFormat, name: string): void {
  const file = join(tmp, `${name}.xml`);
  writeFileSync(file, xml);
  written.push({ what: name, file, entry: to === "ksef-fa3" ? "fa3" : to === "cii" ? "cii" : /<CreditNote[\s>]/.test(xml) ? "ublCreditNote" : "ublInvoice" });
}

/** FA(3) samples whose content EN 16931 can carry: each converts to a valid UBL and CII. */
const FA3_TO_EN = ["FA_3_Przyklad_3_KOR_EUR.xml", "FA_3_Przyklad_3_brutto.xml", "FA_3_Przyklad_4_EUR.xml", "FA_3_Zalacznik_Przyklad_1.xml", "cirfmf-pdf-generator_invoice.xml"];

describe("FA(3) → UBL and CII", () => {
  for (const file of FA3_TO_EN) {
    for (const to of ["ubl", "cii"] as const) {
      test(`${file} → ${to}: valid by schema and EN 16931, number and totals kept`, () => {
        const source = read("ksef-fa3", file);
        const r = convert(source, to);
        assert.deepEqual(r.refusals, []);
        assert.equal(r.valid, true, r.errors.slice(0, 5).join("\n"));
        assertXmllint(r.xml, to, `${file}-${to}`);
        assert.equal(r.back.number, source.number);
        assert.equal(Number(r.back.totals.gross), Number(source.totals.gross));
        assert.equal(Number(r.back.totals.tax), Number(source.totals.tax));
        assert.equal(r.back.seller.tax_id?.value, `PL${source.seller.tax_id?.value}`);
      });
    }
  }

  test("a KSeF advance-payment settlement (ROZ) is written, and its verdict says which EN 16931 rule it breaks", () => {
    const r = convert(read("ksef-fa3", "FA_3_Przyklad_1_ROZ.xml"), "ubl");
    assert.equal(r.valid, false);
    assert.ok(r.errors.some((e) => e.startsWith("BR-CO-15")), r.errors.join("\n"));
  });
});

/** EN 16931 invoices made a Polish seller's (its VAT id PL…, standard rate 23 %) that FA(3) can carry. */
const EN_TO_FA3: [string, string][] = [
  ["ubl", "en16931_BIS3_Invoice_positive_DKK.xml"], ["ubl", "mustang_testout-ZF2PushEdge_CHF.ubl.xml"], ["cii", "en16931_huf_example_cii.xml"],
  ["cii", "gobl-cii_peppol-france-facturx_credit-note_381.xml"], ["ubl", "peppol-bis3_vat-category-E_GBP.xml"], ["cii", "mustang_factur-x.xml"],
];

function polish(inv: Invoice): Invoice {
  inv.seller.tax_id = { value: "PL5260250274", country: "PL", scheme: "VAT" };
  for (const l of inv.lines) if (l.vat_category?.code === "S") l.vat_rate = "23";
  // The breakdown and totals follow from the lines again at 23 %.
  inv.vat_breakdown = [];
  for (const k of ["net", "tax", "gross", "payable"] as const) inv.totals[k] = null;
  return inv;
}

describe("UBL and CII of a Polish seller → FA(3)", () => {
  for (const [dir, file] of EN_TO_FA3) {
    test(`${dir}/${file} → ksef-fa3: valid by the FA(3) schema, with NIP, P_12 codes and its number`, () => {
      const source = polish(read(dir, file));
      const r = convert(source, "ksef-fa3");
      assert.deepEqual(r.refusals, []);
      assert.equal(r.valid, true, r.errors.slice(0, 5).join("\n"));
      assertXmllint(r.xml, "ksef-fa3", `${file}-fa3`);
      assert.equal(r.back.number, source.number);
      assert.equal(r.back.seller.tax_id?.value, "5260250274");
      for (const l of r.back.lines) assert.ok(l.vat_rate === null || ksefRate(l.vat_rate) !== undefined, `${l.vat_rate}`);
    });
  }

  test("a foreign seller's invoice is refused for FA(3), naming the seller's tax id", () => {
    const c = convertInvoice(read("ubl", "peppol-bis3_base-example.xml"), "ksef-fa3");
    assert.match(c.refusals[0]!.message, /Polish NIP/);
    assert.equal(c.refusals[0]!.field, "invoice.seller.tax_id");
  });

  test("a rate FA(3) has no code for (19 %) is refused on its line", () => {
    const inv = read("cii", "mustang_factur-x.xml");
    inv.seller.tax_id = { value: "PL5260250274", country: "PL", scheme: "VAT" };
    const c = convertInvoice(inv, "ksef-fa3");
    assert.ok(c.refusals.some((r) => /^invoice\.lines\[\d+\]\.vat_rate$/.test(r.field) && /S at 19/.test(r.message)), JSON.stringify(c.refusals));
  });

  test("a credit note becomes a correction (KOR) with negated amounts, and needs its preceding invoice", () => {
    const inv = polish(read("cii", "gobl-cii_peppol-france-facturx_credit-note_381.xml"));
    const c = convertInvoice(inv, "ksef-fa3");
    assert.equal(c.invoice.kind?.code, "KOR");
    assert.ok(c.invoice.lines.every((l) => l.net_amount === null || l.net_amount.startsWith("-") || Number(l.net_amount) === 0));
  });
});

describe("UBL ↔ CII", () => {
  test("the CEN example pair: UBL → CII and CII → UBL are valid and keep every total", () => {
    for (const [dir, file, to] of [["ubl", "en16931_ubl-tc434-example1.xml", "cii"], ["cii", "en16931_CII_example1.xml", "ubl"]] as const) {
      const source = read(dir, file);
      const r = convert(source, to);
      assert.equal(r.valid, true, r.errors.slice(0, 5).join("\n"));
      assert.deepEqual(r.back.totals, { ...source.totals, ...r.back.totals, net: source.totals.net, tax: source.totals.tax, gross: source.totals.gross });
    }
  });
});

describe("the mapping tables, read both ways", () => {
  test("every FA(3) rate maps to its EN 16931 category and back", () => {
    for (const code of ["23", "22", "8", "7", "5", "4", "3", "0 KR", "0 WDT", "0 EX", "zw", "oo", "np I"]) {
      const r = ksefRate(code)!;
      assert.equal(ksefRateOf(r.category, r.percent), code, code);
    }
    assert.equal(ksefRateOf("S", "23.00"), "23");
    assert.equal(ksefRateOf("S", "19"), null);
    assert.equal(ksefRateOf("L", null), null);
  });

  test("units: KSeF's words to UN/ECE codes and back", () => {
    for (const [word, code] of [["szt.", "H87"], ["kg", "KGM"], ["godz.", "HUR"], ["kWh", "KWH"], ["m-c", "MON"], ["usł.", "E48"]] as const) {
      assert.equal(unitCodeOf(word), code, word);
      assert.equal(unitCodeOf(unitNameOf(code)!), code, code);
    }
    assert.equal(unitCodeOf("furlong"), null);
    assert.equal(unitCodeOf("C62"), "C62");
  });
});

describe("the converted invoices are valid by xmllint --schema against the official XSDs", { skip: hasXmllint() ? false : "xmllint is not installed (apt-get install libxml2-utils)" }, () => {
  test("for every document converted above", () => {
    assert.ok(written.length >= 16, `${written.length} documents`);
    const oracle = oracleSchemas(fixturePath("..", "..", "storage", "schemas"));
    try {
      const failed: string[] = [];
      for (const entry of ["fa3", "ublInvoice", "ublCreditNote", "cii"] as const) {
        const files = written.filter((w) => w.entry === entry);
        if (files.length === 0) continue;
        const verdicts = xmllintVerdicts(oracle.entry[entry], files.map((w) => w.file));
        failed.push(...files.filter((w) => !verdicts.get(w.file)).map((w) => w.what));
      }
      assert.deepEqual(failed, []);
    } finally {
      oracle.dispose();
    }
  });
});

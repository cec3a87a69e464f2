/**
 * Converting between UBL and CII through the invoice object, on the CEN example that EN 16931 gives in both
 * syntaxes (en16931_ubl-tc434-example1.xml and en16931_CII_example1.xml): the written document is valid by the
 * target's schema and by the EN 16931 rules, and keeps the number, totals, lines and VAT breakdown.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { writeCii } from "../../../lib/formats/invoice/cii_write.ts";
import { writeUbl } from "../../../lib/formats/invoice/ubl_write.ts";
import { checkEn16931 } from "../../../lib/formats/validation/en16931/rules.ts";
import { SchemaSet } from "../../../lib/formats/validation/schema_set.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import { validateXsd } from "../../../lib/formats/xsd/validate.ts";
import { readSchemaFiles } from "../../../storage/schemas/schema_files.ts";
import { fixturePath } from "../../support/server.ts";
import { readFile, readText, samplesOf, xmllintOn } from "../../support/written_invoices.ts";
import { hasXmllint } from "../../support/xsd_oracle.ts";

const schemas = new SchemaSet(readSchemaFiles());
const CASES = [
  { what: "UBL to CII", from: fixturePath("samples", "ubl", "en16931_ubl-tc434-example1.xml"), write: writeCii, syntax: "cii", entry: "cii" },
  { what: "CII to UBL", from: fixturePath("samples", "cii", "en16931_CII_example1.xml"), write: writeUbl, syntax: "ubl", entry: "ublInvoice" },
] as const;

for (const c of CASES) {
  test(`the CEN example converted ${c.what} is valid by the schema and EN 16931 and keeps number, totals, lines and VAT breakdown`, (t) => {
    const source = readFile(c.from);
    const { xml, losses } = c.write(source);
    assert.deepEqual(losses, []);
    const root = parseXml(new TextEncoder().encode(xml)).root;
    assert.equal(root.local, c.syntax === "cii" ? "CrossIndustryInvoice" : "Invoice");
    assert.deepEqual(validateXsd(schemas.forFormat(c.syntax), root), []);
    assert.deepEqual(checkEn16931(root, c.syntax), []);
    const back = readText(xml);
    assert.equal(back.format, c.syntax);
    for (const key of ["number", "issue_date", "currency", "totals", "lines", "vat_breakdown", "payment"] as const) {
      assert.deepEqual(back[key], source[key], key);
    }
    for (const key of ["name", "address", "registers"] as const) assert.deepEqual(back.seller[key], source.seller[key], `seller.${key}`);
    // The VAT id keeps its value; its scheme is each syntax's name for VAT (UBL "VAT", CII "VA").
    assert.equal(back.seller.tax_id?.value, source.seller.tax_id?.value);
    // UBL has no element for a note's subject code (BT-21): it is written as "#AAR#text" (as XRechnung and Peppol do), and read from there.
    assert.deepEqual(back.notes.map((n) => n.subject_code), source.notes.map((n) => n.subject_code));
    if (!hasXmllint()) return t.skip("xmllint is not installed (CI installs libxml2-utils)");
    assert.deepEqual([...xmllintOn(new Map([[c.what, xml]]), c.entry).values()], [true]);
  });
}

test("a UBL invoice's BT-8 code and SEPA creditor id take CII's places, and back", () => {
  const inv = readFile(fixturePath("samples", "ubl", "en16931_ubl-tc434-example1.xml"));
  inv.delivery = { date: null, party_name: null, location_id: null, address: null, period: { start: "2015-01-01", end: "2015-01-31", description: "35" } };
  inv.seller.identifiers = [{ value: "DE98ZZZ09999999999", scheme: "SEPA" }];
  inv.payment!.direct_debit = { mandate: "MANDATE-1", creditor_id: "DE98ZZZ09999999999", debited_account: "DE02120300000000202051" };
  const cii = writeCii(inv).xml;
  assert.match(cii, /<ram:DueDateTypeCode>29<\/ram:DueDateTypeCode>/);
  assert.match(cii, /<ram:CreditorReferenceID>DE98ZZZ09999999999<\/ram:CreditorReferenceID>/);
  assert.doesNotMatch(cii, /schemeID="SEPA"/);
  const viaCii = readText(cii);
  assert.equal(viaCii.tax_point_date_code, "29");
  const ubl = writeUbl(viaCii).xml;
  assert.match(ubl, /<cbc:DescriptionCode>35<\/cbc:DescriptionCode>/);
  assert.match(ubl, /<cac:PartyIdentification><cbc:ID schemeID="SEPA">DE98ZZZ09999999999<\/cbc:ID><\/cac:PartyIdentification>/);
  assert.deepEqual(readText(ubl).payment!.direct_debit, inv.payment!.direct_debit);
});

test("every UBL and CII sample converted to the other syntax is schema-valid and keeps number, totals and VAT breakdown", () => {
  // Factur-X MINIMUM has no lines, which UBL requires: it is not an EN 16931 invoice.
  const exceptions = new Set(["mustang_facturFrMinimum.xml"]);
  for (const [dir, write, syntax] of [["ubl", writeCii, "cii"], ["cii", writeUbl, "ubl"]] as const) {
    for (const file of samplesOf(dir)) {
      const name = file.slice(file.lastIndexOf("/") + 1);
      if (exceptions.has(name)) continue;
      const source = readFile(file);
      const { xml } = write(source);
      assert.deepEqual(validateXsd(schemas.forFormat(syntax), parseXml(new TextEncoder().encode(xml)).root), [], name);
      const back = readText(xml);
      assert.deepEqual([back.number, back.totals, back.vat_breakdown.map((v) => [v.category, v.rate, v.taxable_amount, v.tax_amount])],
        [source.number, source.totals, source.vat_breakdown.map((v) => [v.category, v.rate, v.taxable_amount, v.tax_amount])], name);
      assert.equal(back.lines.length, source.lines.length, name);
    }
  }
});

test("a note's subject code moves between UBL's \"#code#\" prefix and CII's SubjectCode", () => {
  const inv = readFile(fixturePath("samples", "ubl", "en16931_ubl-tc434-example1.xml"));
  inv.notes = [{ subject_code: "AAI", text: "#AAI#General information" }];
  const cii = writeCii(inv).xml;
  assert.match(cii, /<ram:IncludedNote><ram:Content>General information<\/ram:Content><ram:SubjectCode>AAI<\/ram:SubjectCode><\/ram:IncludedNote>/);
  assert.deepEqual(readText(cii).notes, [{ subject_code: "AAI", text: "General information" }]);
  assert.deepEqual(readText(writeUbl(readText(cii)).xml).notes, inv.notes);
});

/**
 * KSeF PEF(3)/PEF_KOR(3) (lib/formats/invoice/pef.ts): a UBL Invoice or CreditNote with KSeF's Polish extension
 * reads as `ksef-pef3`, like UBL plus the extension's parties, and is checked against Schemat_PEF(3)_v2-1.xsd /
 * Schemat_PEF_KOR(3)_v2-1.xsd and the EN 16931 rules. The test documents in test/fixtures/ksef-pef/ were written
 * for this project; xmllint's verdict on them is compared where it is installed.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { invoiceJson } from "../../../lib/api/documents/invoice_json.ts";
import { readInvoice, requireSubmissionFields } from "../../../lib/formats/invoice/read.ts";
import { verdictOf } from "../../../lib/formats/validation/read_and_validate.ts";
import { schemaSetOf } from "../../../lib/formats/validation/schema_set.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import { readSchemaFiles } from "../../../storage/schemas/schema_files.ts";
import { coverage } from "../../support/invoice_coverage.ts";
import { fixturePath } from "../../support/server.ts";
import { hasXmllint } from "../../support/xsd_oracle.ts";

const bytes = (file: string) => readFileSync(fixturePath("ksef-pef", file));
const read = (file: string) => readInvoice(parseXml(bytes(file)));
const EXTENSION = /<ext:UBLExtensions>[\s\S]*<\/ext:UBLExtensions>\n  /;

describe("KSeF PEF(3) reader", () => {
  test("readInvoice() reads a UBL invoice with KSeF's Polish extension as ksef-pef3, the extension's receiver a third party", () => {
    const inv = read("pef3_invoice.xml");
    assert.equal(inv.format, "ksef-pef3");
    assert.equal(inv.type, "invoice");
    assert.equal(inv.number, "PEF/2026/11/015");
    assert.equal(inv.seller.tax_id?.value, "PL5731121005");
    assert.equal(inv.buyer.name, "Gmina Miasto Kutno");
    assert.deepEqual([inv.totals.net, inv.totals.tax, inv.totals.gross], ["1500.00", "345.00", "1845.00"]);
    assert.equal(inv.lines.length, 2);
    const [receiver] = inv.third_parties;
    assert.deepEqual(receiver?.role, { code: "ReceiverParty", text: "Receiver (PEF AdditionalAddressData/ReceiverParty)" });
    assert.equal(receiver?.name, "Szkoła Podstawowa nr 3 w Kutnie");
    assert.deepEqual(receiver?.address, { lines: ["ul. Szkolna 8"], city: "Kutno", postal_code: "99-302", subdivision: null, country_code: "PL", gln: null });
    requireSubmissionFields(inv);
  });

  test("readInvoice() reads a PEF_KOR(3) credit note with its billing reference", () => {
    const inv = read("pef3_kor_credit_note.xml");
    assert.equal(inv.format, "ksef-pef3");
    assert.equal(inv.type, "credit_note");
    assert.deepEqual(inv.references.preceding_invoices.map((r) => r.number), ["PEF/2026/11/015"]);
  });

  test("the same invoice without the Polish extension is plain UBL", () => {
    const plain = Buffer.from(bytes("pef3_invoice.xml").toString("utf8").replace(EXTENSION, ""));
    const inv = readInvoice(parseXml(plain));
    assert.equal(inv.format, "ubl");
    assert.deepEqual(inv.third_parties, []);
  });

  for (const file of ["pef3_invoice.xml", "pef3_kor_credit_note.xml"]) {
    test(`every value of ${file} is in the invoice JSON`, () => {
      const doc = parseXml(bytes(file));
      const c = coverage(doc.root, JSON.parse(invoiceJson(readInvoice(doc))));
      assert.deepEqual(c.missing, []);
    });
  }
});

describe("KSeF PEF(3) validation", () => {
  const schemas = schemaSetOf(readSchemaFiles());

  test("the valid test documents pass the PEF schemas and EN 16931", () => {
    for (const file of ["pef3_invoice.xml", "pef3_kor_credit_note.xml"]) {
      const v = verdictOf(bytes(file), schemas);
      assert.deepEqual([v.valid, v.format, v.checks, v.errors, v.warnings], [true, "ksef-pef3", ["XSD:PEF(3) 2-1", "EN16931:1.3.16"], [], []], file);
    }
  });

  test("the same document without the Polish extension, plain UBL, keeps no warning back", () => {
    const plain = Buffer.from(bytes("pef3_invoice.xml").toString("utf8").replace(EXTENSION, ""));
    const withOther = Buffer.from(bytes("pef3_invoice.xml").toString("utf8").replace(/<cac-pl:AdditionalAddressData>[\s\S]*<\/cac-pl:AdditionalAddressData>/, "<x:Other xmlns:x=\"urn:example:other\"/>"));
    assert.deepEqual(verdictOf(plain, schemas).warnings, []);
    const other = verdictOf(withOther, schemas);
    assert.equal(other.format, "ubl");
    assert.deepEqual(other.warnings.map((w) => w.rule), ["UBL-CR-001"]);
  });

  test("the invalid test document fails its schema and EN 16931's BR-CO-10 in one answer", () => {
    const v = verdictOf(bytes("pef3_invalid.xml"), schemas);
    assert.equal(v.valid, false);
    assert.deepEqual(v.errors.map((e) => [e.rule, e.path]).slice(0, 2), [["XSD", "/Invoice/DueDate"], ["BR-CO-10", "/Invoice/cac:LegalMonetaryTotal"]]);
  });

  test("a PEF document's Polish extension is checked against the extension's schema", () => {
    const bad = Buffer.from(bytes("pef3_invoice.xml").toString("utf8").replace("<cbc-pl:CityName>Kutno</cbc-pl:CityName>", "<cbc-pl:Town>Kutno</cbc-pl:Town>"));
    const v = verdictOf(bad, schemas);
    assert.equal(v.valid, false);
    assert.match(v.errors[0]?.path ?? "", /PostalAddress/);
  });

  test("xmllint gives the same verdicts on the test documents", { skip: !hasXmllint() && "xmllint is not installed" }, () => {
    const dir = join(import.meta.dirname, "..", "..", "..", "storage", "schemas", "ksef-pef");
    for (const [file, schema] of [["pef3_invoice.xml", "Schemat_PEF(3)_v2-1.xsd"], ["pef3_kor_credit_note.xml", "Schemat_PEF_KOR(3)_v2-1.xsd"], ["pef3_invalid.xml", "Schemat_PEF(3)_v2-1.xsd"]] as const) {
      const r = spawnSync("xmllint", ["--noout", "--schema", join(dir, schema), fixturePath("ksef-pef", file)], { encoding: "utf8" });
      const ours = verdictOf(bytes(file), schemas).errors.some((e) => e.rule === "XSD");
      assert.equal(r.status === 0, !ours, `${file}: ${r.stderr}`);
    }
  });
});

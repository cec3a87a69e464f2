/**
 * writeUbl(): the UBL 2.1 writer is the inverse of the UBL reader. Every UBL sample reads, writes and reads back
 * to the same invoice object; the written documents are valid by the official UBL 2.1 schemas (xmllint and our
 * validator) and break no EN 16931 rule their source did not; values without a place are listed as losses, and a
 * finding on the written XML names the invoice-object field it came from.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { writeCii } from "../../../lib/formats/invoice/cii_write.ts";
import { writeUbl } from "../../../lib/formats/invoice/ubl_write.ts";
import { fieldAt } from "../../../lib/formats/invoice/write_trace.ts";
import { checkEn16931 } from "../../../lib/formats/validation/en16931/rules.ts";
import { SchemaSet } from "../../../lib/formats/validation/schema_set.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import { validateXsd } from "../../../lib/formats/xsd/validate.ts";
import { readSchemaFiles } from "../../../storage/schemas/schema_files.ts";
import { fixturePath } from "../../support/server.ts";
import { firedRules, minimalInvoice, readFile, readText, samplesOf, withoutAttachedContent, xmllintOn } from "../../support/written_invoices.ts";
import { hasXmllint } from "../../support/xsd_oracle.ts";

const SAMPLES = samplesOf("ubl");
const PEF = ["pef3_invoice.xml", "pef3_kor_credit_note.xml", "pef3_invalid.xml"].map((f) => fixturePath("ksef-pef", f));
const schemas = new SchemaSet(readSchemaFiles());
const name = (path: string) => path.slice(path.lastIndexOf("/") + 1);

describe("writeUbl() writes every UBL sample so that reading it back gives the same invoice object", () => {
  for (const file of SAMPLES) {
    test(name(file), () => {
      const before = readFile(file);
      const { xml, losses } = writeUbl(before);
      assert.deepEqual(readText(xml), withoutAttachedContent(before));
      // What was not written is listed: only the attached documents' names and types, for the same reason.
      for (const loss of losses) assert.match(loss.field, /^invoice\.attachments\[\d+\]\.(filename|mime_code)$/);
      assert.equal(losses.length, before.attachments.filter((a) => a.filename !== null).length + before.attachments.filter((a) => a.mime_code !== null).length);
    });
  }
});

test("writeUbl() writes the UBL part of a KSeF PEF(3) document and lists its Polish extension as lost", () => {
  for (const file of PEF) {
    const before = readFile(file);
    const { xml, losses } = writeUbl(before);
    // PEF's UBLExtensions (the third parties of the Polish extension) are not written: the result is plain UBL.
    assert.deepEqual(readText(xml), { ...before, format: "ubl", third_parties: [] });
    assert.ok(before.third_parties.length > 0);
    assert.ok(losses.length > 0 && losses.every((l) => l.field.startsWith("invoice.third_parties[")), name(file));
  }
});

test("writeUbl() writes documents the official UBL 2.1 schemas validate, by xmllint and by our validator", (t) => {
  const invoices = new Map<string, string>();
  const creditNotes = new Map<string, string>();
  for (const file of [...SAMPLES, ...PEF]) {
    const { xml } = writeUbl(readFile(file));
    const root = parseXml(new TextEncoder().encode(xml)).root;
    assert.deepEqual(validateXsd(schemas.forFormat("ubl"), root), [], name(file));
    (root.local === "CreditNote" ? creditNotes : invoices).set(name(file), xml);
  }
  assert.ok(invoices.size > 0 && creditNotes.size > 0);
  if (!hasXmllint()) return t.skip("xmllint is not installed (CI installs libxml2-utils)");
  for (const [docs, entry] of [[invoices, "ublInvoice"], [creditNotes, "ublCreditNote"]] as const) {
    for (const [file, valid] of xmllintOn(docs, entry)) assert.ok(valid, `xmllint refuses the written ${file}`);
  }
});

test("writeUbl() writes documents that break no EN 16931 rule their source does not break", () => {
  for (const file of SAMPLES) {
    const before = firedRules(readFileSync(file), "ubl");
    const after = firedRules(writeUbl(readFile(file)).xml, "ubl");
    assert.deepEqual([...after].filter((r) => !before.has(r)), [], name(file));
  }
});

test("writeUbl() writes a credit note by type or by UNTDID 1001 code as a CreditNote, anything else as an Invoice", () => {
  const inv = minimalInvoice();
  assert.match(writeUbl(inv).xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="[^"]+" xmlns:cbc="[^"]+">/);
  const coded = writeUbl({ ...inv, kind: { code: "381", text: null } }).xml;
  assert.match(coded, /^<\?xml[^>]*>\n<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/);
  assert.match(coded, /<cbc:CreditNoteTypeCode>381<\/cbc:CreditNoteTypeCode>/);
  assert.match(coded, /<cac:CreditNoteLine><cbc:ID>1<\/cbc:ID><cbc:CreditedQuantity unitCode="C62">2<\/cbc:CreditedQuantity>/);
  assert.equal(readText(writeUbl({ ...inv, type: "credit_note" }).xml).type, "credit_note");
});

test("writeUbl() writes a minimal invoice object that the schema and the EN 16931 rules accept, amounts as given", () => {
  const inv = minimalInvoice();
  const { xml, losses } = writeUbl(inv);
  assert.deepEqual(losses, []);
  const root = parseXml(new TextEncoder().encode(xml)).root;
  assert.deepEqual(validateXsd(schemas.forFormat("ubl"), root), []);
  assert.deepEqual(checkEn16931(root, "ubl"), []);
  const back = readText(xml);
  assert.deepEqual(back.lines.map((l) => [l.name, l.quantity, l.unit, l.net_price, l.net_amount, l.vat_rate]), [
    ["Widget <large>", "2", "C62", "100.00", "200.00", "23"], ["Service", "1.5", "C62", "50.00", "75.00", "23"],
  ]);
  assert.deepEqual(back.totals, inv.totals);
  assert.deepEqual([back.seller.name, back.seller.tax_id, back.buyer.address], [inv.seller.name, inv.seller.tax_id, inv.buyer.address]);
  assert.match(xml, /<cbc:Name>Widget &lt;large&gt;<\/cbc:Name>/);
});

test("writeUbl() lists every value UBL has no place for, by its invoice-object path, instead of dropping it", () => {
  const inv = minimalInvoice();
  inv.lines[1]!.gtu = "GTU_12";
  inv.lines[0]!.amount_with_vat = "246.00";
  inv.seller.contacts = [
    { name: "Anna", phone: null, email: "anna@example.com", fax: null, department: "Sales" },
    { name: "Jan", phone: "+48 22 000 00 00", email: null, fax: null, department: null },
  ];
  inv.references.delivery_notes = ["WZ 1/2026"];
  inv.issue_place = "Warszawa";
  const { xml, losses } = writeUbl(inv);
  assert.deepEqual(losses.map((l) => [l.field, l.value]).sort(), [
    ["invoice.issue_place", "Warszawa"], ["invoice.lines[0].amount_with_vat", "246.00"], ["invoice.lines[1].gtu", "GTU_12"],
    ["invoice.references.delivery_notes[0]", "WZ 1/2026"], ["invoice.seller.contacts[0].department", "Sales"],
    ["invoice.seller.contacts[1].name", "Jan"], ["invoice.seller.contacts[1].phone", "+48 22 000 00 00"],
  ]);
  for (const loss of losses) assert.ok(loss.reason.length > 0);
  // The first contact is written whole.
  assert.deepEqual(readText(xml).seller.contacts, [{ name: "Anna", phone: null, email: "anna@example.com", fax: null, department: null }]);
});

test("writeUbl() with trace names the invoice-object field of a finding on the written XML, in either validator's path form", () => {
  const inv = readFile(fixturePath("samples", "ubl", "en16931_ubl-tc434-example1.xml"));
  inv.lines[1]!.vat_category = { code: "Q", text: null };
  inv.lines[2]!.quantity = "1e3";
  const { xml, fields } = writeUbl(inv, { trace: true });
  assert.equal(writeUbl(inv).fields.length, 0);
  const root = parseXml(new TextEncoder().encode(xml)).root;
  const rule = checkEn16931(root, "ubl").find((v) => v.path.includes("ClassifiedTaxCategory"));
  assert.ok(rule, "the bad category is found");
  assert.equal(fieldAt(fields, rule.path), "invoice.lines[1].vat_category");
  // The written path is the EN 16931 checks' own: a position only among same-named siblings.
  assert.equal(fields.find((f) => f.field === "invoice.lines[1].vat_category")?.path, "/Invoice/cac:InvoiceLine[2]/cac:Item/cac:ClassifiedTaxCategory/cbc:ID");
  const xsd = validateXsd(schemas.forFormat("ubl"), root).find((v) => v.path.includes("InvoicedQuantity"));
  assert.ok(xsd, "the bad quantity is found");
  assert.equal(xsd.path, "/Invoice/InvoiceLine[3]/InvoicedQuantity");
  assert.equal(fieldAt(fields, xsd.path), "invoice.lines[2].quantity");
  assert.equal(fieldAt(fields, "/Invoice/cac:InvoiceLine[2]/cac:Price/cbc:PriceAmount"), "invoice.lines[1].net_price");
  assert.equal(fieldAt(fields, "/Invoice/cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID"), "invoice.seller.tax_id");
  assert.equal(fieldAt(fields, "/Invoice/cac:TaxTotal/cac:TaxSubtotal[2]/cbc:TaxAmount"), "invoice.vat_breakdown[1].tax_amount");
  // An element without a field of its own gets its nearest written ancestor's.
  assert.equal(fieldAt(fields, "/Invoice/cac:InvoiceLine[2]/cac:Item/cac:ClassifiedTaxCategory/cac:TaxScheme/cbc:ID"), "invoice.lines[1]");
});

test("writeUbl() and writeCii() report a VAT id's country lost when the number does not start with it (a Polish NIP)", () => {
  const inv = minimalInvoice();
  inv.seller.tax_id = { value: "5260250274", country: "PL", scheme: "NIP" };
  for (const write of [writeUbl, writeCii]) {
    assert.deepEqual(write(inv).losses.map((l) => [l.field, l.value]), [["invoice.seller.tax_id.country", "PL"]]);
  }
  assert.deepEqual(writeUbl(minimalInvoice()).losses, []);
});

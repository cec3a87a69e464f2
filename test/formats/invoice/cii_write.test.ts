/**
 * writeCii(): the CII D16B writer is the inverse of the CII reader. Every CII sample reads, writes and reads back
 * to the same invoice object; the written documents are valid by the official CII D16B schema (xmllint and our
 * validator) and break no EN 16931 rule their source did not; values without a place are listed as losses.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { writeCii } from "../../../lib/formats/invoice/cii_write.ts";
import { fieldAt } from "../../../lib/formats/invoice/write_trace.ts";
import { checkEn16931 } from "../../../lib/formats/validation/en16931/rules.ts";
import { SchemaSet } from "../../../lib/formats/validation/schema_set.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import { validateXsd } from "../../../lib/formats/xsd/validate.ts";
import { readSchemaFiles } from "../../../storage/schemas/schema_files.ts";
import { fixturePath } from "../../support/server.ts";
import { firedRules, minimalInvoice, readFile, readText, samplesOf, withoutAttachedContent, xmllintOn } from "../../support/written_invoices.ts";
import { hasXmllint } from "../../support/xsd_oracle.ts";

const SAMPLES = samplesOf("cii");
const schemas = new SchemaSet(readSchemaFiles());
const name = (path: string) => path.slice(path.lastIndexOf("/") + 1);

describe("writeCii() writes every CII sample so that reading it back gives the same invoice object", () => {
  for (const file of SAMPLES) {
    test(name(file), () => {
      const before = readFile(file);
      const { xml, losses } = writeCii(before);
      assert.deepEqual(readText(xml), withoutAttachedContent(before));
      // What was not written is listed: only the attached documents' names and types, for the same reason.
      for (const loss of losses) assert.match(loss.field, /^invoice\.attachments\[\d+\]\.(filename|mime_code)$/);
    });
  }
});

test("writeCii() writes documents the official CII D16B schema validates, by xmllint and by our validator", (t) => {
  const docs = new Map<string, string>();
  for (const file of SAMPLES) {
    const { xml } = writeCii(readFile(file));
    assert.deepEqual(validateXsd(schemas.forFormat("cii"), parseXml(new TextEncoder().encode(xml)).root), [], name(file));
    docs.set(name(file), xml);
  }
  if (!hasXmllint()) return t.skip("xmllint is not installed (CI installs libxml2-utils)");
  for (const [file, valid] of xmllintOn(docs, "cii")) assert.ok(valid, `xmllint refuses the written ${file}`);
});

test("writeCii() writes documents that break no EN 16931 rule their source does not break", () => {
  for (const file of SAMPLES) {
    const before = firedRules(readFileSync(file), "cii");
    const after = firedRules(writeCii(readFile(file)).xml, "cii");
    assert.deepEqual([...after].filter((r) => !before.has(r)), [], name(file));
  }
});

test("writeCii() writes the namespaces and prefixes of the CEN examples, dates in format 102", () => {
  const { xml } = writeCii(minimalInvoice());
  assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:qdt="[^"]+" xmlns:ram="[^"]+" xmlns:udt="[^"]+">/);
  assert.match(xml, /<ram:IssueDateTime><udt:DateTimeString format="102">20261206<\/udt:DateTimeString><\/ram:IssueDateTime>/);
});

test("writeCii() writes a minimal invoice object that the schema and the EN 16931 rules accept, amounts as given", () => {
  const inv = minimalInvoice();
  const { xml, losses } = writeCii(inv);
  assert.deepEqual(losses, []);
  const root = parseXml(new TextEncoder().encode(xml)).root;
  assert.deepEqual(validateXsd(schemas.forFormat("cii"), root), []);
  assert.deepEqual(checkEn16931(root, "cii"), []);
  const back = readText(xml);
  assert.deepEqual(back.lines.map((l) => [l.name, l.quantity, l.unit, l.net_price, l.net_amount, l.vat_rate]), [
    ["Widget <large>", "2", "C62", "100.00", "200.00", "23"], ["Service", "1.5", "C62", "50.00", "75.00", "23"],
  ]);
  assert.deepEqual(back.totals, inv.totals);
  assert.deepEqual(back.vat_breakdown, inv.vat_breakdown);
  assert.deepEqual([back.seller.name, back.buyer.address], [inv.seller.name, inv.buyer.address]);
});

test("writeCii() lists every value CII has no place for, by its invoice-object path, instead of dropping it", () => {
  const inv = minimalInvoice();
  inv.seller.address!.lines = ["ul. Prosta 1", "lok. 2", "piętro 3", "wejście od podwórza"];
  inv.seller.registers = [{ value: "0000012345", scheme: "KRS" }, { value: "123456785", scheme: "REGON" }];
  inv.references.preceding_invoices = [
    { number: "FV/1", issue_date: "2026-11-01", ksef_number: null, in_ksef: null },
    { number: "FV/2", issue_date: null, ksef_number: null, in_ksef: null },
  ];
  inv.lines[0]!.gtu = "GTU_06";
  const { xml, losses } = writeCii(inv);
  assert.deepEqual(losses.map((l) => [l.field, l.value]).sort(), [
    ["invoice.lines[0].gtu", "GTU_06"], ["invoice.references.preceding_invoices[1].number", "FV/2"],
    ["invoice.seller.address.lines[3]", "wejście od podwórza"], ["invoice.seller.registers[1]", "123456785"],
  ]);
  const back = readText(xml);
  assert.deepEqual(back.seller.address!.lines, ["ul. Prosta 1", "lok. 2", "piętro 3"]);
  assert.deepEqual(back.references.preceding_invoices.map((p) => p.number), ["FV/1"]);
});

test("writeCii() with trace names the invoice-object field of a finding on the written XML", () => {
  const inv = readFile(fixturePath("samples", "cii", "en16931_CII_example1.xml"));
  inv.lines[1]!.vat_category = { code: "Q", text: null };
  const { xml, fields } = writeCii(inv, { trace: true });
  const rule = checkEn16931(parseXml(new TextEncoder().encode(xml)).root, "cii").find((v) => v.path.includes("IncludedSupplyChainTradeLineItem[2]"));
  assert.ok(rule, "the bad category is found");
  assert.equal(fieldAt(fields, rule.path), "invoice.lines[1].vat_category");
  assert.ok(fields.some((f) => f.path === rule.path), `${rule.path} is written as the EN 16931 checks name it`);
  assert.equal(fieldAt(fields, "/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString"), "invoice.issue_date");
});

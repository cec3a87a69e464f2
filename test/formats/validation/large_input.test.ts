/**
 * No input within the limits makes validation, reading or rendering fail with anything but a verdict or the
 * reader's refusal (XmlError, InvoiceError: a 4xx at the API), in time that grows with the input's length, not its
 * square (README "Validation"). Large and hostile inputs from real samples (test/support/large_inputs.ts), through
 * every use the API makes of an invoice: its verdict, an upload's read and verdict, its model and JSON, a
 * document's fields and its PDF.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { fieldsFromXml } from "../../../lib/contracts/record_json.ts";
import { InvoiceError } from "../../../lib/formats/invoice/errors.ts";
import type { Invoice } from "../../../lib/formats/invoice/model.ts";
import { readInvoiceXml } from "../../../lib/formats/invoice/read_xml.ts";
import { renderInvoicePdf } from "../../../lib/formats/pdf/invoice_pdf.ts";
import { PdfFonts } from "../../../lib/formats/pdf/pdf_fonts.ts";
import type { ValidationReport } from "../../../lib/formats/validation/invoice_validation.ts";
import { readAndValidate, verdictOf } from "../../../lib/formats/validation/read_and_validate.ts";
import { schemaSetOf } from "../../../lib/formats/validation/schema_set.ts";
import { XmlError } from "../../../lib/formats/xml/errors.ts";
import { readPdfFontFiles } from "../../../storage/fonts/font_files.ts";
import { readSchemaFiles } from "../../../storage/schemas/schema_files.ts";
import {
  LARGEST_UPLOAD, repeated, withAttachment, withAttributes, withKsefAttachment, withLongText, withNesting, withReplaced,
} from "../../support/large_inputs.ts";

const schemas = schemaSetOf(readSchemaFiles());
const fonts = new PdfFonts(readPdfFontFiles());
const MB = 1_000_000;
/**
 * Long enough that a regular expression that backtracks quadratically (what these inputs were made against) takes
 * tens of seconds on them, while a linear pass takes milliseconds.
 */
const QUADRATIC = 100_000;
/** Far above what a linear pass over the inputs below takes, even on a loaded machine, far below a quadratic one. */
const BUDGET_MS = 10_000;

interface Uses {
  verdict: ValidationReport | Error;
  invoice: Invoice | Error;
  json: string | null;
}

/** Every use of `xml`; each gives its result or the reader's refusal, never another error. */
function _everyUse(what: string, xml: Uint8Array, pdf: boolean, budgetMs = BUDGET_MS): Uses {
  const refused = (e: unknown): Error => {
    assert.ok(e instanceof XmlError || e instanceof InvoiceError, `${what}: ${String((e as Error).stack ?? e)}`);
    return e;
  };
  const started = performance.now();
  let verdict: ValidationReport | Error, invoice: Invoice | Error;
  try {
    verdict = verdictOf(xml, schemas);
  } catch (e) {
    verdict = refused(e);
  }
  try {
    const checked = readAndValidate(xml, schemas);
    assert.deepEqual(checked.report, verdict, `${what}: an upload gets the same verdict`);
  } catch (e) {
    refused(e);
  }
  try {
    invoice = readInvoiceXml(xml);
  } catch (e) {
    invoice = refused(e);
  }
  try {
    fieldsFromXml(xml);
  } catch (e) {
    refused(e);
  }
  const json = invoice instanceof Error ? null : JSON.stringify(invoice);
  if (pdf && !(invoice instanceof Error)) {
    const bytes = renderInvoicePdf(invoice, { fonts, xmlSha256: "ab".repeat(32) }).bytes;
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 5)), "%PDF-", what);
  }
  const ms = performance.now() - started;
  assert.ok(ms < budgetMs, `${what}: ${Math.round(ms)} ms`);
  return { verdict, invoice, json };
}

function _report(u: Uses, what: string): ValidationReport {
  assert.ok(!(u.verdict instanceof Error), `${what}: ${String(u.verdict)}`);
  return u.verdict;
}

test("invoices with an embedded attachment filling the upload limit are valid, read and rendered; the attachment is named, not copied", { timeout: 120_000 }, () => {
  const cases = [
    { format: "ubl", bytes: 3.3 * MB, wrapped: false, filename: "test.pdf" }, // the size of CEN's Italian example
    { format: "ubl", bytes: LARGEST_UPLOAD, wrapped: true, filename: "test.pdf" },
    { format: "cii", bytes: LARGEST_UPLOAD, wrapped: false, filename: "EHF.pdf" },
    { format: "cii", bytes: LARGEST_UPLOAD, wrapped: true, filename: "EHF.pdf" },
  ] as const;
  for (const c of cases) {
    const what = `${c.format} ${c.bytes} bytes${c.wrapped ? " in lines" : ""}`;
    const u = _everyUse(what, withAttachment(c.format, c.bytes, c.wrapped), true);
    assert.deepEqual(_report(u, what).errors, [], what);
    assert.ok(!(u.invoice instanceof Error));
    assert.ok(u.invoice.attachments.some((a) => a.filename === c.filename && a.mime_code === "application/pdf"), what);
    assert.ok(u.json!.length < 100_000, `${what}: the invoice JSON holds no content of the attachment`);
  }
});

test("an FA(3) with a Zalacznik of 1, 3 and 9 MB is judged and read; KSeF's size limit is its verdict", { timeout: 120_000 }, () => {
  for (const bytes of [1 * MB, 3 * MB, LARGEST_UPLOAD]) {
    const u = _everyUse(`Zalacznik of ${bytes} bytes`, withKsefAttachment(bytes), bytes === 1 * MB);
    const report = _report(u, `Zalacznik of ${bytes}`);
    assert.equal(report.errors.some((e) => e.rule === "KSEF-FILE"), bytes > 3 * MB, JSON.stringify(report.errors.slice(0, 3)));
    assert.ok(!(u.invoice instanceof Error));
    assert.ok(u.invoice.attachments[0]!.tables[0]!.rows.length > bytes / 250, "every row is read");
  }
});

test("a text node of 5 MB (words, one word, digits, line breaks, astral characters) is judged and read in each format", { timeout: 120_000 }, () => {
  const texts = [["words", "lorem ipsum "], ["one word", "x"], ["digits", "1"], ["line breaks", "a\n"], ["astral characters", "😀"]] as const;
  const formats = ["ubl", "cii", "ksef-fa3"] as const;
  texts.forEach(([kind, unit], i) => {
    const format = formats[i % formats.length]!;
    const u = _everyUse(`${format}: 5 MB of ${kind}`, withLongText(format, repeated(unit, 5 * MB)), false);
    _report(u, `${format}: ${kind}`);
    assert.ok(!(u.invoice instanceof Error));
  });
  // A rendering of a long text: a megabyte of it is hundreds of pages.
  _everyUse("ubl: 1 MB of words, rendered", withLongText("ubl", repeated("lorem ipsum ", MB)), true);
});

test("values made against backtracking patterns are judged in linear time, not overflowing the stack nor taking quadratic time", { timeout: 120_000 }, () => {
  const cases = [
    // xs:date of a year of nine million digits (valid: XML Schema sets no bound): its pattern and its fields.
    { what: "a year of millions of digits", xml: withReplaced("ubl", "<cbc:IssueDate>2013-06-30", `<cbc:IssueDate>1${"0".repeat(LARGEST_UPLOAD - 100_000)}-06-30`), valid: true },
    // KSeF's TAdresEmail pattern (.)+@(.)+ on an address of millions of characters.
    { what: "an e-mail address of millions of characters", xml: withReplaced("ksef-fa3", "</Podmiot1>", `<DaneKontaktowe><Email>${"a".repeat(LARGEST_UPLOAD - 100_000)}@b.pl</Email></DaneKontaktowe></Podmiot1>`), valid: false },
    // A code with a long run of spaces inside: the EN 16931 code lists trim it.
    { what: "a code with a long run of spaces", xml: withReplaced("ubl", "<cbc:DocumentCurrencyCode>NOK", `<cbc:DocumentCurrencyCode>N${" ".repeat(QUADRATIC)}OK`), valid: false },
    // An amount of a long run of spaces, read by the EN 16931 arithmetic.
    { what: "an amount of a long run of spaces", xml: withReplaced("ubl", '<cbc:PayableAmount currencyID="NOK">801.78', `<cbc:PayableAmount currencyID="NOK">${" ".repeat(QUADRATIC)}1x`), valid: false },
    // A note whose lines are indented by a long run of spaces: the reader drops the indentation.
    { what: "a note of a long run of spaces before a line break", xml: withLongText("ubl", `x${" ".repeat(QUADRATIC)}x\ny`), valid: true },
  ];
  for (const c of cases) assert.equal(_report(_everyUse(c.what, c.xml, false), c.what).valid, c.valid, c.what);
});

test("250,000 attachment blocks or 100,000 VAT subtotals are read and judged", { timeout: 120_000 }, () => {
  const blocks = withReplaced("ksef-fa3", "</Zalacznik>", `${"<BlokDanych></BlokDanych>".repeat(250_000)}</Zalacznik>`);
  const u = _everyUse("250,000 attachment blocks", blocks, false);
  assert.equal(_report(u, "blocks").valid, false);
  assert.ok(!(u.invoice instanceof Error) && u.invoice.attachments.length === 250_001);
  // Each empty subtotal breaks several rules, each judged (about 2 s for 100,000 on a quiet machine, 10 s on a
  // loaded one): a budget of 40 s still tells that from a quadratic pass, which would take hours.
  const subtotals = withReplaced("ubl", "<cac:TaxSubtotal>", `${"<cac:TaxSubtotal></cac:TaxSubtotal>".repeat(100_000)}<cac:TaxSubtotal>`);
  assert.equal(_report(_everyUse("100,000 VAT subtotals", subtotals, false, 40_000), "subtotals").valid, false);
});

test("10,000 levels of nesting and 100,000 attributes on one element are refused as XML; spread over elements they get a verdict", { timeout: 120_000 }, () => {
  for (const [what, xml] of [["nesting", withNesting("cii", 10_000)], ["attributes", withAttributes("ksef-fa3", 100_000)]] as const) {
    const u = _everyUse(what, xml, true);
    assert.ok(u.verdict instanceof XmlError && u.invoice instanceof XmlError, what);
  }
  const spread = _everyUse("100,000 attributes on 1,000 elements", withAttributes("ubl", 100_000, 100), true);
  assert.equal(_report(spread, "spread").valid, false);
});

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { deflateSync } from "node:zlib";
import { PdfFonts } from "../../../../lib/formats/pdf/pdf_fonts.ts";
import { renderInvoicePdf } from "../../../../lib/formats/pdf/invoice_pdf.ts";
import { PdfWriter } from "../../../../lib/formats/pdf/writer.ts";
import { extractEmbeddedInvoice, isPdf } from "../../../../lib/formats/pdf/read/embedded_invoice.ts";
import { PdfReadError } from "../../../../lib/formats/pdf/read/read_error.ts";
import { readPdfFontFiles } from "../../../../storage/fonts/font_files.ts";
import { pdfInvoice } from "../../../fixtures/pdf_invoice.ts";
import { facturxObjects, PdfBuilder } from "../../../support/pdf_builder.ts";

const CORPUS = join(import.meta.dirname, "..", "..", "..", "fixtures", "facturx");
const PDFS = readdirSync(CORPUS).filter((f) => f.endsWith(".pdf")).sort();
const NO_INVOICE = "unstructured_RE-E-974-Hetzner_2016-01-19_R0005532486.pdf";
const XML = new TextEncoder().encode('<?xml version="1.0" encoding="UTF-8"?>\n<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>\n');

// pdfdetach and qpdf are the oracles; without them the tests that need them skip, except under CI.
function missing(tool: string): string | false {
  if (spawnSync(tool, ["--version"]).error === undefined) return false;
  if (process.env.CI === "true") throw new Error(`${tool} is required under CI (poppler-utils, qpdf)`);
  return `${tool} is not installed`;
}
const noPdfdetach = missing("pdfdetach");
const noQpdf = missing("qpdf");

const dir = mkdtempSync(join(tmpdir(), "pdf-read-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** What `pdfdetach -save N` writes for the embedded file named `name` of the file at `path`. */
function pdfdetach(path: string, name: string): Uint8Array {
  const list = spawnSync("pdfdetach", ["-list", path], { encoding: "latin1" });
  const line = list.stdout.split("\n").find((l) => l.endsWith(`: ${name}`));
  assert.ok(line, `pdfdetach lists ${name} in ${path}: ${list.stdout}`);
  const out = join(dir, `${Math.random().toString(36).slice(2)}.xml`);
  const r = spawnSync("pdfdetach", ["-save", line.split(":")[0]!, "-o", out, path]);
  assert.equal(r.status, 0, String(r.stderr));
  return readFileSync(out);
}

function qpdf(path: string, args: string[]): string {
  const out = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  const r = spawnSync("qpdf", [...args, path, out]);
  assert.ok(r.status === 0 || r.status === 3, String(r.stderr)); // 3: written with warnings
  return out;
}

describe("extractEmbeddedInvoice() on PDFs written by other tools", () => {
  for (const file of PDFS.filter((f) => f !== NO_INVOICE)) {
    test(`extracts the same bytes as pdfdetach -save from ${file}`, { skip: noPdfdetach }, () => {
      const path = join(CORPUS, file);
      const got = extractEmbeddedInvoice(readFileSync(path));
      assert.ok(got, "an invoice is found");
      assert.match(got.filename.toLowerCase(), /^(factur-x|zugferd-invoice)\.xml$/);
      assert.deepEqual(Buffer.from(got.xml), Buffer.from(pdfdetach(path, got.filename)));
    });
  }

  test("returns null for a plain PDF invoice that embeds no file", () => {
    assert.equal(extractEmbeddedInvoice(readFileSync(join(CORPUS, NO_INVOICE))), null);
  });

  test("picks factur-x.xml among a PNG, a PDF and the XML, with its relationship", () => {
    const got = extractEmbeddedInvoice(readFileSync(join(CORPUS, "XML-Rechnung_FX_EN16931_Elektron.pdf")));
    assert.equal(got?.filename, "factur-x.xml");
    assert.equal(got?.relationship, "Alternative");
    assert.match(new TextDecoder().decode(got?.xml), /CrossIndustryInvoice/);
  });

  test("names ZUGFeRD 1.0's file ZUGFeRD-invoice.xml as the file does", () => {
    const got = extractEmbeddedInvoice(readFileSync(join(CORPUS, "ZUGFeRDv1_correct_Intarsys_ZUGFeRD_1p0_COMFORT_Einfach.pdf")));
    assert.equal(got?.filename, "ZUGFeRD-invoice.xml");
  });

  for (const [what, args] of [
    ["object streams and a cross-reference stream", ["--object-streams=generate"]],
    ["qdf's uncompressed layout", ["--qdf"]],
    ["linearization (a first-page xref at the start)", ["--linearize"]],
    ["linearization and object streams", ["--linearize", "--object-streams=generate"]],
  ] as const) {
    test(`reads every corpus PDF rewritten by qpdf with ${what}`, { skip: noQpdf }, () => {
      for (const file of PDFS) {
        const rewritten = readFileSync(qpdf(join(CORPUS, file), [...args]));
        if ((args as readonly string[]).includes("--object-streams=generate")) assert.match(Buffer.from(rewritten).toString("latin1"), /\/ObjStm/);
        assert.deepEqual(extractEmbeddedInvoice(rewritten), extractEmbeddedInvoice(readFileSync(join(CORPUS, file))), file);
      }
    });
  }

  test("reads every corpus PDF after 500 bytes of junk before %PDF- (its offsets then all wrong)", () => {
    for (const file of PDFS) {
      const original = readFileSync(join(CORPUS, file));
      const shifted = Buffer.concat([Buffer.alloc(500, "#"), original]);
      assert.deepEqual(extractEmbeddedInvoice(shifted), extractEmbeddedInvoice(original), file);
    }
  });

  test("reads every corpus PDF with an incremental update appended", () => {
    for (const file of PDFS) {
      const original = readFileSync(join(CORPUS, file));
      const root = /\/Root (\d+) 0 R/.exec(original.toString("latin1").slice(original.lastIndexOf("trailer")))?.[1];
      const updated = new PdfBuilder(original).finish({ root: Number(root) });
      assert.deepEqual(extractEmbeddedInvoice(updated), extractEmbeddedInvoice(original), file);
    }
  });
});

describe("extractEmbeddedInvoice() on files written here", () => {
  test("returns null for our own invoice rendering, which embeds nothing", () => {
    const fonts = new PdfFonts(readPdfFontFiles());
    const pdf = renderInvoicePdf(pdfInvoice(3), { fonts }).bytes;
    assert.equal(extractEmbeddedInvoice(pdf), null);
  });

  test("reads the embedded file back from a PDF our writer made with /AF and /EmbeddedFiles", () => {
    const w = new PdfWriter();
    const [cat, pages, page, names, spec, file, info] = [w.reserve(), w.reserve(), w.reserve(), w.reserve(), w.reserve(), w.reserve(), w.reserve()];
    w.object(cat!, `<< /Type /Catalog /Pages ${pages} 0 R /AF [${spec} 0 R] /Names << /EmbeddedFiles ${names} 0 R >> >>`);
    w.object(pages!, `<< /Type /Pages /Kids [${page} 0 R] /Count 1 >>`);
    w.object(page!, `<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 595 842] >>`);
    w.object(names!, `<< /Names [(factur-x.xml) ${spec} 0 R] >>`);
    w.object(spec!, `<< /Type /Filespec /F (factur-x.xml) /UF (factur-x.xml) /AFRelationship /Alternative /EF << /F ${file} 0 R >> >>`);
    w.stream(file!, XML, "/Type /EmbeddedFile /Subtype /text#2Fxml");
    w.object(info!, "<< /Producer (test) >>");
    const got = extractEmbeddedInvoice(w.finish(cat!, info!));
    assert.deepEqual(got, { xml: XML, filename: "factur-x.xml", relationship: "Alternative" });
  });

  for (const [what, options] of [
    ["a classic xref table", { xref: "table" }],
    ["a cross-reference stream with the PNG Up predictor", { xref: "stream" }],
    ["the file specification and name tree inside an object stream", { xref: "stream", packed: [1, 4, 5] }],
  ] as const) {
    test(`reads a file with ${what}`, () => {
      const b = new PdfBuilder();
      for (const o of facturxObjects(XML)) b.add(o.num, o.body, o.stream);
      assert.deepEqual(extractEmbeddedInvoice(b.finish({ root: 1, ...options, packed: [...("packed" in options ? options.packed : [])] })), { xml: XML, filename: "factur-x.xml", relationship: "Alternative" });
    });
  }

  test("takes the newest version of the embedded file from an incremental update", () => {
    const b = new PdfBuilder();
    for (const o of facturxObjects(new TextEncoder().encode("<old/>"))) b.add(o.num, o.body, o.stream);
    const first = b.finish({ root: 1, xref: "stream" });
    const updated = new PdfBuilder(first).add(6, "<< /Type /EmbeddedFile /Filter /FlateDecode >>", deflateSync(XML)).finish({ root: 1 });
    assert.deepEqual(extractEmbeddedInvoice(updated)?.xml, XML);
    assert.deepEqual(extractEmbeddedInvoice(first)?.xml, new TextEncoder().encode("<old/>"));
  });

  test("prefers the /AF entry with an invoice relationship over a name-tree entry", () => {
    // /UF is "xrechnung.xml" in UTF-16BE; /F (x) is not an invoice name, and /UF comes first.
    const pdf = new PdfBuilder()
      .add(1, "<< /Type /Catalog /AF [7 0 R] /Names << /EmbeddedFiles << /Names [(factur-x.xml) 5 0 R] >> >> >>")
      .add(5, "<< /Type /Filespec /F (factur-x.xml) /EF << /F 6 0 R >> >>")
      .add(6, "<< /Type /EmbeddedFile >>", new TextEncoder().encode("<not-this/>"))
      .add(7, "<< /Type /Filespec /UF <FEFF00780072006500630068006E0075006E0067002E0078006D006C> /F (x) /AFRelationship /Data /EF << /F 8 0 R >> >>")
      .add(8, "<< /Type /EmbeddedFile >>", XML)
      .finish({ root: 1 });
    assert.deepEqual(extractEmbeddedInvoice(pdf), { xml: XML, filename: "xrechnung.xml", relationship: "Data" });
  });

  test("takes a name-tree entry when the /AF entry is not an invoice name", () => {
    const pdf = new PdfBuilder()
      .add(1, "<< /Type /Catalog /AF [7 0 R] /Names << /EmbeddedFiles << /Names [(factur-x.xml) 5 0 R] >> >> >>")
      .add(5, "<< /Type /Filespec /F (factur-x.xml) /EF << /F 6 0 R >> >>")
      .add(6, "<< /Type /EmbeddedFile >>", XML)
      .add(7, "<< /Type /Filespec /F (logo.png) /AFRelationship /Data /EF << /F 8 0 R >> >>")
      .add(8, "<< /Type /EmbeddedFile >>", new TextEncoder().encode("PNG"))
      .finish({ root: 1 });
    assert.deepEqual(extractEmbeddedInvoice(pdf), { xml: XML, filename: "factur-x.xml", relationship: null });
  });

  test("walks a name tree with /Kids to a ZUGFeRD 2.0 name", () => {
    const pdf = new PdfBuilder()
      .add(1, "<< /Type /Catalog /Names << /EmbeddedFiles 2 0 R >> >>")
      .add(2, "<< /Kids [3 0 R 4 0 R] >>")
      .add(3, "<< /Limits [(a.png) (b.png)] /Names [(a.png) 10 0 R (b.png) 10 0 R] >>")
      .add(4, "<< /Kids [5 0 R] >>")
      .add(5, "<< /Names [(zugferd-invoice.xml) << /Type /Filespec /F (zugferd-invoice.xml) /EF << /F 6 0 R >> >>] >>")
      .add(6, "<< /Type /EmbeddedFile >>", XML)
      .add(10, "<< /Type /Filespec /F (a.png) /EF << /F 6 0 R >> >>")
      .finish({ root: 1 });
    assert.deepEqual(extractEmbeddedInvoice(pdf), { xml: XML, filename: "zugferd-invoice.xml", relationship: null });
  });

  test("returns null when the embedded files have other names", () => {
    const b = new PdfBuilder();
    for (const o of facturxObjects(XML, "invoice.xml")) b.add(o.num, o.body, o.stream);
    assert.equal(extractEmbeddedInvoice(b.finish({ root: 1 })), null);
  });

  test("finds the invoice by scanning when the startxref offset is wrong", () => {
    const b = new PdfBuilder();
    for (const o of facturxObjects(XML)) b.add(o.num, o.body, o.stream);
    const text = Buffer.from(b.finish({ root: 1 })).toString("latin1").replace(/startxref\n\d+/, "startxref\n7");
    assert.deepEqual(extractEmbeddedInvoice(Buffer.from(text, "latin1"))?.xml, XML);
  });

  test("finds the invoice by scanning when the file lost its xref and trailer", () => {
    const b = new PdfBuilder();
    for (const o of facturxObjects(XML)) b.add(o.num, o.body, o.stream);
    const pdf = Buffer.from(b.finish({ root: 1, xref: "stream", packed: [1, 4, 5] }));
    // Cut before the xref stream object: the catalog is then found inside the object stream.
    const xrefObject = pdf.lastIndexOf("\n", pdf.lastIndexOf(" 0 obj", pdf.lastIndexOf("/Type /XRef"))) + 1;
    const withoutXref = pdf.subarray(0, xrefObject);
    assert.doesNotMatch(withoutXref.toString("latin1"), /XRef|trailer/);
    assert.deepEqual(extractEmbeddedInvoice(withoutXref)?.xml, XML);
  });

  test("refuses an encrypted PDF", () => {
    const b = new PdfBuilder();
    for (const o of facturxObjects(XML)) b.add(o.num, o.body, o.stream);
    b.add(9, "<< /Filter /Standard /V 4 /R 4 >>");
    assert.throws(() => extractEmbeddedInvoice(b.finish({ root: 1, trailer: "/Encrypt 9 0 R" })), (e) => e instanceof PdfReadError && e.reason === "encrypted");
  });
});

describe("isPdf()", () => {
  for (const { what, input, expected } of [
    { what: "a file starting %PDF-1.7", input: "%PDF-1.7\n", expected: true },
    { what: "a header after 1000 bytes of junk", input: `${"x".repeat(1000)}%PDF-1.4`, expected: true },
    { what: "a header after 1025 bytes of junk", input: `${"x".repeat(1025)}%PDF-1.4`, expected: false },
    { what: "XML", input: "<?xml version='1.0'?><Invoice/>", expected: false },
    { what: "an empty file", input: "", expected: false },
    { what: "%PDF without the dash", input: "%PDF", expected: false },
  ]) {
    test(`isPdf() is ${expected} for ${what}`, () => assert.equal(isPdf(new TextEncoder().encode(input)), expected));
  }
});


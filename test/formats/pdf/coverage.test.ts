/**
 * The whole invoice on the PDF (README "The PDF"): the share of the sample invoices' XML leaf values that can be read in the
 * text of their PDF (pdftotext), per family: KSeF ≥ 97 %, UBL and CII ≥ 95 %. Matching rules
 * are in test/support/pdf_coverage.ts, the leaves and skips in test/support/invoice_coverage.ts.
 * Prints per-file figures; COVERAGE_MISSING=1 lists the values not found.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { readInvoice } from "../../../lib/formats/invoice/read.ts";
import { renderInvoicePdf } from "../../../lib/formats/pdf/invoice_pdf.ts";
import { PdfFonts } from "../../../lib/formats/pdf/pdf_fonts.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import { readPdfFontFiles } from "../../../storage/fonts/font_files.ts";
import type { Leaf } from "../../support/invoice_coverage.ts";
import { pdfCoverage, pdfText } from "../../support/pdf_coverage.ts";

const SAMPLES = join(import.meta.dirname, "..", "..", "fixtures", "samples");
const fonts = new PdfFonts(readPdfFontFiles());

const FAMILIES: readonly { name: string; dirs: readonly string[]; required: number }[] = [
  { name: "KSeF", dirs: ["ksef-fa2", "ksef-fa3"], required: 0.97 },
  { name: "UBL", dirs: ["ubl"], required: 0.95 },
  { name: "CII", dirs: ["cii"], required: 0.95 },
];

/** The text pdftotext reads from PDF bytes, in content-stream order. */
function extract(pdf: Uint8Array): string {
  return execFileSync("pdftotext", ["-raw", "-enc", "UTF-8", "-", "-"], { input: pdf, maxBuffer: 64 << 20 }).toString("utf8");
}

describe("PDF coverage of the sample XML", () => {
  for (const family of FAMILIES) {
    const pct = `${Math.round(family.required * 100)} %`;
    test(`the PDF text shows at least ${pct} of the ${family.name} samples' leaf values`, (t) => {
      let total = 0;
      let found = 0;
      const missing: Leaf[] = [];
      for (const dir of family.dirs) {
        for (const file of readdirSync(join(SAMPLES, dir)).filter((f) => f.endsWith(".xml")).sort()) {
          const bytes = readFileSync(join(SAMPLES, dir, file));
          const doc = parseXml(bytes);
          const xmlSha256 = createHash("sha256").update(bytes).digest();
          const pdf = renderInvoicePdf(readInvoice(doc), { fonts, xmlSha256 }).bytes;
          const c = pdfCoverage(doc.root, pdfText(extract(pdf)));
          total += c.total;
          found += c.found;
          for (const m of c.missing) missing.push({ path: `${dir}/${file}:${m.path}`, value: m.value });
          t.diagnostic(`${dir}/${file}: ${c.found}/${c.total} = ${((100 * c.found) / c.total).toFixed(1)} %`);
        }
      }
      t.diagnostic(`${family.name}: ${found}/${total} = ${((100 * found) / total).toFixed(2)} %`);
      if (process.env.COVERAGE_MISSING) for (const m of missing) t.diagnostic(`missing ${m.path} = ${JSON.stringify(m.value)}`);
      assert.ok(total > 0);
      assert.ok(found / total >= family.required, `${family.name} coverage ${((100 * found) / total).toFixed(2)} % < ${pct}`);
    });
  }
});

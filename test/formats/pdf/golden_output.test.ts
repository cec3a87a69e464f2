/**
 * Golden output of the PDF renderer: a few samples' renderings hashed. Stored renderings are kept under a key with
 * RENDERER_VERSION, so a change of the bytes without a version bump would keep serving old PDFs; this test makes
 * the two move together.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Buffer } from "node:buffer";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { inflateSync } from "node:zlib";
import { readInvoice } from "../../../lib/formats/invoice/read.ts";
import { renderInvoicePdf, RENDERER_VERSION, type RenderOptions } from "../../../lib/formats/pdf/invoice_pdf.ts";
import { PdfFonts } from "../../../lib/formats/pdf/pdf_fonts.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import { readPdfFontFiles } from "../../../storage/fonts/font_files.ts";

const SAMPLES = join(import.meta.dirname, "..", "..", "fixtures", "samples");

/** The renderings the hashes below were taken from: every format, both languages, a KSeF number with its QR code. */
const CASES: { file: string; lang?: "pl" | "en"; ksefNumber?: string }[] = [
  { file: "ubl/en16931_ubl-tc434-example1.xml" },
  { file: "cii/en16931_CII_example1.xml", lang: "pl" },
  { file: "ksef-fa2/FA_2_Przyklad_10_ZAL.xml" },
  { file: "ksef-fa3/FA_3_Przyklad_3_KOR_EUR.xml", ksefNumber: "5265877635-20250826-0100001AF629-AF" },
  { file: "ksef-fa3/FA_3_Przyklad_23_USD.xml", lang: "en" },
];

/**
 * The version and the SHA-256 of each case's PDF (its canonical form) at that version. When the renderer's output changes on purpose,
 * bump RENDERER_VERSION in lib/formats/pdf/invoice_pdf.ts and put the new version and hashes here (the failure
 * message prints them).
 */
const GOLDEN = {
  version: 5,
  sha256: {
    "ubl/en16931_ubl-tc434-example1.xml": "5367abb92349b2232c897058ec426a8437763af89abe5031ad932132055b60c3",
    "cii/en16931_CII_example1.xml pl": "eeb39dc02d58d25867b77692db79f0ebf6e580589c970aec78bd5683039b8d2a",
    "ksef-fa2/FA_2_Przyklad_10_ZAL.xml": "308e3d4b06c9583906e007f3b333abdd8a8a4335fc6731e0830d71e4e078b32f",
    "ksef-fa3/FA_3_Przyklad_3_KOR_EUR.xml ksef": "f4235f6c954fc7e82aba4a0646f99f036d64ecb2d9bb9971a41345b73913607d",
    "ksef-fa3/FA_3_Przyklad_23_USD.xml en": "52a3b1c202bd8f4fef3ffc9eccce237fc033293fb47abcafb2af7202091a5d03",
  } as Record<string, string>,
};

/**
 * The file with every stream inflated and without its lengths, offsets and /ID: what the renderer drew, not what
 * the runtime's zlib made of it (Node 20, Node 24 and Deno compress the same data to different bytes).
 */
function canonical(pdf: Uint8Array): Uint8Array {
  const text = Buffer.from(pdf).toString("latin1");
  const parts: Uint8Array[] = [];
  const head = / \/Length (\d+) \/Filter \/FlateDecode([^]*?)>>\nstream\n/g;
  let at = 0;
  for (let m = head.exec(text); m; m = head.exec(text)) {
    const start = m.index + m[0].length, end = start + Number(m[1]);
    parts.push(Buffer.from(`${text.slice(at, m.index)} /FlateDecode${m[2]}>>\nstream\n`, "latin1"), inflateSync(pdf.subarray(start, end)));
    at = end;
    head.lastIndex = end;
  }
  // Up to the cross-reference table (its offsets follow the compressed sizes), not to "startxref".
  parts.push(Buffer.from(text.slice(at, text.lastIndexOf("\nxref\n")), "latin1"));
  return Buffer.concat(parts);
}

const key = (c: (typeof CASES)[number]): string => `${c.file}${c.lang ? ` ${c.lang}` : ""}${c.ksefNumber ? " ksef" : ""}`;

test("the renderer's output changes only together with RENDERER_VERSION", () => {
  const fonts = new PdfFonts(readPdfFontFiles());
  const actual: Record<string, string> = {};
  for (const c of CASES) {
    const xml = readFileSync(join(SAMPLES, c.file));
    const options: RenderOptions = { fonts, xmlSha256: createHash("sha256").update(xml).digest("hex"), ...(c.lang ? { lang: c.lang } : {}), ...(c.ksefNumber ? { ksefNumber: c.ksefNumber } : {}) };
    const bytes = renderInvoicePdf(readInvoice(parseXml(xml)), options).bytes;
    // Deterministic: the same input gives the same bytes (the key of a kept rendering names its content).
    assert.deepEqual(renderInvoicePdf(readInvoice(parseXml(xml)), options).bytes, bytes, `${c.file}: two renderings differ`);
    actual[key(c)] = createHash("sha256").update(canonical(bytes)).digest("hex");
  }
  const fix = `set GOLDEN in test/formats/pdf/golden_output.test.ts to version ${RENDERER_VERSION} with sha256 ${JSON.stringify(actual, null, 2)}`;
  if (RENDERER_VERSION !== GOLDEN.version) {
    assert.fail(`RENDERER_VERSION is ${RENDERER_VERSION} but the golden hashes are of version ${GOLDEN.version}: ${fix}`);
  }
  for (const [name, sha] of Object.entries(actual)) {
    if (GOLDEN.sha256[name] !== sha) {
      assert.fail(`The PDF of ${name} changed while RENDERER_VERSION stayed ${RENDERER_VERSION}: stored renderings would be served ` +
        `as they were. Bump RENDERER_VERSION in lib/formats/pdf/invoice_pdf.ts to ${RENDERER_VERSION + 1}, then ${fix.replace(`version ${RENDERER_VERSION}`, `version ${RENDERER_VERSION + 1}`)}`);
    }
  }
  assert.deepEqual(Object.keys(GOLDEN.sha256).sort(), Object.keys(actual).sort(), "every case has a golden hash");
});

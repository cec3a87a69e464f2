import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { extractEmbeddedInvoice } from "../../../../lib/formats/pdf/read/embedded_invoice.ts";
import { DEFAULT_PDF_READ_LIMITS, type PdfReadLimits } from "../../../../lib/formats/pdf/read/limits.ts";
import { PdfReadError, type PdfReadReason } from "../../../../lib/formats/pdf/read/read_error.ts";
import { facturxObjects, PdfBuilder } from "../../../support/pdf_builder.ts";
import { createRandom } from "../../../support/random.ts";

// Each hostile file must end in a PdfReadError within TIME_MS and without the memory in use or the
// process's peak growing by more than PEAK_MB. Both are generous for this loaded machine (each case takes a few ms
// to a few hundred here); the limits that keep them small are those of limits.ts.
const TIME_MS = 1000;
const PEAK_MB = 160;

const CORPUS = join(import.meta.dirname, "..", "..", "..", "fixtures", "facturx");
const XML = new TextEncoder().encode("<rsm:CrossIndustryInvoice/>");
const latin1 = (s: string): Uint8Array => Buffer.from(s, "latin1");

function facturx(options: Parameters<PdfBuilder["finish"]>[0] = { root: 1 }): Uint8Array {
  const b = new PdfBuilder();
  for (const o of facturxObjects(XML)) b.add(o.num, o.body, o.stream);
  return b.finish(options);
}

/** Heap and array buffers in use, in MB. */
function inUseMb(): number {
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 1024 / 1024;
}

/**
 * Reads `pdf` expecting a PdfReadError with `reason`, within the time and memory bounds. Memory is taken two
 * ways: what is in use after against before (process.memoryUsage; garbage not yet collected counts, hence
 * generous), and how far the process's peak resident size rose (which shows only a peak above earlier ones).
 */
function refuses(pdf: Uint8Array, reason: PdfReadReason, limits: Partial<PdfReadLimits> = {}): void {
  const peakBefore = process.resourceUsage().maxRSS;
  const inUseBefore = inUseMb();
  const t0 = performance.now();
  let error: unknown = null;
  try {
    extractEmbeddedInvoice(pdf, limits);
  } catch (e) {
    error = e;
  }
  const ms = performance.now() - t0;
  const grownMb = inUseMb() - inUseBefore;
  const peakGrowthMb = (process.resourceUsage().maxRSS - peakBefore) / 1024;
  assert.ok(error instanceof PdfReadError, `a PdfReadError, not ${String(error)}`);
  assert.equal(error.reason, reason, error.message);
  assert.ok(ms < TIME_MS, `took ${ms.toFixed(0)} ms`);
  assert.ok(grownMb < PEAK_MB, `memory in use grew by ${grownMb.toFixed(0)} MB`);
  assert.ok(peakGrowthMb < PEAK_MB, `peak memory grew by ${peakGrowthMb.toFixed(0)} MB`);
}

/** A zlib stream of `1 + 258 × matches` zero bytes in one fixed-Huffman block (RFC 1951 section 3.2.6): 13 bits per 258 bytes. */
function zeroBomb(matches: number): Uint8Array {
  const out = new Uint8Array(Math.ceil((3 + 8 + matches * 13 + 7) / 8) + 6);
  out[0] = 0x78; out[1] = 0x01; // RFC 1950 header, no dictionary
  let pos = 2, bit = 0, acc = 0;
  const bits = (value: number, n: number): void => { // LSB first
    for (let i = 0; i < n; i++) { acc |= ((value >> i) & 1) << bit; if (++bit === 8) { out[pos++] = acc; acc = 0; bit = 0; } }
  };
  const code = (value: number, n: number): void => { for (let i = n - 1; i >= 0; i--) bits((value >> i) & 1, 1); }; // Huffman codes MSB first
  bits(1, 1); bits(1, 2); // BFINAL, BTYPE fixed
  code(0x30, 8); // literal 0
  for (let i = 0; i < matches; i++) { code(0b11000101, 8); code(0, 5); } // length 258 (code 285), distance 1 (code 0)
  code(0, 7); // end of block
  if (bit > 0) out[pos++] = acc;
  const n = 1 + 258 * matches; // Adler-32 of n zero bytes: a = 1, b = n
  const adler = ((n % 65521) * 65536 + 1) >>> 0;
  out[pos++] = adler >>> 24; out[pos++] = (adler >>> 16) & 255; out[pos++] = (adler >>> 8) & 255; out[pos++] = adler & 255;
  return out.subarray(0, pos);
}

describe("extractEmbeddedInvoice() refuses hostile PDFs in bounded time and memory", () => {
  test("a /Prev that points to its own cross-reference section", () => {
    const first = Buffer.from(facturx({ root: 1, trailer: "/Prev 0000000000" }));
    const at = /startxref\n(\d+)/.exec(first.toString("latin1"))![1]!;
    refuses(latin1(first.toString("latin1").replace("/Prev 0000000000", `/Prev ${at.padStart(10, "0")}`)), "loop");
  });

  test("a hybrid file whose /XRefStm points to its own xref table", () => {
    const first = Buffer.from(facturx({ root: 1, trailer: "/XRefStm 0000000000" }));
    const at = /startxref\n(\d+)/.exec(first.toString("latin1"))![1]!;
    refuses(latin1(first.toString("latin1").replace("/XRefStm 0000000000", `/XRefStm ${at.padStart(10, "0")}`)), "loop");
  });

  test("two cross-reference sections whose /Prev point to each other", () => {
    const older = Buffer.from(facturx({ root: 1, xref: "stream", trailer: "/Prev 0000000000" }));
    const both = Buffer.from(new PdfBuilder(older).add(3, "<< /Type /Page >>").finish({ root: 1 }));
    const newest = /startxref\n(\d+)\n%%EOF\n$/.exec(both.toString("latin1"))![1]!;
    // The older section is a stream: its dictionary is plain text, so its /Prev can be patched in place.
    refuses(latin1(both.toString("latin1").replace("/Prev 0000000000", `/Prev ${newest.padStart(10, "0")}`)), "loop");
  });

  test("an object stream that the cross-reference stream says is inside itself", () => {
    // Objects 1–6, the catalog packed into object stream 7, the xref stream 8.
    refuses(facturx({ root: 1, xref: "stream", packed: [1], entries: { 7: [2, 7, 0] } }), "loop");
  });

  test("object streams that contain each other (an xref loop)", () => {
    refuses(facturx({ root: 1, xref: "stream", packed: [1], entries: { 7: [2, 3, 0], 3: [2, 7, 1] } }), "loop");
  });

  test("a stream whose /Length refers to itself", () => {
    const pdf = new PdfBuilder()
      .add(1, "<< /Type /Catalog /Names << /EmbeddedFiles << /Names [(factur-x.xml) << /F (factur-x.xml) /EF << /F 6 0 R >> >>] >> >> >>")
      .finish({ root: 1 });
    const text = Buffer.from(pdf).toString("latin1");
    // Object 6 appended by hand: a stream whose /Length is 6 0 R; the xref entry points to it by a scan.
    refuses(latin1(text.replace("trailer", "6 0 obj\n<< /Length 6 0 R >>\nstream\n<x/>\nendstream\nendobj\ntrailer")), "loop");
  });

  test("a chain of 20,000 streams, each one's /Length the next stream", () => {
    const b = new PdfBuilder()
      .add(1, "<< /Type /Catalog /Names << /EmbeddedFiles << /Names [(factur-x.xml) << /F (factur-x.xml) /EF << /F 2 0 R >> >>] >> >> >>");
    for (let i = 2; i < 20_002; i++) b.add(i, `<< /Length ${i + 1} 0 R >>\nstream\nx\nendstream`);
    refuses(b.finish({ root: 1 }), "too_deep");
  });

  test("a 24 MB literal string in the catalog, read within the memory bound", () => {
    const pdf = new PdfBuilder().add(1, `<< /Type /Catalog /Big (${"\\(".repeat(8 * 1024 * 1024)}) /Deep ${"[".repeat(100)} >>`).finish({ root: 1 });
    refuses(pdf, "too_deep");
  });

  test("a deflate bomb of 1 GB declared output as the embedded file", () => {
    const bomb = zeroBomb(4_161_790); // 1,073,741,821 bytes when inflated, 6.8 MB as stored
    const b = new PdfBuilder();
    for (const o of facturxObjects(XML).slice(0, 5)) b.add(o.num, o.body);
    b.add(6, "<< /Type /EmbeddedFile /Filter /FlateDecode /DL 1073741821 >>", bomb);
    refuses(b.finish({ root: 1 }), "stream_too_large");
  });

  test("a deflate bomb over the total limit before the per-stream one", () => {
    refuses(facturxBombed(zeroBomb(4_161_790)), "too_much_data", { maxTotalBytes: 4 * 1024 * 1024 });
  });

  test("a /Length of 2147483648", () => {
    const text = Buffer.from(facturx()).toString("latin1").replace(/\/Length \d+ >>\nstream/, "/Length 2147483648 >>\nstream");
    refuses(latin1(text), "stream_too_large");
  });

  test("arrays nested 10,000 deep", () => {
    const pdf = new PdfBuilder().add(1, `<< /Type /Catalog /Deep ${"[".repeat(10_000)}${"]".repeat(10_000)} >>`).finish({ root: 1 });
    refuses(pdf, "too_deep");
  });

  test("dictionaries nested 10,000 deep", () => {
    const pdf = new PdfBuilder().add(1, `<< /Type /Catalog /Deep ${"<< /A ".repeat(10_000)}${">> ".repeat(10_000)} >>`).finish({ root: 1 });
    refuses(pdf, "too_deep");
  });

  test("1,000,000 tiny objects in the xref table", () => {
    refuses(millionObjects(true), "too_many_objects");
  });

  test("1,000,000 tiny objects found by a scan when there is no xref", () => {
    refuses(millionObjects(false), "too_many_objects");
  });

  test("a catalog of 4,000,000 tiny strings", () => {
    refuses(new PdfBuilder().add(1, `<< /Type /Catalog /A [${"() ".repeat(4_000_000)}] >>`).finish({ root: 1 }), "too_many_values");
  });

  test("a name of 2 MB", () => {
    refuses(new PdfBuilder().add(1, `<< /Type /Catalog /A /${"x".repeat(2_000_000)} >>`).finish({ root: 1 }), "damaged");
  });

  test("a broken file of 150,000 objects whose catalog is last", () => {
    const parts = ["%PDF-1.7\n"];
    for (let i = 2; i < 150_000; i++) parts.push(`${i} 0 obj\n<< /Type /Annot /Rect [0 0 100 100] /Contents (note ${i}) >>\nendobj\n`);
    parts.push("1 0 obj\n<< /Type /Catalog >>\nendobj\n");
    // Read by a scan (no xref): only the objects that name a type looked for are parsed; no invoice in a rebuilt file is "damaged".
    refuses(latin1(parts.join("")), "damaged");
  });

  test("a name tree whose /Kids lead back to the root", () => {
    const pdf = new PdfBuilder()
      .add(1, "<< /Type /Catalog /Names << /EmbeddedFiles 2 0 R >> >>")
      .add(2, "<< /Kids [3 0 R] >>")
      .add(3, "<< /Kids [2 0 R] >>")
      .finish({ root: 1 });
    refuses(pdf, "loop");
  });

  test("a name tree of 20,000 nodes", () => {
    const b = new PdfBuilder().add(1, "<< /Type /Catalog /Names << /EmbeddedFiles 2 0 R >> >>");
    b.add(2, `<< /Kids [${Array.from({ length: 20_000 }, () => "<< /Names [] >>").join(" ")}] >>`);
    refuses(b.finish({ root: 1 }), "name_tree_too_large");
  });

  test("2,000 embedded files", () => {
    const b = new PdfBuilder().add(1, "<< /Type /Catalog /Names << /EmbeddedFiles 2 0 R >> >>");
    b.add(2, `<< /Names [${Array.from({ length: 2_000 }, (_, i) => `(f${i}.png) << /F (f${i}.png) >>`).join(" ")}] >>`);
    refuses(b.finish({ root: 1 }), "too_many_files");
  });

  test("200 incremental updates", () => {
    let pdf = facturx();
    for (let i = 0; i < 200; i++) pdf = new PdfBuilder(pdf).add(3, `<< /Type /Page /N ${i} >>`).finish({ root: 1 });
    refuses(pdf, "too_many_updates");
  });

  test("a file cut short inside the embedded invoice", () => {
    const whole = readFileSync(join(CORPUS, "XML-Rechnung_FX_EN16931_Gutschrift.pdf"));
    const file = whole.indexOf("/Type /EmbeddedFile");
    const cut = whole.indexOf("stream", file) + 100;
    refuses(whole.subarray(0, cut), "damaged");
  });

  test("garbage after a PDF header", () => {
    const random = createRandom(7);
    const bytes = Uint8Array.from({ length: 256 * 1024 }, () => Math.floor(random() * 256));
    bytes.set(latin1("%PDF-1.7\n"), 0);
    refuses(bytes, "damaged");
  });

  test("garbage without a PDF header", () => {
    const random = createRandom(8);
    refuses(Uint8Array.from({ length: 4096 }, () => 32 + Math.floor(random() * 90)), "not_pdf");
  });

  test("a file over the work budget", () => {
    refuses(readFileSync(join(CORPUS, "XML-Rechnung_FX_EN16931_Elektron.pdf")), "too_much_work", { maxWorkBytes: 1000 });
  });

  test("an embedded file over a lower stream limit", () => {
    refuses(readFileSync(join(CORPUS, "XML-Rechnung_FX_EN16931_Gutschrift.pdf")), "stream_too_large", { maxStreamBytes: 4096 });
  });
});

describe("extractEmbeddedInvoice() on every corpus PDF cut short", () => {
  for (const file of readdirSync(CORPUS).filter((f) => f.endsWith(".pdf")).sort()) {
    test(`gives the whole file's answer or a PdfReadError for ${file} cut at 31 places`, () => {
      const whole = readFileSync(join(CORPUS, file));
      const expected = extractEmbeddedInvoice(whole);
      for (let k = 1; k < 32; k++) {
        const part = whole.subarray(0, Math.floor((whole.length * k) / 32));
        try {
          assert.deepEqual(extractEmbeddedInvoice(part), expected, `cut at ${part.length}`);
        } catch (e) {
          if (!(e instanceof PdfReadError)) throw e;
        }
      }
    });
  }
});

test("the default limits are finite positive integers", () => {
  for (const [name, value] of Object.entries(DEFAULT_PDF_READ_LIMITS)) assert.ok(Number.isSafeInteger(value) && value > 0, name);
  assert.throws(() => extractEmbeddedInvoice(facturx(), { maxDepth: 0 }), RangeError);
});

function facturxBombed(pad: Uint8Array): Uint8Array {
  const b = new PdfBuilder();
  for (const o of facturxObjects(XML).slice(0, 5)) b.add(o.num, o.body);
  b.add(6, "<< /Type /EmbeddedFile /Filter /FlateDecode >>", pad);
  return b.finish({ root: 1 });
}

/** A file of 1,000,000 `N 0 obj null endobj`, with an xref table or none, written straight into one buffer. */
function millionObjects(withXref: boolean): Uint8Array {
  const n = 1_000_000;
  const out = Buffer.alloc(n * 48 + 200);
  let length = out.write("%PDF-1.7\n", 0, "latin1");
  const offsets = new Float64Array(n + 1);
  for (let i = 1; i <= n; i++) {
    offsets[i] = length;
    length += out.write(i === 1 ? "1 0 obj\n<< /Type /Catalog >>\nendobj\n" : `${i} 0 obj null endobj\n`, length, "latin1");
  }
  if (withXref) {
    const xref = length;
    length += out.write(`xref\n0 ${n + 1}\n0000000000 65535 f \n`, length, "latin1");
    for (let i = 1; i <= n; i++) length += out.write(`${String(offsets[i]).padStart(10, "0")} 00000 n \n`, length, "latin1");
    length += out.write(`trailer\n<< /Size ${n + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, length, "latin1");
  }
  return out.subarray(0, length);
}

import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { after, describe, test } from "node:test";
import { subsetTag } from "../../../lib/formats/pdf/embedded_font.ts";
import { PdfFonts } from "../../../lib/formats/pdf/pdf_fonts.ts";
import { buildPdf } from "../../../lib/formats/pdf/document.ts";
import { FontUsage } from "../../../lib/formats/pdf/encoding.ts";
import { Flow } from "../../../lib/formats/pdf/layout.ts";
import { readPdfFontFiles } from "../../../storage/fonts/font_files.ts";

const run = promisify(execFile);
const fonts = new PdfFonts(readPdfFontFiles());
const TOOLS = ["qpdf", "pdftotext", "pdffonts"];
const missingTools = TOOLS.filter((t) => spawnSync(t, ["-v"]).error !== undefined);
// Tests that need the tools fail when they are missing, unless PDF_TOOLS=skip says to skip them.
const skipTools = missingTools.length > 0 && process.env.PDF_TOOLS === "skip" ? `not installed: ${missingTools.join(", ")}` : false;
const dir = mkdtempSync(join(tmpdir(), "font-test-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** One line per language; every one must come back from pdftotext exactly. */
const LINES = [
  "Polski: Zażółć gęślą jaźń. ŻÓŁĆ GĘŚLĄ JAŹŃ. Faktura nr 12/2026, kwota 1 234,56 zł",
  "Deutsch: Größe, Übermaß, Fußgängerstraße. ÄÖÜ äöü ß ẞ – „Anführung“",
  "Čeština: Příliš žluťoučký kůň úpěl ďábelské ódy. ŤĎŇĚ",
  "Français: Œuvre à côté, garçon, naïve, Noël, « déjà » — ÇÉÈÊËÎÏÔÙÛŸ",
  "Русский: Съешь же ещё этих мягких французских булок, да выпей чаю. ЁЖЩЪ",
  "Ελληνικά: Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. ΑΒΓΔ",
];

/** A one-page PDF with the lines, alternating regular and bold; `bold` false draws all regular. */
function pdfOf(lines: readonly string[], bold = true): { bytes: Uint8Array; missing: string[] } {
  const usage = new FontUsage(fonts);
  const flow = new Flow(usage);
  const missing = new Set<string>();
  lines.forEach((s, i) => flow.page.text(40, 60 + i * 20, fonts.sanitize(s, missing), 11, bold && i % 2 === 1));
  return { bytes: buildPdf(flow.pages, usage, { title: "Fonts" }), missing: [...missing] };
}

function save(bytes: Uint8Array): string {
  const path = join(dir, `${++files}.pdf`);
  writeFileSync(path, bytes);
  return path;
}

/** pdffonts' table rows as [name, type, encoding, emb, sub, uni]. */
async function fontRows(path: string): Promise<string[][]> {
  const r = await run("pdffonts", [path]);
  return r.stdout.trim().split("\n").slice(2).map((l) => {
    const m = /^(\S+)\s+(CID TrueType|\S+(?: \S+)?)\s+(\S+)\s+(yes|no)\s+(yes|no)\s+(yes|no)/.exec(l);
    return m === null ? [l] : m.slice(1, 7);
  });
}

describe("embedded fonts", () => {
  test("buildPdf() embeds both faces as CID TrueType subsets with Identity-H and ToUnicode", { skip: skipTools }, async () => {
    const { bytes, missing } = pdfOf(LINES);
    assert.deepEqual(missing, []);
    const path = save(bytes);
    const check = await run("qpdf", ["--check", path]);
    assert.match(check.stdout, /No syntax or stream encoding errors found/);
    const rows = await fontRows(path);
    assert.equal(rows.length, 2);
    for (const row of rows) {
      assert.match(row[0] ?? "", /^[A-Z]{6}\+LiberationSans(-Bold)?$/);
      assert.deepEqual(row.slice(1), ["CID TrueType", "Identity-H", "yes", "yes", "yes"]);
    }
  });

  test("pdftotext gives back Polish, German, Czech, French, Russian and Greek exactly", { skip: skipTools }, async () => {
    const path = save(pdfOf(LINES).bytes);
    const r = await run("pdftotext", ["-raw", "-enc", "UTF-8", path, "-"]);
    assert.deepEqual(r.stdout.replace(/\f/g, "").trimEnd().split("\n"), LINES);
  });

  test("more than 256 glyphs in one face get two-byte codes that still extract exactly", { skip: skipTools }, async () => {
    const range = (from: number, to: number) => String.fromCharCode(...Array.from({ length: to - from + 1 }, (_, i) => from + i));
    // Latin Extended-A, Cyrillic and Greek letters: about 300 distinct glyphs, 40 to a line.
    const all = range(0x100, 0x17f) + range(0x410, 0x44f) + range(0x391, 0x3a1) + range(0x3a3, 0x3c9) + range(0x21, 0x7e);
    const lines = all.match(/.{1,40}/gu) ?? [];
    const { bytes, missing } = pdfOf(lines, false);
    assert.deepEqual(missing, []);
    const r = await run("pdftotext", ["-raw", "-enc", "UTF-8", save(bytes), "-"]);
    assert.deepEqual(r.stdout.replace(/\f/g, "").trimEnd().split("\n"), lines);
  });

  test("buildPdf() gives the same bytes for the same text and embeds only the faces drawn", { skip: skipTools }, async () => {
    assert.deepEqual(pdfOf(LINES).bytes, pdfOf(LINES).bytes);
    const rows = await fontRows(save(pdfOf(LINES, false).bytes));
    assert.equal(rows.length, 1);
    assert.match(rows[0]?.[0] ?? "", /^[A-Z]{6}\+LiberationSans$/);
  });

  test("a one-page document with every line stays small", () => {
    // Both subsets with a few hundred glyphs; the ceiling for a one-page invoice is 100 KB.
    assert.ok(pdfOf(LINES).bytes.length < 40_000, String(pdfOf(LINES).bytes.length));
  });

  test("a character the fonts lack is drawn as ? and reported", { skip: skipTools }, async () => {
    const { bytes, missing } = pdfOf(["Tea 茶 and 😀"], false);
    assert.deepEqual(missing, ["茶", "😀"]);
    const r = await run("pdftotext", ["-raw", "-enc", "UTF-8", save(bytes), "-"]);
    assert.equal(r.stdout.replace(/\f/g, "").trim(), "Tea ? and ?");
  });

  test("subsetTag() is six capitals that follow the font and the glyph set", () => {
    const a = subsetTag("LiberationSans", [0, 5, 9]);
    assert.match(a, /^[A-Z]{6}$/);
    assert.equal(subsetTag("LiberationSans", [0, 5, 9]), a);
    assert.notEqual(subsetTag("LiberationSans", [0, 9, 5]), a);
    assert.notEqual(subsetTag("LiberationSans-Bold", [0, 5, 9]), a);
  });
});

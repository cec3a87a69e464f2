import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PdfFonts } from "../../../lib/formats/pdf/pdf_fonts.ts";
import { readPdfFontFiles } from "../../../storage/fonts/font_files.ts";

const files = readPdfFontFiles();
const fonts = new PdfFonts(files);

/** Letters of the languages the invoices come in, and of Greek and Cyrillic. */
const LETTERS = "ąćęłńóśźżĄĆĘŁŃÓŚŹŻ äöüßÄÖÜẞ čďěňřšťůžČĎĚŇŘŠŤŮŽ ĺľŕĹĽŔ éèêëàâîïôùûüçœÿÉÈÊËÀÂÎÏÔÙÛÜÇŒŸ ő ű ș ț ğ ı " +
  "€ „“”‘’–—… ΑΒΓΔαβγδάέήίόύώ АБВГДЖЗабвгджзЁёЄєЇїЎў";

describe("PdfFonts", () => {
  test("PdfFonts.canDraw() covers Latin, Greek and Cyrillic letters and not CJK or control characters", () => {
    for (const ch of LETTERS.replace(/ /g, "")) assert.ok(fonts.canDraw(ch.codePointAt(0) ?? 0), ch);
    for (const cp of [0x4e2d, 0x07, 0x0a, 0x85, 0x1d400]) assert.ok(!fonts.canDraw(cp), cp.toString(16));
  });

  test("PdfFonts.sanitize() keeps drawable text, NFC-composes and reports the rest", () => {
    const missing = new Set<string>();
    assert.equal(fonts.sanitize("Zaz\u0307o\u0301\u0142c\u0301", missing), "Zażółć");
    assert.equal(fonts.sanitize("a\tb\nc\r", missing), "a b c ");
    assert.equal(fonts.sanitize(LETTERS, missing), LETTERS);
    assert.deepEqual([...missing], []);
    assert.equal(fonts.sanitize("x 𝄞 中 y \u0007", missing), "x ? ? y ?");
    assert.deepEqual([...missing], ["𝄞", "中", "\u0007"]);
  });

  test("PdfFonts.textWidth() measures with the fonts' advances, equal to Helvetica's AFM widths", () => {
    // Helvetica.afm: A 667, ą (aogonek) 556; Helvetica-Bold.afm: A 722, ą 556.
    assert.equal(fonts.textWidth("Aą", false, 1000), 667 + 556);
    assert.equal(fonts.textWidth("Aą", true, 1000), 722 + 556);
    // Not in Helvetica: Cyrillic Ж, measured from its advance in the font (2048 units per em).
    const face = fonts.faces[0].font;
    assert.equal(fonts.textWidth("Ж", false, 10), (Math.round(((face.advances[face.bmp[0x416] ?? 0] ?? 0) * 1000) / 2048) * 10) / 1000);
    assert.ok(fonts.textWidth("Ж", false, 10) > fonts.textWidth("ж", false, 10));
    assert.equal(fonts.textWidth("", false, 10), 0);
  });

  test("new PdfFonts() refuses bytes that are not TrueType fonts", () => {
    assert.throws(() => new PdfFonts({ regular: new Uint8Array(16), bold: files.bold }), TypeError);
  });
});

/**
 * Glyph widths of the standard PDF fonts Helvetica and Helvetica-Bold, keyed by glyph name
 * with the Unicode code point of each glyph (Adobe Glyph List). Data only; encoding.ts builds
 * the PDF encodings from it. GENERATED once, do not edit by hand: a one-off script (not kept)
 * run as `node gen_font_metrics.mjs /work/shared/fonts/afm > lib/pdf/font_metrics.ts` took
 * every "C n ; WX w ; N name ;" line of Helvetica.afm and Helvetica-Bold.afm (AFM 4.1, Version
 * 002.000) and added the glyph's Unicode code point from the Adobe Glyph List.
 *
 * This table is DERIVED (MODIFIED) FROM the Adobe AFM files Helvetica.afm and Helvetica-Bold.afm:
 * only each glyph's name and advance width (WX) are kept, a Unicode code point is added, and the
 * private-use glyph "commaaccent" is left out.
 *
 * Helvetica.afm, Helvetica-Bold.afm: Copyright (c) 1985, 1987, 1989, 1990, 1997 Adobe Systems
 * Incorporated.  All Rights Reserved. Helvetica is a trademark of Linotype-Hell AG and/or its subsidiaries.
 *
 * The licence paragraph of Adobe's MustRead.html, which accompanies the AFM files, unmodified:
 *
 * Copyright (c) 1985, 1987, 1989, 1990, 1991, 1992, 1993, 1997 Adobe Systems Incorporated. All Rights Reserved.
 *
 * This file and the 14 PostScript(R) AFM files it accompanies may be used, copied, and distributed for any purpose and without charge, with or without modification, provided that all copyright notices are retained; that the AFM files are not distributed without this file; that all modifications to this file or any of the AFM files are prominently noted in the modified file(s); and that this paragraph is not modified. Adobe Systems has no responsibility or obligation to support the use of the AFM files.
 * @module
 */

/** One glyph: name, Unicode code point, advance width in Helvetica and in Helvetica-Bold (1/1000 em). */
export type GlyphMetrics = readonly [name: string, codePoint: number, regular: number, bold: number];

/** Every glyph of the two AFM files, in AFM order. */
export const GLYPH_METRICS: readonly GlyphMetrics[] = [
  ["space", 0x0020, 278, 278], ["exclam", 0x0021, 278, 333], ["quotedbl", 0x0022, 355, 474], ["numbersign", 0x0023, 556, 556],
  ["dollar", 0x0024, 556, 556], ["percent", 0x0025, 889, 889], ["ampersand", 0x0026, 667, 722], ["quoteright", 0x2019, 222, 278],
  ["parenleft", 0x0028, 333, 333], ["parenright", 0x0029, 333, 333], ["asterisk", 0x002A, 389, 389], ["plus", 0x002B, 584, 584],
  ["comma", 0x002C, 278, 278], ["hyphen", 0x002D, 333, 333], ["period", 0x002E, 278, 278], ["slash", 0x002F, 278, 278],
  ["zero", 0x0030, 556, 556], ["one", 0x0031, 556, 556], ["two", 0x0032, 556, 556], ["three", 0x0033, 556, 556],
  ["four", 0x0034, 556, 556], ["five", 0x0035, 556, 556], ["six", 0x0036, 556, 556], ["seven", 0x0037, 556, 556],
  ["eight", 0x0038, 556, 556], ["nine", 0x0039, 556, 556], ["colon", 0x003A, 278, 333], ["semicolon", 0x003B, 278, 333],
  ["less", 0x003C, 584, 584], ["equal", 0x003D, 584, 584], ["greater", 0x003E, 584, 584], ["question", 0x003F, 556, 611],
  ["at", 0x0040, 1015, 975], ["A", 0x0041, 667, 722], ["B", 0x0042, 667, 722], ["C", 0x0043, 722, 722],
  ["D", 0x0044, 722, 722], ["E", 0x0045, 667, 667], ["F", 0x0046, 611, 611], ["G", 0x0047, 778, 778],
  ["H", 0x0048, 722, 722], ["I", 0x0049, 278, 278], ["J", 0x004A, 500, 556], ["K", 0x004B, 667, 722],
  ["L", 0x004C, 556, 611], ["M", 0x004D, 833, 833], ["N", 0x004E, 722, 722], ["O", 0x004F, 778, 778],
  ["P", 0x0050, 667, 667], ["Q", 0x0051, 778, 778], ["R", 0x0052, 722, 722], ["S", 0x0053, 667, 667],
  ["T", 0x0054, 611, 611], ["U", 0x0055, 722, 722], ["V", 0x0056, 667, 667], ["W", 0x0057, 944, 944],
  ["X", 0x0058, 667, 667], ["Y", 0x0059, 667, 667], ["Z", 0x005A, 611, 611], ["bracketleft", 0x005B, 278, 333],
  ["backslash", 0x005C, 278, 278], ["bracketright", 0x005D, 278, 333], ["asciicircum", 0x005E, 469, 584], ["underscore", 0x005F, 556, 556],
  ["quoteleft", 0x2018, 222, 278], ["a", 0x0061, 556, 556], ["b", 0x0062, 556, 611], ["c", 0x0063, 500, 556],
  ["d", 0x0064, 556, 611], ["e", 0x0065, 556, 556], ["f", 0x0066, 278, 333], ["g", 0x0067, 556, 611],
  ["h", 0x0068, 556, 611], ["i", 0x0069, 222, 278], ["j", 0x006A, 222, 278], ["k", 0x006B, 500, 556],
  ["l", 0x006C, 222, 278], ["m", 0x006D, 833, 889], ["n", 0x006E, 556, 611], ["o", 0x006F, 556, 611],
  ["p", 0x0070, 556, 611], ["q", 0x0071, 556, 611], ["r", 0x0072, 333, 389], ["s", 0x0073, 500, 556],
  ["t", 0x0074, 278, 333], ["u", 0x0075, 556, 611], ["v", 0x0076, 500, 556], ["w", 0x0077, 722, 778],
  ["x", 0x0078, 500, 556], ["y", 0x0079, 500, 556], ["z", 0x007A, 500, 500], ["braceleft", 0x007B, 334, 389],
  ["bar", 0x007C, 260, 280], ["braceright", 0x007D, 334, 389], ["asciitilde", 0x007E, 584, 584], ["exclamdown", 0x00A1, 333, 333],
  ["cent", 0x00A2, 556, 556], ["sterling", 0x00A3, 556, 556], ["fraction", 0x2044, 167, 167], ["yen", 0x00A5, 556, 556],
  ["florin", 0x0192, 556, 556], ["section", 0x00A7, 556, 556], ["currency", 0x00A4, 556, 556], ["quotesingle", 0x0027, 191, 238],
  ["quotedblleft", 0x201C, 333, 500], ["guillemotleft", 0x00AB, 556, 556], ["guilsinglleft", 0x2039, 333, 333], ["guilsinglright", 0x203A, 333, 333],
  ["fi", 0xFB01, 500, 611], ["fl", 0xFB02, 500, 611], ["endash", 0x2013, 556, 556], ["dagger", 0x2020, 556, 556],
  ["daggerdbl", 0x2021, 556, 556], ["periodcentered", 0x00B7, 278, 278], ["paragraph", 0x00B6, 537, 556], ["bullet", 0x2022, 350, 350],
  ["quotesinglbase", 0x201A, 222, 278], ["quotedblbase", 0x201E, 333, 500], ["quotedblright", 0x201D, 333, 500], ["guillemotright", 0x00BB, 556, 556],
  ["ellipsis", 0x2026, 1000, 1000], ["perthousand", 0x2030, 1000, 1000], ["questiondown", 0x00BF, 611, 611], ["grave", 0x0060, 333, 333],
  ["acute", 0x00B4, 333, 333], ["circumflex", 0x02C6, 333, 333], ["tilde", 0x02DC, 333, 333], ["macron", 0x00AF, 333, 333],
  ["breve", 0x02D8, 333, 333], ["dotaccent", 0x02D9, 333, 333], ["dieresis", 0x00A8, 333, 333], ["ring", 0x02DA, 333, 333],
  ["cedilla", 0x00B8, 333, 333], ["hungarumlaut", 0x02DD, 333, 333], ["ogonek", 0x02DB, 333, 333], ["caron", 0x02C7, 333, 333],
  ["emdash", 0x2014, 1000, 1000], ["AE", 0x00C6, 1000, 1000], ["ordfeminine", 0x00AA, 370, 370], ["Lslash", 0x0141, 556, 611],
  ["Oslash", 0x00D8, 778, 778], ["OE", 0x0152, 1000, 1000], ["ordmasculine", 0x00BA, 365, 365], ["ae", 0x00E6, 889, 889],
  ["dotlessi", 0x0131, 278, 278], ["lslash", 0x0142, 222, 278], ["oslash", 0x00F8, 611, 611], ["oe", 0x0153, 944, 944],
  ["germandbls", 0x00DF, 611, 611], ["Idieresis", 0x00CF, 278, 278], ["eacute", 0x00E9, 556, 556], ["abreve", 0x0103, 556, 556],
  ["uhungarumlaut", 0x0171, 556, 611], ["ecaron", 0x011B, 556, 556], ["Ydieresis", 0x0178, 667, 667], ["divide", 0x00F7, 584, 584],
  ["Yacute", 0x00DD, 667, 667], ["Acircumflex", 0x00C2, 667, 722], ["aacute", 0x00E1, 556, 556], ["Ucircumflex", 0x00DB, 722, 722],
  ["yacute", 0x00FD, 500, 556], ["scommaaccent", 0x0219, 500, 556], ["ecircumflex", 0x00EA, 556, 556], ["Uring", 0x016E, 722, 722],
  ["Udieresis", 0x00DC, 722, 722], ["aogonek", 0x0105, 556, 556], ["Uacute", 0x00DA, 722, 722], ["uogonek", 0x0173, 556, 611],
  ["Edieresis", 0x00CB, 667, 667], ["Dcroat", 0x0110, 722, 722], ["copyright", 0x00A9, 737, 737], ["Emacron", 0x0112, 667, 667],
  ["ccaron", 0x010D, 500, 556], ["aring", 0x00E5, 556, 556], ["Ncommaaccent", 0x0145, 722, 722], ["lacute", 0x013A, 222, 278],
  ["agrave", 0x00E0, 556, 556], ["Tcommaaccent", 0x0162, 611, 611], ["Cacute", 0x0106, 722, 722], ["atilde", 0x00E3, 556, 556],
  ["Edotaccent", 0x0116, 667, 667], ["scaron", 0x0161, 500, 556], ["scedilla", 0x015F, 500, 556], ["iacute", 0x00ED, 278, 278],
  ["lozenge", 0x25CA, 471, 494], ["Rcaron", 0x0158, 722, 722], ["Gcommaaccent", 0x0122, 778, 778], ["ucircumflex", 0x00FB, 556, 611],
  ["acircumflex", 0x00E2, 556, 556], ["Amacron", 0x0100, 667, 722], ["rcaron", 0x0159, 333, 389], ["ccedilla", 0x00E7, 500, 556],
  ["Zdotaccent", 0x017B, 611, 611], ["Thorn", 0x00DE, 667, 667], ["Omacron", 0x014C, 778, 778], ["Racute", 0x0154, 722, 722],
  ["Sacute", 0x015A, 667, 667], ["dcaron", 0x010F, 643, 743], ["Umacron", 0x016A, 722, 722], ["uring", 0x016F, 556, 611],
  ["threesuperior", 0x00B3, 333, 333], ["Ograve", 0x00D2, 778, 778], ["Agrave", 0x00C0, 667, 722], ["Abreve", 0x0102, 667, 722],
  ["multiply", 0x00D7, 584, 584], ["uacute", 0x00FA, 556, 611], ["Tcaron", 0x0164, 611, 611], ["partialdiff", 0x2202, 476, 494],
  ["ydieresis", 0x00FF, 500, 556], ["Nacute", 0x0143, 722, 722], ["icircumflex", 0x00EE, 278, 278], ["Ecircumflex", 0x00CA, 667, 667],
  ["adieresis", 0x00E4, 556, 556], ["edieresis", 0x00EB, 556, 556], ["cacute", 0x0107, 500, 556], ["nacute", 0x0144, 556, 611],
  ["umacron", 0x016B, 556, 611], ["Ncaron", 0x0147, 722, 722], ["Iacute", 0x00CD, 278, 278], ["plusminus", 0x00B1, 584, 584],
  ["brokenbar", 0x00A6, 260, 280], ["registered", 0x00AE, 737, 737], ["Gbreve", 0x011E, 778, 778], ["Idotaccent", 0x0130, 278, 278],
  ["summation", 0x2211, 600, 600], ["Egrave", 0x00C8, 667, 667], ["racute", 0x0155, 333, 389], ["omacron", 0x014D, 556, 611],
  ["Zacute", 0x0179, 611, 611], ["Zcaron", 0x017D, 611, 611], ["greaterequal", 0x2265, 549, 549], ["Eth", 0x00D0, 722, 722],
  ["Ccedilla", 0x00C7, 722, 722], ["lcommaaccent", 0x013C, 222, 278], ["tcaron", 0x0165, 317, 389], ["eogonek", 0x0119, 556, 556],
  ["Uogonek", 0x0172, 722, 722], ["Aacute", 0x00C1, 667, 722], ["Adieresis", 0x00C4, 667, 722], ["egrave", 0x00E8, 556, 556],
  ["zacute", 0x017A, 500, 500], ["iogonek", 0x012F, 222, 278], ["Oacute", 0x00D3, 778, 778], ["oacute", 0x00F3, 556, 611],
  ["amacron", 0x0101, 556, 556], ["sacute", 0x015B, 500, 556], ["idieresis", 0x00EF, 278, 278], ["Ocircumflex", 0x00D4, 778, 778],
  ["Ugrave", 0x00D9, 722, 722], ["Delta", 0x2206, 612, 612], ["thorn", 0x00FE, 556, 611], ["twosuperior", 0x00B2, 333, 333],
  ["Odieresis", 0x00D6, 778, 778], ["mu", 0x00B5, 556, 611], ["igrave", 0x00EC, 278, 278], ["ohungarumlaut", 0x0151, 556, 611],
  ["Eogonek", 0x0118, 667, 667], ["dcroat", 0x0111, 556, 611], ["threequarters", 0x00BE, 834, 834], ["Scedilla", 0x015E, 667, 667],
  ["lcaron", 0x013E, 299, 400], ["Kcommaaccent", 0x0136, 667, 722], ["Lacute", 0x0139, 556, 611], ["trademark", 0x2122, 1000, 1000],
  ["edotaccent", 0x0117, 556, 556], ["Igrave", 0x00CC, 278, 278], ["Imacron", 0x012A, 278, 278], ["Lcaron", 0x013D, 556, 611],
  ["onehalf", 0x00BD, 834, 834], ["lessequal", 0x2264, 549, 549], ["ocircumflex", 0x00F4, 556, 611], ["ntilde", 0x00F1, 556, 611],
  ["Uhungarumlaut", 0x0170, 722, 722], ["Eacute", 0x00C9, 667, 667], ["emacron", 0x0113, 556, 556], ["gbreve", 0x011F, 556, 611],
  ["onequarter", 0x00BC, 834, 834], ["Scaron", 0x0160, 667, 667], ["Scommaaccent", 0x0218, 667, 667], ["Ohungarumlaut", 0x0150, 778, 778],
  ["degree", 0x00B0, 400, 400], ["ograve", 0x00F2, 556, 611], ["Ccaron", 0x010C, 722, 722], ["ugrave", 0x00F9, 556, 611],
  ["radical", 0x221A, 453, 549], ["Dcaron", 0x010E, 722, 722], ["rcommaaccent", 0x0157, 333, 389], ["Ntilde", 0x00D1, 722, 722],
  ["otilde", 0x00F5, 556, 611], ["Rcommaaccent", 0x0156, 722, 722], ["Lcommaaccent", 0x013B, 556, 611], ["Atilde", 0x00C3, 667, 722],
  ["Aogonek", 0x0104, 667, 722], ["Aring", 0x00C5, 667, 722], ["Otilde", 0x00D5, 778, 778], ["zdotaccent", 0x017C, 500, 500],
  ["Ecaron", 0x011A, 667, 667], ["Iogonek", 0x012E, 278, 278], ["kcommaaccent", 0x0137, 500, 556], ["minus", 0x2212, 584, 584],
  ["Icircumflex", 0x00CE, 278, 278], ["ncaron", 0x0148, 556, 611], ["tcommaaccent", 0x0163, 278, 333], ["logicalnot", 0x00AC, 584, 584],
  ["odieresis", 0x00F6, 556, 611], ["udieresis", 0x00FC, 556, 611], ["notequal", 0x2260, 549, 549], ["gcommaaccent", 0x0123, 556, 611],
  ["eth", 0x00F0, 556, 611], ["zcaron", 0x017E, 500, 500], ["ncommaaccent", 0x0146, 556, 611], ["onesuperior", 0x00B9, 333, 333],
  ["imacron", 0x012B, 278, 278], ["Euro", 0x20AC, 556, 556],
];

/**
 * Text encoding for the two standard fonts (Helvetica, Helvetica-Bold) without embedding:
 * a primary encoding (WinAnsi + /Differences for Polish, Czech and Slovak letters in the unused
 * codes) and a secondary one for every other glyph the AFM files have, each with a /ToUnicode
 * CMap so copied text is the exact Unicode. Characters no glyph can draw become "?" and are
 * reported, never dropped. Follows ISO 32000-1 §9.6.6 (encodings), §9.10.3 (ToUnicode).
 * @module
 */

import { GLYPH_METRICS } from "./font_metrics.ts";

/** WinAnsiEncoding codes 128-255 (ISO 32000-1 Annex D.2); "" where the code is unused. */
const _WIN_ANSI_HIGH = (
  "Euro - quotesinglbase florin quotedblbase ellipsis dagger daggerdbl circumflex perthousand Scaron guilsinglleft OE - Zcaron - " +
  "- quoteleft quoteright quotedblleft quotedblright bullet endash emdash tilde trademark scaron guilsinglright oe - zcaron Ydieresis " +
  "space exclamdown cent sterling currency yen brokenbar section dieresis copyright ordfeminine guillemotleft logicalnot hyphen registered macron " +
  "degree plusminus twosuperior threesuperior acute mu paragraph periodcentered cedilla onesuperior ordmasculine guillemotright onequarter onehalf threequarters questiondown " +
  "Agrave Aacute Acircumflex Atilde Adieresis Aring AE Ccedilla Egrave Eacute Ecircumflex Edieresis Igrave Iacute Icircumflex Idieresis " +
  "Eth Ntilde Ograve Oacute Ocircumflex Otilde Odieresis multiply Oslash Ugrave Uacute Ucircumflex Udieresis Yacute Thorn germandbls " +
  "agrave aacute acircumflex atilde adieresis aring ae ccedilla egrave eacute ecircumflex edieresis igrave iacute icircumflex idieresis " +
  "eth ntilde ograve oacute ocircumflex otilde odieresis divide oslash ugrave uacute ucircumflex udieresis yacute thorn ydieresis"
).split(" ");

/** Unicode of WinAnsi codes 128-159 (Windows-1252); codes 160-255 are Latin-1 itself. */
const _CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
  0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

/** Letters put into the unused WinAnsi codes: Polish, then Czech and Slovak (the rest of both is in WinAnsi). */
const _PRIMARY_EXTRA = (
  "aogonek Aogonek cacute Cacute eogonek Eogonek lslash Lslash nacute Nacute sacute Sacute zacute Zacute zdotaccent Zdotaccent " +
  "ccaron Ccaron dcaron Dcaron ecaron Ecaron ncaron Ncaron rcaron Rcaron tcaron Tcaron uring Uring lacute Lacute lcaron Lcaron racute Racute"
).split(" ");
/** Codes that WinAnsi leaves unused; 0 is avoided because some tools treat it as a terminator. */
const _PRIMARY_FREE_CODES = [...Array.from({ length: 31 }, (_, i) => i + 1), 127, 129, 141, 143, 144, 157];

/**
 * Extra code points drawn with an existing glyph, as [code point, glyph, width or 0 for the glyph's
 * own]; they get their own code so ToUnicode still yields the exact character.
 */
const _ALIASES: readonly (readonly [number, string, number])[] = [
  [0x021a, "Tcommaaccent", 0], [0x021b, "tcommaaccent", 0], [0x0394, "Delta", 0], [0x03bc, "mu", 0],
  [0x2002, "space", 500], [0x2003, "space", 1000], [0x2004, "space", 333], [0x2005, "space", 250],
  [0x2006, "space", 167], [0x2007, "space", 556], [0x2008, "space", 278], [0x2009, "space", 200],
  [0x200a, "space", 100], [0x202f, "space", 200], [0x2010, "hyphen", 0], [0x2011, "hyphen", 0],
  [0x2012, "endash", 0], [0x2015, "emdash", 0],
];

/** One font encoding: glyph name, Unicode and widths per code. */
interface _Encoding {
  names: (string | null)[];
  unicode: number[];
  widths: [number[], number[]];
}

const _byName = new Map(GLYPH_METRICS.map((g) => [g[0], g]));

function _emptyEncoding(): _Encoding {
  return { names: new Array(256).fill(null), unicode: new Array(256).fill(0), widths: [new Array(256).fill(0), new Array(256).fill(0)] };
}

function _assign(enc: _Encoding, code: number, name: string, cp: number, width: number): void {
  const g = _byName.get(name);
  if (g === undefined) throw new Error(`Glyph ${name} is not in the font metrics`);
  enc.names[code] = name;
  enc.unicode[code] = cp;
  enc.widths[0][code] = width || g[2];
  enc.widths[1][code] = width ? Math.round((width * g[3]) / g[2]) : g[3];
}

function _buildPrimary(): _Encoding {
  const enc = _emptyEncoding();
  for (let c = 32; c < 127; c++) {
    const g = GLYPH_METRICS.find((m) => m[1] === c);
    if (g !== undefined) _assign(enc, c, g[0], c, 0);
  }
  _WIN_ANSI_HIGH.forEach((name, i) => {
    const code = 128 + i;
    if (name !== "-") _assign(enc, code, name, code < 160 ? (_CP1252_HIGH[i] ?? 0) : code, 0);
  });
  _PRIMARY_EXTRA.forEach((name, i) => _assign(enc, _PRIMARY_FREE_CODES[i] ?? 0, name, _byName.get(name)?.[1] ?? 0, 0));
  return enc;
}

/** First code of the secondary encoding; below it the font has nothing. */
const _SECONDARY_FIRST = 33;

function _buildSecondary(primary: _Encoding): _Encoding {
  const enc = _emptyEncoding();
  const inPrimary = new Set(primary.unicode);
  let code = _SECONDARY_FIRST;
  for (const [name, cp] of GLYPH_METRICS) if (!inPrimary.has(cp)) _assign(enc, code++, name, cp, 0);
  for (const [cp, name, width] of _ALIASES) _assign(enc, code++, name, cp, width);
  if (code > 256) throw new Error("Secondary encoding overflows 256 codes");
  return enc;
}

const _PRIMARY = _buildPrimary();
const _SECONDARY = _buildSecondary(_PRIMARY);
const _ENCODINGS = [_PRIMARY, _SECONDARY] as const;

/** Code point (BMP) -> 1 + font * 256 + code; 0 when no glyph draws it. */
const _SLOT = new Uint16Array(0x10000);
/** Advance width per slot (font * 256 + code), regular and bold, in 1/1000 em. */
const _WIDTH: [Float64Array, Float64Array] = [new Float64Array(512), new Float64Array(512)];
/** PDF literal-string form of each slot's byte. */
const _LITERAL: string[] = new Array(512).fill("?");

for (let f = 1; f >= 0; f--) {
  const enc = _ENCODINGS[f] as _Encoding;
  for (let code = 0; code < 256; code++) {
    const cp = enc.unicode[code] ?? 0;
    if (enc.names[code] === null) continue;
    const slot = f * 256 + code;
    if (cp < 0x10000 && (f === 0 || _SLOT[cp] === 0)) _SLOT[cp] = slot + 1;
    _WIDTH[0][slot] = enc.widths[0][code] ?? 0;
    _WIDTH[1][slot] = enc.widths[1][code] ?? 0;
    _LITERAL[slot] = code < 32 || code === 127 ? `\\${code.toString(8).padStart(3, "0")}`
      : code === 40 || code === 41 || code === 92 ? `\\${String.fromCharCode(code)}`
      : String.fromCharCode(code);
  }
}

const _QUESTION = 0x3f;
const _TAB = 9;
const _LF = 10;
const _CR = 13;

/** True when the code point (BMP) has a glyph in one of the two encodings. */
export function canDraw(cp: number): boolean {
  return cp < 0x10000 && _SLOT[cp] !== 0;
}

/**
 * The text with tabs and line breaks turned into spaces and every character no glyph can draw
 * replaced by "?", each such character added to `missing` (NFC first, so "e" + U+0301 still draws).
 */
export function sanitizeText(text: string, missing: Set<string>): string {
  let i = 0;
  for (; i < text.length; i++) if (_SLOT[text.charCodeAt(i)] === 0) break;
  if (i === text.length) return text;
  const s = text.normalize("NFC");
  let out = "";
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? _QUESTION;
    if (cp < 0x10000 && _SLOT[cp] !== 0) out += ch;
    else if (cp === _TAB || cp === _LF || cp === _CR) out += " ";
    else {
      missing.add(ch);
      out += "?";
    }
  }
  return out;
}

/** Width of sanitized text in points. */
export function textWidth(text: string, bold: boolean, size: number): number {
  const widths = _WIDTH[bold ? 1 : 0];
  let w = 0;
  for (let i = 0; i < text.length; i++) {
    const slot = _SLOT[text.charCodeAt(i)] ?? 0;
    w += widths[slot === 0 ? _QUESTION : slot - 1] ?? 0;
  }
  return (w * size) / 1000;
}

/** Resource names of the four fonts: primary and secondary, regular and bold. */
export const FONT_NAMES = ["F1", "F2", "F3", "F4"] as const;

/**
 * Content-stream operators that select the font and show sanitized text ("/F1 9 Tf (…) Tj"),
 * switching to the secondary font for the characters it holds; sets `used.secondary` then.
 */
export function showText(text: string, bold: boolean, size: string, used: { secondary: boolean }): string {
  let out = "";
  let font = -1;
  let run = "";
  for (let i = 0; i < text.length; i++) {
    let slot = _SLOT[text.charCodeAt(i)] ?? 0;
    slot = slot === 0 ? _QUESTION : slot - 1;
    const f = slot >> 8;
    if (f !== font) {
      if (font >= 0) out += `(${run}) Tj `;
      out += `/${FONT_NAMES[f * 2 + (bold ? 1 : 0)]} ${size} Tf `;
      if (f === 1) used.secondary = true;
      font = f;
      run = "";
    }
    run += _LITERAL[slot];
  }
  if (font >= 0) out += `(${run}) Tj`;
  return out;
}

/** The PDF objects' text for one font encoding (0 primary, 1 secondary): Differences, Widths, ToUnicode CMap. */
export function encodingResources(which: 0 | 1): { differences: string; firstChar: number; widths: [string, string]; toUnicode: string } {
  const enc = _ENCODINGS[which];
  const first = which === 0 ? 1 : _SECONDARY_FIRST;
  let last = 255;
  while (enc.names[last] === null) last--;
  const diff: string[] = [];
  let expect = -1;
  for (let code = first; code <= last; code++) {
    const name = enc.names[code];
    // The primary keeps WinAnsi as its base: only its extra codes need listing.
    if (name === null || (which === 0 && !_PRIMARY_FREE_CODES.includes(code))) continue;
    if (code !== expect) diff.push(String(code));
    diff.push(`/${name}`);
    expect = code + 1;
  }
  const w = (b: 0 | 1) => enc.widths[b].slice(first, last + 1).join(" ");
  return { differences: diff.join(" "), firstChar: first, widths: [w(0), w(1)], toUnicode: _toUnicodeCMap(enc, which) };
}

function _hex4(n: number): string {
  return n.toString(16).toUpperCase().padStart(4, "0");
}

function _toUnicodeCMap(enc: _Encoding, which: 0 | 1): string {
  const pairs: string[] = [];
  for (let code = 0; code < 256; code++) {
    if (enc.names[code] !== null) pairs.push(`<${code.toString(16).toUpperCase().padStart(2, "0")}> <${_hex4(enc.unicode[code] ?? 0)}>`);
  }
  const blocks: string[] = [];
  // ISO 32000-1 §9.10.3 / Adobe TN 5411: at most 100 entries per bfchar block.
  for (let i = 0; i < pairs.length; i += 100) {
    const chunk = pairs.slice(i, i + 100);
    blocks.push(`${chunk.length} beginbfchar\n${chunk.join("\n")}\nendbfchar`);
  }
  const name = `Helvetica-Text${which}`;
  return `/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n` +
    `/CMapName /${name} def\n/CMapType 2 def\n1 begincodespacerange\n<00> <FF>\nendcodespacerange\n${blocks.join("\n")}\n` +
    `endcmap\nCMapName currentdict /CMapResource defineresource pop\nend\nend\n`;
}

/**
 * Assembles finished pages into a PDF file: catalog, page tree, shared resources, the font
 * objects of encoding.ts (standard Type 1 fonts, not embedded, with /Widths and /ToUnicode)
 * and /Info without any date, so output depends only on the pages (ISO 32000-1 §7.7, §9.6).
 * @module
 */

import { Buffer } from "node:buffer";
import { deflateSync } from "node:zlib";
import { encodingResources, FONT_NAMES } from "./encoding.ts";
import { PAGE_HEIGHT, PAGE_WIDTH, type FontUsage, type PageCanvas } from "./canvas.ts";
import { num, PdfWriter, pdfTextString } from "./writer.ts";

/** Document information (§14.3.3); no dates, so the bytes do not depend on the clock. */
export interface PdfMeta {
  title: string;
}

interface _FontData {
  differences: string;
  firstChar: number;
  widths: [string, string];
  toUnicode: Uint8Array;
}

// Font data is the same for every document: built and compressed once, on first use.
let _fontCache: [_FontData, _FontData] | null = null;

function _fonts(): [_FontData, _FontData] {
  if (_fontCache === null) {
    const make = (which: 0 | 1): _FontData => {
      const r = encodingResources(which);
      return { ...r, toUnicode: deflateSync(Buffer.from(r.toUnicode, "latin1")) };
    };
    _fontCache = [make(0), make(1)];
  }
  return _fontCache;
}

const _PRODUCER = "integrator-api PDF writer";

/** Serializes the pages, in order, into one PDF file. */
export function buildPdf(pages: readonly PageCanvas[], used: FontUsage, meta: PdfMeta): Uint8Array {
  const w = new PdfWriter();
  const catalog = w.reserve();
  const tree = w.reserve();
  const info = w.reserve();
  const resources = w.reserve();
  const fontSets = used.secondary ? 2 : 1;
  const fontObjs: number[] = [];
  for (let i = 0; i < fontSets * 2; i++) fontObjs.push(w.reserve());
  const encObjs: number[] = [];
  const cmapObjs: number[] = [];
  for (let i = 0; i < fontSets; i++) {
    encObjs.push(w.reserve());
    cmapObjs.push(w.reserve());
  }
  const pageObjs = pages.map(() => [w.reserve(), w.reserve()] as const);

  w.object(catalog, `<< /Type /Catalog /Pages ${tree} 0 R >>`);
  w.object(tree, `<< /Type /Pages /Kids [${pageObjs.map(([p]) => `${p} 0 R`).join(" ")}] /Count ${pages.length} >>`);
  w.object(info, `<< /Producer ${pdfTextString(_PRODUCER)} /Title ${pdfTextString(meta.title)} >>`);
  const fontRefs = fontObjs.map((n, i) => `/${FONT_NAMES[i]} ${n} 0 R`).join(" ");
  w.object(resources, `<< /Font << ${fontRefs} >> /ProcSet [/PDF /Text] >>`);

  const data = _fonts();
  for (let set = 0; set < fontSets; set++) {
    const d = data[set] as _FontData;
    const last = d.firstChar + d.widths[0].split(" ").length - 1;
    for (let bold = 0; bold < 2; bold++) {
      w.object(fontObjs[set * 2 + bold] ?? 0, `<< /Type /Font /Subtype /Type1 /BaseFont /${bold ? "Helvetica-Bold" : "Helvetica"}` +
        ` /Encoding ${encObjs[set]} 0 R /FirstChar ${d.firstChar} /LastChar ${last} /Widths [${d.widths[bold as 0 | 1]}]` +
        ` /ToUnicode ${cmapObjs[set]} 0 R >>`);
    }
    // The primary font keeps WinAnsi as its base; the secondary one lists all its codes.
    const base = set === 0 ? " /BaseEncoding /WinAnsiEncoding" : "";
    w.object(encObjs[set] ?? 0, `<< /Type /Encoding${base} /Differences [${d.differences}] >>`);
    w.compressedStream(cmapObjs[set] ?? 0, d.toUnicode);
  }

  const box = `[0 0 ${num(PAGE_WIDTH)} ${num(PAGE_HEIGHT)}]`;
  pages.forEach((page, i) => {
    const [p, c] = pageObjs[i] ?? [0, 0];
    w.object(p, `<< /Type /Page /Parent ${tree} 0 R /MediaBox ${box} /Resources ${resources} 0 R /Contents ${c} 0 R >>`);
    w.stream(c, page.content());
  });
  return w.finish(catalog, info);
}

/**
 * Assembles finished pages into a PDF file: catalog, page tree, shared resources, the two fonts
 * embedded as subsets of the glyphs the pages drew (embedded_font.ts) and /Info
 * without any date, so output depends only on the pages (ISO 32000-1 §7.7, §9.7); with `archive`, the PDF/A-3b
 * objects and the associated file of pdfa3.ts, whose date is then the caller's.
 * @module
 */

import { writeEmbeddedFont } from "./embedded_font.ts";
import { PAGE_HEIGHT, PAGE_WIDTH, type PageCanvas } from "./canvas.ts";
import { FONT_NAMES, type FontUsage } from "./encoding.ts";
import { type PdfA3Options, writePdfA3 } from "./pdfa3.ts";
import { num, PdfWriter, pdfTextString } from "./writer.ts";

/** Document information (§14.3.3); no dates, so the bytes do not depend on the clock. */
export interface PdfMeta {
  title: string;
}

const _PRODUCER = "integrator-api PDF writer";

/**
 * Serializes the pages, in order, into one PDF file, embedding the glyphs `used` records; a PDF/A-3b file with
 * its associated file when `archive` is given.
 */
export function buildPdf(pages: readonly PageCanvas[], used: FontUsage, meta: PdfMeta, archive?: PdfA3Options): Uint8Array {
  const w = new PdfWriter();
  const catalog = w.reserve();
  const tree = w.reserve();
  const info = w.reserve();
  const resources = w.reserve();
  // A face no page drew (a document without bold text) is left out.
  const faces = ([0, 1] as const).filter((f) => used.glyphs[f].length > 1);
  const fontObjs = faces.map(() => w.reserve());
  const pageObjs = pages.map(() => [w.reserve(), w.reserve()] as const);

  const extra = archive ? writePdfA3(w, archive, meta.title, _PRODUCER) : { catalog: "", info: "" };
  w.object(catalog, `<< /Type /Catalog /Pages ${tree} 0 R${extra.catalog} >>`);
  w.object(tree, `<< /Type /Pages /Kids [${pageObjs.map(([p]) => `${p} 0 R`).join(" ")}] /Count ${pages.length} >>`);
  w.object(info, `<< /Producer ${pdfTextString(_PRODUCER)} /Title ${pdfTextString(meta.title)}${extra.info} >>`);
  const fontRefs = faces.map((f, i) => `/${FONT_NAMES[f]} ${fontObjs[i]} 0 R`).join(" ");
  w.object(resources, `<< /Font << ${fontRefs} >> /ProcSet [/PDF /Text] >>`);
  faces.forEach((f, i) => writeEmbeddedFont(w, fontObjs[i] ?? 0, used.fonts.faces[f], used.glyphs[f]));

  const box = `[0 0 ${num(PAGE_WIDTH)} ${num(PAGE_HEIGHT)}]`;
  pages.forEach((page, i) => {
    const [p, c] = pageObjs[i] ?? [0, 0];
    w.object(p, `<< /Type /Page /Parent ${tree} 0 R /MediaBox ${box} /Resources ${resources} 0 R /Contents ${c} 0 R >>`);
    w.stream(c, page.content());
  });
  return w.finish(catalog, info);
}

/**
 * The objects that make a rendered PDF a PDF/A-3b file with one associated file (ISO 19005-3): the XMP metadata
 * stream, unfiltered (clause 6.6.2.1), an sRGB output intent with its ICC profile (clause 6.2.3), and the embedded file with
 * its /AFRelationship, MIME /Subtype and /Params, listed in the /EmbeddedFiles name tree and the catalog's /AF
 * (clause 6.8, Annex E). Everything else PDF/A asks of the file (embedded fonts, no encryption, no transparency,
 * the trailer /ID) the writer and the renderer already do. Not the tagged-PDF structure of level A.
 * @module
 */

import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";
import { srgbIccProfile } from "./srgb_icc.ts";
import type { PdfWriter } from "./writer.ts";
import { pdfTextString } from "./writer.ts";
import { type XmpExtensionSchema, xmpPacket } from "./xmp.ts";

/** A file carried inside the PDF (ISO 32000-2 clause 7.11.4, ISO 19005-3 clause 6.8). */
export interface PdfAttachment {
  name: string;
  description: string;
  /** MIME type, e.g. "text/xml" (written as the stream's /Subtype, `/` as `#2F`). */
  mimeType: string;
  /** ISO 19005-3 Annex E: how the file relates to the document (Source, Data, Alternative, Supplement, Unspecified). */
  relationship: "Source" | "Data" | "Alternative" | "Supplement" | "Unspecified";
  bytes: Uint8Array;
}

/** What a PDF/A-3b rendering adds to a plain one. */
export interface PdfA3Options {
  /** When the document was made, ISO 8601 (`2026-12-06T10:00:00.000Z`): /Info and XMP dates, the file's ModDate. */
  date: string;
  /** The document's author (/Info /Author, dc:creator), or null. */
  creator: string | null;
  attachment: PdfAttachment;
  /** XMP schemas beyond those XMP predefines, described in the packet as ISO 19005-3 clause 6.6.2.3.2 asks. */
  extensions: readonly XmpExtensionSchema[];
}

/** The output condition the ICC profile describes (the registry name of IEC 61966-2-1). */
const _OUTPUT_CONDITION = "sRGB IEC61966-2.1";

let _iccDeflated: Uint8Array | null = null;

/** The dates of one moment, as /Info (ISO 32000-1 clause 7.9.4) and XMP (ISO 8601, no fraction) write them. */
export function pdfDates(iso: string): { info: string; xmp: string } {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) throw new RangeError(`Not an ISO 8601 date: ${iso}`);
  const s = d.toISOString(); // 2026-12-06T10:00:00.000Z
  const digits = s.slice(0, 19).replace(/[-T:]/g, "");
  return { info: `D:${digits}+00'00'`, xmp: `${s.slice(0, 19)}Z` };
}

/**
 * Writes the PDF/A-3 objects; returns the entries the catalog and the /Info dictionary add (the caller writes
 * those two). `title` and `producer` are the /Info values the XMP must repeat.
 */
export function writePdfA3(w: PdfWriter, o: PdfA3Options, title: string, producer: string): { catalog: string; info: string } {
  const dates = pdfDates(o.date);
  const metadata = w.reserve();
  const intent = w.reserve();
  const icc = w.reserve();
  const spec = w.reserve();
  const file = w.reserve();

  w.rawStream(metadata, xmpPacket({ title, creator: o.creator, producer, date: dates.xmp, conformance: "B", extensions: o.extensions }), "/Type /Metadata /Subtype /XML");
  w.object(intent, `<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier ${pdfTextString(_OUTPUT_CONDITION)}` +
    ` /Info ${pdfTextString(_OUTPUT_CONDITION)} /DestOutputProfile ${icc} 0 R >>`);
  _iccDeflated ??= deflateSync(srgbIccProfile());
  w.compressedStream(icc, _iccDeflated, "/N 3");

  const a = o.attachment;
  const name = pdfTextString(a.name);
  w.object(spec, `<< /Type /Filespec /F ${name} /UF ${name} /Desc ${pdfTextString(a.description)} /AFRelationship /${a.relationship}` +
    ` /EF << /F ${file} 0 R /UF ${file} 0 R >> >>`);
  // /Params: the size before compression, its MD5 (ISO 32000-1 Table 46) and the document's date as ModDate.
  const md5 = createHash("md5").update(a.bytes).digest("hex").toUpperCase();
  w.stream(file, a.bytes, `/Type /EmbeddedFile /Subtype /${a.mimeType.replace("/", "#2F")}` +
    ` /Params << /Size ${a.bytes.length} /ModDate (${dates.info}) /CheckSum <${md5}> >>`);

  const author = o.creator === null ? "" : ` /Author ${pdfTextString(o.creator)}`;
  return {
    catalog: ` /Metadata ${metadata} 0 R /OutputIntents [${intent} 0 R] /Names << /EmbeddedFiles << /Names [${name} ${spec} 0 R] >> >> /AF [${spec} 0 R]`,
    info: `${author} /CreationDate (${dates.info}) /ModDate (${dates.info})`,
  };
}

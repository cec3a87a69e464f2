/**
 * Finds the invoice embedded in a PDF as Factur-X 1.0, ZUGFeRD 2.x and 1.0 and XRechnung-in-PDF
 * carry it: an embedded file (ISO 32000-1 clause 7.11.4) named `factur-x.xml`, `zugferd-invoice.xml`,
 * `ZUGFeRD-invoice.xml` or `xrechnung.xml`, referenced from the catalog's /AF array (PDF/A-3,
 * ISO 19005-3 annex E) or its /Names /EmbeddedFiles name tree (clause 7.9.6). Returns the file's bytes as
 * stored; it does not check that they are XML, nor that the PDF is PDF/A.
 * @module
 */

import { PdfDocument } from "./document.ts";
import { ReadBudget, resolvePdfReadLimits, type PdfReadLimits } from "./limits.ts";
import { PdfReadError } from "./read_error.ts";
import { decodeTextString, dictOf, nameOf, refOf, streamOf, stringOf, type PdfDict, type PdfValue } from "./values.ts";

// What a caller needs beside the function: the error it throws and the limits it takes.
export { DEFAULT_PDF_READ_LIMITS, type PdfReadLimits } from "./limits.ts";
export { PdfReadError, type PdfReadReason } from "./read_error.ts";

/** The embedded invoice: its bytes, its file name, and its /AFRelationship (null when the file has none). */
export interface EmbeddedInvoice {
  xml: Uint8Array;
  filename: string;
  relationship: string | null;
}

/**
 * File names of an embedded invoice (Factur-X 1.0 and ZUGFeRD 2.1+; ZUGFeRD 2.0; XRechnung), compared without
 * case, so that ZUGFeRD 1.0's `ZUGFeRD-invoice.xml` matches the second.
 */
export const INVOICE_FILE_NAMES: readonly string[] = ["factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml"];

/** Relationships the Factur-X and ZUGFeRD specifications give the invoice file (Alternative; Data and Source in some profiles). */
const INVOICE_RELATIONSHIPS = new Set(["Alternative", "Data", "Source"]);

/** How far into a file `%PDF-` may start: readers accept leading bytes (Acrobat within 1024). */
const HEADER_WINDOW = 1024;
const HEADER = [37, 80, 68, 70, 45]; // "%PDF-"

/** True if `bytes` starts like a PDF: `%PDF-` within the first 1024 bytes. */
export function isPdf(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length - HEADER.length, HEADER_WINDOW);
  outer: for (let i = 0; i <= end; i++) {
    for (let k = 0; k < HEADER.length; k++) if (bytes[i + k] !== HEADER[k]) continue outer;
    return true;
  }
  return false;
}

interface _Candidate {
  filename: string;
  relationship: string | null;
  spec: PdfDict;
  fromAf: boolean;
}

/**
 * The invoice embedded in `pdf`, or null for a readable PDF that carries none; throws PdfReadError
 * for a PDF it refuses (damaged, encrypted, over a limit of `limits`).
 */
export function extractEmbeddedInvoice(pdf: Uint8Array, limits: Partial<PdfReadLimits> = {}): EmbeddedInvoice | null {
  const budget = new ReadBudget(resolvePdfReadLimits(limits));
  if (!isPdf(pdf)) throw new PdfReadError("not_pdf", "Not a PDF (no %PDF- header in the first 1024 bytes)");
  const doc = PdfDocument.open(pdf, budget);
  const catalog = doc.catalog();
  const candidates = _candidates(doc, catalog);
  let best: _Candidate | null = null;
  let bestRank = Infinity;
  for (const c of candidates) {
    const rank = _rank(c);
    if (rank < bestRank) { best = c; bestRank = rank; }
  }
  if (best === null || bestRank === Infinity) {
    // A file read by a scan may have lost the revision that embedded the invoice (a cut-short download,
    // an incremental update without its xref): "no invoice" cannot be told from "invoice lost".
    if (doc.recovered) throw new PdfReadError("damaged", "The PDF is damaged and no embedded invoice was found in what could be read");
    return null;
  }
  const ef = dictOf(doc.resolve(best.spec.map.get("EF")));
  const stream = streamOf(doc.resolve(ef?.map.get("F") ?? ef?.map.get("UF")));
  if (stream === null) throw new PdfReadError("damaged", `The embedded file ${best.filename} has no data stream`);
  // A plain Uint8Array of its own: not a Buffer from node:zlib, not a view into `pdf`.
  const data = doc.streamData(stream);
  const xml = new Uint8Array(data.length);
  xml.set(data);
  return { xml, filename: best.filename, relationship: best.relationship };
}

/** Lower is better; Infinity is not an invoice: a known name from /AF with an invoice relationship, then any known name. */
function _rank(c: _Candidate): number {
  const base = c.filename.slice(Math.max(c.filename.lastIndexOf("/"), c.filename.lastIndexOf("\\")) + 1).toLowerCase();
  if (!INVOICE_FILE_NAMES.includes(base)) return Infinity;
  if (c.fromAf && c.relationship !== null && INVOICE_RELATIONSHIPS.has(c.relationship)) return 0;
  return c.fromAf ? 1 : 2;
}

/** Every file specification of the catalog's /AF, then of the /EmbeddedFiles name tree, each once. */
function _candidates(doc: PdfDocument, catalog: PdfDict): _Candidate[] {
  const max = doc.budget.limits.maxEmbeddedFiles;
  const out: _Candidate[] = [];
  const seen = new Set<PdfDict>();
  const add = (spec: PdfValue, key: string | null, fromAf: boolean): void => {
    const d = dictOf(doc.resolve(spec));
    if (d === null || seen.has(d)) return;
    seen.add(d);
    if (out.length >= max) throw new PdfReadError("too_many_files", `More than ${max} embedded files`);
    out.push({ filename: _fileName(doc, d) ?? key ?? "", relationship: nameOf(doc.resolve(d.map.get("AFRelationship"))), spec: d, fromAf });
  };
  const af = doc.resolve(catalog.map.get("AF"));
  if (Array.isArray(af)) for (const spec of af) add(spec, null, true);
  const names = dictOf(doc.resolve(catalog.map.get("Names")));
  const tree = names?.map.get("EmbeddedFiles");
  if (tree !== undefined) _walkNameTree(doc, tree, (key, spec) => add(spec, key, false));
  return out;
}

/** /UF, else /F (clause 7.11.3: /UF is the Unicode name, /F the portable one). */
function _fileName(doc: PdfDocument, spec: PdfDict): string | null {
  for (const key of ["UF", "F"]) {
    const s = stringOf(doc.resolve(spec.map.get(key)));
    if (s !== null && s.length > 0) return decodeTextString(s);
  }
  return null;
}

/** Visits a name tree's leaves (clause 7.9.6) in order: /Names [key value …] and /Kids, each node once, bounded. */
function _walkNameTree(doc: PdfDocument, root: PdfValue, visit: (key: string | null, value: PdfValue) => void): void {
  const max = doc.budget.limits.maxNameTreeNodes;
  const seen = new Set<number>();
  const stack: PdfValue[] = [root];
  let nodes = 0;
  while (stack.length > 0) {
    const v = stack.pop()!;
    const ref = refOf(v);
    if (ref !== null) {
      if (seen.has(ref.num)) throw new PdfReadError("loop", `The embedded files name tree comes back to object ${ref.num}`);
      seen.add(ref.num);
    }
    if (++nodes > max) throw new PdfReadError("name_tree_too_large", `The embedded files name tree has more than ${max} nodes`);
    const node = dictOf(doc.resolve(v));
    if (node === null) continue;
    const leaves = doc.resolve(node.map.get("Names"));
    if (Array.isArray(leaves)) {
      for (let i = 0; i + 1 < leaves.length; i += 2) {
        const key = stringOf(doc.resolve(leaves[i]));
        visit(key === null ? null : decodeTextString(key), leaves[i + 1]!);
      }
    }
    const kids = doc.resolve(node.map.get("Kids"));
    if (Array.isArray(kids)) for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
}

/**
 * Cross-reference data (ISO 32000-1 clause 7.5.4, clause 7.5.5, clause 7.5.6, clause 7.5.8): `startxref`, classic `xref`
 * tables with their `trailer`, cross-reference streams (/Type /XRef with /W, /Index, /Size), hybrid
 * files (/XRefStm), and incremental updates followed through /Prev, the newest entry of an object
 * winning. A /Prev chain that comes back to a section it read is a loop and is refused; any other
 * trouble is "damaged", which document.ts answers by scanning the file for objects instead.
 * @module
 */

import { Buffer } from "node:buffer";
import { decodeStreamData } from "./filters.ts";
import { Lexer, TOKEN } from "./lexer.ts";
import type { ReadBudget } from "./limits.ts";
import { locateStreamEnd, parseDictAt, parseIndirect } from "./parse.ts";
import { PdfReadError } from "./read_error.ts";
import { hasObjectAfter } from "./recover.ts";
import { dictOf, intOf, nameOf, type PdfDict, type PdfValue } from "./values.ts";

/** Where an object is: 0 free, 1 at a byte offset (`a`) with generation `b`, 2 in object stream `a` at index `b`. */
export interface XrefEntry {
  type: 0 | 1 | 2;
  a: number;
  b: number;
}

/** The merged cross-reference data of a file. */
export interface Xref {
  entries: Map<number, XrefEntry>;
  trailer: PdfDict;
}

/** How far from the end `startxref` is looked for: files often carry trailing bytes after %%EOF. */
const STARTXREF_WINDOW = 64 * 1024;
const STARTXREF = Buffer.from("startxref", "latin1");

/** Reads the cross-reference data from `startxref` back through every /Prev; throws PdfReadError. */
export function readXref(bytes: Uint8Array, budget: ReadBudget): Xref {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const from = Math.max(0, bytes.length - STARTXREF_WINDOW);
  const at = view.lastIndexOf(STARTXREF);
  budget.search(bytes.length - Math.max(at, 0));
  if (at < from) throw new PdfReadError("damaged", "No startxref near the end of the file");
  // Objects after it are an incremental update cut short before its own xref: reading the older revision
  // would silently answer for a document the sender did not send, so the file is read by a scan instead.
  if (hasObjectAfter(bytes, at, budget)) throw new PdfReadError("damaged", "Objects follow the last startxref");
  const lx = new Lexer(bytes, at + STARTXREF.length, budget);
  if (lx.next() !== TOKEN.NUMBER || !lx.integer || lx.number >= bytes.length) throw new PdfReadError("damaged", "startxref does not give an offset in the file");
  const start = lx.number;
  try {
    return _readChain(bytes, start, 0, budget);
  } catch (e) {
    // Bytes before `%PDF-` (a mail header, a BOM): writers count offsets from the header, so try that too.
    const shift = _headerOffset(bytes);
    if (!(e instanceof PdfReadError) || e.reason !== "damaged" || shift <= 0) throw e;
    return _readChain(bytes, start, shift, budget);
  }
}

function _headerOffset(bytes: Uint8Array): number {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).indexOf("%PDF-");
}

/** The sections from `start` back through /Prev, every offset moved by `shift`. */
function _readChain(bytes: Uint8Array, start: number, shift: number, budget: ReadBudget): Xref {
  const entries = new Map<number, XrefEntry>();
  const trailer = new Map<string, PdfValue>();
  const seen = new Set<number>();
  const pending = [start + shift];
  while (pending.length > 0) {
    const offset = pending.shift()!;
    if (seen.has(offset)) throw new PdfReadError("loop", `The cross-reference chain comes back to byte ${offset}`);
    seen.add(offset);
    if (seen.size > budget.limits.maxUpdates) throw new PdfReadError("too_many_updates", `More than ${budget.limits.maxUpdates} cross-reference sections`);
    const section = _readSection(bytes, offset, budget);
    // Newest first: an entry already known (from a later update) wins over this older one.
    for (const [num, e] of section.entries) if (!entries.has(num)) entries.set(num, shift > 0 && e.type === 1 ? { type: 1, a: e.a + shift, b: e.b } : e);
    if (entries.size > budget.limits.maxObjects) throw new PdfReadError("too_many_objects", `More than ${budget.limits.maxObjects} objects in the cross-reference data`);
    for (const [k, v] of section.trailer.map) if (!trailer.has(k)) trailer.set(k, v);
    // A hybrid file's /XRefStm is read before its /Prev (clause 7.5.8.4).
    const stm = intOf(section.trailer.map.get("XRefStm"));
    if (stm !== null && section.table) pending.push(stm + shift);
    const prev = intOf(section.trailer.map.get("Prev"));
    if (prev !== null) pending.push(prev + shift);
  }
  return { entries, trailer: { kind: "dict", map: trailer } };
}

interface _Section {
  entries: [number, XrefEntry][];
  trailer: PdfDict;
  table: boolean;
}

function _readSection(bytes: Uint8Array, offset: number, budget: ReadBudget): _Section {
  if (offset < 0 || offset >= bytes.length) throw new PdfReadError("damaged", `A cross-reference offset ${offset} lies outside the file`);
  const lx = new Lexer(bytes, offset, budget);
  if (lx.next() === TOKEN.KEYWORD && lx.text === "xref") return _readTable(lx, budget);
  return _readStream(bytes, offset, budget);
}

function _checkCount(count: number, budget: ReadBudget): void {
  if (count > budget.limits.maxObjects) throw new PdfReadError("too_many_objects", `A cross-reference section lists ${count} objects, more than ${budget.limits.maxObjects}`);
}

/** A classic table (clause 7.5.4): subsections `first count` of `offset gen n|f` lines, then `trailer <<…>>`. */
function _readTable(lx: Lexer, budget: ReadBudget): _Section {
  const entries: [number, XrefEntry][] = [];
  for (;;) {
    const t = lx.next();
    if (t === TOKEN.KEYWORD && lx.text === "trailer") break;
    if (t !== TOKEN.NUMBER || !lx.integer) throw new PdfReadError("damaged", `Cross-reference table damaged at byte ${lx.start}`);
    const first = lx.number;
    if (lx.next() !== TOKEN.NUMBER || !lx.integer) throw new PdfReadError("damaged", `Cross-reference subsection damaged at byte ${lx.start}`);
    const count = lx.number;
    _checkCount(entries.length + count, budget);
    for (let i = 0; i < count; i++) {
      // Tokens rather than fixed 20-byte lines: writers that end lines with one byte (19-byte entries) are common.
      if (lx.next() !== TOKEN.NUMBER) throw new PdfReadError("damaged", `Cross-reference entry damaged at byte ${lx.start}`);
      const off = lx.number;
      if (lx.next() !== TOKEN.NUMBER) throw new PdfReadError("damaged", `Cross-reference entry damaged at byte ${lx.start}`);
      const gen = lx.number;
      if (lx.next() !== TOKEN.KEYWORD || (lx.text !== "n" && lx.text !== "f")) throw new PdfReadError("damaged", `Cross-reference entry damaged at byte ${lx.start}`);
      entries.push([first + i, lx.text === "n" ? { type: 1, a: off, b: gen } : { type: 0, a: 0, b: 0 }]);
    }
  }
  const trailer = parseDictAt(lx.bytes, lx.pos, budget);
  if (trailer === null) throw new PdfReadError("damaged", "The trailer is not a dictionary");
  return { entries, trailer, table: true };
}

/** A cross-reference stream (clause 7.5.8): binary rows of /W field widths for the ranges of /Index. */
function _readStream(bytes: Uint8Array, offset: number, budget: ReadBudget): _Section {
  const obj = parseIndirect(bytes, offset, budget);
  const dict = dictOf(obj.value);
  if (dict === null || obj.streamStart === null || nameOf(dict.map.get("Type")) !== "XRef") {
    throw new PdfReadError("damaged", `No cross-reference table or stream at byte ${offset}`);
  }
  // Its /Length must be direct (clause 7.5.8.2): nothing can be resolved before the xref is read.
  const end = locateStreamEnd(bytes, obj.streamStart, intOf(dict.map.get("Length")), budget);
  const data = decodeStreamData(bytes.subarray(obj.streamStart, end), dict, budget, (v) => v ?? null);
  const w = dict.map.get("W");
  const widths = Array.isArray(w) ? w.map((x) => intOf(x)) : [];
  if (widths.length !== 3 || widths.some((x) => x === null || x < 0 || x > 8)) throw new PdfReadError("damaged", "A cross-reference stream's /W is not three field widths");
  const [w1, w2, w3] = widths as [number, number, number];
  const row = w1 + w2 + w3;
  if (row === 0) throw new PdfReadError("damaged", "A cross-reference stream's /W is all zero");
  const size = intOf(dict.map.get("Size")) ?? 0;
  _checkCount(size, budget);
  const index = dict.map.get("Index");
  const ranges = Array.isArray(index) ? index.map((x) => intOf(x) ?? -1) : [0, size];
  const entries: [number, XrefEntry][] = [];
  let p = 0;
  for (let r = 0; r + 1 < ranges.length; r += 2) {
    const first = ranges[r]!, count = ranges[r + 1]!;
    if (first < 0 || count < 0) throw new PdfReadError("damaged", "A cross-reference stream's /Index is damaged");
    _checkCount(entries.length + count, budget);
    for (let i = 0; i < count && p + row <= data.length; i++, p += row) {
      const type = w1 === 0 ? 1 : _field(data, p, w1);
      const a = _field(data, p + w1, w2);
      const b = _field(data, p + w1 + w2, w3);
      // Unknown types are references to null (clause 7.5.8.3); kept as free so older sections do not revive them.
      entries.push([first + i, type === 1 ? { type: 1, a, b } : type === 2 ? { type: 2, a, b } : { type: 0, a: 0, b: 0 }]);
    }
  }
  return { entries, trailer: dict, table: false };
}

function _field(data: Uint8Array, p: number, width: number): number {
  let v = 0;
  for (let i = 0; i < width; i++) v = v * 256 + data[p + i]!;
  return v;
}

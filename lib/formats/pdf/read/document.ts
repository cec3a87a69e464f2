/**
 * A PDF file opened for reading objects (ISO 32000-1 clause 7.5, clause 7.5.7): the cross-reference data of
 * xref.ts, objects parsed on demand and cached, object streams (/Type /ObjStm), references followed
 * with a guard against loops, and stream data decoded by filters.ts. When the cross-reference data
 * is damaged it falls back to scanning the file for `N G obj` (recover.ts), as every reader does.
 * It does not decrypt: an encrypted file is refused.
 * @module
 */

import { Buffer } from "node:buffer";
import { decodeStreamData } from "./filters.ts";
import { Lexer, TOKEN } from "./lexer.ts";
import type { ReadBudget } from "./limits.ts";
import { locateStreamEnd, parseIndirect, parseValue } from "./parse.ts";
import { PdfReadError } from "./read_error.ts";
import { scanObjects } from "./recover.ts";
import { dictOf, intOf, nameOf, refOf, streamOf, type PdfDict, type PdfStream, type PdfValue } from "./values.ts";
import { readXref, type XrefEntry } from "./xref.ts";

interface _ObjectStream {
  data: Uint8Array;
  /** Pairs of object number and offset (from /First). */
  index: number[];
}

/** The objects of one PDF file. */
export class PdfDocument {
  readonly bytes: Uint8Array;
  readonly budget: ReadBudget;
  trailer: PdfDict = { kind: "dict", map: new Map() };
  /** True when the cross-reference data was rebuilt by scanning. */
  recovered = false;
  #entries = new Map<number, XrefEntry>();
  #cache = new Map<number, PdfValue>();
  #resolving = new Set<number>();
  #objectStreams = new Map<number, _ObjectStream>();
  #scanned: Map<number, number> | null = null;

  constructor(bytes: Uint8Array, budget: ReadBudget) {
    this.bytes = bytes;
    this.budget = budget;
  }

  /** Opens `bytes` (use this, not the constructor): cross-reference data, else a scan; throws PdfReadError. */
  static open(bytes: Uint8Array, budget: ReadBudget): PdfDocument {
    const doc = new PdfDocument(bytes, budget);
    try {
      const xref = readXref(bytes, budget);
      doc.#entries = xref.entries;
      doc.trailer = xref.trailer;
      if (dictOf(doc.resolve(doc.trailer.map.get("Root"))) === null) throw new PdfReadError("damaged", "The trailer has no /Root catalog");
    } catch (e) {
      if (!(e instanceof PdfReadError) || e.reason !== "damaged") throw e;
      doc.#recover();
    }
    if (doc.trailer.map.has("Encrypt")) throw new PdfReadError("encrypted", "The PDF is encrypted");
    return doc;
  }

  /** The document catalog (clause 7.7.2). */
  catalog(): PdfDict {
    const root = dictOf(this.resolve(this.trailer.map.get("Root")));
    if (root === null) throw new PdfReadError("damaged", "The PDF has no catalog");
    return root;
  }

  /** `v` with a reference followed (to null for a missing object, clause 7.3.10). */
  resolve(v: PdfValue | undefined): PdfValue {
    const ref = refOf(v);
    return ref === null ? v ?? null : this.object(ref.num);
  }

  /** Object `num`, parsed and cached. */
  object(num: number): PdfValue {
    const cached = this.#cache.get(num);
    if (cached !== undefined) return cached;
    if (this.#resolving.has(num)) throw new PdfReadError("loop", `Object ${num} refers back to itself while it is read`);
    // Reading one object can need another (a /Length, an object stream) and so on: a chain as long as
    // the file is long would exhaust the call stack, so it is bounded like nesting.
    if (this.#resolving.size >= this.budget.limits.maxDepth) throw new PdfReadError("too_deep", `Reading object ${num} needs a chain of more than ${this.budget.limits.maxDepth} other objects`);
    this.#resolving.add(num);
    try {
      const v = this.#load(num);
      this.#cache.set(num, v);
      return v;
    } finally {
      this.#resolving.delete(num);
    }
  }

  /** A stream's decoded data. */
  streamData(stream: PdfStream): Uint8Array {
    return decodeStreamData(stream.source.subarray(stream.start, stream.end), stream.dict, this.budget, (v) => this.resolve(v));
  }

  #load(num: number): PdfValue {
    const e = this.#entries.get(num);
    if (e === undefined) {
      // Missing from the cross-reference data: null (clause 7.3.10), unless a scan finds it. In a file already
      // rebuilt by scanning, a missing object means the file lost it.
      const off = this.#scan().get(num);
      if (off !== undefined) return this.#atOffset(num, off);
      if (this.recovered) throw new PdfReadError("damaged", `Object ${num} is missing`);
      return null;
    }
    if (e.type === 0) return null;
    if (e.type === 2) return this.#inObjectStream(num, e.a, e.b);
    try {
      return this.#atOffset(num, e.a);
    } catch (err) {
      if (!(err instanceof PdfReadError) || err.reason !== "damaged" || this.recovered) throw err;
      // A wrong offset: look where a scan finds the object.
      const off = this.#scan().get(num);
      if (off === undefined || off === e.a) throw err;
      return this.#atOffset(num, off);
    }
  }

  #atOffset(num: number, offset: number): PdfValue {
    if (offset < 0 || offset >= this.bytes.length) throw new PdfReadError("damaged", `Object ${num} lies outside the file`);
    const obj = parseIndirect(this.bytes, offset, this.budget);
    if (obj.num !== num) throw new PdfReadError("damaged", `Object ${num} is not at byte ${offset}`);
    const dict = dictOf(obj.value);
    if (obj.streamStart === null || dict === null) return obj.value;
    const length = intOf(this.resolve(dict.map.get("Length")));
    const end = locateStreamEnd(this.bytes, obj.streamStart, length, this.budget);
    return { kind: "stream", dict, source: this.bytes, start: obj.streamStart, end };
  }

  #inObjectStream(num: number, container: number, index: number): PdfValue {
    const os = this.#objectStream(container);
    // The index usually says where the object is; check, and look it up by number if not.
    let i = 2 * index < os.index.length && os.index[2 * index] === num ? index : -1;
    if (i < 0) for (let k = 0; k < os.index.length; k += 2) if (os.index[k] === num) { i = k / 2; break; }
    if (i < 0) return null;
    this.budget.object();
    const lx = new Lexer(os.data, os.index[2 * i + 1]!, this.budget);
    return parseValue(lx);
  }

  /** An object stream's decoded data and index (clause 7.5.7). */
  #objectStream(container: number): _ObjectStream {
    const known = this.#objectStreams.get(container);
    if (known !== undefined) return known;
    // Reading the container goes through object(), whose guard refuses one that (indirectly) contains itself.
    const stream = streamOf(this.object(container));
    if (stream === null) throw new PdfReadError("damaged", `Object stream ${container} is not a stream`);
    const n = intOf(this.resolve(stream.dict.map.get("N"))) ?? -1;
    const first = intOf(this.resolve(stream.dict.map.get("First"))) ?? -1;
    if (n < 0 || first < 0) throw new PdfReadError("damaged", `Object stream ${container} has no /N or /First`);
    if (n > this.budget.limits.maxObjects) throw new PdfReadError("too_many_objects", `Object stream ${container} holds ${n} objects, more than ${this.budget.limits.maxObjects}`);
    const data = this.streamData(stream);
    const lx = new Lexer(data.subarray(0, Math.min(first, data.length)), 0, this.budget);
    const index: number[] = [];
    for (let k = 0; k < 2 * n; k++) {
      if (lx.next() !== TOKEN.NUMBER || !lx.integer) break; // a short index: the objects it does list
      index.push(k % 2 === 0 ? lx.number : first + lx.number);
    }
    const os = { data, index };
    this.#objectStreams.set(container, os);
    return os;
  }

  /** Object number to offset of every `N G obj` in the file (the last one wins), scanned once. */
  #scan(): Map<number, number> {
    this.#scanned ??= scanObjects(this.bytes, this.budget).objects;
    return this.#scanned;
  }

  /**
   * The objects, in file order, whose text names /Catalog, /ObjStm or /XRef: only those are parsed when the
   * catalog must be found by a scan, so a broken file of many objects is not parsed whole.
   */
  #typedObjects(objects: Map<number, number>): number[] {
    const byOffset = [...objects].sort((a, b) => a[1] - b[1]);
    const offsets = byOffset.map((e) => e[1]);
    const view = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length);
    const found = new Set<number>();
    for (const word of _TYPES) {
      this.budget.search(this.bytes.length);
      for (let at = view.indexOf(word); at >= 0; at = view.indexOf(word, at + word.length)) {
        const i = _upperBound(offsets, at) - 1; // the object this occurrence lies in
        if (i >= 0) found.add(i);
      }
    }
    return [...found].sort((a, b) => a - b).map((i) => byOffset[i]![0]);
  }

  /** Rebuilds the cross-reference data from a scan of the whole file. */
  #recover(): void {
    const scan = scanObjects(this.bytes, this.budget);
    this.#scanned = scan.objects;
    this.recovered = true;
    this.#entries = new Map();
    for (const [num, off] of scan.objects) this.#entries.set(num, { type: 1, a: off, b: 0 });
    this.#cache.clear();
    this.#objectStreams.clear();
    this.trailer = { kind: "dict", map: new Map() };
    // The newest `trailer` dictionary that names a catalog.
    for (const t of scan.trailers.toReversed()) if (dictOf(this.resolve(t.map.get("Root"))) !== null) { this.trailer = t; return; }
    // No usable trailer (a file with cross-reference streams, or a lost end): find the catalog among the objects,
    // including those inside object streams.
    let root: number | null = null;
    for (const num of this.#typedObjects(scan.objects)) {
      let v: PdfValue;
      try { v = this.object(num); } catch (e) { if (e instanceof PdfReadError && e.reason === "damaged") continue; throw e; }
      const d = dictOf(v);
      const type = nameOf(d?.map.get("Type"));
      if (type === "Catalog") root = num;
      else if (type === "XRef" && d!.map.has("Root")) this.trailer = d!;
      else if (type === "ObjStm") {
        let os: _ObjectStream;
        try { os = this.#objectStream(num); } catch (e) { if (e instanceof PdfReadError && e.reason === "damaged") continue; throw e; }
        const inners: number[] = [];
        for (let k = 0; k < os.index.length; k += 2) {
          const inner = os.index[k]!;
          if (this.#entries.has(inner)) continue;
          this.#entries.set(inner, { type: 2, a: num, b: k / 2 });
          inners.push(inner);
        }
        if (!Buffer.from(os.data.buffer, os.data.byteOffset, os.data.length).includes(_TYPES[0]!)) continue;
        for (const inner of inners) {
          try {
            if (nameOf(dictOf(this.object(inner))?.map.get("Type")) === "Catalog") root = inner;
          } catch (e) {
            if (!(e instanceof PdfReadError) || e.reason !== "damaged") throw e;
          }
        }
      }
    }
    if (dictOf(this.resolve(this.trailer.map.get("Root"))) !== null) return;
    if (root === null) throw new PdfReadError("damaged", "The cross-reference data is damaged and no catalog was found");
    this.trailer = { kind: "dict", map: new Map([["Root", { kind: "ref", num: root, gen: 0 }]]) };
  }
}

const _TYPES = ["/Catalog", "/ObjStm", "/XRef"].map((t) => Buffer.from(t, "latin1"));

/** The index of the first element of sorted `a` greater than `x`. */
function _upperBound(a: number[], x: number): number {
  let lo = 0, hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The fallback of a reader whose cross-reference data is damaged (ISO 32000-1 clause 7.5.4 says offsets
 * must be exact; files cut short or edited by hand break them): one pass over the file for every
 * `N G obj` and every `trailer`. The last definition of a number wins, as in an incremental update.
 * @module
 */

import { Buffer } from "node:buffer";
import { isBoundary, isWhite } from "./lexer.ts";
import type { ReadBudget } from "./limits.ts";
import { parseDictAt } from "./parse.ts";
import { PdfReadError } from "./read_error.ts";
import type { PdfDict } from "./values.ts";

const OBJ = Buffer.from("obj", "latin1");
const TRAILER = Buffer.from("trailer", "latin1");
const D0 = 48, D9 = 57;

/** What a scan found: object number to the offset of its `N G obj`, and the `trailer` dictionaries in file order. */
export interface ScanResult {
  objects: Map<number, number>;
  trailers: PdfDict[];
}

/** Scans the whole file; throws PdfReadError past the object or work limits. */
export function scanObjects(bytes: Uint8Array, budget: ReadBudget): ScanResult {
  budget.search(bytes.length);
  const objects = new Map<number, number>();
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  // Buffer.indexOf: real files have few objects per megabyte, and it skips the bytes between them fastest.
  for (let at = view.indexOf(OBJ, 1); at >= 0; at = view.indexOf(OBJ, at + OBJ.length)) {
    if (!isBoundary(bytes[at + OBJ.length])) continue;
    const start = _header(bytes, at);
    if (start === null) continue;
    objects.delete(start.num); // re-inserted last: iteration order follows the file
    objects.set(start.num, start.offset);
    if (objects.size > budget.limits.maxObjects) throw new PdfReadError("too_many_objects", `More than ${budget.limits.maxObjects} objects found in the file`);
  }
  const trailers: PdfDict[] = [];
  for (let at = view.indexOf(TRAILER, 0); at >= 0; at = view.indexOf(TRAILER, at + TRAILER.length)) {
    try {
      const d = parseDictAt(bytes, at + TRAILER.length, budget);
      if (d !== null) trailers.push(d);
    } catch (e) {
      if (!(e instanceof PdfReadError) || e.reason !== "damaged") throw e;
    }
  }
  return { objects, trailers };
}

/** True if an `N G obj` starts at or after `from` (objects after the last startxref: an update that lost its xref). */
export function hasObjectAfter(bytes: Uint8Array, from: number, budget: ReadBudget): boolean {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  budget.search(bytes.length - from);
  for (let at = view.indexOf(OBJ, from); at >= 0; at = view.indexOf(OBJ, at + OBJ.length)) {
    if (isBoundary(bytes[at + OBJ.length]) && _header(bytes, at) !== null) return true;
  }
  return false;
}

/** `N G` before the `obj` at `at`, with white space around, or null. */
function _header(bytes: Uint8Array, at: number): { num: number; offset: number } | null {
  let p = at - 1;
  if (!isWhite(bytes[p])) return null;
  while (p >= 0 && isWhite(bytes[p])) p--;
  const genEnd = p + 1;
  while (p >= 0 && bytes[p]! >= D0 && bytes[p]! <= D9) p--;
  if (p + 1 === genEnd || genEnd - p > 6) return null;
  if (!isWhite(bytes[p])) return null;
  while (p >= 0 && isWhite(bytes[p])) p--;
  const numEnd = p + 1;
  while (p >= 0 && bytes[p]! >= D0 && bytes[p]! <= D9) p--;
  if (p + 1 === numEnd || numEnd - p > 11) return null;
  if (p >= 0 && !isBoundary(bytes[p])) return null;
  let num = 0;
  for (let i = p + 1; i < numEnd; i++) num = num * 10 + bytes[i]! - D0;
  return { num, offset: p + 1 };
}

/**
 * Stream filters the reader decodes (ISO 32000-1 clause 7.4): FlateDecode with the PNG and TIFF
 * predictors of /DecodeParms (clause 7.4.4.4; cross-reference streams use PNG Up), and no filter. Every
 * output is capped by the per-stream and the total limit before it is produced (node:zlib's
 * maxOutputLength), so a deflate bomb stops at the cap. Other filters are refused as "unsupported".
 * @module
 */

import { constants, inflateSync } from "node:zlib";
import type { ReadBudget } from "./limits.ts";
import { PdfReadError } from "./read_error.ts";
import { dictOf, intOf, nameOf, type PdfDict, type PdfValue } from "./values.ts";

/** Decodes `raw` by the filters of `dict`; `resolve` follows references in /Filter and /DecodeParms. */
export function decodeStreamData(raw: Uint8Array, dict: PdfDict, budget: ReadBudget, resolve: (v: PdfValue | undefined) => PdfValue): Uint8Array {
  const filter = resolve(dict.map.get("Filter"));
  const parms = resolve(dict.map.get("DecodeParms"));
  const filters = Array.isArray(filter) ? filter.map((f) => resolve(f)) : filter === null ? [] : [filter];
  let data = raw;
  for (let i = 0; i < filters.length; i++) {
    const name = nameOf(filters[i]);
    const p = dictOf(resolve(Array.isArray(parms) ? parms[i] : i === 0 ? parms : null));
    if (name === "FlateDecode" || name === "Fl") data = _predict(_inflate(data, budget), p, budget);
    else throw new PdfReadError("unsupported", `Stream filter ${name ?? "(not a name)"} is not supported`);
  }
  if (filters.length === 0) {
    if (data.length > budget.limits.maxStreamBytes) throw new PdfReadError("stream_too_large", `A stream is larger than ${budget.limits.maxStreamBytes} bytes`);
    budget.decoded(data.length);
  }
  return data;
}

function _inflate(data: Uint8Array, budget: ReadBudget): Uint8Array {
  const left = budget.decodedLeft();
  const perStream = budget.limits.maxStreamBytes;
  if (left <= 0) throw new PdfReadError("too_much_data", `This PDF's streams decode to more than ${budget.limits.maxTotalBytes} bytes`);
  const cap = Math.min(perStream, left);
  let out: Uint8Array;
  try {
    // Z_SYNC_FLUSH: a stream cut short (or missing its Adler-32) gives what it holds, as PDF readers do.
    out = inflateSync(data, { maxOutputLength: cap, finishFlush: constants.Z_SYNC_FLUSH });
  } catch (e) {
    if (e instanceof RangeError) {
      throw perStream <= left
        ? new PdfReadError("stream_too_large", `A stream decodes to more than ${perStream} bytes`)
        : new PdfReadError("too_much_data", `This PDF's streams decode to more than ${budget.limits.maxTotalBytes} bytes`);
    }
    throw new PdfReadError("damaged", `A Flate stream is damaged: ${(e as Error).message}`);
  }
  budget.decoded(out.length);
  return out;
}

/** Undoes a /Predictor (clause 7.4.4.4): 1 none, 2 TIFF (8-bit components), 10–15 PNG (per-row filter byte). */
function _predict(data: Uint8Array, parms: PdfDict | null, budget: ReadBudget): Uint8Array {
  if (parms === null) return data;
  const predictor = intOf(parms.map.get("Predictor")) ?? 1;
  if (predictor === 1) return data;
  const colors = intOf(parms.map.get("Colors")) ?? 1;
  const bpc = intOf(parms.map.get("BitsPerComponent")) ?? 8;
  const columns = intOf(parms.map.get("Columns")) ?? 1;
  if (colors < 1 || colors > 32 || ![1, 2, 4, 8, 16].includes(bpc) || columns < 1 || columns > 1 << 24) {
    throw new PdfReadError("unsupported", `Predictor parameters Colors ${colors}, BitsPerComponent ${bpc}, Columns ${columns} are not supported`);
  }
  const bpp = Math.max(1, Math.ceil((colors * bpc) / 8));
  const rowBytes = Math.ceil((colors * bpc * columns) / 8);
  budget.work(data.length);
  if (predictor === 2) {
    if (bpc !== 8) throw new PdfReadError("unsupported", `TIFF predictor with ${bpc} bits per component is not supported`);
    const out = Uint8Array.from(data);
    for (let row = 0; row + rowBytes <= out.length; row += rowBytes) {
      for (let i = bpp; i < rowBytes; i++) out[row + i] = (out[row + i]! + out[row + i - bpp]!) & 0xff;
    }
    return out;
  }
  if (predictor < 10 || predictor > 15) throw new PdfReadError("unsupported", `Predictor ${predictor} is not supported`);
  const rows = Math.floor(data.length / (rowBytes + 1));
  const out = new Uint8Array(rows * rowBytes);
  let prev = -1; // start of the previous row in `out`
  for (let r = 0; r < rows; r++) {
    const src = r * (rowBytes + 1);
    const type = data[src]!;
    const dst = r * rowBytes;
    for (let i = 0; i < rowBytes; i++) {
      const x = data[src + 1 + i]!;
      const a = i >= bpp ? out[dst + i - bpp]! : 0;
      const b = prev >= 0 ? out[prev + i]! : 0;
      let v: number;
      switch (type) {
        case 0: v = x; break;
        case 1: v = x + a; break;
        case 2: v = x + b; break;
        case 3: v = x + ((a + b) >> 1); break;
        case 4: {
          const c = prev >= 0 && i >= bpp ? out[prev + i - bpp]! : 0;
          const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c);
          v = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
          break;
        }
        default: throw new PdfReadError("damaged", `Unknown PNG filter type ${type} in row ${r}`);
      }
      out[dst + i] = v & 0xff;
    }
    prev = dst;
  }
  return out;
}

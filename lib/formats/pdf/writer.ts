/**
 * Low-level PDF file writer (ISO 32000-1 §7.5): numbered indirect objects, Flate-compressed
 * streams, the cross-reference table and the trailer with an /ID derived from the content, so
 * the same input gives the same bytes. Knows nothing about pages or fonts: document.ts builds
 * those. No incremental updates, object streams or encryption.
 * @module
 */

import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";

/** File header; the second line's high bytes mark the file as binary (§7.5.2). */
const _HEADER = "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n";

/** Collects indirect objects and serializes them into one PDF file. */
export class PdfWriter {
  #chunks: Uint8Array[] = [];
  #offsets: number[] = [0];
  #length = 0;
  #count = 0;

  constructor() {
    this.#push(_HEADER);
  }

  /** Reserves the next object number, so objects can refer to ones written later. */
  reserve(): number {
    this.#count++;
    this.#offsets.push(-1);
    return this.#count;
  }

  /** Writes an object: `body` is its PDF syntax, e.g. "<< /Type /Catalog … >>". */
  object(num: number, body: string): void {
    this.#offsets[num] = this.#length;
    this.#push(`${num} 0 obj\n${body}\nendobj\n`);
  }

  /** Writes a stream object, Flate-compressed; `dict` holds extra entries ("/Subtype /Image …"). */
  stream(num: number, data: Uint8Array | string, dict = ""): void {
    const raw = typeof data === "string" ? Buffer.from(data, "latin1") : data;
    this.compressedStream(num, deflateSync(raw), dict);
  }

  /** Writes a stream object whose data is already Flate-compressed (e.g. cached constants). */
  compressedStream(num: number, deflated: Uint8Array, dict = "", flate = true): void {
    this.#offsets[num] = this.#length;
    const sep = dict === "" ? "" : " ";
    this.#push(`${num} 0 obj\n<< /Length ${deflated.length}${flate ? " /Filter /FlateDecode" : ""}${sep}${dict} >>\nstream\n`);
    this.#chunks.push(deflated);
    this.#length += deflated.length;
    this.#push("\nendstream\nendobj\n");
  }

  /** Writes a stream object as it is, without a filter (an XMP metadata stream, which PDF/A readers scan for). */
  rawStream(num: number, data: Uint8Array, dict = ""): void {
    this.compressedStream(num, data, dict, false);
  }

  /** The finished file: xref table and trailer appended; every reserved object must be written. */
  finish(root: number, info: number): Uint8Array {
    const body = Buffer.concat(this.#chunks, this.#length);
    // The /ID is a hash of everything before it (§14.4): stable for the same content.
    const id = createHash("sha256").update(body).digest("hex").slice(0, 32).toUpperCase();
    const xref: string[] = [`xref\n0 ${this.#count + 1}\n0000000000 65535 f \n`];
    for (let n = 1; n <= this.#count; n++) {
      const off = this.#offsets[n] ?? -1;
      if (off < 0) throw new Error(`PDF object ${n} was reserved but never written`);
      // Each entry is exactly 20 bytes (§7.5.4).
      xref.push(`${String(off).padStart(10, "0")} 00000 n \n`);
    }
    const tail = `${xref.join("")}trailer\n<< /Size ${this.#count + 1} /Root ${root} 0 R /Info ${info} 0 R /ID [<${id}> <${id}>] >>\n` +
      `startxref\n${this.#length}\n%%EOF\n`;
    const out = new Uint8Array(this.#length + tail.length);
    out.set(body, 0);
    out.set(Buffer.from(tail, "latin1"), this.#length);
    return out;
  }

  #push(s: string): void {
    const b = Buffer.from(s, "latin1");
    this.#chunks.push(b);
    this.#length += b.length;
  }
}

/** A PDF text string (§7.9.2.2): a literal for printable ASCII, else UTF-16BE hex with a BOM. */
export function pdfTextString(s: string): string {
  if (/^[\x20-\x7e]*$/.test(s)) return `(${s.replace(/[\\()]/g, "\\$&")})`;
  let hex = "<FEFF";
  for (let i = 0; i < s.length; i++) hex += s.charCodeAt(i).toString(16).toUpperCase().padStart(4, "0");
  return `${hex}>`;
}

/** A number for content streams and object syntax: at most two decimals, no exponent. */
export function num(x: number): string {
  const r = Math.round(x * 100) / 100;
  return r === 0 ? "0" : String(r);
}

/**
 * Builds PDF files byte by byte for the PDF reader's tests: objects with optional stream data,
 * written with a classic xref table or a cross-reference stream (PNG Up predictor, as writers use),
 * some objects packed into an object stream, and incremental updates appended to an existing file.
 * Knows no page content: the files are structure only, which is all the reader looks at.
 * @module
 */
import { Buffer } from "node:buffer";
import { deflateSync } from "node:zlib";

/** One object: its body (PDF syntax) and, for a stream, its data as stored (the dict gets /Length). */
export interface BuiltObject {
  num: number;
  body: string;
  stream?: Uint8Array;
}

/** Options of PdfBuilder.finish(). */
export interface FinishOptions {
  root: number;
  /** "table" (default) or "stream" (a /Type /XRef stream). */
  xref?: "table" | "stream";
  /** Object numbers to pack into one object stream (xref "stream" only). */
  packed?: number[];
  /** Extra trailer entries, e.g. "/Prev 123". */
  trailer?: string;
  /** Cross-reference stream rows to write instead of the true ones: number → [type, field 2, field 3]. */
  entries?: Record<number, [number, number, number]>;
}

/** Writes objects after `base` (an earlier file, for an incremental update) and finishes with xref and trailer. */
export class PdfBuilder {
  #parts: Buffer[] = [];
  #length = 0;
  #offsets = new Map<number, number>();
  #objects: BuiltObject[] = [];
  readonly prev: number | null;

  constructor(base?: Uint8Array) {
    if (base === undefined) {
      this.#push(Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1"));
      this.prev = null;
    } else {
      this.#push(Buffer.from(base));
      const text = Buffer.from(base).toString("latin1");
      this.prev = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1]);
    }
  }

  /** Adds an object. */
  add(num: number, body: string, stream?: Uint8Array): this {
    this.#objects.push(stream === undefined ? { num, body } : { num, body, stream });
    return this;
  }

  /** The finished file. */
  finish(o: FinishOptions): Uint8Array {
    const packed = new Set(o.packed ?? []);
    const inStream = this.#objects.filter((x) => packed.has(x.num));
    let size = Math.max(0, ...this.#objects.map((x) => x.num)) + 1;
    for (const x of this.#objects.filter((y) => !packed.has(y.num))) this.#write(x);
    const compressed = new Map<number, [number, number]>();
    if (inStream.length > 0) {
      const stmNum = size++;
      let header = "", body = "";
      inStream.forEach((x, i) => { header += `${x.num} ${body.length} `; body += `${x.body}\n`; compressed.set(x.num, [stmNum, i]); });
      const data = deflateSync(Buffer.from(header + body, "latin1"));
      this.#write({ num: stmNum, body: `<< /Type /ObjStm /N ${inStream.length} /First ${header.length} /Filter /FlateDecode >>`, stream: data });
    }
    const prev = this.prev === null ? "" : ` /Prev ${this.prev}`;
    const extra = `${prev}${o.trailer === undefined ? "" : ` ${o.trailer}`}`;
    if ((o.xref ?? "table") === "table") {
      const at = this.#length;
      const nums = [...this.#offsets.keys()].sort((a, b) => a - b);
      let xref = this.prev === null ? "xref\n0 1\n0000000000 65535 f \n" : "xref\n";
      for (const n of nums) xref += `${n} 1\n${String(this.#offsets.get(n)).padStart(10, "0")} 00000 n \n`;
      this.#push(Buffer.from(`${xref}trailer\n<< /Size ${size} /Root ${o.root} 0 R${extra} >>\nstartxref\n${at}\n%%EOF\n`, "latin1"));
    } else {
      const xrefNum = size++;
      const at = this.#length;
      // Rows of /W [1 4 2]: type, offset or object stream number, generation or index; PNG Up per row.
      const rows: number[][] = [];
      const index: number[] = [];
      const entries = new Map<number, number[]>();
      for (const [n, off] of this.#offsets) entries.set(n, [1, off, 0]);
      for (const [n, [stm, i]] of compressed) entries.set(n, [2, stm, i]);
      entries.set(xrefNum, [1, at, 0]);
      if (this.prev === null) entries.set(0, [0, 0, 65535]);
      for (const [n, row] of Object.entries(o.entries ?? {})) entries.set(Number(n), row);
      for (const n of [...entries.keys()].sort((a, b) => a - b)) { index.push(n, 1); rows.push(_row(entries.get(n)!)); }
      const raw: number[] = [];
      let last = [0, 0, 0, 0, 0, 0, 0];
      for (const r of rows) { raw.push(2, ...r.map((b, i) => (b - last[i]! + 256) & 0xff)); last = r; }
      const data = deflateSync(Uint8Array.from(raw));
      this.#write({
        num: xrefNum,
        body: `<< /Type /XRef /Size ${size} /Root ${o.root} 0 R /W [1 4 2] /Index [${index.join(" ")}] /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 7 >>${extra} >>`,
        stream: data,
      });
      this.#push(Buffer.from(`startxref\n${at}\n%%EOF\n`, "latin1"));
    }
    return Buffer.concat(this.#parts, this.#length);
  }

  #write(x: BuiltObject): void {
    this.#offsets.set(x.num, this.#length);
    if (x.stream === undefined) { this.#push(Buffer.from(`${x.num} 0 obj\n${x.body}\nendobj\n`, "latin1")); return; }
    const dict = x.body.replace(/>>\s*$/, ` /Length ${x.stream.length} >>`);
    this.#push(Buffer.from(`${x.num} 0 obj\n${dict}\nstream\n`, "latin1"));
    this.#push(Buffer.from(x.stream));
    this.#push(Buffer.from("\nendstream\nendobj\n", "latin1"));
  }

  #push(b: Buffer): void {
    this.#parts.push(b);
    this.#length += b.length;
  }
}

function _row([type, a, b]: number[]): number[] {
  return [type!, (a! >>> 24) & 255, (a! >>> 16) & 255, (a! >>> 8) & 255, a! & 255, (b! >>> 8) & 255, b! & 255];
}

/** The objects of a minimal Factur-X-like file: catalog with /AF and /Names, one page, the embedded XML (objects 1–6). */
export function facturxObjects(xml: Uint8Array, name = "factur-x.xml", relationship = "Alternative"): BuiltObject[] {
  return [
    { num: 1, body: `<< /Type /Catalog /Pages 2 0 R /AF [5 0 R] /Names << /EmbeddedFiles 4 0 R >> >>` },
    { num: 2, body: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>" },
    { num: 3, body: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>" },
    { num: 4, body: `<< /Names [(${name}) 5 0 R] >>` },
    { num: 5, body: `<< /Type /Filespec /F (${name}) /UF (${name}) /AFRelationship /${relationship} /EF << /F 6 0 R >> >>` },
    { num: 6, body: "<< /Type /EmbeddedFile /Subtype /text#2Fxml /Filter /FlateDecode >>", stream: deflateSync(xml) },
  ];
}

/**
 * The `inbox` document source (README “Documents and the inbox”): a drop folder per tenant,
 * `<data>/inbox/<tenant>/`. `NAME.xml` is a document with external id NAME; `NAME.pdf` (without an `.xml`
 * twin) is one too when it carries its invoice (Factur-X, ZUGFeRD, XRechnung in a PDF: README "EU formats"),
 * the PDF kept as the document's original; `NAME.json` without its `.xml` twin is a document whose XML is not yet
 * available. Names starting with `.` or ending in `.tmp`/`.part` are being
 * written and are ignored. Acknowledged files move to `processed/`, rejected
 * ones (unreadable, too large, a name that is not UTF-8) to `failed/`, so a
 * sync looks only at new files. A file's size is checked before it is read.
 * @module
 */
import { Buffer } from "node:buffer";
import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
import { mkdir, readdir, rename } from "node:fs/promises";
import { join } from "node:path";
import { setImmediate } from "node:timers";
import type { DocumentSource, SourceItem } from "../../lib/contracts/document_source.ts";
import { extractEmbeddedInvoice, PdfReadError } from "../../lib/formats/pdf/read/embedded_invoice.ts";
import { fsyncDirAsync } from "../atomic.ts";

/** The longest the listing of a large inbox holds the event loop at a time. */
const LISTING_TURN_MS = 10;
/** Larger files are refused as failed items, without being read. */
export const MAX_INBOX_FILE = 64 * 1024 * 1024;

const _utf8 = new TextDecoder("utf-8", { fatal: true });
const _lossy = new TextDecoder("utf-8");

/** The invoice a PDF carries, with the PDF as the item's original; a refused PDF or one without an invoice fails the item. */
function _readPdf(item: SourceItem, bytes: Uint8Array): void {
  try {
    const embedded = extractEmbeddedInvoice(bytes);
    if (embedded === null) item.error = { code: "NO_EMBEDDED_INVOICE", message: "The PDF carries no embedded invoice (factur-x.xml, zugferd-invoice.xml, xrechnung.xml)" };
    else {
      item.xml = embedded.xml;
      item.original = { media_type: "application/pdf", bytes };
    }
  } catch (e) {
    if (!(e instanceof PdfReadError)) throw e;
    item.error = { code: "VALIDATION_ERROR", message: `The PDF cannot be read (${e.reason}): ${e.message}` };
  }
}

/** A directory entry's name: decoded, or the raw bytes of a name that is not UTF-8. */
type Name = string | Buffer;

function _ignored(name: string): boolean {
  return name.startsWith(".") || name.endsWith(".tmp") || name.endsWith(".part");
}

// A name that is not UTF-8 is joined as bytes: its decoded form names no file.
function _path(dir: string, name: Name): string | Buffer {
  return typeof name === "string" ? join(dir, name) : Buffer.concat([Buffer.from(`${dir}/`), name]);
}

/** Moves waiting for the next group, by inbox directory. */
const _moves = new Map<string, { to: string; names: Name[]; done: () => void; failed: (e: unknown) => void }[]>();

/**
 * Moves files to `to` (processed/ or failed/), off the event loop and grouped: the moves asked for in one turn of the
 * event loop (a sync run acknowledges a batch at once) are renamed, then each directory is flushed once.
 */
function _move(dir: string, to: string, names: Name[]): Promise<void> {
  return new Promise((done, failed) => {
    const queued = _moves.get(dir);
    if (queued) return void queued.push({ to, names, done, failed });
    _moves.set(dir, [{ to, names, done, failed }]);
    setImmediate(() => void _moveGroup(dir));
  });
}

async function _moveGroup(dir: string): Promise<void> {
  const group = _moves.get(dir)!;
  _moves.delete(dir);
  try {
    const targets = new Set(group.map((m) => m.to));
    for (const to of targets) await mkdir(join(dir, to), { recursive: true });
    await Promise.all(group.flatMap((m) => m.names.map((n) => rename(_path(dir, n), _path(join(dir, m.to), n)).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== "ENOENT") throw e; // taken away meanwhile
    }))));
    await Promise.all([dir, ...[...targets].map((to) => join(dir, to))].map(fsyncDirAsync));
  } catch (e) {
    for (const m of group) m.failed(e);
    return;
  }
  for (const m of group) m.done();
}

/** The file's bytes, or null when it is larger than `max` (looked up first: nothing that is refused is read). */
function _readLimited(path: string, max: number): Buffer | null {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    if (size > max) return null;
    // Read up to max + 1, so a file that grew since the look is refused too.
    const buf = Buffer.allocUnsafe(size + 1);
    let n = 0;
    for (let r; n < buf.length && (r = readSync(fd, buf, n, buf.length - n, n)) > 0;) n += r;
    return n > max ? null : buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** The parsed metadata file, or the reason it is not usable. */
function _metadata(bytes: Buffer): Record<string, unknown> | string {
  let meta: unknown;
  try {
    meta = JSON.parse(_utf8.decode(bytes));
  } catch (e) {
    return e instanceof SyntaxError ? "Metadata file is not valid JSON" : "Metadata file is not valid UTF-8";
  }
  return meta && typeof meta === "object" && !Array.isArray(meta) ? (meta as Record<string, unknown>) : "Metadata file is not a JSON object";
}

/** The inbox source of one tenant. */
export function inboxSource(root: string, tenant: string): DocumentSource {
  const dir = join(root, tenant);
  return {
    name: "inbox",
    type: "inbox",
    async *pull(signal) {
      await mkdir(dir, { recursive: true });
      const names = new Set<string>();
      const undecodable: Buffer[] = [];
      // Listed off the event loop, and its names decoded with a turn of the event loop every few milliseconds: an
      // inbox of 100,000 files took several hundred milliseconds to list and decode in one go.
      let turnAt = performance.now();
      for (const e of await readdir(dir, { withFileTypes: true, encoding: "buffer" })) {
        if (performance.now() - turnAt > LISTING_TURN_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          turnAt = performance.now();
        }
        if (!e.isFile()) continue;
        try {
          const name = _utf8.decode(e.name);
          if (!_ignored(name)) names.add(name);
        } catch {
          if (!_ignored(_lossy.decode(e.name))) undecodable.push(e.name);
        }
      }
      // Seen on every sync but never importable: failed, set aside, with the reason.
      for (const raw of undecodable) {
        if (signal.aborted) return;
        yield {
          external_id: _lossy.decode(raw), xml: null, metadata: null,
          error: { code: "VALIDATION_ERROR", message: "File name is not valid UTF-8: rename the file" },
          ack: async () => _move(dir, "failed", [raw]),
          reject: async () => _move(dir, "failed", [raw]),
        } satisfies SourceItem;
      }
      const stems = [...names]
        .filter((n) => n.endsWith(".xml") || ((n.endsWith(".json") || n.endsWith(".pdf")) && !names.has(`${n.slice(0, -4 - (n.endsWith(".json") ? 1 : 0))}.xml`)))
        .sort();
      for (const name of stems) {
        if (signal.aborted) return;
        const xml = name.endsWith(".xml");
        const pdf = name.endsWith(".pdf");
        const stem = name.slice(0, xml || pdf ? -4 : -5);
        const files = [name, ...(xml && names.has(`${stem}.json`) ? [`${stem}.json`] : [])];
        const item: SourceItem = {
          external_id: stem, xml: null, metadata: null,
          ack: async () => _move(dir, "processed", files),
          reject: async () => _move(dir, "failed", files),
        };
        try {
          const bytes = _readLimited(join(dir, name), MAX_INBOX_FILE);
          if (bytes === null) item.error = { code: "PAYLOAD_TOO_LARGE", message: `File is larger than ${MAX_INBOX_FILE} bytes` };
          else if (xml) item.xml = bytes;
          else if (pdf) _readPdf(item, bytes);
          else {
            const meta = _metadata(bytes);
            if (typeof meta === "string") item.error = { code: "VALIDATION_ERROR", message: meta };
            else item.metadata = meta;
          }
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === "ENOENT") continue; // taken away meanwhile
          item.error = { code: "VALIDATION_ERROR", message: "File cannot be read" };
        }
        yield item;
      }
    },
  };
}

/**
 * The contract of a document source (README “Documents and the inbox”): a connector to an external
 * system that yields documents from its own resumable position. The sync run
 * acknowledges each item only after it is stored durably, so a crash between
 * the two replays the item instead of losing it (at-least-once, deduplicated
 * by external id and content hash).
 * @module
 */
import type { KsefQrEnvironment } from "../formats/pdf/ksef_link.ts";
import type { UpstreamWarning } from "./upstream_warnings.ts";

/** One document offered by a source. */
export interface SourceItem {
  external_id: string;
  /** The invoice XML, or null while it is not yet available. */
  xml: Uint8Array | null;
  /** Metadata in the document JSON's shape (README “Documents and the inbox”) when there is no XML yet. */
  metadata: Record<string, unknown> | null;
  /** The number KSeF assigned to the document, when the source knows it. */
  ksef_number?: string | null;
  /**
   * What the source holds when it is not the XML itself: a Factur-X or ZUGFeRD PDF that carries `xml` (README "EU
   * formats"). Kept beside the document as its original (documentOriginalKey) and served as its `/pdf` and `/source`.
   */
  original?: { media_type: string; bytes: Uint8Array };
  /** Set when the source could not read the item; the run counts it as failed. */
  error?: { code: string; message: string };
  /** The item is stored: the source may move past it. */
  ack(): Promise<void>;
  /** The item failed to import: the source may set it aside. */
  reject(): Promise<void>;
}

/** The derived-blob key of the original (SourceItem.original) of the document whose XML is `sha256`. */
export function documentOriginalKey(sha256: string): string {
  return `original-${sha256}`;
}

/** What a run offers a source besides the abort signal. */
export interface PullContext {
  /** The source waits out a limit until `until` (ms since epoch), or has stopped waiting (null); the run shows it. */
  waiting(until: number | null): Promise<void>;
  /**
   * Saves the run's counts and acknowledges every item pulled so far. A source that keeps a position of its own
   * (a cursor, an export window) calls it before moving that position past the items, so that a crash between the
   * two cannot leave the run's counts short of what was imported.
   */
  checkpoint?(): Promise<void>;
  /**
   * The source deliberately leaves a part of itself out of this pull (e.g. a KSeF role inside its minimum interval,
   * README "KSeF"): the run lists it under `skipped`, so a run that looked at nothing never reads as "nothing new".
   * Saved with the run's next save; a part reported twice is listed once, as last reported.
   */
  skipped?(part: SkippedPart): void;
  /**
   * The source's upstream answered with a warning that does not change the answer (KSeF's `X-System-Warning`,
   * README "KSeF"): the run logs it and lists it under `warnings`, each distinct one once.
   */
  warning?(w: UpstreamWarning): void;
}

/** A part of a source that a pull did not look at, why, and when it may be looked at next (ms since epoch, or null). */
export interface SkippedPart {
  part: string;
  reason: string;
  next_at: number | null;
}

/** What a source connected to KSeF says about itself (README "KSeF"). */
export interface KsefSourceInfo {
  /** The KSeF environment its invoices belong to: the host of their QR codes (kody-qr.md). */
  readonly qrEnvironment: KsefQrEnvironment;
  /** The tenant's submissions are sent to KSeF through it (`"send": true`). */
  readonly sends: boolean;
}

/** A source of documents for one tenant. */
export interface DocumentSource {
  /** The name clients use in `{"source": …}` and that documents carry. */
  readonly name: string;
  /** Its kind, as `sources.json` names it (`inbox`, `http`, `ksef`); the summary shows it (absent: `custom`). */
  readonly type?: string;
  /** Set by a source connected to KSeF; absent for others (their invoices' QR codes use production's host). */
  readonly ksef?: KsefSourceInfo;
  /** Items since the last acknowledged one. Throwing fails the run (UPSTREAM_ERROR, or a SourceError's own code). */
  pull(signal: AbortSignal, context?: PullContext): AsyncIterable<SourceItem>;
}

/**
 * A kind of configured source: the `type` of a `sources.json` entry (README, "Writing a storage adapter or a
 * document source"). The process keeps one registry of them; an entry of an unknown type stops it at startup.
 */
export interface SourceType<C extends { name: string } = { name: string }> {
  /** Checks one entry (`where` names it, e.g. `acme[0]`); throws RangeError naming the field at fault. */
  parse(entry: Record<string, unknown>, where: string): C;
  /** The source of a checked entry. */
  create(config: C, context: SourceContext): DocumentSource;
}

/** What the process gives every configured source it makes. */
export interface SourceContext {
  /** The tenant's folder for sources' positions (files named after the source). */
  stateDir: string;
  /** The directory of sources.json: relative file paths in an entry (a certificate, a key) are relative to it. */
  configDir?: string;
  /** The server's upload limit (UPLOAD_LIMIT): no document taken from a source is larger than an upload may be. */
  uploadLimit: number;
}

/** Makes the sources of a tenant; the first is the default. */
export type SourceFactory = (tenant: string) => DocumentSource[];

/** A failure of the source itself (not of one document). */
export class SourceError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "SourceError";
    this.code = code;
  }
}

/** Resolves after `ms`, or at once when `signal` aborts (then or already): how sources wait between retries. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

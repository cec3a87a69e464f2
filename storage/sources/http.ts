/**
 * The `http` document source (README “Documents and the inbox”): another server that speaks this
 * API. A sync walks its change feed with a token of that server and downloads
 * each document's XML. The upstream cursor is stored only after every item of
 * a page has been stored here (README “Parameters”, from the client's side), so a crash
 * re-reads at most one page. Network errors, timeouts and 5xx are retried with
 * backoff; after the last retry the run fails with UPSTREAM_ERROR. The upstream
 * is not trusted: every request has a timeout and a size limit, redirects are
 * never followed (the token stays with its origin), and a page of the wrong
 * shape fails the run naming what was wrong. A tenant's http
 * sources are listed in `<data>/sources.json` (read by server.ts).
 * @module
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { abortableSleep, SourceError, type DocumentSource, type SourceItem } from "../../lib/contracts/document_source.ts";
import { writeFileAtomic } from "../atomic.ts";

/** Options of an http source. */
export interface HttpSourceOptions {
  name: string;
  /** Base URL of the upstream server, e.g. `https://invoices.example.com`. */
  url: string;
  /** A token of the upstream server with documents:read. */
  token: string;
  /** Where the upstream cursor is kept between runs. */
  positionFile: string;
  /** Delays before each retry, ms (default 0.5 s, 1 s, 2 s, 4 s, 8 s). */
  retryDelays?: readonly number[];
  pageSize?: number;
  /** Time for one request, headers and body (default REQUEST_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Largest XML taken: the server's upload limit (UPLOAD_LIMIT), so an upstream document is no larger than an upload; a larger one is a failed document. */
  maxXmlBytes: number;
  /** Largest feed page taken (default MAX_PAGE_BYTES); a larger one fails the run. */
  maxPageBytes?: number;
}

const DEFAULT_RETRIES = [500, 1000, 2000, 4000, 8000];
const PAGE_SIZE = 100;
/** A run renews its lease every 10 s between items (RUN_LEASE_MS / 3): a request may not outlast that. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** 100 compact documents take some 150 KB; 4 MiB leaves room for long names without trusting the upstream. */
export const MAX_PAGE_BYTES = 4 * 1024 * 1024;
const MAX_ID = 200; // an upstream id longer than this is not one of ours

/** The parts of a feed page that the sync reads. */
interface FeedPage {
  data: Record<string, unknown>[];
  next_cursor: string;
  has_more: boolean;
}

class _TooLarge extends Error {}


/** The body of `res`, refused once it passes `max` bytes (by Content-Length first, then while reading). */
async function _readLimited(res: Response, max: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (declared > max) {
    await res.body?.cancel();
    throw new _TooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  for (let r = await reader?.read(); reader && r && !r.done; r = await reader.read()) {
    size += r.value.length;
    if (size > max) {
      await reader.cancel();
      throw new _TooLarge();
    }
    chunks.push(r.value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) (out.set(c, at), (at += c.length));
  return out;
}

/** The page if it has the shape of README “Parameters”, else a message naming what is wrong. */
function _checkPage(v: unknown): FeedPage | string {
  if (!v || typeof v !== "object" || Array.isArray(v)) return "the page is not a JSON object";
  const p = v as Record<string, unknown>;
  if (!Array.isArray(p.data)) return "data is not a list";
  if (typeof p.next_cursor !== "string" || p.next_cursor.length === 0 || p.next_cursor.length > 512) return "next_cursor is not a cursor";
  if (typeof p.has_more !== "boolean") return "has_more is not true or false";
  for (const [i, d] of p.data.entries()) {
    if (!d || typeof d !== "object" || Array.isArray(d)) return `data[${i}] is not an object`;
    const doc = d as Record<string, unknown>;
    if (typeof doc.id !== "string" || doc.id.length === 0 || doc.id.length > MAX_ID) return `data[${i}].id is not an id`;
    if (typeof doc.xml_available !== "boolean") return `data[${i}].xml_available is not true or false`;
  }
  return p as unknown as FeedPage;
}

/** An http source. */
export function httpSource(options: HttpSourceOptions): DocumentSource {
  const delays = options.retryDelays ?? DEFAULT_RETRIES;
  const base = options.url.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const fail = (what: string): never => {
    throw new SourceError("UPSTREAM_ERROR", `Upstream ${options.name} ${what}`);
  };

  // GET with retries, read whole within `max` bytes: the body, or null on 404 (XML not yet available). Other
  // 4xx and redirects fail the run at once; a body over `max` throws _TooLarge.
  async function get(path: string, max: number, signal: AbortSignal): Promise<Uint8Array | null> {
    let last = "";
    for (let attempt = 0; ; attempt++) {
      try {
        // The timeout covers the body too: a hung upstream cannot outlast the run's lease.
        const res = await fetch(`${base}${path}`, {
          headers: { "x-api-token": options.token }, redirect: "manual", signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
        });
        if (res.status >= 300 && res.status < 400) {
          await res.body?.cancel();
          fail(`answered HTTP ${res.status} (a redirect) for ${path}: redirects are not followed, so the token stays with ${new URL(base).origin}`);
        }
        if (res.status === 404) return (await res.body?.cancel(), null);
        if (res.ok) return await _readLimited(res, max);
        last = `HTTP ${res.status}`;
        await res.body?.cancel();
        if (res.status < 500 && res.status !== 429) fail(`answered ${last} for ${path}`);
      } catch (e) {
        if (e instanceof SourceError || e instanceof _TooLarge || signal.aborted) throw e;
        last = (e as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : (e as Error).message;
      }
      const delay = delays[attempt];
      if (delay === undefined) fail(`failed after ${attempt + 1} attempts: ${last}`);
      await abortableSleep(delay!, signal);
    }
  }

  async function page(cursor: string, signal: AbortSignal): Promise<FeedPage> {
    const path = `/api/v1/documents?limit=${options.pageSize ?? PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    let body: Uint8Array | null;
    try {
      body = await get(path, options.maxPageBytes ?? MAX_PAGE_BYTES, signal);
    } catch (e) {
      if (e instanceof _TooLarge) fail(`sent a feed page larger than ${options.maxPageBytes ?? MAX_PAGE_BYTES} bytes`);
      throw e;
    }
    if (body === null) fail("has no document feed (HTTP 404)");
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body!));
    } catch {
      fail("sent a feed page that is not JSON");
    }
    const checked = _checkPage(parsed);
    if (typeof checked === "string") fail(`sent a feed page of the wrong shape: ${checked}`);
    return checked as FeedPage;
  }

  return {
    name: options.name,
    type: "http",
    async *pull(signal, context) {
      let cursor = existsSync(options.positionFile) ? readFileSync(options.positionFile, "utf8").trim() : "";
      for (;;) {
        const p = await page(cursor, signal);
        for (const doc of p.data) {
          if (signal.aborted) return;
          const id = doc.id as string;
          const item: SourceItem = { external_id: id, xml: null, metadata: doc, ack: async () => {}, reject: async () => {} };
          if (typeof doc.ksef_number === "string" && doc.ksef_number !== "") item.ksef_number = doc.ksef_number; // what upstream knows
          if (doc.xml_available === true) {
            try {
              item.xml = await get(`/api/v1/documents/${encodeURIComponent(id)}/xml`, options.maxXmlBytes, signal); // null: not available after all
            } catch (e) {
              if (!(e instanceof _TooLarge)) throw e;
              item.error = { code: "PAYLOAD_TOO_LARGE", message: `The XML is larger than ${options.maxXmlBytes} bytes` };
            }
          }
          yield item;
        }
        // Every item of the page is stored and counted (checkpoint): only now the position moves.
        await context?.checkpoint?.();
        mkdirSync(dirname(options.positionFile), { recursive: true });
        writeFileAtomic(options.positionFile, p.next_cursor);
        cursor = p.next_cursor;
        if (!p.has_more) return;
      }
    },
  };
}

/** A checked `http` entry of `sources.json`. */
export interface HttpSourceConfig {
  name: string;
  url: string;
  token: string;
}

/** Hosts that plain `http:` may name: a token sent in clear never leaves the machine. */
const _LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

/** Checks one `sources.json` entry of type http (name checked by the file's reader); throws RangeError naming the field. */
export function parseHttpSourceConfig(entry: Record<string, unknown>, where: string): HttpSourceConfig {
  const { name, url, token } = entry;
  const fail = (field: string, what: string): never => {
    throw new RangeError(`sources.json: ${where}.${field} ${what}`);
  };
  if (typeof url !== "string" || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) fail("url", "must be an http or https URL");
  const u = new URL(url as string);
  // Credentials in a URL end up in errors, logs and `sync.failed` webhooks: the token goes in "token". The
  // URL is never quoted here, so neither is the secret.
  if (u.username !== "" || u.password !== "") fail("url", "must not carry credentials (user:password@); give the token in \"token\"");
  // The token travels in a header: in clear only to this machine, as the KSeF source's "environment".
  if (u.protocol !== "https:" && !_LOOPBACK.includes(u.hostname)) fail("url", "must be an https URL (plain http only for localhost)");
  if (typeof token !== "string" || token.length === 0) fail("token", "is required");
  return { name: String(name), url: url as string, token: token as string };
}

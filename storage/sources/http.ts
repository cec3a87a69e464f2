/**
 * The `http` document source (API.md §4.5): another server that speaks this
 * API. A sync walks its change feed with a token of that server and downloads
 * each document's XML. The upstream cursor is stored only after every item of
 * a page has been stored here (API.md §4.1, from the client's side), so a crash
 * re-reads at most one page. Network errors and 5xx are retried with backoff;
 * after the last retry the run fails with UPSTREAM_ERROR. A tenant's http sources
 * are listed in `<data>/sources.json` (read by server.ts).
 * @module
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { SourceError, type DocumentSource, type SourceItem } from "../../lib/contracts/document_source.ts";
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
}

const DEFAULT_RETRIES = [500, 1000, 2000, 4000, 8000];
const PAGE_SIZE = 100;

function _sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });
}

/** An http source. */
export function httpSource(options: HttpSourceOptions): DocumentSource {
  const delays = options.retryDelays ?? DEFAULT_RETRIES;
  const base = options.url.replace(/\/+$/, "");

  // GET with retries; 404 is returned to the caller (XML not yet available), other 4xx fail the run at once.
  async function get(path: string, signal: AbortSignal): Promise<Response> {
    let last = "";
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(`${base}${path}`, { headers: { "x-api-token": options.token }, signal });
        if (res.ok || res.status === 404) return res;
        last = `HTTP ${res.status}`;
        await res.body?.cancel();
        if (res.status < 500 && res.status !== 429) throw new SourceError("UPSTREAM_ERROR", `Upstream ${options.name} answered ${last} for ${path}`);
      } catch (e) {
        if (e instanceof SourceError || signal.aborted) throw e;
        last = (e as Error).message;
      }
      const delay = delays[attempt];
      if (delay === undefined) throw new SourceError("UPSTREAM_ERROR", `Upstream ${options.name} failed after ${attempt + 1} attempts: ${last}`);
      await _sleep(delay, signal);
    }
  }

  return {
    name: options.name,
    async *pull(signal) {
      let cursor = existsSync(options.positionFile) ? readFileSync(options.positionFile, "utf8").trim() : "";
      for (;;) {
        const res = await get(`/api/v1/documents?limit=${options.pageSize ?? PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, signal);
        if (!res.ok) throw new SourceError("UPSTREAM_ERROR", `Upstream ${options.name} has no document feed (HTTP ${res.status})`);
        const page = (await res.json()) as { data: Record<string, unknown>[]; next_cursor: string; has_more: boolean };
        for (const doc of page.data) {
          if (signal.aborted) return;
          let xml: Uint8Array | null = null;
          if (doc.xml_available === true) {
            const x = await get(`/api/v1/documents/${encodeURIComponent(String(doc.id))}/xml`, signal);
            xml = x.ok ? new Uint8Array(await x.arrayBuffer()) : null; // 404: not available after all
          }
          const item: SourceItem = { external_id: String(doc.id), xml, metadata: doc, ack: async () => {}, reject: async () => {} };
          yield item;
        }
        // Every item of the page is stored: only now the position moves.
        mkdirSync(dirname(options.positionFile), { recursive: true });
        writeFileAtomic(options.positionFile, page.next_cursor);
        cursor = page.next_cursor;
        if (!page.has_more) return;
      }
    },
  };
}

/**
 * The `ksef` document source (API.md §4.5): incremental retrieval from KSeF 2.0
 * as pobieranie-faktur/przyrostowe-pobieranie-faktur.md recommends. Per subject
 * type, adjoining windows on the PermanentStorage date; the next window starts
 * at the package's `PermanentStorageHwmDate`, or at `LastPermanentStorageDate`
 * when it was truncated; invoices seen at that boundary are skipped by KSeF
 * number (the guide's deduplication). A position is stored only after every
 * document of its package was stored (SourceItem.ack), so a crash re-reads at
 * most one package. It does not send invoices to KSeF.
 * @module
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { abortableSleep, type DocumentSource, type SourceItem } from "../../../lib/contracts/document_source.ts";
import { writeFileAtomic } from "../../atomic.ts";
import { KsefClient, type KsefClientOptions, type KsefClientTuning } from "./client.ts";
import { KSEF_ERROR, ksefError } from "./errors.ts";
import { runExport, type InvoiceMetadata, type SubjectType } from "./export.ts";
import { Pacer, type EndpointGroup, type PacingHistory, type RateLimit } from "./pacing.ts";

/** Knobs with documented defaults; tests shrink them. */
export interface KsefTuning extends KsefClientTuning {
  /** A subject type is exported again only this long after its last complete export. */
  minIntervalMs: number;
  limits: Partial<Record<EndpointGroup, RateLimit>>;
}

/** Options of a ksef source. */
export interface KsefSourceOptions {
  name: string;
  /** The API root (srodowiska.md), e.g. `https://ksef-test.mf.gov.pl/api/v2`. */
  baseUrl: string;
  nip: string;
  token: string;
  subjects: readonly SubjectType[];
  /** Where positions and the last hour of requests are kept between runs. */
  stateFile: string;
  /** Where the first window starts (ms); default: as far back as one export may reach. */
  since?: number;
  now?: () => number;
  /** Waits `ms` or until `signal` aborts (tests pass one that moves their clock). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  fetch?: typeof fetch;
  tuning?: Partial<KsefTuning>;
}

export const DEFAULT_TUNING: KsefTuning = {
  retryDelays: [1000, 2000, 4000, 8000, 16000], // 5 retries over ~31 s, as the http source
  pollDelays: [500, 1000, 2000, 5000], // then every 5 s
  maxPolls: 120, // ~10 min for one export or authentication
  requestTimeoutMs: 60_000,
  retryAfterUnitMs: 1000, // Retry-After is in seconds (limity-api.md §2)
  max429: 20,
  refreshMarginMs: 60_000,
  reportWaitsFromMs: 1000,
  // limity-api.md "Częstotliwość odpytywania": not more often than every 15 minutes per subject type.
  minIntervalMs: 15 * 60_000,
  limits: {},
};

/** open-api.json InvoiceQueryFilters.dateRange: at most 2 years; a day less keeps clear of the edge. */
const FIRST_WINDOW_MS = (2 * 365 - 1) * 86_400_000;

interface Position {
  /** ISO start of the next window. */
  from: string;
  /** KSeF numbers at or after `from` that were already stored. */
  seen: string[];
}

interface State {
  positions: Partial<Record<SubjectType, Position>>;
  /** When each subject type's last complete (not truncated) export finished, ms. */
  completed: Partial<Record<SubjectType, number>>;
  pacing: PacingHistory;
}


/** A ksef source. */
export function ksefSource(o: KsefSourceOptions): DocumentSource {
  const tuning = { ...DEFAULT_TUNING, ...o.tuning };
  const now = o.now ?? Date.now;

  function load(): State {
    const empty: State = { positions: {}, completed: {}, pacing: {} };
    if (!existsSync(o.stateFile)) return empty;
    try {
      return { ...empty, ...(JSON.parse(readFileSync(o.stateFile, "utf8")) as Partial<State>) };
    } catch {
      throw ksefError(KSEF_ERROR.protocol, `The saved position of source ${o.name} is damaged: the operator can remove sources/${basename(o.stateFile)} in the tenant's data directory to read from the start`);
    }
  }

  return {
    name: o.name,
    async *pull(signal, context) {
      const state = load();
      const pacer = new Pacer(tuning.limits, state.pacing);
      const save = (): void => {
        state.pacing = pacer.snapshot(now());
        mkdirSync(dirname(o.stateFile), { recursive: true });
        writeFileAtomic(o.stateFile, JSON.stringify(state));
      };
      const options: KsefClientOptions = {
        baseUrl: o.baseUrl.replace(/\/+$/, ""), nip: o.nip, token: o.token, pacer, now, sleep: o.sleep ?? abortableSleep,
        ...tuning, onWait: async (until) => context?.waiting(until),
        ...(o.fetch ? { fetch: o.fetch } : {}),
      };
      const client = new KsefClient(options);
      const yielded = new Set<string>(); // one invoice may come under several subject types in one run
      try {
        for (const subject of o.subjects) {
          const last = state.completed[subject];
          if (last !== undefined && now() - last < tuning.minIntervalMs) continue; // too soon for this subject type
          for (;;) {
            const pos = state.positions[subject] ?? { from: new Date(o.since ?? now() - FIRST_WINDOW_MS).toISOString(), seen: [] };
            const result = await runExport(client, subject, pos.from, now, signal);
            if (result.kind === "nothing") {
              state.completed[subject] = now();
              save();
              break;
            }
            const seen = new Set(pos.seen);
            for (const inv of result.invoices) {
              if (seen.has(inv.ksefNumber) || yielded.has(inv.ksefNumber)) continue;
              if (signal.aborted) return;
              yielded.add(inv.ksefNumber);
              const file = result.files.get(`${inv.ksefNumber}.xml`);
              yield file ? _item(inv, file.bytes()) : await _byNumber(client, inv, signal);
            }
            // Every document of the package is stored and counted (checkpoint) before the position moves past it.
            await context?.checkpoint?.();
            const { pkg } = result;
            const next = pkg.isTruncated && pkg.lastPermanentStorageDate ? pkg.lastPermanentStorageDate
              : pkg.permanentStorageHwmDate ?? _lastDate(result.invoices) ?? pos.from;
            const boundary = Date.parse(next);
            const sameStart = boundary === Date.parse(pos.from);
            const atBoundary = result.invoices.filter((i) => Date.parse(i.permanentStorageDate) >= boundary).map((i) => i.ksefNumber);
            if (pkg.isTruncated && sameStart && atBoundary.every((n) => seen.has(n))) {
              throw ksefError(KSEF_ERROR.protocol, `KSeF keeps truncating the ${subject} export at ${next} without progress: more invoices share one PermanentStorage date than one package holds`);
            }
            state.positions[subject] = { from: next, seen: [...new Set([...(sameStart ? seen : []), ...atBoundary])] };
            if (!pkg.isTruncated) state.completed[subject] = now();
            save();
            if (!pkg.isTruncated) break;
          }
        }
      } catch (e) {
        if (signal.aborted) return; // stopping: the run resumes at the next start
        save(); // keep the pacing history of what was sent
        throw e;
      }
    },
  };
}

function _item(inv: InvoiceMetadata, xml: Uint8Array): SourceItem {
  return { external_id: inv.ksefNumber, ksef_number: inv.ksefNumber, xml, metadata: null, ack: async () => {}, reject: async () => {} };
}

// limity-api.md "Rekomendowany sposób integracji": a single invoice by its KSeF number (GET /invoices/ksef/{n})
// when the package lacks its file; 21165 "not yet available" leaves a document from the metadata for a later sync.
async function _byNumber(client: KsefClient, inv: InvoiceMetadata, signal: AbortSignal): Promise<SourceItem> {
  const res = await client.call("download", "GET", `/invoices/ksef/${encodeURIComponent(inv.ksefNumber)}`, undefined, signal, [400]);
  if (res.ok) return _item(inv, new Uint8Array(await res.arrayBuffer()));
  await res.body?.cancel();
  return { external_id: inv.ksefNumber, ksef_number: inv.ksefNumber, xml: null, metadata: metadataFields(inv), ack: async () => {}, reject: async () => {} };
}

/** The document JSON fields (API.md §4.5 metadata) of KSeF's InvoiceMetadata. */
export function metadataFields(inv: InvoiceMetadata): Record<string, unknown> {
  const money = (v: number | undefined): string | null => (typeof v === "number" && Number.isFinite(v) ? v.toFixed(2) : null);
  return {
    number: inv.invoiceNumber ?? null, issue_date: inv.issueDate ?? null, currency: inv.currency ?? null,
    seller: { name: inv.seller?.name ?? null, tax_id: inv.seller?.nip ?? null },
    buyer: { name: inv.buyer?.name ?? null, tax_id: inv.buyer?.identifier?.value ?? null },
    totals: { net: money(inv.netAmount), tax: money(inv.vatAmount), gross: money(inv.grossAmount) },
    // przyrostowe-pobieranie-faktur.md: the date of receipt is the date the KSeF number was assigned.
    received_at: inv.acquisitionDate ?? null,
  };
}

function _lastDate(invoices: InvoiceMetadata[]): string | null {
  return invoices.at(-1)?.permanentStorageDate ?? null;
}

/**
 * The `ksef` document source (README, "KSeF"): incremental retrieval from KSeF
 * 2.0 as pobieranie-faktur/przyrostowe-pobieranie-faktur.md recommends. Per
 * subject type, adjoining windows on the PermanentStorage date of at most 3
 * months each (windows.ts), from `since` (default 3 months back) to the
 * present; the next window starts where a closed window ended, at the package's
 * `PermanentStorageHwmDate`, or at `LastPermanentStorageDate` when it was
 * truncated; invoices seen at that boundary are skipped by KSeF number (the
 * guide's deduplication). A position is stored only after every document of its
 * package was stored (SourceItem.ack), so a crash re-reads at most one package.
 * An invoice whose XML KSeF cannot deliver yet arrives from its metadata and is
 * asked for again by every later sync until its XML comes (pending.ts). A
 * subject type exported less than `min_interval` ago is not exported again: the
 * run lists it as skipped, with when it may be. KSeF's technical warnings (`X-System-Warning`) on its answers
 * are told to the run. It does not send invoices to KSeF.
 * @module
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { abortableSleep, type DocumentSource, type SourceItem } from "../../../lib/contracts/document_source.ts";
import { writeFileAtomic } from "../../atomic.ts";
import { KsefClient, type KsefClientOptions, type KsefClientTuning } from "../connection/client.ts";
import { defaultMinInterval, ksefQrEnvironmentOf } from "../connection/config.ts";
import { chooseSignIn, type SignInOptions } from "../connection/sign_in_choice.ts";
import { KSEF_ERROR, ksefError } from "../connection/errors.ts";
import { runExport, type InvoiceMetadata, type SubjectType } from "./export.ts";
import { Pacer, type EndpointGroup, type PacingHistory, type RateLimit } from "../connection/pacing.ts";
import { fetchByNumber, retryPending, type Pending } from "./pending.ts";
import { defaultSince, windowEnd } from "./windows.ts";

/** Knobs with documented defaults; tests shrink them. */
export interface KsefTuning extends KsefClientTuning {
  limits: Partial<Record<EndpointGroup, RateLimit>>;
}

/** Options of a ksef source: how it signs in (a signer, or a KSeF token until 31 December 2026) and what it reads. */
export interface KsefSourceOptions extends SignInOptions {
  name: string;
  /** The API root (srodowiska.md), e.g. `https://api-test.ksef.mf.gov.pl/v2`. */
  baseUrl: string;
  nip: string;
  subjects: readonly SubjectType[];
  /** The tenant's submissions are sent to KSeF through this source (`"send": true`; the sender is send/). */
  send?: boolean;
  /** Where positions and the last hour of requests are kept between runs. */
  stateFile: string;
  /** Where a subject type's first window starts (ms); default 3 months back. Earlier history is walked window by window. */
  since?: number;
  /**
   * A subject type is exported again only this long (ms) after its last complete export; a pull inside it reports
   * the subject type as skipped. Default defaultMinInterval() of `baseUrl` (15 minutes for production, else 0).
   */
  minIntervalMs?: number;
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
  limits: {},
};

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
  /** Invoices stored from metadata whose XML is asked for again by later syncs, by KSeF number. */
  pending: Record<string, Pending>;
}


/** A ksef source. */
export function ksefSource(o: KsefSourceOptions): DocumentSource {
  const tuning = { ...DEFAULT_TUNING, ...o.tuning };
  const now = o.now ?? Date.now;
  const minIntervalMs = o.minIntervalMs ?? defaultMinInterval(o.baseUrl);
  const signIn = chooseSignIn(o);

  function load(): State {
    const empty: State = { positions: {}, completed: {}, pacing: {}, pending: {} };
    if (!existsSync(o.stateFile)) return empty;
    try {
      return { ...empty, ...(JSON.parse(readFileSync(o.stateFile, "utf8")) as Partial<State>) };
    } catch {
      throw ksefError(KSEF_ERROR.protocol, `The saved position of source ${o.name} is damaged: the operator can remove sources/${basename(o.stateFile)} in the tenant's data directory to read from the start`);
    }
  }

  return {
    name: o.name,
    type: "ksef",
    ksef: { qrEnvironment: ksefQrEnvironmentOf(o.baseUrl), sends: o.send === true },
    async *pull(signal, context) {
      const state = load();
      const pacer = new Pacer(tuning.limits, state.pacing);
      const save = (): void => {
        state.pacing = pacer.snapshot(now());
        mkdirSync(dirname(o.stateFile), { recursive: true });
        writeFileAtomic(o.stateFile, JSON.stringify(state));
      };
      const options: KsefClientOptions = {
        baseUrl: o.baseUrl.replace(/\/+$/, ""), nip: o.nip, signIn, pacer, now, sleep: o.sleep ?? abortableSleep,
        ...tuning, onWait: async (until) => context?.waiting(until),
        // KSeF's technical warnings go to the run, which logs them and lists them (README "KSeF").
        onSystemWarnings: (operation, warnings) => {
          for (const w of warnings) context?.warning?.({ ...w, operation });
        },
        ...(o.fetch ? { fetch: o.fetch } : {}),
      };
      const client = new KsefClient(options);
      const yielded = new Set<string>(); // one invoice may come under several subject types in one run
      try {
        // Documents from metadata first: their XML may have arrived since (the download limits pace them).
        for await (const item of retryPending(client, state.pending, save, now, signal)) {
          yielded.add(item.external_id);
          yield item;
        }
        for (const subject of o.subjects) {
          const last = state.completed[subject];
          if (last !== undefined && now() - last < minIntervalMs) { // too soon for this subject type: the run says so
            context?.skipped?.({ part: subject, reason: "min_interval", next_at: last + minIntervalMs });
            continue;
          }
          for (;;) {
            const pos = state.positions[subject] ?? { from: new Date(o.since ?? defaultSince(now())).toISOString(), seen: [] };
            const to = windowEnd(pos.from, now());
            const result = await runExport(client, subject, pos.from, to, now, signal);
            if (result.kind === "nothing") {
              if (to !== null) { // a closed window with nothing past KSeF's mark: on to the next one
                state.positions[subject] = { from: to, seen: [] };
                save();
                continue;
              }
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
              const item = file ? _item(inv, file.bytes()) : await fetchByNumber(client, inv, signal);
              if (item.xml === null) state.pending[inv.ksefNumber] = { metadata: inv, tried: now() };
              yield item;
            }
            // Every document of the package is stored and counted (checkpoint) before the position moves past it.
            await context?.checkpoint?.();
            const { pkg } = result;
            // A closed window ends at its `to` (or at KSeF's mark, when that is earlier); an open one at the mark.
            const mark = pkg.permanentStorageHwmDate ?? null;
            const closedEnd = to !== null ? (mark !== null && Date.parse(mark) < Date.parse(to) ? mark : to) : null;
            const next = pkg.isTruncated && pkg.lastPermanentStorageDate ? pkg.lastPermanentStorageDate
              : closedEnd ?? mark ?? _lastDate(result.invoices) ?? pos.from;
            const boundary = Date.parse(next);
            const sameStart = boundary === Date.parse(pos.from);
            const atBoundary = result.invoices.filter((i) => Date.parse(i.permanentStorageDate) >= boundary).map((i) => i.ksefNumber);
            if (pkg.isTruncated && sameStart && atBoundary.every((n) => seen.has(n))) {
              throw ksefError(KSEF_ERROR.protocol, `KSeF keeps truncating the ${subject} export at ${next} without progress: more invoices share one PermanentStorage date than one package holds`);
            }
            state.positions[subject] = { from: next, seen: [...new Set([...(sameStart ? seen : []), ...atBoundary])] };
            // Done when the present is reached: an open window, or a closed one whose data KSeF vouches for only up to
            // a mark before its end (the rest is not complete yet: the next sync goes on from the mark).
            const done = !pkg.isTruncated && (to === null || Date.parse(next) < Date.parse(to));
            if (done) state.completed[subject] = now();
            save();
            if (done) break;
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

export { metadataFields } from "./pending.ts";

function _lastDate(invoices: InvoiceMetadata[]): string | null {
  return invoices.at(-1)?.permanentStorageDate ?? null;
}

/**
 * Whether KSeF answers a tenant's sender, for `offline_when_unavailable` (README "Offline invoices"): KSeF is
 * unavailable from its first unanswered request (a 5xx, a timeout, a refused or broken connection), not from when
 * the sender's retries give up, and available again at its first answer of any other status (a 4xx or 429 is an
 * answer: KSeF is there and refusing). `tryby-offline.md` counts an unavailability from when the system does not
 * answer. The state is kept where every process serving the data directory reads it (WORKERS > 1: the sender runs
 * in one process, uploads arrive in all): one small file per tenant, replaced atomically (written, flushed, renamed).
 * @module
 */
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomicAsync } from "../../atomic.ts";
import type { HttpTransport } from "../connection/http.ts";

/** Since when KSeF has not answered a tenant. */
export interface KsefAvailability {
  /** KSeF did not answer a request of `tenant` at `at` (ms): the outage starts here unless it already has. */
  unanswered(tenant: string, at: number): void;
  /** KSeF answered a request of `tenant`: any outage has ended. */
  answered(tenant: string): void;
  /** The start (ms) of the tenant's current outage as this process has seen it, or null while KSeF answers. */
  since(tenant: string): number | null;
  /** The same as every process sees it (the one that sends may be another). */
  shared(tenant: string): Promise<number | null>;
}

/** The state of one process (embedding, tests with one process). */
export function memoryAvailability(): KsefAvailability {
  const since = new Map<string, number>();
  return {
    unanswered: (tenant, at) => void (since.has(tenant) || since.set(tenant, at)),
    answered: (tenant) => void since.delete(tenant),
    since: (tenant) => since.get(tenant) ?? null,
    shared: async (tenant) => since.get(tenant) ?? null,
  };
}

/**
 * The state in `dir` (`<data>/ksef-availability/`), one `<tenant>.json` each, shared by every process on the data
 * directory. Only transitions are written (one write when an outage starts, one when it ends), off the event loop
 * and in order; a read is one small file, which an upload of a tenant with `offline_when_unavailable` can afford.
 * The sender of a tenant is one process at a time (its lease), so no other process writes in between.
 */
export function fileAvailability(dir: string, onError: (e: Error) => void = () => {}): KsefAvailability {
  // What this process knows (wrote or read); absent until the first transition asks the file.
  const known = new Map<string, number | null>();
  let chain: Promise<void> = Promise.resolve();
  const path = (tenant: string) => join(dir, `${encodeURIComponent(tenant)}.json`);
  const read = async (tenant: string): Promise<number | null> => {
    try {
      const v = (JSON.parse(await readFile(path(tenant), "utf8")) as { unanswered_since?: unknown }).unanswered_since;
      return typeof v === "number" && Number.isFinite(v) ? v : null;
    } catch {
      return null; // none yet: KSeF answers (a file is replaced by rename, never seen half written)
    }
  };
  // Sets the state unless it is already so; `keep` keeps an outage that has started already (its start stays).
  const transition = (tenant: string, value: number | null): void => {
    const had = known.get(tenant);
    if (had !== undefined && (had === value || (value !== null && had !== null))) return;
    if (had !== undefined) known.set(tenant, value);
    chain = chain.then(async () => {
      const current = had === undefined ? await read(tenant) : had;
      const next = value !== null && current !== null ? current : value;
      known.set(tenant, next);
      if (current === next && had === undefined) return;
      await mkdir(dir, { recursive: true });
      await writeFileAtomicAsync(path(tenant), JSON.stringify({ unanswered_since: next }));
    }).catch((e: unknown) => onError(e as Error));
  };
  return {
    unanswered: (tenant, at) => transition(tenant, at),
    answered: (tenant) => transition(tenant, null),
    since: (tenant) => known.get(tenant) ?? null,
    shared: read,
  };
}

/** True when `status` is KSeF answering (anything but a server error). */
export function isAnswer(status: number): boolean {
  return status < 500;
}

/**
 * `http` reporting each exchange of `tenant` to `availability`: an answer below 500 ends an outage, a 5xx or a
 * failure to get an answer starts one. An exchange the sender itself abandoned (shutdown) says nothing.
 */
export function observedTransport(http: HttpTransport, tenant: string, availability: KsefAvailability, now: () => number): HttpTransport {
  return {
    async request(x) {
      let answer;
      try {
        answer = await http.request(x);
      } catch (e) {
        if (!x.signal.aborted) availability.unanswered(tenant, now());
        throw e;
      }
      if (isAnswer(answer.status)) availability.answered(tenant);
      else availability.unanswered(tenant, now());
      return answer;
    },
    close: () => http.close(),
  };
}

/** `fetch` reporting each exchange of `tenant` as observedTransport does (the client's sign-in and key requests). */
export function observedFetch(f: typeof fetch, tenant: string, availability: KsefAvailability, now: () => number): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    let res: Response;
    try {
      res = await f(input, init);
    } catch (e) {
      if (!init?.signal?.aborted || (init.signal.reason as { name?: string } | undefined)?.name === "TimeoutError") availability.unanswered(tenant, now());
      throw e;
    }
    if (isAnswer(res.status)) availability.answered(tenant);
    else availability.unanswered(tenant, now());
    return res;
  }) as typeof fetch;
}

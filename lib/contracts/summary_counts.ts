/**
 * The counts behind `GET /api/v1/summary` (README "Summary"): each record contributes to named counters by its
 * latest version alone, so a store keeps them as it writes (one less under the old version's keys, one more under
 * the new one's) and answers the summary by reading a few counters, never the records. Every store computes the keys
 * with these functions (the PostgreSQL store with the same rules in SQL: `document_count_keys`, `submission_count_keys`
 * and the trigger function `summary_counts_move` that its migrations create, storage/postgres/schema.ts).
 * @module
 */
import type { DocumentInput, DocumentRecord, SubmissionRecord } from "./storage.ts";

/** Counter names: a prefix and, for bucketed counts, a UTC hour (`YYYY-MM-DDTHH`) or day (`YYYY-MM-DD`). */
export const COUNT_KEY = {
  documentsTotal: "doc:total",
  documentsXmlMissing: "doc:xml_missing",
  /** Documents whose XML was judged invalid when imported. */
  documentsInvalid: "doc:invalid",
  /** + UTC day of `synced_at`. */
  documentsSynced: "doc:synced:",
  /** + `queued` | `sending` | `accepted` | `rejected` | `not_sent`. */
  submissionStatus: "sub:status:",
  /** + `online` | `offline`. */
  submissionMode: "sub:mode:",
  /** + UTC hour of `created_at`. */
  submissionReceived: "sub:received:",
  /** + UTC hour of the verdict (`ksef.updated_at` of the accepted or rejected version). */
  submissionAccepted: "sub:accepted:",
  submissionRejected: "sub:rejected:",
  /** + deadline (YYYY-MM-DD) of an offline submission KSeF has not accepted. */
  offlineOpen: "sub:offline_open:",
} as const;

/** The UTC hour of an ISO time, `YYYY-MM-DDTHH`. */
export function hourKey(iso: string): string {
  return new Date(iso).toISOString().slice(0, 13);
}

/** The UTC day of an ISO time, `YYYY-MM-DD`. */
export function dayKey(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10);
}

/** The counters a document's latest version counts under, with the verdict its XML got when imported. */
export function documentCountKeys(d: DocumentRecord, valid: boolean | null): string[] {
  const keys: string[] = [COUNT_KEY.documentsTotal, COUNT_KEY.documentsSynced + dayKey(d.synced_at)];
  if (!d.xml_available) keys.push(COUNT_KEY.documentsXmlMissing);
  if (valid === false) keys.push(COUNT_KEY.documentsInvalid);
  return keys;
}

/** The verdict a store keeps for the version `input` writes: none without XML, since it was a verdict on XML. */
export function importVerdict(input: DocumentInput): boolean | null {
  return input.xml ? (input.valid ?? null) : null;
}

/** The counters a submission's latest version counts under. */
export function submissionCountKeys(s: SubmissionRecord): string[] {
  const keys: string[] = [COUNT_KEY.submissionReceived + hourKey(s.created_at)];
  const k = s.ksef;
  if (!k) {
    keys.push(COUNT_KEY.submissionStatus + "not_sent");
    return keys;
  }
  const mode = k.mode ?? "online";
  keys.push(COUNT_KEY.submissionStatus + k.status, COUNT_KEY.submissionMode + mode);
  if (k.status === "accepted") keys.push(COUNT_KEY.submissionAccepted + hourKey(k.updated_at));
  if (k.status === "rejected") keys.push(COUNT_KEY.submissionRejected + hourKey(k.updated_at));
  if (mode === "offline" && k.status !== "accepted" && k.deadline) keys.push(COUNT_KEY.offlineOpen + k.deadline);
  return keys;
}

/** Counters in memory, changed by the keys of the versions a write replaces and writes. */
export class CountTally {
  #n = new Map<string, number>();

  /** Moves a record from the keys of `before` (null: it is new) to those of `after`. */
  move(before: readonly string[] | null, after: readonly string[]): void {
    if (before) for (const k of before) this.#add(k, -1);
    for (const k of after) this.#add(k, 1);
  }

  #add(key: string, by: number): void {
    const n = (this.#n.get(key) ?? 0) + by;
    if (n === 0) this.#n.delete(key);
    else this.#n.set(key, n);
  }

  /** The counters named in `keys`, and every counter whose name starts with one of `prefixes` (none are zero). */
  read(keys: readonly string[], prefixes: readonly string[]): Map<string, number> {
    const out = new Map<string, number>();
    for (const k of keys) {
      const n = this.#n.get(k);
      if (n !== undefined) out.set(k, n);
    }
    // Prefix reads are for the offline deadlines: one counter per open deadline day, a handful.
    if (prefixes.length > 0) for (const [k, n] of this.#n) if (prefixes.some((p) => k.startsWith(p))) out.set(k, n);
    return out;
  }

  clear(): void {
    this.#n.clear();
  }
}

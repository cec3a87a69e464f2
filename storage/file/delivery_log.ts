/**
 * A webhook endpoint's attempt log and retry-now queue in the file store (README “Webhooks”).
 * The log is JSON lines appended to `<id>.attempts.jsonl`; at DELIVERY_ATTEMPTS_KEPT
 * lines it becomes `<id>.attempts.old.jsonl`, so a log never holds more than twice
 * the attempts kept. The log is a diagnostic: appends are not fsynced, and a torn
 * last line is skipped. Retry-now requests are one file per event, written atomically.
 * @module
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { access, appendFile, mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { attemptPage, keptAttempts } from "../../lib/contracts/delivery_log.ts";
import { DELIVERY_ATTEMPTS_KEPT, type DeliveryAttempt, type Redelivery } from "../../lib/contracts/storage.ts";
import { writeFileAtomicAsync } from "../atomic.ts";

const WEBHOOK_ID = /^whk_[0-9A-Z]{26}$/;
const EVENT_ID = /^evt_[0-9A-Z]{26}$/;

/** The attempt logs and retry-now queues of one tenant's endpoints, in `dir`. */
export class DeliveryLogFiles {
  #dir: string;
  /** Per endpoint: lines in the current file and the last seq given (this process is the log's only writer). */
  #tails = new Map<string, { lines: number; seq: number }>();

  constructor(dir: string) {
    this.#dir = dir;
  }

  #path(webhookId: string, suffix: string): string {
    if (!WEBHOOK_ID.test(webhookId)) throw new RangeError(`Bad webhook id ${webhookId}`);
    return join(this.#dir, `${webhookId}${suffix}`);
  }

  #read(webhookId: string): { old: DeliveryAttempt[]; current: DeliveryAttempt[] } {
    const parse = (path: string): DeliveryAttempt[] => {
      if (!existsSync(path)) return [];
      const out: DeliveryAttempt[] = [];
      for (const line of readFileSync(path, "utf8").split("\n")) {
        try {
          if (line) out.push(JSON.parse(line) as DeliveryAttempt);
        } catch {
          // a line torn by a crash: the attempt is lost, the log goes on
        }
      }
      return out;
    };
    // Old first: a rotation between the two reads then loses a page to this reader, never repeats one.
    const old = parse(this.#path(webhookId, ".attempts.old.jsonl"));
    return { old, current: parse(this.#path(webhookId, ".attempts.jsonl")) };
  }

  /** Appends an attempt, rotating the file at the retention count. */
  async append(webhookId: string, attempt: Omit<DeliveryAttempt, "seq">): Promise<void> {
    const current = this.#path(webhookId, ".attempts.jsonl");
    let tail = this.#tails.get(webhookId);
    if (!tail) {
      const { old, current: lines } = this.#read(webhookId);
      tail = { lines: lines.length, seq: (lines.at(-1) ?? old.at(-1))?.seq ?? 0 };
      this.#tails.set(webhookId, tail);
    }
    const line = `${JSON.stringify({ seq: ++tail.seq, ...attempt })}\n`;
    const rotate = tail.lines >= DELIVERY_ATTEMPTS_KEPT;
    tail.lines = rotate ? 1 : tail.lines + 1; // counted before the awaits: two appends at once rotate once
    await mkdir(this.#dir, { recursive: true });
    if (rotate) await rename(current, this.#path(webhookId, ".attempts.old.jsonl"));
    await appendFile(current, line);
  }

  /** A page of the retained attempts. */
  page(webhookId: string, after: number, limit: number, notBefore: string): { items: DeliveryAttempt[]; hasMore: boolean } {
    const { old, current } = this.#read(webhookId);
    const log = [...old, ...current].sort((a, b) => a.seq - b.seq);
    const newest = log.at(-1);
    return attemptPage(newest ? keptAttempts(log, newest) : [], after, limit, notBefore);
  }

  /** Queues a retry-now request unless one for the event is queued. */
  async request(webhookId: string, r: Redelivery): Promise<void> {
    if (!EVENT_ID.test(r.event_id)) throw new RangeError(`Bad event id ${r.event_id}`);
    const dir = this.#path(webhookId, ".redeliver");
    await mkdir(dir, { recursive: true });
    const path = join(dir, `${r.event_id}.json`);
    if (!(await access(path).then(() => true, () => false))) await writeFileAtomicAsync(path, JSON.stringify(r));
  }

  /** The queued requests, oldest first (a file that does not parse is set aside: written whole, it cannot be torn). */
  pending(webhookId: string): Redelivery[] {
    const dir = this.#path(webhookId, ".redeliver");
    if (!existsSync(dir)) return [];
    const out: Redelivery[] = [];
    for (const name of readdirSync(dir)) {
      if (!name.endsWith(".json")) continue; // temp files of a write in progress
      const path = join(dir, name);
      try {
        out.push(JSON.parse(readFileSync(path, "utf8")) as Redelivery);
      } catch {
        rmSync(path, { force: true });
      }
    }
    return out.sort((a, b) => a.requested_at.localeCompare(b.requested_at));
  }

  /** Removes the request for `eventId`, once attempted. */
  async complete(webhookId: string, eventId: string): Promise<void> {
    if (!EVENT_ID.test(eventId)) throw new RangeError(`Bad event id ${eventId}`);
    await rm(join(this.#path(webhookId, ".redeliver"), `${eventId}.json`), { force: true });
  }
}

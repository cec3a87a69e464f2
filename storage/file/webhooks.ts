/**
 * The webhook endpoints of a file-store tenant (README “Webhooks”) in a record log, each endpoint's delivery state in its
 * own small file (rewritten atomically; it is not part of any feed), and its attempt log (delivery_log.ts). It does not take locks: the tenant
 * store runs every call inside its write or read step.
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { decodeOrdinalId, encodeOrdinalId } from "../../lib/contracts/ids.ts";
import type { DeliveryState, IdempotencyTag, WebhookRecord } from "../../lib/contracts/storage.ts";
import { writeFileAtomicAsync } from "../atomic.ts";
import { DeliveryLogFiles } from "./delivery_log.ts";
import { idemMeta, parseRecord, STATUS_CODE, WEBHOOK_STATUS, webhookColumns } from "./columns.ts";
import type { IdempotencyFiles } from "./idempotency.ts";
import { RecordLog } from "./record_log.ts";

const enc = new TextEncoder();

/** A tenant's webhook endpoints in `dir`. */
export class FileWebhooks {
  /** The record log (the tenant store catches it up). */
  readonly log: RecordLog;
  #idem: IdempotencyFiles;
  #deliveryDir: string;
  /** The endpoints' attempt logs and retry-now queues. */
  readonly attempts: DeliveryLogFiles;

  constructor(dir: string, durable: boolean, idem: IdempotencyFiles) {
    this.log = new RecordLog(dir, "webhooks", { durable, columnsOf: webhookColumns });
    this.#idem = idem;
    this.#deliveryDir = join(dir, "delivery");
    this.attempts = new DeliveryLogFiles(this.#deliveryDir);
  }

  /** Takes in what other processes appended to a shared directory. */
  catchUp(writer: boolean): void {
    this.log.catchUp(webhookColumns, writer);
  }

  /** Creates an enabled endpoint. */
  create(input: Omit<WebhookRecord, "id" | "status">, idem?: IdempotencyTag): WebhookRecord {
    const ordinal = this.log.count;
    const hook: WebhookRecord = { id: encodeOrdinalId("whk", Date.parse(input.created_at), ordinal), ...input, status: "enabled" };
    const text = JSON.stringify(hook);
    const json = enc.encode(text);
    const meta = idemMeta(idem, text, input.created_at);
    this.log.write(ordinal, json, webhookColumns(json), meta && enc.encode(JSON.stringify(meta)));
    if (meta) this.#idem.put(meta);
    return hook;
  }

  /** The endpoint with this id unless deleted, or null. */
  get(id: string): WebhookRecord | null {
    const o = decodeOrdinalId("whk", id);
    if (o < 0 || o >= this.log.count) return null;
    const w = parseRecord<WebhookRecord>(this.log.read(o));
    return w.id === id && w.status !== "deleted" ? w : null;
  }

  /** Enabled and disabled endpoints, oldest first. */
  list(): WebhookRecord[] {
    const out: WebhookRecord[] = [];
    for (let o = 0; o < this.log.count; o++) {
      if (this.log.codeOf(o, STATUS_CODE) !== WEBHOOK_STATUS.deleted) out.push(parseRecord(this.log.read(o)));
    }
    return out;
  }

  /** Writes the next version of an endpoint if the stored one is still `record.version` (compare-and-set), else null. */
  save(record: WebhookRecord): WebhookRecord | null {
    const o = decodeOrdinalId("whk", record.id);
    // The ordinal alone would let an id that was never issued overwrite the record at its position.
    if (o < 0 || o >= this.log.count) throw new RangeError(`Unknown webhook ${record.id}`);
    const stored = parseRecord<WebhookRecord>(this.log.read(o));
    if (stored.id !== record.id) throw new RangeError(`Unknown webhook ${record.id}`);
    // The tenant store runs this inside its write step (under the directory's lock, caught up), so no
    // other process writes between this read and the write.
    if ((stored.version ?? 0) !== (record.version ?? 0)) return null;
    const next: WebhookRecord = { ...record, version: (record.version ?? 0) + 1 };
    const json = enc.encode(JSON.stringify(next));
    this.log.write(o, json, webhookColumns(json));
    return next;
  }

  /** Where an endpoint's deliveries stand, or null before its first delivery. */
  deliveryState(webhookId: string): DeliveryState | null {
    const path = join(this.#deliveryDir, `${webhookId}.json`);
    return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as DeliveryState) : null;
  }

  /** Overwrites where an endpoint's deliveries stand (atomically). */
  async saveDeliveryState(webhookId: string, state: DeliveryState): Promise<void> {
    if (!/^whk_[0-9A-Z]{26}$/.test(webhookId)) throw new RangeError(`Bad webhook id ${webhookId}`);
    await mkdir(this.#deliveryDir, { recursive: true });
    await writeFileAtomicAsync(join(this.#deliveryDir, `${webhookId}.json`), JSON.stringify(state));
  }
}

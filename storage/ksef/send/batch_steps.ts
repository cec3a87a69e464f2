/**
 * The stored steps of a batch session (README "Sending to KSeF"): opened (the package and KSeF's upload
 * instructions), each part uploaded, closed, failed, and the collective UPO's pages. Each step is a write-once
 * derived blob under the session's key, stored before the step after it is taken, so a restart knows exactly
 * where a session stands: a step is there whole or not at all.
 * @module
 */
import { createHash } from "node:crypto";
import type { InvoiceFormat } from "../../../lib/formats/invoice/model.ts";
import type { TenantStore } from "../../../lib/contracts/storage.ts";
import type { BatchPackage } from "./batch_package.ts";

/** open-api.json PartUploadRequest. */
export interface PartUpload {
  ordinalNumber: number;
  method: string;
  url: string;
  headers: Record<string, string | null>;
}

/** What is stored once KSeF opened the session. */
export interface BatchOpened {
  reference: string;
  format: InvoiceFormat;
  package: BatchPackage;
  uploads: PartUpload[];
  opened_at: string;
}

/** The steps of one tenant's batch sessions. */
export class BatchSteps {
  #store: TenantStore;

  constructor(store: TenantStore) {
    this.#store = store;
  }

  async opened(reference: string): Promise<BatchOpened | null> {
    return (await this.#json(reference, "opened")) as BatchOpened | null;
  }

  async recordOpened(o: BatchOpened): Promise<void> {
    await this.#put(o.reference, "opened", o);
  }

  async partDone(reference: string, n: number): Promise<boolean> {
    return (await this.#store.getDerived(_key(reference, `part-${n}`))) !== null;
  }

  async recordPart(reference: string, n: number): Promise<void> {
    await this.#put(reference, `part-${n}`, { uploaded: true });
  }

  async closed(reference: string): Promise<boolean> {
    return (await this.#store.getDerived(_key(reference, "closed"))) !== null;
  }

  async recordClosed(reference: string): Promise<void> {
    await this.#put(reference, "closed", { closed: true });
  }

  /** Why the session failed as a whole (its invoices go back to the queue), or null. */
  async failed(reference: string): Promise<{ code: string; message: string } | null> {
    return (await this.#json(reference, "failed")) as { code: string; message: string } | null;
  }

  async recordFailed(reference: string, why: { code: string; message: string }): Promise<void> {
    await this.#put(reference, "failed", why);
  }

  /** Stores a page of the collective UPO; returns its key. */
  async putUpoPage(reference: string, n: number, bytes: Uint8Array): Promise<string> {
    const key = _key(reference, `upo-${n}`);
    await this.#store.putDerived(key, bytes);
    return key;
  }

  async #json(reference: string, step: string): Promise<unknown> {
    const blob = await this.#store.getDerived(_key(reference, step));
    return blob ? JSON.parse(new TextDecoder().decode(await blob.bytes())) : null;
  }

  async #put(reference: string, step: string, value: unknown): Promise<void> {
    await this.#store.putDerived(_key(reference, step), new TextEncoder().encode(JSON.stringify(value)));
  }
}

// KSeF's reference numbers are hashed into the key: a derived key allows only letters, digits, ".", "_" and "-".
function _key(reference: string, step: string): string {
  return `ksef-batch-${createHash("sha256").update(reference).digest("hex").slice(0, 32)}-${step}`;
}

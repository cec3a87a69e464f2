/**
 * What offline invoices add to sending (README "Offline invoices", `tryby-offline.md`, open-api.json): an offline
 * submission is declared with `offlineMode: true`, in its send-invoice request (SendInvoiceRequest) or for its
 * whole batch session (OpenBatchSessionRequest: the mode is the session's, so offline and online invoices go in
 * separate batch sessions); KSeF's own verdict, `invoicingMode` in the invoice's status, is recorded. Online and
 * batch sending share these, so an offline invoice is one kind of submission, not another sender.
 * @module
 */
import { Buffer } from "node:buffer";
import type { KsefIssueMode, SubmissionRecord, TenantStore } from "../../../lib/contracts/storage.ts";
import type { SendMode } from "../connection/config.ts";

/** True for a submission issued offline. */
export function isOfflineSubmission(sub: SubmissionRecord): boolean {
  return sub.ksef?.mode === "offline";
}

/**
 * The fields an invoice's send request adds to the encrypted invoice: `offlineMode` for an offline one and, for a
 * technical correction (`offline/korekta-techniczna.md`), `hashOfCorrectedInvoice`: the SHA-256 of the rejected
 * file, Base64 (open-api.json Sha256HashBase64).
 */
export async function sendInvoiceFields(store: TenantStore, sub: SubmissionRecord): Promise<Record<string, unknown>> {
  if (!isOfflineSubmission(sub)) return {};
  const corrects = sub.ksef?.corrects ?? null;
  const original = corrects === null ? null : (await store.getSubmission(corrects))?.record;
  if (corrects !== null && !original) throw new Error(`The submission ${corrects} that ${sub.id} corrects is missing`);
  return { offlineMode: true, ...(original ? { hashOfCorrectedInvoice: Buffer.from(original.sha256, "hex").toString("base64") } : {}) };
}

/** A technical correction goes in an online session only (`offline/korekta-techniczna.md`), whatever `send_mode` says. */
export function sendModeOf(subs: readonly SubmissionRecord[], mode: SendMode): SendMode {
  return subs.some((s) => s.ksef?.corrects) ? "online" : mode;
}

/** The `offlineMode` of a batch session of these submissions (the sender groups them so that all agree). */
export function batchOfflineMode(subs: readonly SubmissionRecord[]): boolean {
  return subs.length > 0 && subs.every(isOfflineSubmission);
}

/** The group a queued submission is sent with: its form code and whether it is offline (batch sessions) or a correction (online only). */
export function sendGroupOf(sub: SubmissionRecord): string {
  return `${sub.format}\u0000${sub.ksef?.corrects ? "correction" : isOfflineSubmission(sub) ? "offline" : "online"}`;
}

/**
 * Notes KSeF's `invoicingMode` from an invoice status (open-api.json SessionInvoiceStatusResponse: Online or
 * Offline) on the submission, to be stored with the save that records the verdict.
 */
export function noteInvoicingMode(sub: SubmissionRecord, status: { invoicingMode?: unknown } | null | undefined): void {
  const mode: KsefIssueMode | null = status?.invoicingMode === "Offline" ? "offline" : status?.invoicingMode === "Online" ? "online" : null;
  if (mode !== null && sub.ksef) sub.ksef = { ...sub.ksef, invoicing_mode: mode };
}

/**
 * What offline invoices add to sending (README "Offline invoices", `tryby-offline.md`, open-api.json): an offline
 * submission is declared with `offlineMode: true`, in its send-invoice request (SendInvoiceRequest) or for its
 * whole batch session (OpenBatchSessionRequest: the mode is the session's, so offline and online invoices go in
 * separate batch sessions); KSeF's own verdict, `invoicingMode` in the invoice's status, is recorded. Online and
 * batch sending share these, so an offline invoice is one kind of submission, not another sender.
 * @module
 */
import type { KsefIssueMode, SubmissionRecord } from "../../../../lib/contracts/storage.ts";

/** True for a submission issued offline. */
export function isOfflineSubmission(sub: SubmissionRecord): boolean {
  return sub.ksef?.mode === "offline";
}

/** The fields an invoice's send request adds to the encrypted invoice: `offlineMode` for an offline one. */
export function sendInvoiceFields(sub: SubmissionRecord): Record<string, unknown> {
  return isOfflineSubmission(sub) ? { offlineMode: true } : {};
}

/** The `offlineMode` of a batch session of these submissions (the sender groups them so that all agree). */
export function batchOfflineMode(subs: readonly SubmissionRecord[]): boolean {
  return subs.length > 0 && subs.every(isOfflineSubmission);
}

/** The group a queued submission is sent with: its form code and, for batch sessions, whether it is offline. */
export function sendGroupOf(sub: SubmissionRecord): string {
  return `${sub.format}\u0000${isOfflineSubmission(sub) ? "offline" : "online"}`;
}

/**
 * Notes KSeF's `invoicingMode` from an invoice status (open-api.json SessionInvoiceStatusResponse: Online or
 * Offline) on the submission, to be stored with the save that records the verdict.
 */
export function noteInvoicingMode(sub: SubmissionRecord, status: { invoicingMode?: unknown } | null | undefined): void {
  const mode: KsefIssueMode | null = status?.invoicingMode === "Offline" ? "offline" : status?.invoicingMode === "Online" ? "online" : null;
  if (mode !== null && sub.ksef) sub.ksef = { ...sub.ksef, invoicing_mode: mode };
}

/**
 * Technical corrections (README "Offline invoices", KSeF's `offline/korekta-techniczna.md`): an upload with
 * `corrects=<id>` resends, with the same content in a form KSeF takes, an offline invoice KSeF rejected for a
 * technical reason. It is refused (422 on `corrects`, naming the reason) when the original is not an offline
 * submission, was not rejected for a technical reason, or already has a correction that KSeF accepted or is still
 * deciding on. Which rejections are technical: the document names schema errors, a file over the size limit, a
 * duplicate and other technical validation errors, and excludes missing permissions of the parties (self-billing,
 * JST or VAT-group relations).
 * @module
 */
import type { SubmissionRecord } from "../../contracts/storage.ts";
import { validationError } from "../../http/errors.ts";
import type { Context } from "../context.ts";

/**
 * The invoice statuses of a technical rejection (open-api.json's status tables): 430 the file failed verification,
 * 435 it could not be decrypted, 440 a duplicate, 450 the schema (semantic) check, 500 an unknown processing error
 * (after the sender's attempts), and this service's own refusal of a file over KSeF's size limit. Not technical:
 * 410 (the scope of permissions) and 415 (attachments not enabled for the seller), which a resend cannot fix.
 */
const _TECHNICAL = new Set(["KSEF_430", "KSEF_435", "KSEF_440", "KSEF_450", "KSEF_500", "KSEF_FILE_TOO_LARGE"]);

/** True when a rejection's code is a technical one; KSeF's exception codes (5 digits, input validation) are too. */
export function isTechnicalRejection(code: string): boolean {
  return _TECHNICAL.has(code) || /^KSEF_2\d{4}$/.test(code);
}

/** The submission `id` if it may be corrected now; else 422 on `corrects` with the reason. */
export async function correctableOriginal(ctx: Context, id: string): Promise<SubmissionRecord> {
  const original = (await ctx.tenant.getSubmission(id))?.record;
  if (!original) throw validationError("corrects", "not_found", "corrects names no submission of this tenant");
  const k = original.ksef;
  if (!k || k.mode !== "offline") throw validationError("corrects", "not_offline", "Only an offline submission can be corrected technically (KSeF's korekta-techniczna.md)");
  if (k.status !== "rejected" || !k.error || !isTechnicalRejection(k.error.code)) {
    const why = k.status !== "rejected" ? `its KSeF status is ${k.status}` : `KSeF rejected it with ${k.error?.code ?? "no code"}, which is not a technical reason`;
    throw validationError("corrects", "not_technically_rejected", `Only an offline invoice KSeF rejected for a technical reason can be corrected technically: ${why}`);
  }
  const previous = k.corrected_by ? (await ctx.tenant.getSubmission(k.corrected_by))?.record : undefined;
  if (previous?.ksef && previous.ksef.status !== "rejected") {
    const accepted = previous.ksef.status === "accepted";
    throw validationError("corrects", accepted ? "already_corrected" : "correction_pending",
      accepted ? `The submission already has a technical correction that KSeF accepted: ${previous.id}` : `A technical correction of the submission is still being sent: ${previous.id}`);
  }
  return original;
}

/** Links the original to its new correction (`ksef.corrected_by`). */
export async function linkCorrection(ctx: Context, original: SubmissionRecord, correctionId: string): Promise<void> {
  await ctx.tenant.saveSubmissionKsef(original.id, { ...original.ksef!, corrected_by: correctionId, updated_at: new Date(ctx.app.now()).toISOString() });
}

/**
 * KOD II of an offline submission (README "Offline invoices", `kody-qr.md`): the certificate link signed with the
 * tenant's KSeF certificate of type Offline. Signatures are randomised (RSASSA-PSS salt, ECDSA nonce), so the link is
 * signed once, at the first rendering, and kept with the submission: every PDF of the invoice carries the same code,
 * and a certificate replaced later does not change an invoice already issued.
 * @module
 */
import { signKsefCertificateLink } from "../../formats/pdf/ksef_certificate_link.ts";
import type { KsefQrEnvironment } from "../../formats/pdf/ksef_link.ts";
import type { SubmissionRecord } from "../../contracts/storage.ts";
import type { Context } from "../context.ts";

/** The derived-blob key the link of a submission is kept under. */
export function offlineLinkKey(id: string, environment: KsefQrEnvironment): string {
  return `ksef-kod2-${environment}-${id}`;
}

/**
 * The submission's KOD II link, signed now when it has none yet; null when the tenant has no usable certificate
 * any more (the PDF then carries KOD I alone, and the operator is told).
 */
export async function offlineCertificateLink(ctx: Context, record: SubmissionRecord, environment: KsefQrEnvironment): Promise<string | null> {
  const key = offlineLinkKey(record.id, environment);
  const kept = await ctx.tenant.getDerived(key);
  if (kept) return new TextDecoder().decode(await kept.bytes());
  const signing = ctx.app.ksefSend?.offlineCertificate?.(ctx.tenant.tenant) ?? null;
  const sellerNip = record.seller?.tax_id ?? null;
  if (signing === null || sellerNip === null) {
    ctx.app.logger.warn("offline invoice rendered without KOD II: no usable KSeF certificate of type Offline", { request_id: ctx.requestId, submission: record.id });
    return null;
  }
  const link = await signKsefCertificateLink({
    environment, contextType: "Nip", contextId: signing.contextId, sellerNip,
    certificateSerial: signing.certificateSerial, xmlSha256: record.sha256, signer: signing.signer,
  });
  await ctx.tenant.putDerived(key, new TextEncoder().encode(link));
  // Two first renderings at once may both sign: the one kept is the one every later PDF carries.
  return new TextDecoder().decode(await (await ctx.tenant.getDerived(key))!.bytes());
}

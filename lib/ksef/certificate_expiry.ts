/**
 * When a KSeF certificate's end is said before it bites (README "KSeF certificates from the command line"): 30, 7
 * and 1 days before its `notAfter`, once per certificate and threshold. Pure: which notices are due given the
 * ones already sent; keeping that record across restarts, and the log, /readyz, /metrics and the webhook, are the
 * caller's. certyfikaty-KSeF.md: a certificate that has ended no longer signs in (Authentication) or signs KOD II
 * (Offline), so a new one is enrolled in time.
 * @module
 */

/** The days before the end at which a certificate's end is announced, largest first. */
export const EXPIRY_THRESHOLDS_DAYS = [30, 7, 1] as const;
const _DAY = 86_400_000;

/** A certificate a ksef source uses: its tenant, source, use and facts. */
export interface WatchedCertificate {
  tenant: string;
  source: string;
  type: "authentication" | "offline";
  serial: string;
  subject: string;
  /** ms since the epoch. */
  notAfter: number;
}

/** The `ksef.certificate_expiring` payload (README "Webhooks"), with the threshold that made it due. */
export interface ExpiryNotice {
  tenant: string;
  threshold: number;
  /** Identifies the notice among those sent: tenant, source, type, serial and threshold. */
  key: string;
  /** When it became due, ms since the epoch: `threshold` days before the end. */
  dueAt: number;
  payload: { source: string; type: "authentication" | "offline"; serial: string; subject: string; not_after: string; days_left: number };
}

/** Whole days left before `notAfter` at `now` (0 once ended). */
export function daysLeft(notAfter: number, now: number): number {
  return Math.max(0, Math.floor((notAfter - now) / _DAY));
}

/** The notices due at `now` that `sent` (their keys) does not hold yet: every threshold crossed, each once. */
export function dueExpiryNotices(certs: readonly WatchedCertificate[], now: number, sent: ReadonlySet<string>): ExpiryNotice[] {
  const out: ExpiryNotice[] = [];
  for (const c of certs) {
    for (const threshold of EXPIRY_THRESHOLDS_DAYS) {
      if (c.notAfter - now > threshold * _DAY) continue;
      const key = `${c.tenant}/${c.source}/${c.type}/${c.serial}/${threshold}`;
      if (sent.has(key)) continue;
      out.push({
        tenant: c.tenant, threshold, key, dueAt: c.notAfter - threshold * _DAY,
        payload: { source: c.source, type: c.type, serial: c.serial, subject: c.subject, not_after: new Date(c.notAfter).toISOString(), days_left: daysLeft(c.notAfter, now) },
      });
    }
  }
  return out;
}

/** The /readyz and log line of a certificate within the largest threshold of its end, or null. */
export function expiryWarning(c: WatchedCertificate, now: number): string | null {
  if (c.notAfter - now > EXPIRY_THRESHOLDS_DAYS[0] * _DAY) return null;
  const left = daysLeft(c.notAfter, now);
  const what = c.type === "authentication" ? "signs in" : "signs KOD II of offline invoices";
  return `${c.tenant}: the KSeF ${c.type} certificate ${c.serial} of source "${c.source}" (which ${what}) ` +
    `${c.notAfter <= now ? "has ended" : `ends on ${new Date(c.notAfter).toISOString()}, in ${left} day${left === 1 ? "" : "s"}`}: ` +
    `enroll a new one with \`ksef certificates enroll --tenant ${c.tenant} --source ${c.source} --type ${c.type}\``;
}

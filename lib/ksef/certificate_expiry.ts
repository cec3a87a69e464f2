/**
 * When a KSeF certificate's end is said before it bites (README "KSeF certificates from the command line"): 30, 7
 * and 1 days before its `notAfter`, once per certificate and threshold, one notice for the nearest when several are
 * crossed at once. Pure: which notices are due given the ones already sent; keeping that record across restarts,
 * and the log, /readyz, /metrics and the webhook, are the caller's. certyfikaty-KSeF.md: a certificate that has
 * ended no longer signs in (Authentication) or signs KOD II (Offline), so a new one is enrolled in time.
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

/** The threshold days a notice names: those of EXPIRY_THRESHOLDS_DAYS. */
export type ExpiryThreshold = (typeof EXPIRY_THRESHOLDS_DAYS)[number];

/** The `ksef.certificate_expiring` payload (README "Webhooks"), with the threshold that made it due. */
export interface ExpiryNotice {
  tenant: string;
  threshold: ExpiryThreshold;
  /** Identifies the notice among those sent: tenant, source, type, serial and threshold. */
  key: string;
  /**
   * The keys of the larger thresholds crossed at the same time as this one (a certificate first seen 5 days before
   * its end crosses 30 and 7 at once): never sent, and recorded as sent with this notice so that no later check
   * sends them.
   */
  supersedes: string[];
  /** When it became due, ms since the epoch: `threshold` days before the end. */
  dueAt: number;
  payload: {
    source: string; type: "authentication" | "offline"; serial: string; subject: string; not_after: string; days_left: number;
    threshold_days: ExpiryThreshold;
  };
}

/** Whole days left before `notAfter` at `now` (0 once ended). */
export function daysLeft(notAfter: number, now: number): number {
  return Math.max(0, Math.floor((notAfter - now) / _DAY));
}

/**
 * The notices due at `now` that `sent` (their keys) does not hold yet: per certificate at most one, for the nearest
 * threshold crossed (README "Webhooks": when several are crossed at once, one event for the nearest), none when
 * that threshold's notice was sent.
 */
export function dueExpiryNotices(certs: readonly WatchedCertificate[], now: number, sent: ReadonlySet<string>): ExpiryNotice[] {
  const out: ExpiryNotice[] = [];
  for (const c of certs) {
    const keyOf = (t: number) => `${c.tenant}/${c.source}/${c.type}/${c.serial}/${t}`;
    const crossed = EXPIRY_THRESHOLDS_DAYS.filter((t) => c.notAfter - now <= t * _DAY);
    const threshold = crossed.at(-1);
    if (threshold === undefined || sent.has(keyOf(threshold))) continue;
    out.push({
      tenant: c.tenant, threshold, key: keyOf(threshold),
      supersedes: crossed.slice(0, -1).map(keyOf).filter((k) => !sent.has(k)),
      dueAt: c.notAfter - threshold * _DAY,
      payload: {
        source: c.source, type: c.type, serial: c.serial, subject: c.subject, not_after: new Date(c.notAfter).toISOString(),
        days_left: daysLeft(c.notAfter, now), threshold_days: threshold,
      },
    });
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

/**
 * What the API asks of sending to KSeF (README "Sending to KSeF", "Offline invoices"): which tenants send, the
 * tenant's KSeF certificate of type Offline for KOD II, and whether its uploads are issued offline by themselves
 * because KSeF has not answered for its `offline_when_unavailable`. The certificates are read and checked when a
 * configuration first names them (a bad one is a RangeError naming the file: at startup, the server stops; later,
 * that tenant keeps its last configuration) and kept while it names the same files; a certificate that has ended
 * since is no longer offered.
 * @module
 */
import type { KsefSendHook } from "../../../lib/contracts/ksef_send.ts";
import { loadOfflineCertificate, type OfflineCertificate } from "../offline/offline_certificate.ts";
import type { KsefAvailability } from "./availability.ts";
import type { KsefSendConfig, KsefSender } from "./job.ts";
import type { SendingConfigsOptions } from "./send_config.ts";
import { SignerLoading } from "../connection/signer_cache.ts";

/** The tenants' Offline certificates, loaded once per pair of files. */
export class OfflineCertificates {
  #loaded = new Map<string, OfflineCertificate>();
  #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * Loads what `configs` name and is not loaded yet, and returns the configurations in force: `configs`, or a
   * RangeError naming the file that cannot serve. With `tolerate` (after startup), a tenant whose certificate or
   * key cannot serve keeps its previous configuration instead, as sendingConfigs() does for the sign-in files, and
   * every other tenant's new one takes effect.
   */
  load(configs: readonly KsefSendConfig[], tolerate?: SendingConfigsOptions): KsefSendConfig[] {
    const out: KsefSendConfig[] = [];
    for (const c of configs) {
      try {
        if (c.offline && !this.#loaded.has(_key(c))) this.#loaded.set(_key(c), loadOfflineCertificate(c.offline, this.#now()));
        out.push(c);
      } catch (e) {
        if (tolerate === undefined || !(e instanceof RangeError)) throw e;
        // A key still being read in the background is no failure: the last configuration serves until it is.
        if (!(e instanceof SignerLoading)) tolerate.onEntryError(new RangeError(`sources.json ${c.tenant}: ${e.message}`));
        // Loaded when it came into force, so it serves as it did.
        out.push(...tolerate.previous.filter((p) => p.tenant === c.tenant));
      }
    }
    return out;
  }

  /** The certificate of this configuration if it is valid now, else null. */
  usable(c: KsefSendConfig): OfflineCertificate | null {
    const cert = c.offline ? this.#loaded.get(_key(c)) : undefined;
    const now = this.#now();
    // RFC 5280 §4.1.2.5: the validity period includes notAfter itself.
    return cert && cert.validFrom <= now && now <= cert.validTo ? cert : null;
  }

  /** The loaded certificates' warnings (ending soon, a key file others can read), naming the tenant. */
  warnings(configs: readonly KsefSendConfig[]): string[] {
    return configs.flatMap((c) => (c.offline ? this.#loaded.get(_key(c))?.warnings ?? [] : []).map((w) => `${c.tenant}: ${w}`));
  }
}

function _key(c: KsefSendConfig): string {
  return `${c.offline!.certificateFile}\u0000${c.offline!.keyFile}`;
}

/** Options of createKsefSendHook. */
export interface KsefSendHookOptions {
  /** The sending tenants now. */
  configs: () => KsefSendConfig[];
  certificates: OfflineCertificates;
  /** The sender of this process, which knows how long KSeF has not answered (null in an HTTP-only worker). */
  sender: () => KsefSender | null;
  /** Where the sender of whichever process records KSeF's silences (WORKERS > 1); else the sender of this process is asked. */
  availability?: KsefAvailability;
  wake: () => void;
  now?: () => number;
  /** The deadline-near window (README "Offline invoices"; default 12 hours). */
  deadlineNearMs?: number;
}

/** The hook the API is built with. */
export function createKsefSendHook(o: KsefSendHookOptions): KsefSendHook {
  const now = o.now ?? Date.now;
  const configOf = (tenant: string) => o.configs().find((c) => c.tenant === tenant);
  return {
    sends: (tenant) => configOf(tenant) !== undefined,
    wake: o.wake,
    offlineCertificate(tenant) {
      const c = configOf(tenant);
      const cert = c ? o.certificates.usable(c) : null;
      return c && cert ? { contextId: c.nip, certificateSerial: cert.serialNumber, signer: cert.signer } : null;
    },
    async issuesOffline(tenant) {
      const c = configOf(tenant);
      if (c?.offlineWhenUnavailableMs === undefined || !o.certificates.usable(c)) return false;
      const since = o.availability ? await o.availability.shared(tenant) : o.sender()?.unavailableSince(tenant) ?? null;
      return since !== null && now() - since >= c.offlineWhenUnavailableMs;
    },
    warnings: () => o.certificates.warnings(o.configs()),
    ...(o.deadlineNearMs === undefined ? {} : { deadlineNearMs: o.deadlineNearMs }),
  };
}

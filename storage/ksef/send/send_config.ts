/**
 * Which tenants send to KSeF (README "Sending to KSeF"): those whose `ksef` entry in `sources.json` has
 * `"send": true`. A tenant has at most one sending entry: two would send every invoice twice (or race for its
 * KSeF number), so such a file is refused, naming the tenant. The paths of the Offline certificate and key (and
 * of a passphrase file) are taken relative to the directory of `sources.json` (the data directory) unless absolute.
 * @module
 */
import { resolve } from "node:path";
import { resolvePassphraseSource, type KsefSourceConfig } from "../connection/config.ts";
import type { KsefSendConfig } from "./job.ts";
import { configuredSignIn } from "../connection/sign_in_choice.ts";
import { SignerLoading } from "../connection/signer_cache.ts";

/**
 * How sendingConfigs() treats an entry whose sign-in files cannot be used after startup, and OfflineCertificates.load()
 * one whose Offline certificate or key cannot.
 */
export interface SendingConfigsOptions {
  /** Hears of the entry's failure (a RangeError naming the tenant, the source and the file). */
  onEntryError: (error: RangeError) => void;
  /** The configurations last in force: the tenant keeps its own from there, and every other tenant is unaffected. */
  previous: readonly KsefSendConfig[];
}

/**
 * The sending configurations of a `sources.json` as readSourcesFile checked it (each ksef entry parsed by
 * parseKsefSourceConfig); RangeError for two sending entries of one tenant. With `tolerate` (after startup), an
 * entry whose sign-in files fail (a certificate that ended) keeps the tenant's previous configuration, if any.
 */
export function sendingConfigs(all: Readonly<Record<string, readonly { type: string; config: { name: string } }[]>>, dir: string, tolerate?: SendingConfigsOptions): KsefSendConfig[] {
  const out: KsefSendConfig[] = [];
  for (const [tenant, entries] of Object.entries(all)) {
    const kept: KsefSendConfig[] = [];
    const signIn = (c: KsefSourceConfig) => {
      try {
        return configuredSignIn(c, dir);
      } catch (e) {
        if (tolerate === undefined || !(e instanceof RangeError)) throw e;
        // A key still being read in the background is no failure: the last configuration serves until it is.
        if (!(e instanceof SignerLoading)) tolerate.onEntryError(new RangeError(`sources.json ${tenant}: source "${c.name}": ${e.message}`));
        kept.push(...tolerate.previous.filter((p) => p.tenant === tenant));
        return null;
      }
    };
    const sending = entries.flatMap((e) => {
      if (e.type !== "ksef") return [];
      const c = e.config as KsefSourceConfig;
      if (!c.send) return [];
      const signInOptions = signIn(c);
      if (signInOptions === null) return [];
      const offline = c.offlineCertificate !== undefined && c.offlineKey !== undefined
        ? { offline: {
          certificateFile: resolve(dir, c.offlineCertificate), keyFile: resolve(dir, c.offlineKey),
          ...(c.keyPassphrase === undefined ? {} : { passphrase: resolvePassphraseSource(c.keyPassphrase, dir) }),
        } }
        : {};
      const when = c.offlineWhenUnavailableMs === undefined ? {} : { offlineWhenUnavailableMs: c.offlineWhenUnavailableMs };
      return [{ tenant, baseUrl: c.baseUrl, nip: c.nip, ...signInOptions, sendMode: c.sendMode, name: c.name, ...offline, ...when }];
    });
    if (sending.length > 1) {
      throw new RangeError(`sources.json ${tenant}: ${sending.map((c) => JSON.stringify(c.name)).join(" and ")} both have "send": true; a tenant sends to KSeF through one ksef source only`);
    }
    for (const { name: _name, ...c } of sending) out.push(c);
    out.push(...kept);
  }
  return out;
}

/**
 * Watches the certificates of every `ksef` source (the Authentication one it signs in with, and the Offline one
 * that signs KOD II) and says their end before it bites (lib/ksef/certificate_expiry.ts): a log warning per
 * notice, /readyz warnings, a days-left gauge per tenant, source and type. Which notices went out is kept in a
 * small state file (written atomically) in the data directory, so each fires once, restarts included. The
 * webhook event is the `notify` hook's (the server appends it to the tenant's notices feed, README "Webhooks").
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { decodePem, looksLikePem } from "../../../lib/formats/asn1/pem.ts";
import { daysLeft, dueExpiryNotices, expiryWarning, type ExpiryNotice, type WatchedCertificate } from "../../../lib/ksef/certificate_expiry.ts";
import type { Logger } from "../../../lib/observe/log.ts";
import { writeFileAtomic } from "../../atomic.ts";
import { credentialFiles, type KsefSourceConfig } from "../connection/config.ts";
import { readConfiguredFile } from "../connection/configured_file.ts";
import { describeCertificate, loadFileSigner } from "../connection/credentials.ts";
import { MAX_KEY_FILE_BYTES } from "../connection/key_files.ts";

/** The state file's name in the data directory. */
export const EXPIRY_STATE_FILE = "ksef_certificate_notices.json";

/** Options of the watch. */
export interface ExpiryWatchOptions {
  dataDir: string;
  /** The ksef sources' certificates now (read again on each check: sources.json may change). */
  certificates: () => WatchedCertificate[];
  now?: () => number;
  logger: Logger;
  /**
   * Told of each notice as it fires, with the time it fires at (the webhook event's hook). The notice is recorded
   * as sent only once this resolves; when it throws, the check stops and the notice fires again at the next one.
   */
  notify?: (n: ExpiryNotice, at: number) => Promise<unknown> | void;
}

/** The watch: check() fires what is due; warnings() and gauges() read the certificates as they are now. */
export class CertificateExpiryWatch {
  #o: ExpiryWatchOptions;
  #now: () => number;

  constructor(o: ExpiryWatchOptions) {
    this.#o = o;
    this.#now = o.now ?? Date.now;
  }

  /** Fires the notices due now, once each; resolves to them. */
  async check(): Promise<ExpiryNotice[]> {
    const now = this.#now();
    const certs = this.#o.certificates();
    const path = join(this.#o.dataDir, EXPIRY_STATE_FILE);
    const sent = _readSent(path);
    const due = dueExpiryNotices(certs, now, new Set(Object.keys(sent)));
    if (due.length === 0) return due;
    // Said before recorded, one at a time (README "Webhooks": at-least-once): the webhook event is durable in the
    // tenant's notices feed before the state file says it was sent, so a crash between the two repeats it at the
    // next check (a duplicate) and never loses it.
    for (const n of due) {
      await this.#o.notify?.(n, now);
      // The larger thresholds crossed at the same time count as sent with it: they are never sent later.
      for (const key of [...n.supersedes, n.key]) sent[key] = new Date(now).toISOString();
      writeFileAtomic(path, `${JSON.stringify(sent)}\n`);
      this.#o.logger.warn("ksef.certificate_expiring", { tenant: n.tenant, ...n.payload });
    }
    return due;
  }

  /** /readyz warnings: each certificate within 30 days of its end. */
  warnings(): string[] {
    const now = this.#now();
    return this.#o.certificates().map((c) => expiryWarning(c, now)).filter((w): w is string => w !== null);
  }

  /** The days-left gauge's values. */
  gauges(): { labels: Record<string, string>; value: number }[] {
    const now = this.#now();
    return this.#o.certificates().map((c) => ({ labels: { tenant: c.tenant, source: c.source, type: c.type }, value: daysLeft(c.notAfter, now) }));
  }
}

/**
 * The certificates of sources.json's ksef entries (as readSourcesFile checked them), paths relative to `dataDir`.
 * A file that cannot be read is left out here: the server's startup names it.
 */
export function watchedCertificates(all: Readonly<Record<string, readonly { type: string; config: { name: string } }[]>>, dataDir: string, now: number): WatchedCertificate[] {
  const out: WatchedCertificate[] = [];
  for (const [tenant, entries] of Object.entries(all)) {
    for (const e of entries) {
      if (e.type !== "ksef") continue;
      const c = e.config as KsefSourceConfig;
      const add = (type: "authentication" | "offline", der: Uint8Array | null) => {
        if (!der) return;
        try {
          const f = describeCertificate(der);
          out.push({ tenant, source: c.name, type, serial: f.serialNumber, subject: f.subject, notAfter: f.notAfter });
        } catch {
          // not a certificate: startup refuses it, naming the file
        }
      };
      if (c.credentials.kind === "certificate") add("authentication", _certificateDer("certificate", resolve(dataDir, c.credentials.certificateFile)));
      if (c.credentials.kind === "pkcs12") {
        try {
          add("authentication", loadFileSigner(credentialFiles(c.credentials, dataDir)!, { now }).certificate);
        } catch {
          // an ended or unreadable PKCS#12 stops the server at startup, naming it
        }
      }
      if (c.offlineCertificate !== undefined) add("offline", _certificateDer("offline_certificate", resolve(dataDir, c.offlineCertificate)));
    }
  }
  return out;
}

// Read as every configured file is (configured_file.ts): a FIFO, a device or a huge file is left out at once,
// not waited on or read into memory at every look.
function _certificateDer(field: string, path: string): Uint8Array | null {
  try {
    const bytes = readConfiguredFile(field, path, MAX_KEY_FILE_BYTES, "not a certificate").bytes;
    return looksLikePem(bytes) ? decodePem(new TextDecoder().decode(bytes)).find((b) => b.label === "CERTIFICATE")?.der ?? null : bytes;
  } catch {
    return null;
  }
}

function _readSent(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  try {
    const v = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, string>) : {};
  } catch {
    return {}; // written atomically, so only a hand edit breaks it; the notices may then repeat once
  }
}

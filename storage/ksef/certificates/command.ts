/**
 * `ksef certificates …` (README "KSeF certificates from the command line"): finds the tenant's ksef source in
 * sources.json, signs in as it does, and runs limits, enroll, list or revoke against KSeF; `show` reads a
 * certificate file without the network. Returns the text to print; throws an Error whose message is the one line
 * to show. Never prints or throws a key, a passphrase or a token.
 * @module
 */
import { readFileSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { decodePem, looksLikePem } from "../../../lib/formats/asn1/pem.ts";
import { TOKEN_CANNOT_ENROLL } from "../../../lib/cli/ksef_certificates.ts";
import type { KsefCertificateCommand } from "../../../lib/cli/command.ts";
import type { KsefSourceConfig } from "../connection/config.ts";
import { describeCertificate } from "../connection/credentials.ts";
import { configuredSignIn } from "../connection/sign_in_choice.ts";
import { CertificatesNeedSignature, KsefCertificatesApi } from "./certificates_api.ts";
import { enrollCertificate } from "./enroll.ts";

/** The command's inputs: the parsed subcommand, its flags, the data directory (where sources.json is). */
export interface CertificatesCommandOptions {
  sub: KsefCertificateCommand;
  args: string[];
  flags: Map<string, string>;
  dataDir: string;
  /** sources.json as read and checked by the process (readSourcesFile): each tenant's entries. */
  sources: Readonly<Record<string, readonly { type: string; config: { name: string } }[]>>;
  now?: number;
  /** Delays between enrollment status polls, ms (default the client's). */
  pollDelays?: readonly number[];
}

const _DAY = 86_400_000;

/** Runs the subcommand; the text to print on stdout. */
export async function runCertificatesCommand(o: CertificatesCommandOptions): Promise<string> {
  const now = o.now ?? Date.now();
  if (o.sub === "show") return showCertificate(o.args[0]!, now);
  const tenant = o.flags.get("--tenant")!;
  const source = _source(o.sources, o.dataDir, tenant, o.flags.get("--source"));
  if (source.credentials.kind === "token" && o.sub !== "limits") throw new Error(TOKEN_CANNOT_ENROLL);
  const api = new KsefCertificatesApi({ baseUrl: source.baseUrl, nip: source.nip, ...configuredSignIn(source, o.dataDir, now), ...(o.pollDelays ? { pollDelays: o.pollDelays } : {}) });
  try {
    if (o.sub === "limits") {
      const l = await api.limits();
      return `can request: ${l.canRequest ? "yes" : "no"}\ncertificates: ${l.certificate.remaining} of ${l.certificate.limit} left\nrequests: ${l.enrollment.remaining} of ${l.enrollment.limit} left\n`;
    }
    if (o.sub === "list") {
      const list = await api.list();
      const rows = [["serial", "type", "status", "valid_from", "valid_to", "name"], ...list.map((c) => [c.certificateSerialNumber, c.type, c.status, _day(c.validFrom), _day(c.validTo), c.name])];
      return `${_columns(rows)}\n`;
    }
    if (o.sub === "revoke") {
      const serial = o.args[0]!.toUpperCase();
      await api.revoke(serial);
      return `revoked ${serial}\n`;
    }
    const type = o.flags.get("--type") === "offline" ? "Offline" : "Authentication";
    const name = o.flags.get("--name") ?? `ksef-${type.toLowerCase()}-${new Date(now).toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-")}`;
    const dir = resolve(o.flags.get("--out") ?? o.dataDir);
    const made = await enrollCertificate(api, { type, name, key: o.flags.get("--key") === "rsa" ? "rsa" : "ec", dir });
    // sources.json's paths are relative to its directory (the data directory) unless absolute.
    const shown = (f: string): string => {
      const r = relative(resolve(o.dataDir), f);
      return r.startsWith("..") || isAbsolute(r) ? f : r;
    };
    const fields = type === "Authentication"
      ? { certificate: shown(made.certificateFile), key: shown(made.keyFile) }
      : { offline_certificate: shown(made.certificateFile), offline_key: shown(made.keyFile) };
    return `certificate: ${made.certificateFile}\nkey: ${made.keyFile} (mode 600)\nserial: ${made.serial}\ntype: ${type}\nvalid until: ${new Date(made.notAfter).toISOString()}\n` +
      `sources.json, ksef source "${source.name}" of tenant ${tenant}${type === "Authentication" ? " (in place of its token, certificate/key or pkcs12)" : ""}:\n` +
      `${JSON.stringify(fields).slice(1, -1).replaceAll('","', '", "')}\n`;
  } catch (e) {
    if (e instanceof CertificatesNeedSignature) throw new Error(TOKEN_CANNOT_ENROLL);
    throw e;
  }
}

/** `show FILE`: a certificate's facts, one per line. */
export function showCertificate(file: string, now: number): string {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(file));
  } catch (e) {
    throw new Error(`Cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? "error"}`);
  }
  const der = looksLikePem(bytes) ? decodePem(new TextDecoder().decode(bytes)).find((b) => b.label === "CERTIFICATE")?.der : bytes;
  if (!der) throw new Error(`${file} holds no certificate (PEM "CERTIFICATE" or DER)`);
  let f: ReturnType<typeof describeCertificate>;
  try {
    f = describeCertificate(der);
  } catch {
    throw new Error(`${file} is not an X.509 certificate`);
  }
  const days = Math.floor((f.notAfter - now) / _DAY);
  return [
    `subject: ${f.subject}`,
    `issuer: ${f.issuer}`,
    `serial: ${f.serialNumber}`,
    `type: ${f.ksefType ?? "not a KSeF certificate (no KSeF key usage)"}`,
    `valid from: ${new Date(f.notBefore).toISOString()}`,
    `valid until: ${new Date(f.notAfter).toISOString()}`,
    `days left: ${days < 0 ? `0 (ended ${-days} days ago)` : days}`,
    `sha-256 fingerprint: ${f.sha256Fingerprint}`,
  ].join("\n") + "\n";
}

// The tenant's ksef source: the one named, or its only one.
function _source(all: CertificatesCommandOptions["sources"], dataDir: string, tenant: string, name: string | undefined): KsefSourceConfig {
  const ksef = (all[tenant] ?? []).filter((s) => s.type === "ksef").map((s) => s.config as KsefSourceConfig);
  if (ksef.length === 0) throw new Error(`Tenant ${tenant} has no ksef source in ${resolve(dataDir, "sources.json")}`);
  if (name !== undefined) {
    const found = ksef.find((s) => s.name === name);
    if (!found) throw new Error(`Tenant ${tenant} has no ksef source named ${name} (${ksef.map((s) => s.name).join(", ")})`);
    return found;
  }
  if (ksef.length > 1) throw new Error(`Tenant ${tenant} has ${ksef.length} ksef sources: choose one with --source (${ksef.map((s) => s.name).join(", ")})`);
  return ksef[0]!;
}

function _day(iso: string): string {
  return iso.slice(0, 10);
}

function _columns(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join("  ")).join("\n");
}

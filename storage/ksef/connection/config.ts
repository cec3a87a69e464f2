/**
 * The `ksef` entries of `sources.json` (README, "KSeF"): `{"name", "type": "ksef",
 * "environment": "test" | "demo" | "prod" | "<base URL>", "nip", "certificate", "key", "key_passphrase_env",
 * "key_passphrase_file", "pkcs12", "subject_identifier", "token",
 * "subjects", "since", "min_interval", "send", "send_mode", "offline_certificate", "offline_key",
 * "offline_when_unavailable"}`, checked at startup so a typo fails with a
 * message that names the field instead of failing every sync. Environments are srodowiska.md's.
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { isValidTenantId } from "../../../lib/contracts/ids.ts";
import type { KsefQrEnvironment } from "../../../lib/formats/pdf/ksef_link.ts";
import { parseDuration } from "../../../lib/jobs/webhooks/retry_schedule.ts";
import { SUBJECT_TYPES, type SubjectType } from "../receive/export.ts";
import type { SignerFiles } from "./credentials.ts";
import type { PassphraseSource } from "./key_files.ts";

/**
 * srodowiska.md (and open-api.json `servers` for the test one): the API roots of the public KSeF 2.0 environments.
 * The `ksef-test.mf.gov.pl/api/v2` style hosts are retired; redirects are not followed, so old roots fail.
 */
export const KSEF_ENVIRONMENTS = {
  test: "https://api-test.ksef.mf.gov.pl/v2",
  demo: "https://api-demo.ksef.mf.gov.pl/v2",
  prod: "https://api.ksef.mf.gov.pl/v2",
} as const;

/**
 * limity/limity-api.md, "Częstotliwość odpytywania": in production a scheduled export should not run more often than
 * every 15 minutes per subject type. The recommendation is production's: on test, demo and another base URL a
 * sync goes out as often as it is asked for.
 */
export const PROD_MIN_INTERVAL_MS = 15 * 60_000;

/** The default `min_interval` of an API root: KSeF's recommended interval for production, none elsewhere. */
export function defaultMinInterval(baseUrl: string): number {
  return baseUrl.replace(/\/+$/, "") === KSEF_ENVIRONMENTS.prod ? PROD_MIN_INTERVAL_MS : 0;
}

/**
 * The KSeF environment whose QR host (kody-qr.md) the invoices of an API root belong to: srodowiska.md's three roots
 * their own; a loopback root (a KSeF simulator on this machine) the test environment; any other root (a gateway of
 * the operator's in front of KSeF) production. The choice errs toward the safe side: a real invoice sent through a
 * gateway must carry a code that verifies it, while a test invoice with a production code only reads "not found".
 */
export function ksefQrEnvironmentOf(baseUrl: string): KsefQrEnvironment {
  const root = baseUrl.replace(/\/+$/, "");
  const found = (Object.keys(KSEF_ENVIRONMENTS) as (keyof typeof KSEF_ENVIRONMENTS)[]).find((env) => KSEF_ENVIRONMENTS[env] === root);
  if (found !== undefined) return found;
  let host = "";
  try {
    host = new URL(root).hostname;
  } catch {
    // Not a URL: parseKsefSourceConfig never lets one through; production, as for any other root.
  }
  return _LOOPBACK.includes(host) ? "test" : "prod";
}

/** A checked ksef source entry. */
export interface KsefSourceConfig {
  name: string;
  baseUrl: string;
  nip: string;
  /** How the source signs in to KSeF (README "KSeF"): exactly one of a token, a certificate and key, a PKCS#12. */
  credentials: KsefCredentials;
  /**
   * The KSeF token when `credentials.kind` is "token", else "" (kept for the token sign-in as it was; sign-in with
   * a certificate goes by `credentials`).
   */
  token: string;
  /** Where the passphrase of `key`, `pkcs12` or an encrypted `offline_key` comes from; paths as written. */
  keyPassphrase?: PassphraseSource;
  subjects: SubjectType[];
  /** Where a first sync starts (ms), when the entry says; else 3 months back (source.ts). */
  since?: number;
  /** A subject type is exported at most this often (ms): the entry's `min_interval`, else defaultMinInterval(). */
  minIntervalMs: number;
  /** Send the tenant's KSeF FA submissions to KSeF (README "Sending to KSeF"; the token needs InvoiceWrite). */
  send: boolean;
  /** How they go: online sessions, batch sessions, or chosen by how many wait (README "Sending to KSeF"). */
  sendMode: SendMode;
  /** The KSeF certificate of type Offline that signs KOD II (README "Offline invoices"): paths as written. */
  offlineCertificate?: string;
  offlineKey?: string;
  /** Uploads are issued offline by themselves once KSeF has not answered for this long (ms). */
  offlineWhenUnavailableMs?: number;
}

/**
 * How a `ksef` source signs in. File paths are as written in sources.json (relative ones are relative to its
 * directory: credentialFiles() resolves them); the passphrase is never here, only where it comes from.
 */
export type KsefCredentials =
  | { kind: "token"; token: string }
  | { kind: "certificate"; certificateFile: string; keyFile: string; passphrase?: PassphraseSource; subjectIdentifier: SubjectIdentifier }
  | { kind: "pkcs12"; pkcs12File: string; passphrase?: PassphraseSource; subjectIdentifier: SubjectIdentifier };

/**
 * The values of `subject_identifier`, the first the default: how `AuthTokenRequest` names who signs in
 * (uwierzytelnianie.md, `SubjectIdentifierType` certificateSubject or certificateFingerprint).
 */
export const SUBJECT_IDENTIFIERS = ["certificate_subject", "certificate_fingerprint"] as const;
export type SubjectIdentifier = (typeof SUBJECT_IDENTIFIERS)[number];

/**
 * The files of a certificate sign-in with paths resolved against `dir` (the directory of sources.json), for
 * loadFileSigner(); null for a token sign-in.
 */
export function credentialFiles(credentials: KsefCredentials, dir: string): SignerFiles | null {
  if (credentials.kind === "token") return null;
  const passphrase = credentials.passphrase === undefined ? {} : { passphrase: resolvePassphraseSource(credentials.passphrase, dir) };
  return credentials.kind === "pkcs12"
    ? { pkcs12File: resolve(dir, credentials.pkcs12File), ...passphrase }
    : { certificateFile: resolve(dir, credentials.certificateFile), keyFile: resolve(dir, credentials.keyFile), ...passphrase };
}

/** `source` with a passphrase file's path resolved against `dir`. */
export function resolvePassphraseSource(source: PassphraseSource, dir: string): PassphraseSource {
  return "file" in source && !isAbsolute(source.file) ? { file: resolve(dir, source.file) } : source;
}

/** The values of `send_mode`, the first the default. */
export const SEND_MODES = ["auto", "online", "batch"] as const;
export type SendMode = (typeof SEND_MODES)[number];

// Default roles: seller, buyer, third party (the guide's example leaves out SubjectAuthorized, which is rare).
const DEFAULT_SUBJECTS: SubjectType[] = ["Subject1", "Subject2", "Subject3"];
const NIP_WEIGHTS = [6, 5, 7, 2, 3, 4, 5, 6, 7];
/** Host names of this machine: where a plain-http root (a simulator) may be. */
const _LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

/** True for a 10-digit NIP with a valid check digit. */
export function isValidNip(nip: string): boolean {
  if (!/^\d{10}$/.test(nip)) return false;
  const sum = NIP_WEIGHTS.reduce((s, w, i) => s + w * Number(nip[i]), 0);
  return sum % 11 === Number(nip[9]);
}

/**
 * The NIP a KSeF token belongs to, when its context part says so: tokens read
 * `<reference>|<type>-<identifier>|<secret>` (open-api.json POST /tokens example, e.g. `nip-5265877635`).
 */
export function tokenNip(token: string): string | null {
  const m = /^[^|]+\|nip-(\d{10})\|/.exec(token);
  return m ? m[1]! : null;
}

/** Checks one `sources.json` entry of type ksef; throws RangeError naming the field (never echoing the token). */
export function parseKsefSourceConfig(entry: Record<string, unknown>, where: string): KsefSourceConfig {
  const fail = (msg: string): never => {
    throw new RangeError(`sources.json ${where}: ${msg}`);
  };
  const name = entry.name;
  if (typeof name !== "string" || !isValidTenantId(name)) fail(`"name" must be 1-63 lowercase letters, digits, "_" or "-"`);
  const env = entry.environment;
  let baseUrl = "";
  if (typeof env === "string" && env in KSEF_ENVIRONMENTS) baseUrl = KSEF_ENVIRONMENTS[env as keyof typeof KSEF_ENVIRONMENTS];
  else if (typeof env === "string" && /^https?:\/\//.test(env)) {
    let url: URL | null = null;
    try {
      url = new URL(env);
    } catch {
      fail(`"environment" is not a valid URL`);
    }
    // The KSeF token and the access tokens travel to this URL: plain http only to this machine (a simulator).
    const loopback = _LOOPBACK.includes(url!.hostname);
    if (url!.protocol !== "https:" && !loopback) fail(`"environment" must be an https:// URL (plain http only for localhost)`);
    baseUrl = url!.href.replace(/\/+$/, "");
  } else fail(`"environment" must be "test", "demo", "prod" or the API's base URL (e.g. https://api-test.ksef.mf.gov.pl/v2)`);
  const nip = entry.nip;
  if (typeof nip !== "string" || !isValidNip(nip)) fail(`"nip" must be the 10-digit NIP of the company (digits only, valid check digit)`);
  const { credentials, keyPassphrase } = _credentials(entry, nip as string, fail);
  let subjects = DEFAULT_SUBJECTS;
  if (entry.subjects !== undefined) {
    const s = entry.subjects;
    if (!Array.isArray(s) || s.length === 0 || s.some((x) => !SUBJECT_TYPES.includes(x as SubjectType)) || new Set(s).size !== s.length) {
      fail(`"subjects" must be a non-empty list of distinct ${SUBJECT_TYPES.join(", ")} (seller, buyer, third party, authorized subject)`);
    }
    subjects = s as SubjectType[];
  }
  let since: number | undefined;
  if (entry.since !== undefined) {
    const v = entry.since;
    since = typeof v === "string" && /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(v) ? Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v) : NaN;
    if (Number.isNaN(since)) fail(`"since" must be a date (2025-01-01) or a date and time with its offset (2025-01-01T00:00:00+01:00)`);
  }
  const minIntervalMs = entry.min_interval === undefined ? defaultMinInterval(baseUrl) : _durationMs(entry.min_interval)
    ?? fail(`"min_interval" must be a duration such as "15m", "90s" or "0s" (units ms, s, m, h, d; at most 365 days)`);
  if (entry.send !== undefined && typeof entry.send !== "boolean") fail(`"send" must be true or false`);
  const sendMode = entry.send_mode ?? SEND_MODES[0];
  if (!SEND_MODES.includes(sendMode as SendMode)) fail(`"send_mode" must be ${SEND_MODES.map((m) => JSON.stringify(m)).join(", ")}`);
  const offline = _offlineFields(entry, fail);
  return {
    name: name as string, baseUrl, nip: nip as string, credentials, token: credentials.kind === "token" ? credentials.token : "",
    ...(keyPassphrase === undefined ? {} : { keyPassphrase }), subjects, minIntervalMs,
    send: entry.send === true, sendMode: sendMode as SendMode,
    ...(since === undefined ? {} : { since }), ...offline,
  };
}

/** The sign-in fields (README "KSeF"): exactly one way, each field checked with a message naming it. */
function _credentials(entry: Record<string, unknown>, nip: string, fail: (msg: string) => never): { credentials: KsefCredentials; keyPassphrase?: PassphraseSource } {
  // JSON's null is "not given" (a field emptied in an editor or by a template), as an absent field.
  const has = (f: string) => entry[f] !== undefined && entry[f] !== null;
  const ways = [has("token"), has("certificate") || has("key"), has("pkcs12")].filter(Boolean).length;
  if (ways === 0) fail(`sign-in is missing: give "certificate" and "key", or "pkcs12", or "token" (see README, "KSeF")`);
  if (ways > 1) fail(`"token", "certificate" with "key", and "pkcs12" are three ways to sign in: give exactly one`);
  let keyPassphrase: PassphraseSource | undefined;
  if (has("key_passphrase_env") && has("key_passphrase_file")) fail(`"key_passphrase_env" and "key_passphrase_file" are two ways to give one passphrase: give one`);
  if (has("key_passphrase_env")) {
    const v = entry.key_passphrase_env;
    // The NAME of a variable: a passphrase written here by mistake would be kept in sources.json (and is not echoed).
    if (typeof v !== "string" || !/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(v)) fail(`"key_passphrase_env" must be the name of the environment variable that holds the passphrase (letters, digits, "_"), not the passphrase`);
    keyPassphrase = { env: v as string };
  }
  if (has("key_passphrase_file")) keyPassphrase = { file: _filePath(entry.key_passphrase_file) ?? fail(`"key_passphrase_file" must be the path of a file holding the passphrase, absolute or relative to the directory of sources.json`) };
  if (keyPassphrase !== undefined && !has("key") && !has("pkcs12") && !has("offline_key")) {
    fail(`"${has("key_passphrase_env") ? "key_passphrase_env" : "key_passphrase_file"}" is the passphrase of "key", "pkcs12" or "offline_key": give one of them, or remove it`);
  }
  if (has("token")) {
    if (has("subject_identifier")) fail(`"subject_identifier" goes with "certificate" or "pkcs12", not with "token"`);
    const token = entry.token;
    if (typeof token !== "string" || token.length < 16 || token.length > 1024) fail(`"token" must be the KSeF token generated in KSeF (see README, "KSeF")`);
    const own = tokenNip(token as string);
    if (own !== null && own !== nip) fail(`"token" belongs to NIP ${own}, not to "nip" ${nip}: use a token generated in the context of NIP ${nip}`);
    return { credentials: { kind: "token", token: token as string }, ...(keyPassphrase === undefined ? {} : { keyPassphrase }) };
  }
  const subjectIdentifier = (entry.subject_identifier ?? SUBJECT_IDENTIFIERS[0]) as SubjectIdentifier;
  if (!SUBJECT_IDENTIFIERS.includes(subjectIdentifier)) fail(`"subject_identifier" must be ${SUBJECT_IDENTIFIERS.map((m) => JSON.stringify(m)).join(" or ")}`);
  const passphrase = keyPassphrase === undefined ? {} : { passphrase: keyPassphrase };
  const more = { ...passphrase, subjectIdentifier };
  if (has("pkcs12")) {
    const pkcs12File = _filePath(entry.pkcs12) ?? fail(`"pkcs12" must be the path of a PKCS#12 file (.p12, .pfx) holding the certificate and its key, absolute or relative to the directory of sources.json`);
    if (keyPassphrase === undefined) fail(`"pkcs12" needs its passphrase: give "key_passphrase_env" (the name of an environment variable) or "key_passphrase_file"`);
    return { credentials: { kind: "pkcs12", pkcs12File, ...more }, ...passphrase };
  }
  if (!has("certificate") || !has("key")) fail(`"certificate" and "key" go together: the certificate and its private key`);
  const certificateFile = _filePath(entry.certificate) ?? fail(`"certificate" must be the path of the certificate (PEM or DER), absolute or relative to the directory of sources.json`);
  const keyFile = _filePath(entry.key) ?? fail(`"key" must be the path of the certificate's private key (PEM or DER), absolute or relative to the directory of sources.json`);
  return { credentials: { kind: "certificate", certificateFile, keyFile, ...more }, ...passphrase };
}

/** The offline fields (README "Offline invoices"): each with its check and the message naming it. */
const _OFFLINE_FIELDS = [
  { field: "offline_certificate", key: "offlineCertificate", read: _filePath, must: "the path of the KSeF certificate of type Offline (PEM or DER), absolute or relative to the directory of sources.json" },
  { field: "offline_key", key: "offlineKey", read: _filePath, must: "the path of the certificate's private key (PEM or DER; if encrypted, its passphrase in \"key_passphrase_env\" or \"key_passphrase_file\"), absolute or relative to the directory of sources.json" },
  { field: "offline_when_unavailable", key: "offlineWhenUnavailableMs", read: (v: unknown) => { const ms = _durationMs(v); return ms !== null && ms > 0 ? ms : null; }, must: `a duration such as "15m" or "1h" (units ms, s, m, h, d)` },
] as const;

type _Offline = Pick<KsefSourceConfig, "offlineCertificate" | "offlineKey" | "offlineWhenUnavailableMs">;

function _offlineFields(entry: Record<string, unknown>, fail: (msg: string) => never): _Offline {
  const out: Record<string, string | number> = {};
  for (const f of _OFFLINE_FIELDS) {
    if (entry[f.field] === undefined) continue;
    out[f.key] = f.read(entry[f.field]) ?? fail(`"${f.field}" must be ${f.must}`);
  }
  if ((out.offlineCertificate === undefined) !== (out.offlineKey === undefined)) fail(`"offline_certificate" and "offline_key" go together: the certificate and its private key`);
  if (out.offlineCertificate !== undefined && entry.send !== true) fail(`"offline_certificate" needs "send": true (offline invoices are sent to KSeF later)`);
  if (out.offlineWhenUnavailableMs !== undefined && out.offlineCertificate === undefined) fail(`"offline_when_unavailable" needs "offline_certificate" and "offline_key": an offline invoice carries KOD II`);
  return out as _Offline;
}

function _filePath(v: unknown): string | null {
  return typeof v === "string" && v.trim() !== "" && !v.includes("\u0000") ? v : null;
}

/** The milliseconds of a duration such as "15m", or null when `v` is not one. */
function _durationMs(v: unknown): number | null {
  if (typeof v !== "string") return null;
  try {
    return parseDuration(v);
  } catch {
    return null;
  }
}

/**
 * The server's settings (README “Configuration”): every setting is an environment variable
 * and a flag of the same meaning, flags win. Parsing is pure: server.ts hands
 * in the environment and the argument list. Bad values are programmer/operator
 * mistakes and throw RangeError at startup.
 * @module
 */
import { LOG_LEVELS, type LogLevel } from "./observe/log.ts";
import { DEFAULT_MAX_CONNECTIONS } from "./http/node_server.ts";
import { parseRateLimit } from "./pipeline/rate_limit.ts";
import { parseDuration, parseRetrySchedule } from "./jobs/webhooks/retry_schedule.ts";
import { parseCidrList } from "./http/cidr.ts";
import { DEFAULT_OPS_ALLOW, parseOpsToken } from "./pipeline/ops_access.ts";

/** The settings of a server process. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** PostgreSQL connection string; when set, storage is PostgreSQL instead of files in dataDir. */
  databaseUrl: string | null;
  workers: number;
  /** null = decide by whether the data directory is new and empty. */
  demo: boolean | null;
  uploadLimit: number;
  rateLimit: string;
  webhookAllowPrivate: boolean;
  webhookRetrySchedule: string;
  /** How long before its deadline ends an offline invoice counts as near it (README "Offline invoices"). */
  ksefDeadlineNearMs: number;
  logLevel: LogLevel;
  shutdownGraceMs: number;
  /** Open connections per process at most; beyond, a 503. */
  maxConnections: number;
  /** Addresses that see /metrics and /readyz's warnings, a CIDR list as given (README "Security model"). */
  opsAllow: string;
  /** The bearer token that sees them from anywhere; null when unset. */
  opsToken: string | null;
  /** Proxies whose X-Forwarded-For is believed, a CIDR list as given ("" = none). */
  trustProxy: string;
}

/** One setting: its variable, its flag, the flag's value placeholder, its default and what it does (for --help). */
export interface Setting {
  env: string;
  flag: string;
  arg: string;
  def: string;
  /** The default as --help shows it, when `def` is empty. */
  shown?: string;
  help: string;
}

/** Every setting of README “Configuration”, in the order --help lists them. */
export const SETTINGS = {
  host: { env: "HOST", flag: "--host", arg: "ADDR", def: "127.0.0.1", help: "listen address" },
  port: { env: "PORT", flag: "--port", arg: "N", def: "8080", help: "listen port (0 = any free port; the chosen one is logged)" },
  dataDir: { env: "DATA_DIR", flag: "--data", arg: "DIR", def: "./data", help: "storage root, including inbox/<tenant>/" },
  databaseUrl: { env: "DATABASE_URL", flag: "--database-url", arg: "URL", def: "", shown: "unset", help: "keep everything in PostgreSQL instead (needs `npm install pg`)" },
  workers: { env: "WORKERS", flag: "--workers", arg: "N", def: "1", help: "HTTP processes serving the data directory (Node only)" },
  demo: { env: "DEMO", flag: "--demo", arg: "on|off", def: "", shown: "on if new", help: "seed a demo tenant, token and invoices (on when DATA_DIR is new and empty)" },
  uploadLimit: { env: "UPLOAD_LIMIT", flag: "--upload-limit", arg: "SIZE", def: "10MiB", help: "multipart body limit" },
  rateLimit: { env: "RATE_LIMIT", flag: "--rate-limit", arg: "SPEC", def: "600/min,burst=100", help: "per-token limit, or off" },
  webhookAllowPrivate: { env: "WEBHOOK_ALLOW_PRIVATE", flag: "--webhook-allow-private", arg: "on|off", def: "", shown: "off", help: "allow http: and private/loopback webhook targets (development)" },
  webhookRetrySchedule: { env: "WEBHOOK_RETRY_SCHEDULE", flag: "--webhook-retry-schedule", arg: "LIST", def: "5s,5m,30m,2h,5h,10h,14h,20h,24h", help: "delays between delivery attempts" },
  ksefDeadlineNear: { env: "KSEF_DEADLINE_NEAR", flag: "--ksef-deadline-near", arg: "DURATION", def: "12h", help: "an offline invoice's deadline is near this long before it ends (overdue=true, submission.ksef_deadline_near)" },
  logLevel: { env: "LOG_LEVEL", flag: "--log-level", arg: "LEVEL", def: "info", help: "JSON lines on stdout: debug, info, warn, error" },
  shutdownGrace: { env: "SHUTDOWN_GRACE", flag: "--shutdown-grace", arg: "DURATION", def: "10s", help: "how long in-flight requests may finish after SIGTERM" },
  maxConnections: { env: "MAX_CONNECTIONS", flag: "--max-connections", arg: "N", def: String(DEFAULT_MAX_CONNECTIONS), help: "open connections per process; beyond, new ones get 503" },
  opsAllow: { env: "OPS_ALLOW", flag: "--ops-allow", arg: "CIDRS", def: DEFAULT_OPS_ALLOW, help: "addresses that see /metrics and /readyz warnings (CIDR list, or none)" },
  opsToken: { env: "OPS_TOKEN", flag: "--ops-token", arg: "TOKEN", def: "", shown: "none", help: "Authorization: Bearer token that sees them from anywhere (16+ characters)" },
  trustProxy: { env: "TRUST_PROXY", flag: "--trust-proxy", arg: "CIDRS", def: "", shown: "none", help: "proxies whose X-Forwarded-For is believed (CIDR list)" },
} as const satisfies Record<string, Setting>;

/** Flags that may stand alone, meaning "on" (`--demo`, `--webhook-allow-private`); the next word is their value only when it is on/off-like. */
export const SWITCH_FLAGS: ReadonlySet<string> = new Set([SETTINGS.demo.flag, SETTINGS.webhookAllowPrivate.flag, "--help"]);

/** Parses "10MiB", "512KiB", "1MB", "1048576" into bytes. */
export function parseSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|kib|mb|mib|gb|gib)?\s*$/i.exec(text);
  if (!m) throw new RangeError(`Cannot parse size: ${text}`);
  const unit = (m[2] ?? "b").toLowerCase();
  const mult = { b: 1, kb: 1e3, kib: 1024, mb: 1e6, mib: 1024 ** 2, gb: 1e9, gib: 1024 ** 3 }[unit]!;
  return Math.floor(Number(m[1]) * mult);
}

const _SWITCH_VALUE = /^(1|true|on|yes|0|false|off|no)$/i;

function _bool(text: string, name: string): boolean | null {
  if (text === "") return null;
  if (/^(1|true|on|yes)$/i.test(text)) return true;
  if (/^(0|false|off|no)$/i.test(text)) return false;
  throw new RangeError(`${name} must be on or off, not ${text}`);
}

/**
 * Splits argv into positional words and `--flag value` / `--flag=value` / bare `--flag` options;
 * `-h` is `--help`, and the `switches` never take the next word as their value.
 */
export function parseArgs(argv: string[], switches: ReadonlySet<string> = SWITCH_FLAGS): { positional: string[]; flags: Map<string, string> } {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] === "-h" ? "--help" : argv[i]!;
    if (!a.startsWith("--")) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    if (eq > 0) flags.set(a.slice(0, eq), a.slice(eq + 1));
    else if (i + 1 < argv.length && !argv[i + 1]!.startsWith("--") && (!switches.has(a) || _SWITCH_VALUE.test(argv[i + 1]!))) flags.set(a, argv[++i]!);
    else flags.set(a, "true");
  }
  return { positional, flags };
}

/** The configuration from the environment and flags (flags win). */
export function loadConfig(env: Record<string, string | undefined>, flags: Map<string, string>): Config {
  const get = (k: keyof typeof SETTINGS): string => {
    const s = SETTINGS[k];
    return flags.get(s.flag) ?? env[s.env] ?? s.def;
  };
  const port = /^\d+$/.test(get("port")) ? Number(get("port")) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`PORT must be 0 to 65535, not ${get("port")}`);
  const workers = Number(get("workers"));
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) throw new RangeError(`WORKERS must be 1 to 64`);
  const maxConnections = /^\d{1,7}$/.test(get("maxConnections")) ? Number(get("maxConnections")) : 0;
  if (maxConnections < 1) throw new RangeError(`MAX_CONNECTIONS must be 1 to 9999999, not ${get("maxConnections")}`);
  const logLevel = get("logLevel") as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new RangeError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}`);
  parseRateLimit(get("rateLimit")); // throws RangeError on a bad value
  parseRetrySchedule(get("webhookRetrySchedule"));
  parseCidrList(get("opsAllow"), SETTINGS.opsAllow.env); // throws RangeError naming the setting
  parseCidrList(get("trustProxy"), SETTINGS.trustProxy.env);
  return {
    host: get("host"),
    port,
    dataDir: get("dataDir"),
    databaseUrl: get("databaseUrl") || null,
    workers,
    demo: _bool(get("demo"), "DEMO"),
    uploadLimit: parseSize(get("uploadLimit")),
    rateLimit: get("rateLimit"),
    webhookAllowPrivate: _bool(get("webhookAllowPrivate"), "WEBHOOK_ALLOW_PRIVATE") ?? false,
    webhookRetrySchedule: get("webhookRetrySchedule"),
    ksefDeadlineNearMs: parseDuration(get("ksefDeadlineNear")),
    logLevel,
    shutdownGraceMs: parseDuration(get("shutdownGrace")),
    maxConnections,
    opsAllow: get("opsAllow"),
    opsToken: parseOpsToken(get("opsToken"), SETTINGS.opsToken.env),
    trustProxy: get("trustProxy"),
  };
}

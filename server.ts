/**
 * The process: reads configuration, opens storage, wires the app, serves it
 * over node:http, handles signals and the `token` subcommands (API.md §11).
 * No business logic lives here.
 *
 *   node server.ts [serve] [--port 8080 --data ./data …]
 *   node server.ts token create --tenant acme --scopes documents:read,documents:write [--expires-in 30d]
 *   node server.ts token list [--tenant acme]
 *   node server.ts token revoke KEY_ID
 * @module
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import cluster from "node:cluster";
import { createServer } from "node:http";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createApp, type App } from "./lib/app.ts";
import { generateToken, parseScopes, SCOPES, type TokenRecord } from "./lib/auth/tokens.ts";
import { loadConfig, parseArgs, type Config } from "./lib/config.ts";
import { toNodeListener } from "./lib/http/node_adapter.ts";
import { createJsonLogger, type Logger } from "./lib/observe/log.ts";
import { parseRateLimit, type RateLimitConfig } from "./lib/pipeline/rate_limit.ts";
import { parseDuration, parseRetrySchedule } from "./lib/jobs/webhooks/retry_schedule.ts";
import { createHttpTransport } from "./storage/transports/webhook_http.ts";
import { FileStorage } from "./storage/file/store.ts";
import { isValidTenantId } from "./lib/contracts/ids.ts";
import { PostgresStorage, type PgPool } from "./storage/postgres/store.ts";
import type { Storage } from "./lib/contracts/storage.ts";
import { inboxSource } from "./storage/sources/inbox.ts";
import { httpSource } from "./storage/sources/http.ts";
import type { DocumentSource } from "./lib/contracts/document_source.ts";

const HEADERS_TIMEOUT_MS = 10_000; // slowloris: a client gets 10 s to send its headers
const REQUEST_TIMEOUT_MS = 120_000; // a 10 MiB upload at ~1 Mbit/s still fits; slower clients are cut off
const KEEP_ALIVE_TIMEOUT_MS = 5_000; // idle keep-alive sockets are not held longer
const WEBHOOK_POLL_MS = 250; // how soon a change is picked up for delivery
const SYNC_POLL_MS = 250; // how soon the executing process picks up a run that another process recorded
const PG_POOL_SIZE = 10; // connections per process: requests are short, and PostgreSQL's default limit is 100
const DEMO_TENANT = "demo";
const DEMO_DIR = join(dirname(fileURLToPath(import.meta.url)), "storage", "demo");

function _fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

async function createToken(storage: Storage, tenant: string, scopes: string, expiresIn: string | undefined): Promise<string> {
  if (!isValidTenantId(tenant)) throw new RangeError(`Invalid tenant id: ${tenant} (lower-case letters, digits, - and _)`);
  const now = Date.now();
  const t = generateToken();
  const record: TokenRecord = {
    key_id: t.keyId, tenant, secret_sha256: t.secretSha256, scopes: parseScopes(scopes),
    created_at: new Date(now).toISOString(),
    expires_at: expiresIn ? new Date(now + parseDuration(expiresIn)).toISOString() : null,
    revoked_at: null,
  };
  storage.tenant(tenant); // creates the tenant
  await storage.tokens.create(record);
  return t.token;
}

async function tokenCommand(args: string[], flags: Map<string, string>, config: Config): Promise<void> {
  const storage = await openStorage(config);
  const [sub, arg] = args;
  if (sub === "create") {
    const tenant = flags.get("--tenant") ?? _fail("token create needs --tenant ID");
    const scopes = flags.get("--scopes") ?? _fail(`token create needs --scopes (from: ${SCOPES.join(", ")})`);
    process.stdout.write(`${await createToken(storage, tenant, scopes, flags.get("--expires-in"))}\n`);
  } else if (sub === "list") {
    for (const t of await storage.tokens.list(flags.get("--tenant"))) {
      const { secret_sha256: _, ...shown } = t; // never printed
      process.stdout.write(`${JSON.stringify(shown)}\n`);
    }
  } else if (sub === "revoke") {
    if (!arg) _fail("token revoke needs KEY_ID");
    if (!(await storage.tokens.revoke(arg, new Date().toISOString()))) _fail(`No token with key id ${arg}`);
    process.stdout.write(`revoked ${arg}\n`);
  } else {
    _fail("usage: token create --tenant ID --scopes a,b [--expires-in 30d] | token list [--tenant ID] | token revoke KEY_ID");
  }
  await storage.close();
}

/** Seeds the demo tenant: a token with every scope and sample invoices in its inbox. */
async function seedDemo(storage: Storage, dataDir: string): Promise<string> {
  const token = await createToken(storage, DEMO_TENANT, SCOPES.join(","), undefined);
  const inbox = join(dataDir, "inbox", DEMO_TENANT);
  mkdirSync(inbox, { recursive: true });
  for (const name of readdirSync(DEMO_DIR)) {
    if (name.endsWith(".xml") || name.endsWith(".json")) copyFileSync(join(DEMO_DIR, name), join(inbox, name));
  }
  return token;
}

/** The http sources of a tenant from `<data>/sources.json`: `{"acme": [{"name", "type": "http", "url", "token"}]}`. */
function configuredSources(dataDir: string, tenant: string): DocumentSource[] {
  const path = join(dataDir, "sources.json");
  if (!existsSync(path)) return [];
  const all = JSON.parse(readFileSync(path, "utf8")) as Record<string, { name: string; type: string; url: string; token: string }[]>;
  return (all[tenant] ?? []).filter((s) => s.type === "http").map((s) => httpSource({
    name: s.name, url: s.url, token: s.token, positionFile: join(dataDir, "tenants", tenant, "sources", `${s.name}.cursor`),
  }));
}

/**
 * The storage the configuration names: PostgreSQL when DATABASE_URL is set (the driver `pg` is loaded only
 * then, and the project does not depend on it), else the file store in DATA_DIR.
 */
async function openStorage(config: Config): Promise<Storage> {
  if (!config.databaseUrl) return new FileStorage(resolve(config.dataDir), { shared: config.workers > 1 });
  let pg: { default: { Pool: new (o: { connectionString: string; max?: number }) => PgPool } };
  try {
    pg = (await import("pg" as string)) as typeof pg;
  } catch {
    throw new RangeError("DATABASE_URL is set but the PostgreSQL driver is missing: run `npm install pg` next to server.ts");
  }
  return PostgresStorage.open(new pg.default.Pool({ connectionString: config.databaseUrl, max: PG_POOL_SIZE }));
}

/** Calls `stop` on SIGTERM and SIGINT (through Deno's own API on Deno, whose node:process does not deliver them). */
function onSignals(stop: (signal: string) => void): void {
  const deno = (globalThis as { Deno?: { addSignalListener(s: string, f: () => void): void } }).Deno;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    if (deno) deno.addSignalListener(signal, () => stop(signal));
    else process.on(signal, () => stop(signal));
  }
}

/** The rate limit of one of `workers` processes: each gets its share, so a token's limit holds across them. */
function _share(config: Config): RateLimitConfig | null {
  const limit = parseRateLimit(config.rateLimit);
  if (!limit || config.workers === 1) return limit;
  return { requests: Math.max(1, Math.floor(limit.requests / config.workers)), windowMs: limit.windowMs, burst: Math.max(1, Math.floor(limit.burst / config.workers)) };
}

/**
 * Builds the app. `role` "all" serves HTTP and runs syncs and webhook deliveries (WORKERS=1); with several
 * workers, the "primary" runs syncs and deliveries (one process, so each run and event has one executor)
 * and the "worker"s serve HTTP on the shared port.
 */
async function buildApp(config: Config, role: "all" | "primary" | "worker", logger: Logger) {
  const dataDir = resolve(config.dataDir);
  const storage = await openStorage(config);
  const app = await createApp({
    storage, logger, uploadLimit: config.uploadLimit, rateLimit: _share(config),
    sources: (tenant) => [inboxSource(join(dataDir, "inbox"), tenant), ...configuredSources(dataDir, tenant)],
    executeSyncs: role !== "worker",
    webhooks: {
      ...(role !== "worker" ? { transport: createHttpTransport(config.webhookAllowPrivate) } : {}),
      schedule: parseRetrySchedule(config.webhookRetrySchedule),
      allowPrivate: config.webhookAllowPrivate,
    },
  });
  return { app, storage, dataDir };
}

/** Starts node:http for the app; resolves with the URL once listening. */
async function listen(config: Config, app: App, storage: Storage, logger: Logger, logListening: boolean): Promise<string> {
  const server = createServer(
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS },
    toNodeListener(app.handle),
  );
  let stopping = false;
  onSignals((signal) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal });
    app.drain();
    const timer = setTimeout(() => {
      logger.warn("grace period over, closing connections");
      server.closeAllConnections();
    }, config.shutdownGraceMs);
    timer.unref();
    server.close(async () => {
      await app.close();
      await storage.close();
      logger.info("stopped");
      process.exit(0);
    });
    server.closeIdleConnections();
  });
  await new Promise<void>((done) => server.listen(config.port, config.host, done));
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : config.port;
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  if (logListening) logger.info("listening", { url, data_dir: resolve(config.dataDir) });
  return url;
}

async function serve(config: Config): Promise<void> {
  const logger = createJsonLogger(config.logLevel, (line) => void process.stdout.write(line));
  const isDeno = "Deno" in globalThis;
  if (config.workers > 1 && isDeno) throw new RangeError("WORKERS > 1 needs node:cluster, which Deno does not provide");
  if (config.workers > 1 && !cluster.isPrimary) {
    const { app, storage } = await buildApp(config, "worker", logger);
    await listen(config, app, storage, logger, false);
    return;
  }
  const dataDir = resolve(config.dataDir);
  const dirIsNew = !existsSync(dataDir) || readdirSync(dataDir).length === 0;
  const { app, storage } = await buildApp(config, config.workers > 1 ? "primary" : "all", logger);
  // New: an empty data directory, or with PostgreSQL a database without tenants.
  const isNew = config.databaseUrl ? (await storage.tenants()).length === 0 : dirIsNew;
  const demoToken = config.demo ?? isNew ? await seedDemo(storage, dataDir) : null;
  let url: string;
  if (config.workers === 1) url = await listen(config, app, storage, logger, true);
  else url = await forkWorkers(config, app, storage, logger);
  await app.sync.resume();
  app.sync.start(SYNC_POLL_MS);
  app.webhooks?.start(WEBHOOK_POLL_MS);
  if (demoToken) {
    await app.sync.request(storage.tenant(DEMO_TENANT), null);
    // The token is shown once, on stderr, like `token create` does; it is never logged.
    process.stderr.write(`\nDemo tenant "${DEMO_TENANT}" is ready. Its token (shown once):\n\n  ${demoToken}\n\nTry:\n\n  curl -s -H 'X-API-Token: ${demoToken}' ${url}/api/v1/documents\n\n`);
  }
}

/** The primary of WORKERS > 1: forks the HTTP workers, restarts a worker that dies, stops them all on SIGTERM. */
async function forkWorkers(config: Config, app: App, storage: Storage, logger: Logger): Promise<string> {
  let stopping = false;
  const listening = new Promise<string>((resolve) => {
    cluster.once("listening", (_w, address) => {
      const host = config.host.includes(":") ? `[${config.host}]` : config.host;
      resolve(`http://${host}:${address.port}`);
    });
  });
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    logger.error("worker died, starting another", { worker: worker.id, code, signal });
    cluster.fork();
  });
  for (let i = 0; i < config.workers; i++) cluster.fork();
  onSignals(async (signal) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal });
    const exits = Object.values(cluster.workers ?? {}).map((w) => new Promise<void>((done) => {
      if (!w || w.isDead()) return done();
      w.once("exit", () => done());
      w.process.kill("SIGTERM");
    }));
    await Promise.all(exits);
    await app.close();
    await storage.close();
    logger.info("stopped");
    process.exit(0);
  });
  const url = await listening;
  logger.info("listening", { url, data_dir: resolve(config.dataDir), workers: config.workers });
  return url;
}

async function main(): Promise<void> {
  const { positional, flags } = parseArgs(process.argv.slice(2));
  let config: Config;
  try {
    config = loadConfig(process.env, flags);
  } catch (e) {
    _fail((e as Error).message);
  }
  const cmd = positional[0] ?? "serve";
  if (cmd === "serve") await serve(config);
  else if (cmd === "token") await tokenCommand(positional.slice(1), flags, config);
  else _fail(`Unknown command: ${cmd} (serve, token)`);
}

main().catch((e: unknown) => _fail(e instanceof RangeError || e instanceof TypeError ? e.message : String((e as Error).stack ?? e)));

/**
 * The process (README “Configuration”): reads the command line and the environment, opens
 * storage, wires the app, serves it over node:http (or node:cluster workers),
 * handles signals and the `token` subcommands. No business logic lives here:
 * parsing is lib/config.ts and lib/cli/, I/O helpers are storage/process/.
 *
 *   node server.ts [serve] [--port 8080 --data ./data …]     (--help for every option)
 *   node server.ts token create --tenant acme --scopes documents:read,documents:write [--expires-in 30d]
 *   node server.ts token list [--tenant acme]
 *   node server.ts token revoke KEY_ID
 *   node server.ts ksef certificates limits|enroll|list|revoke|show …   (KSeF certificates of a tenant's ksef source)
 *   node server.ts convert FILE --to ksef-fa3|ubl|cii [--out FILE] [--keep-notes]   (no server, no data directory)
 * @module
 */
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { setFlagsFromString } from "node:v8";
import { join, resolve } from "node:path";
import { createApp, type App } from "./lib/app.ts";
import { mintToken, parseScopes, SCOPES } from "./lib/auth/tokens.ts";
import { parseCommand, type Command, type UsageTopic } from "./lib/cli/command.ts";
import { convertUsage, ksefCertificatesUsage, serveUsage, SOURCE_PROGRAM, tokenUsage } from "./lib/cli/usage.ts";
import { runConvert } from "./lib/cli/convert.ts";
import { readInvoiceXml } from "./lib/formats/invoice/read_xml.ts";
import { loadConfig, type Config } from "./lib/config.ts";
import { toNodeListener } from "./lib/http/node_adapter.ts";
import { guardNodeServer, type NodeServerLike as GuardedServer } from "./lib/http/node_server.ts";
import { isValidTenantId, newId } from "./lib/contracts/ids.ts";
import type { Storage } from "./lib/contracts/storage.ts";
import { createJsonLogger, type Logger } from "./lib/observe/log.ts";
import { Metrics } from "./lib/observe/metrics.ts";
import { parseRateLimit, perWorkerRateLimit } from "./lib/pipeline/rate_limit.ts";
import { parseDuration, parseRetrySchedule } from "./lib/jobs/webhooks/retry_schedule.ts";
import { seedDemoInbox } from "./storage/demo/seed.ts";
import { forkWorkers, isClusterWorker, LISTEN_FAILED } from "./storage/process/cluster.ts";
import { ListenError, listenErrorMessage, listenHttp } from "./storage/process/http_listener.ts";
import { createStdoutLog, type ProcessLog } from "./storage/process/log_output.ts";
import { onStopSignal } from "./storage/process/signals.ts";
import { openStorage as openStorageAt, readConfiguredSources, SOURCE_TYPES } from "./storage/registry.ts";
import { createInvoiceWorkers } from "./storage/process/invoice_workers.ts";
import { inboxSource } from "./storage/sources/inbox.ts";
import { readPdfFontFiles } from "./storage/fonts/font_files.ts";
import { readSchemaFiles } from "./storage/schemas/schema_files.ts";
import { schemaSetOf, verdictOf } from "./storage/schemas/validator.ts";
import { writeFileAtomic } from "./storage/atomic.ts";
import { createHttpTransport } from "./storage/transports/webhook_http.ts";
import type { DocumentSource } from "./lib/contracts/document_source.ts";
import { createKsefSender, type KsefSendConfig, type KsefSender } from "./storage/ksef/send/job.ts";
import { sendingConfigs, type SendingConfigsOptions } from "./storage/ksef/send/send_config.ts";
import { readSourcesFile } from "./storage/sources/sources_file.ts";
import { signInWarnings } from "./storage/ksef/connection/sign_in_choice.ts";
import { deferSignerLoads } from "./storage/ksef/connection/credentials.ts";
import { createKdfThread } from "./storage/process/kdf_thread.ts";
import { createKsefSendHook, OfflineCertificates } from "./storage/ksef/send/send_hook.ts";
import { runCertificatesCommand } from "./storage/ksef/certificates/command.ts";
import { CertificateExpiryWatch, watchedCertificates } from "./storage/ksef/certificates/expiry_watch.ts";
import { fileAvailability } from "./storage/ksef/send/availability.ts";

const WEBHOOK_POLL_MS = 250; // how soon a change is picked up for delivery
const SYNC_POLL_MS = 250; // how soon the executing process picks up a run that another process recorded
const VERDICT_BACKFILL_RETRY_MS = 60_000; // a judging of stored documents that failed (storage down) starts again after this
const KSEF_SEND_POLL_MS = 1000; // how soon the sender looks at the queue again (an upload in this process wakes it at once)
/** How often the ksef sources' certificates are looked at for their end: hourly is ample for notices a day apart. */
const EXPIRY_CHECK_MS = 3_600_000;
/** How long the certificates read for the expiry watch are reused (a new certificate shows within a minute). */
const EXPIRY_READ_MS = 60_000;
const INVOICE_THREADS = 1; // = MAX_LARGE_READS of lib/api/invoice_reader.ts: one thread per large read at a time
/**
 * Threads that read a sync run's invoices and read and validate uploads (each started when first needed): one per
 * core but the event loop's, so that parsing uses the machine while the event loop stores, flushes and answers
 * requests (README "How data is kept (file store)"). On 2 cores one thread measured as fast as two, with a lower
 * /healthz p99 during an import.
 */
const PARSE_THREADS = Math.max(1, Math.min(4, availableParallelism() - 1));
const DEMO_TENANT = "demo";
/**
 * libuv's pool threads (default 4): the file store flushes a sync run's blobs concurrently, and the disk takes
 * concurrent flushes together (README "How data is kept (file store)"). Read when the pool first starts, so set
 * before any asynchronous file call; an operator's own UV_THREADPOOL_SIZE wins.
 */
const FS_THREADS = 16;
process.env.UV_THREADPOOL_SIZE ??= String(FS_THREADS);
const EXIT_FAILURE = 1; // could not run: the port is taken, storage cannot be opened
const EXIT_USAGE = 2; // the command line or a setting is wrong

/** The log of `serve`, once made: its held lines go out before a failure's message on stderr. */
let processLog: ProcessLog | null = null;

function _fail(message: string, code = EXIT_USAGE): never {
  processLog?.flush();
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/**
 * How the user started this process, for help and hints: `integrator-api` when it is the npm package's compiled
 * command (package.json `bin`, README "Embedding the core"), else server.ts through `npm start`/`npm run token`.
 */
const INSTALLED = import.meta.url.endsWith(".js");
const PROGRAM = INSTALLED ? "integrator-api" : SOURCE_PROGRAM;
const TOKEN_COMMAND = INSTALLED ? "integrator-api token" : "npm run token --";

const _usage = (topic: UsageTopic): string =>
  topic === "token" ? tokenUsage(PROGRAM) : topic === "ksef" ? ksefCertificatesUsage(PROGRAM) : topic === "convert" ? convertUsage(PROGRAM) : serveUsage(PROGRAM);

/** Stores a new token for `tenant` (creating the tenant); returns the token string and its key id. */
async function createToken(storage: Storage, tenant: string, scopes: string, expiresIn: string | undefined): Promise<{ token: string; keyId: string }> {
  if (!isValidTenantId(tenant)) throw new RangeError(`Invalid tenant id: ${tenant} (lower-case letters, digits, - and _)`);
  const { token, record } = mintToken(tenant, parseScopes(scopes), Date.now(), expiresIn ? parseDuration(expiresIn) : null);
  storage.tenant(tenant); // creates the tenant
  await storage.tokens.create(record);
  return { token, keyId: record.key_id };
}

async function tokenCommand(c: Extract<Command, { kind: "token" }>, config: Config): Promise<void> {
  if (c.sub === "create" && !c.flags.has("--tenant")) _fail(`token create needs --tenant ID\n\n${tokenUsage(PROGRAM)}`);
  if (c.sub === "create" && !c.flags.has("--scopes")) _fail(`token create needs --scopes (from: ${SCOPES.join(", ")})\n\n${tokenUsage(PROGRAM)}`);
  const storage = await openStorage(config);
  if (c.sub === "create") {
    const { token, keyId } = await createToken(storage, c.flags.get("--tenant")!, c.flags.get("--scopes")!, c.flags.get("--expires-in"));
    process.stdout.write(`${token}\n`);
    // On stderr, so that TOKEN=$(npm run -s token -- create …) captures the token alone.
    process.stderr.write(`key id: ${keyId} (to revoke: ${TOKEN_COMMAND} revoke ${keyId})\n`);
  } else if (c.sub === "list") {
    for (const t of await storage.tokens.list(c.flags.get("--tenant"))) {
      const { secret_sha256: _, ...shown } = t; // never printed
      process.stdout.write(`${JSON.stringify(shown)}\n`);
    }
  } else {
    const keyId = c.args[0]!;
    if (!(await storage.tokens.revoke(keyId, new Date().toISOString()))) _fail(`No token with key id ${keyId}`, EXIT_FAILURE);
    process.stdout.write(`revoked ${keyId}\n`);
  }
  await storage.close();
}

/** `ksef certificates …`: its output on stdout, a failure as one line on stderr (exit 1). */
async function ksefCommand(c: Extract<Command, { kind: "ksef" }>, config: Config): Promise<void> {
  const dataDir = resolve(config.dataDir);
  let out: string;
  try {
    const sources = c.sub === "show" ? {} : readSourcesFile(dataDir, SOURCE_TYPES);
    out = await runCertificatesCommand({ sub: c.sub, args: c.args, flags: c.flags, dataDir, sources });
  } catch (e) {
    // One line: KSeF's and the file signer's messages never hold a key, a passphrase or a token.
    _fail((e as Error).message.split("\n")[0]!, EXIT_FAILURE);
  }
  process.stdout.write(out);
}

/**
 * `convert FILE --to …` (README "Converting from the command line"): the file (or stdin) converted by lib/cli/convert.ts
 * with the shipped schemas; the XML on stdout or written whole to --out, the losses and findings on stderr.
 */
async function convertCommand(c: Extract<Command, { kind: "convert" }>): Promise<void> {
  let bytes: Uint8Array;
  try {
    bytes = c.file === "-" ? await _readStdin() : readFileSync(c.file);
  } catch (e) {
    _fail(`Cannot read ${c.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, EXIT_FAILURE);
  }
  const schemas = schemaSetOf(readSchemaFiles());
  const outcome = await runConvert(bytes, c.to, {
    keepNotes: c.keepNotes, now: new Date(), read: async (xml) => readInvoiceXml(xml), validate: async (xml) => verdictOf(xml, schemas),
  });
  if (outcome.messages.length > 0) process.stderr.write(`${outcome.messages.join("\n")}\n`);
  if (outcome.xml === null) process.exit(outcome.exit);
  if (c.out === null || c.out === "-") {
    process.stdout.write(outcome.xml);
    return;
  }
  try {
    writeFileAtomic(c.out, outcome.xml); // temp file and rename: a reader of --out never sees half an invoice
  } catch (e) {
    _fail(`Cannot write ${c.out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, EXIT_FAILURE);
  }
}

async function _readStdin(): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Uint8Array);
  return Buffer.concat(chunks);
}

/**
 * A tenant's configured sources, read again on every call so that edits apply to the next sync. A bad file stops
 * the server at startup; one edited into a bad state later is logged, and the last good configuration stays.
 */
function configuredSources(dataDir: string, uploadLimit: number, logger: Logger): (tenant: string) => DocumentSource[] {
  let good = readConfiguredSources(dataDir, uploadLimit);
  const once = logOnChange(logger);
  return (tenant) => {
    const errors: string[] = [];
    try {
      // After startup one entry that cannot be made (a tenant's certificate that ended) fails only its own runs.
      good = readConfiguredSources(dataDir, uploadLimit, SOURCE_TYPES, (e) => errors.push(e.message));
    } catch (e) {
      errors.push(`sources.json is invalid: the last valid configuration stays in force: ${(e as Error).message}`);
    }
    once(errors);
    return Object.hasOwn(good, tenant) ? good[tenant]! : []; // "constructor" is a valid tenant id, not a key of every object
  };
}

/**
 * Logs each of a re-read's problems once while it lasts: sources are read on every request that needs them, and
 * the same message on each would bury everything else. A problem that goes away and comes back is logged again.
 */
function logOnChange(logger: Logger): (errors: readonly string[]) => void {
  let seen = new Set<string>();
  return (errors) => {
    for (const error of errors) if (!seen.has(error)) logger.error("sources.json: a source cannot be used", { error });
    seen = new Set(errors);
  };
}

/**
 * The tenants that send to KSeF (`"send": true` on their ksef source), read again on every call like the sources.
 * A bad file (or two sending entries for one tenant) stops the server at startup; later, the last good one stays.
 */
function configuredSending(dataDir: string, logger: Logger, certificates: OfflineCertificates): () => KsefSendConfig[] {
  const read = (tolerate?: SendingConfigsOptions): KsefSendConfig[] => {
    // A certificate or key that cannot sign KOD II is refused, naming the file: at startup the server stops; later
    // that tenant keeps its last configuration, as with its sign-in files.
    return certificates.load(sendingConfigs(readSourcesFile(dataDir, SOURCE_TYPES), dataDir, tolerate), tolerate);
  };
  let good = read();
  for (const warning of certificates.warnings(good)) logger.warn("KSeF Offline certificate", { warning });
  const once = logOnChange(logger);
  return () => {
    const errors: string[] = [];
    try {
      // After startup one tenant's sign-in or Offline certificate files that fail keep that tenant's last
      // configuration, not everyone's.
      good = read({ previous: good, onEntryError: (e) => errors.push(e.message) });
    } catch (e) {
      errors.push(`sources.json is invalid: the last valid configuration stays in force: ${(e as Error).message}`);
    }
    once(errors);
    return good;
  };
}

/**
 * How the ksef sources sign in, where the operator should act (a KSeF token, which KSeF takes until 31 December
 * 2026; a certificate ending soon): logged once at startup and shown on /readyz, from sources.json as last read well.
 */
function configuredSignInWarnings(dataDir: string, logger: Logger): () => string[] {
  let good = readSourcesFile(dataDir, SOURCE_TYPES);
  let cache = { at: Date.now(), warnings: signInWarnings(good, dataDir, Date.now()) };
  for (const warning of cache.warnings) logger.warn("KSeF sign-in", { warning });
  return () => {
    // Read at most once a minute: /readyz is public and asked often, and a PKCS#12 costs its key derivation.
    if (Date.now() - cache.at < EXPIRY_READ_MS) return cache.warnings;
    try {
      good = readSourcesFile(dataDir, SOURCE_TYPES);
    } catch {
      // configuredSources() logs a bad file; the last good one stays, here too.
    }
    cache = { at: Date.now(), warnings: signInWarnings(good, dataDir, Date.now()) };
    return cache.warnings;
  };
}

/**
 * The ksef sources' certificates watched for their end (README "KSeF certificates from the command line"): 30, 7
 * and 1 days before, once each. sources.json is read again on each look; a bad file keeps the last good one.
 */
function configuredExpiryWatch(dataDir: string, logger: Logger, storage: Storage): CertificateExpiryWatch {
  let good = readSourcesFile(dataDir, SOURCE_TYPES);
  let cache: { at: number; certs: ReturnType<typeof watchedCertificates> } | null = null;
  return new CertificateExpiryWatch({
    dataDir, logger,
    // The webhook event, durable in the source's tenant's notices feed, which the delivery worker reads (README "Webhooks").
    notify: (n, at) => storage.tenant(n.tenant).appendNotice({
      key: n.key, due_at: new Date(n.dueAt).toISOString(), type: "ksef.certificate_expiring", created_at: new Date(at).toISOString(), data: n.payload,
    }),
    certificates: () => {
      // Read at most once a minute: /readyz and /metrics ask often, and a PKCS#12 costs its key derivation.
      if (cache && Date.now() - cache.at < EXPIRY_READ_MS) return cache.certs;
      try {
        good = readSourcesFile(dataDir, SOURCE_TYPES);
      } catch {
        // configuredSources() logs a bad file; the last good one stays, here too.
      }
      cache = { at: Date.now(), certs: watchedCertificates(good, dataDir, Date.now()) };
      return cache.certs;
    },
  });
}

/** The storage the configuration names (storage/registry.ts: by DATABASE_URL's scheme, else the file store). */
function openStorage(config: Config): Promise<Storage> {
  return openStorageAt({ dataDir: resolve(config.dataDir), databaseUrl: config.databaseUrl, shared: config.workers > 1 });
}

/**
 * Builds the app. `role` "all" serves HTTP and runs syncs and webhook deliveries (WORKERS=1); with several
 * workers, the "primary" runs syncs and deliveries (one process, so each run and event has one executor)
 * and the "worker"s serve HTTP on the shared port.
 */
async function buildApp(config: Config, role: "all" | "primary" | "worker", logger: Logger, metrics: Metrics): Promise<{ app: App; storage: Storage; sender: KsefSender | null; expiry: CertificateExpiryWatch; parsingReady: Promise<void> }> {
  const dataDir = resolve(config.dataDir);
  const sources = configuredSources(dataDir, config.uploadLimit, logger);
  const certificates = new OfflineCertificates();
  const sending = configuredSending(dataDir, logger, certificates);
  const signInWarned = configuredSignInWarnings(dataDir, logger);
  // Read and checked at start, on the event loop (nothing is served yet); from now on a changed key file is read in
  // the background, its key derivation off the event loop, so that no tenant's file holds everyone's requests.
  deferSignerLoads("Deno" in globalThis ? undefined : createKdfThread().derive);
  const storage = await openStorage(config);
  const expiry = configuredExpiryWatch(dataDir, logger, storage);
  metrics.labelledGauge("ksef_certificate_days_left", "Whole days before a ksef source's KSeF certificate ends, by tenant, source and type (authentication, offline).", () => expiry.gauges());
  // One sender per tenant among processes and nodes (its lease); HTTP workers only queue (README "Sending to KSeF").
  // KSeF's silences are kept in the data directory, so that every process issues offline alike (offline_when_unavailable).
  const availability = fileAvailability(join(dataDir, "ksef-availability"), (e) => logger.error("KSeF availability not recorded", { error: e.message }));
  const sender = role === "worker" ? null : createKsefSender({ storage, configs: sending, nodeId: crypto.randomUUID(), logger, deadlineNearMs: config.ksefDeadlineNearMs, availability });
  const pdfFonts = readPdfFontFiles();
  // V8 judges an allocation site long-lived when what it made survives a collection, and from then on allocates
  // there in the old generation. The invoice threads alternate bursts of work with idle moments, so the sites of
  // each request's tree get that judgement, and every tree is then collected by the costly old-generation kind: a
  // 30 KB POST /validate cost 0.96–1.03 ms of CPU with it, 0.70 ms without (README "Validation"). Process-wide and
  // read as threads start, so set before they do; Deno runs no invoice threads.
  if (!("Deno" in globalThis)) setFlagsFromString("--no-allocation-site-pretenuring");
  const workers = "Deno" in globalThis ? null : createInvoiceWorkers(INVOICE_THREADS, pdfFonts);
  void workers?.warm(); // ready before the first large read, which would otherwise be read here
  const schemaFiles = readSchemaFiles();
  const parsing = "Deno" in globalThis ? null : createInvoiceWorkers(PARSE_THREADS, undefined, schemaFiles);
  // Likewise: a large upload waits for a thread rather than being read on the event loop.
  const parsingReady = parsing?.warm() ?? Promise.resolve();
  const app = await createApp({
    warnings: () => [...signInWarned(), ...expiry.warnings()],
    ksefSend: createKsefSendHook({ configs: sending, certificates, sender: () => sender, availability, wake: () => sender?.wake(), deadlineNearMs: config.ksefDeadlineNearMs }),
    // Large invoices are read, and their JSON and PDF made, on a worker thread, off the event loop; Deno does it inline.
    ...(workers ? { readInvoiceOffThread: workers.read, readInvoiceJsonOffThread: workers.json, renderPdfOffThread: workers.pdf } : {}),
    ...(parsing ? { readFieldsOffThread: parsing.fields, checkUploadOffThread: parsing.check, validateOffThread: parsing.validate } : {}),
    ops: { allow: config.opsAllow, token: config.opsToken }, trustProxy: config.trustProxy,
    storage, logger, metrics, uploadLimit: config.uploadLimit, rateLimit: perWorkerRateLimit(parseRateLimit(config.rateLimit), config.workers),
    pdfFonts,
    schemas: schemaFiles,
    sources: (tenant) => [inboxSource(join(dataDir, "inbox"), tenant), ...sources(tenant)],
    executeSyncs: role !== "worker",
    webhooks: {
      ...(role !== "worker" ? { transport: createHttpTransport(config.webhookAllowPrivate) } : {}),
      schedule: parseRetrySchedule(config.webhookRetrySchedule),
      allowPrivate: config.webhookAllowPrivate,
    },
  });
  if (sender) {
    const closeApp = app.close.bind(app);
    app.close = async () => {
      await sender.close();
      await closeApp();
    };
  }
  return { app, storage, sender, expiry, parsingReady };
}

/** Serves HTTP in this process; on SIGTERM/SIGINT drains, stops background work and exits 0. */
async function serveHttp(config: Config, app: App, storage: Storage, logger: Logger): Promise<string> {
  // Parser errors answered with the envelope, open connections capped.
  const guard = (server: GuardedServer) => guardNodeServer(server, { maxConnections: config.maxConnections, requestId: () => newId("req", Date.now()) });
  const listener = await listenHttp(toNodeListener(app.handle), { host: config.host, port: config.port, guard });
  onStopSignal((signal) => {
    logger.info("shutting down", { signal });
    app.drain();
    void listener.close(config.shutdownGraceMs, () => logger.warn("grace period over, closing connections")).then(async () => {
      await app.close();
      await storage.close();
      logger.info("stopped");
      process.exit(0);
    });
  });
  return listener.url;
}

/** Seeds the demo tenant: a token with every scope and the sample invoices in its inbox; returns the token. */
async function seedDemo(storage: Storage, dataDir: string): Promise<string> {
  const { token } = await createToken(storage, DEMO_TENANT, SCOPES.join(","), undefined);
  seedDemoInbox(dataDir, DEMO_TENANT);
  return token;
}

/** The first-start banner: the demo token as a line to paste (on stderr, once; it is never logged). */
function _demoBanner(token: string, url: string): string {
  return `\nDemo tenant "${DEMO_TENANT}" is ready with sample invoices. Its token is shown once; paste this into your shell:\n\n` +
    `export TOKEN=${token}\n\nThen try:\n\n  curl -s -H "X-API-Token: $TOKEN" ${url}/api/v1/documents\n\n`;
}

async function serve(config: Config): Promise<void> {
  const metrics = new Metrics();
  // A stalled log reader costs dropped lines (counted), never unbounded memory; lines go out once per turn.
  processLog = createStdoutLog({ metrics });
  const logger = createJsonLogger(config.logLevel, processLog.write);
  if (config.workers > 1 && "Deno" in globalThis) throw new RangeError("WORKERS > 1 needs node:cluster, which Deno does not provide");
  if (config.workers > 1 && isClusterWorker()) {
    const { app, storage } = await buildApp(config, "worker", logger, metrics);
    try {
      await serveHttp(config, app, storage, logger);
    } catch (e) {
      if (e instanceof ListenError) process.exit(LISTEN_FAILED); // the primary says why, once
      throw e;
    }
    return;
  }
  const dataDir = resolve(config.dataDir);
  const { app, storage, sender, expiry, parsingReady } = await buildApp(config, config.workers > 1 ? "primary" : "all", logger, metrics);
  // The executing process alone says a certificate's end, so that each notice goes out once; before "listening",
  // so that what a start says comes first.
  const checkExpiry = async () => {
    try {
      await expiry.check();
    } catch (e) {
      logger.error("KSeF certificate expiry check failed", { error: (e as Error).message });
    }
  };
  await checkExpiry();
  const url = config.workers === 1 ? await serveHttp(config, app, storage, logger) : await forkWorkers({
    workers: config.workers, host: config.host, logger,
    async onStopped(listenFailed) {
      await app.close();
      await storage.close();
      if (listenFailed) _fail(listenErrorMessage("EADDRINUSE", config)!, EXIT_FAILURE); // the workers' only listen failure worth a line
      logger.info("stopped");
      process.exit(0);
    },
  });
  logger.info("listening", { url, data_dir: dataDir, ...(config.workers > 1 ? { workers: config.workers } : {}) });
  // New: storage without tenants (an empty data directory, or a database without tenants). Seeded only once
  // listening, so that a start that fails (port in use) does not use up the demo token that nobody saw.
  const isNew = (await storage.tenants()).length === 0;
  const demoToken = (config.demo ?? isNew) ? await seedDemo(storage, dataDir) : null;
  await app.sync.resume();
  app.sync.start(SYNC_POLL_MS);
  // Once a thread can judge: before, small reads are done here, and the first would compile the schemas on the event
  // loop (README "Summary").
  void parsingReady.then(() => app.backfill?.start(VERDICT_BACKFILL_RETRY_MS));
  sender?.start(KSEF_SEND_POLL_MS);
  const expiryTimer = setInterval(() => void checkExpiry(), EXPIRY_CHECK_MS);
  (expiryTimer as { unref?: () => void }).unref?.(); // Deno's timers are numbers; the server's own work keeps it alive

  app.webhooks?.start(WEBHOOK_POLL_MS);
  if (demoToken) {
    // The banner says "try this curl": it comes once the demo invoices are documents, so that the first one works.
    await app.sync.request(storage.tenant(DEMO_TENANT), null);
    await app.sync.idle();
    processLog.flush(); // the sync's lines before the banner, as they happened
    process.stderr.write(_demoBanner(demoToken, url));
  } else if ((await storage.tokens.list()).length === 0) {
    logger.warn(`no API token exists yet: create one with \`${TOKEN_COMMAND} create --tenant acme --scopes documents:read,documents:write\` (all scopes: ${TOKEN_COMMAND} --help)`);
  }
}

async function main(): Promise<void> {
  // A reader that goes away (`token list | head -3`) ends the output, not the process with a stack trace.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => (e.code === "EPIPE" ? process.exit(0) : _fail(e.message, EXIT_FAILURE)));
  const command = parseCommand(process.argv.slice(2));
  if (command.kind === "help") return void process.stdout.write(_usage(command.topic));
  if (command.kind === "error") _fail(`${command.message}\n\n${_usage(command.topic)}`);
  if (command.kind === "convert") return convertCommand(command); // reads no setting: no server, no data directory
  let config: Config;
  try {
    config = loadConfig(process.env, command.flags);
  } catch (e) {
    _fail(`${(e as Error).message} (see --help)`);
  }
  if (command.kind === "serve") await serve(config);
  else if (command.kind === "ksef") await ksefCommand(command, config);
  else await tokenCommand(command, config);
}

main().catch((e: unknown) => {
  if (e instanceof ListenError) _fail(e.message, EXIT_FAILURE);
  _fail(e instanceof RangeError || e instanceof TypeError ? e.message : String((e as Error).stack ?? e), EXIT_FAILURE);
});

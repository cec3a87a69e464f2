/**
 * The PostgreSQL store through the real server: server.ts processes
 * with DATABASE_URL, 1 node and 3 nodes (wrk threads spread over the nodes by a
 * Lua `setup`, as a round-robin balancer would), beside one file-store process
 * in the same run (the baseline). Measured: a cursor page of 50 at 10k
 * documents, the same cursor every time (the page cache answers) and from
 * random positions (mostly misses: the cost of the query); uploads of a 30 KB
 * invoice; and pages from random positions at 1M documents, seeded with
 * INSERT … SELECT generate_series into the adapter's own tables.
 * The database lives in its own cluster under .bench/postgres/ (fsync on, as in
 * production, so uploads pay for durability on both stores) and is reused
 * between runs; --database-url=URL uses an existing server instead.
 *
 *   npx tsx bench/postgres.bench.ts [--duration=2s] [--runs=2] [--database-url=URL] [--reseed]
 * @module
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import type { Pool as PgPoolClass } from "pg";
import { generateToken, type Scope } from "../lib/auth/tokens.ts";
import { createCursorCodec } from "../lib/api/cursor.ts";
import { documentJson } from "../lib/contracts/record_json.ts";
import type { DocumentFields, DocumentRecord, TokenStore } from "../lib/contracts/storage.ts";
import { FileStorage } from "../storage/file/store.ts";
import type { FileTenantStore } from "../storage/file/tenant.ts";
import { PostgresStorage } from "../storage/postgres/store.ts";
import { childEnv, serverCommand } from "../test/support/child.ts";
import { ublInvoice } from "../test/fixtures/ubl_invoice.ts";
import { createRandom, fmtMs, fmtRatio, fmtRps, parseBenchArgs, parseWrk, printTable, requireWrk, ROOT, settle, type WrkResult } from "./support.ts";

/** Bump when the seeded data changes, so that the cached database is rebuilt. */
const DATA_VERSION = 1;
const SMALL = 10_000;
const LARGE = 1_000_000;
const NODES = 3;
const CONNECTIONS = 48; // 16 per node with three nodes
const THREADS = 3; // one wrk thread per node; the same three threads against one node
const DB_NAME = "integrator_bench";
const CACHE = join(ROOT, ".bench", "postgres");
const START_TIMEOUT_MS = 60_000;
/** Random cursors per listing scenario: far more distinct pages than the page cache (32 MiB) holds. */
const CURSORS = 20_000;

let cutOff = 0; // see startNode
const opts = parseBenchArgs(process.argv.slice(2), { duration: 2, runs: 2 });
const seedFile = join(CACHE, "seed.json");

// ---- PostgreSQL: a cached cluster of our own, or the server given ------------------------------------------

function _freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createNetServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

function _run(cmd: string[], what: string): string {
  const r = spawnSync(cmd[0]!, cmd.slice(1), { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${what} failed (${cmd.join(" ")}):\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** Starts (initdb-ing once) the cluster in .bench/postgres/cluster on a free port; PostgreSQL refuses to run as root. */
async function startCluster(): Promise<{ url: string; stop(): void }> {
  const bins = spawnSync("sh", ["-c", "ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1"], { encoding: "utf8" }).stdout.trim();
  const bin = process.env.PG_BIN ?? bins;
  if (!bin || !existsSync(join(bin, "initdb"))) {
    process.stderr.write("No PostgreSQL server binaries (apt-get install -y postgresql), or pass --database-url=URL\n");
    process.exit(2);
  }
  const asPg = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
  const dir = join(CACHE, "cluster");
  const data = join(dir, "data");
  if (!existsSync(join(data, "PG_VERSION"))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    if (asPg.length > 0) {
      const uid = Number(_run(["id", "-u", "postgres"], "id").trim()), gid = Number(_run(["id", "-g", "postgres"], "id").trim());
      chownSync(dir, uid, gid);
    }
    _run([...asPg, join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"], "initdb");
  }
  const pgCtl = [...asPg, join(bin, "pg_ctl"), "-D", data];
  // A cluster left running by an interrupted run is stopped first: it may listen on another port.
  if (spawnSync(pgCtl[0]!, [...pgCtl.slice(1), "status"]).status === 0) _run([...pgCtl, "-m", "fast", "-w", "stop"], "pg_ctl stop");
  const port = await _freePort();
  _run([...pgCtl, "-l", join(dir, "server.log"), "-w", "-t", "60", "-o", `-k ${dir} -c listen_addresses=127.0.0.1 -p ${port}`, "start"], "pg_ctl start");
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => void spawnSync(pgCtl[0]!, [...pgCtl.slice(1), "-m", "fast", "-w", "stop"]),
  };
}

// ---- Data ---------------------------------------------------------------------------------------------------

interface Seed {
  version: number;
  /** Tenant → its documents and a documents:read token. */
  tenants: Record<string, { documents: number; token: string }>;
  seconds: number;
}

const TEMPLATE_AT = "2024-01-01T00:00:00.000Z";
const SELLER = { name: "Przedsiębiorstwo Handlowe Łódź Sp. z o.o.", tax_id: "@SELLER@" };
const BUYER = { name: "Kowalski i Syn Sp. j.", tax_id: "1234563218" };

/** A document's fields; `i` varies its number, date and seller as a real tenant's would. */
function fields(i: number): DocumentFields {
  return {
    type: i % 10 === 9 ? "credit_note" : "invoice", format: "ubl", number: `FV/2024/${String(i).padStart(7, "0")}`,
    issue_date: new Date(Date.UTC(2019, 0, 1) + (i % 2700) * 86_400_000).toISOString().slice(0, 10), currency: "PLN",
    seller: { ...SELLER, tax_id: String(5_260_000_000 + (i * 7919) % 2000) }, buyer: BUYER,
    totals: { net: "1000.00", tax: "230.00", gross: "1230.00" },
  };
}

/** The document JSON with @PLACEHOLDERS@ that the SQL fills in per row, so both stores hold the same JSON. */
function templateJson(): string {
  const doc: DocumentRecord = {
    id: "@ID@", source: "inbox", external_id: "@EXT@", ...fields(0), ksef_number: null,
    type: "@TYPE@" as DocumentRecord["type"], number: "@NUM@", issue_date: "@DATE@", seller: SELLER,
    xml_available: true, sha256: "@SHA@", size: 31_185, received_at: "@AT@", synced_at: "@AT@", updated_at: "@AT@",
  };
  return documentJson(doc);
}

/** Inserts `n` documents of `tenant` (documents, their changes, the feed length) in one statement each. */
async function seedPostgres(pool: PgPoolClass, tenant: string, n: number): Promise<void> {
  const c = await pool.connect();
  try {
    await c.query("BEGIN");
    await c.query("SET LOCAL synchronous_commit = off"); // one commit at the end: its flush is all we skip
    for (const table of ["documents", "changes", "feeds", "tokens"]) await c.query(`DELETE FROM ${table} WHERE tenant = $1`, [tenant]);
    await c.query("INSERT INTO tenants (id) VALUES ($1) ON CONFLICT DO NOTHING", [tenant]);
    // Same values as fields(i) and documentJson: ids are doc_ + 26 Crockford characters, ordered like the feed.
    await c.query(`INSERT INTO documents (tenant, id, source, external_id, seq, ord, type, format, issue_day, seller_tax_id, buyer_tax_id,
        xml_available, sha256, synced_at, json)
      SELECT $1, id, 'inbox', ext, i, i, typ, 'ubl', (day - date '1970-01-01'), seller, '1234563218', true, sha, at,
        replace(replace(replace(replace(replace(replace(replace(replace($3::text, '@ID@', id), '@EXT@', ext), '@TYPE@', typ),
          '@NUM@', num), '@DATE@', to_char(day, 'YYYY-MM-DD')), '@SELLER@', seller), '@SHA@', sha),
          '@AT@', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      FROM (SELECT i, 'doc_01J' || lpad(upper(to_hex(i)), 23, '0') AS id, 'D-' || i AS ext,
          CASE WHEN i % 10 = 9 THEN 'credit_note' ELSE 'invoice' END AS typ, 'FV/2024/' || lpad(i::text, 7, '0') AS num,
          date '2019-01-01' + (i % 2700) AS day, (5260000000 + (i::bigint * 7919) % 2000)::text AS seller,
          md5(i::text) || md5((i + 1)::text) AS sha, timestamptz '${TEMPLATE_AT}' + i * interval '10 seconds' AS at
        FROM generate_series(0, $2 - 1) AS i) g`, [tenant, n, templateJson()]);
    await c.query(`INSERT INTO changes (tenant, collection, seq, first, json)
      SELECT tenant, 'documents', seq, true, json FROM documents WHERE tenant = $1`, [tenant]);
    await c.query(`INSERT INTO feeds (tenant, collection, length) VALUES ($1, 'documents', $2)
      ON CONFLICT (tenant, collection) DO UPDATE SET length = EXCLUDED.length`, [tenant, n]);
    await c.query("COMMIT");
  } catch (e) {
    await c.query("ROLLBACK");
    throw e;
  } finally {
    c.release();
  }
  await pool.query("VACUUM ANALYZE documents");
  await pool.query("VACUUM ANALYZE changes");
}

async function newToken(tokens: TokenStore, tenant: string, scopes: Scope[]): Promise<string> {
  const t = generateToken();
  await tokens.create({
    key_id: t.keyId, tenant, secret_sha256: t.secretSha256, scopes, created_at: new Date().toISOString(), expires_at: null, revoked_at: null,
  });
  return t.token;
}

/** The cached 10k and 1M tenants, seeded unless a seed of this version is recorded and still in the database. */
async function ensureSeeded(storage: PostgresStorage, pool: PgPoolClass): Promise<{ seed: Seed; cached: boolean }> {
  if (existsSync(seedFile) && !opts.flags.has("reseed")) {
    const seed = JSON.parse(readFileSync(seedFile, "utf8")) as Seed;
    let intact = seed.version === DATA_VERSION;
    for (const [tenant, s] of Object.entries(seed.tenants)) intact &&= (await storage.tenant(tenant).feedLength("documents")) === s.documents;
    if (intact) return { seed, cached: true };
  }
  const started = performance.now();
  const seed: Seed = { version: DATA_VERSION, tenants: {}, seconds: 0 };
  for (const [tenant, n] of [["b10k", SMALL], ["b1m", LARGE]] as const) {
    process.stdout.write(`  seeding ${n.toLocaleString("en-US")} documents into PostgreSQL…\n`);
    await seedPostgres(pool, tenant, n);
    seed.tenants[tenant] = { documents: n, token: await newToken(storage.tokens, tenant, ["documents:read"]) };
  }
  seed.seconds = (performance.now() - started) / 1000;
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(seedFile, JSON.stringify(seed, null, 1));
  return { seed, cached: false };
}

/** A fresh file store with the same 10k documents (through its own API: the file store has no bulk SQL). */
async function seedFileStore(dir: string): Promise<{ read: string; write: string }> {
  const storage = new FileStorage(dir, { durable: false });
  const t = storage.tenant("b10k") as FileTenantStore; // its bulk seeding (upsertDocumentSync) is the file store's own, not the contract's
  const at = Date.parse(TEMPLATE_AT);
  for (let i = 0; i < SMALL; i++) {
    const sha = (i.toString(16).padStart(8, "0")).repeat(8);
    t.upsertDocumentSync({ source: "inbox", external_id: `D-${i}`, fields: fields(i), xml: { sha256: sha, size: 31_185 }, received_at: new Date(at + i * 10_000).toISOString() },
      new Date(at + i * 10_000).toISOString());
  }
  const read = await newToken(storage.tokens, "b10k", ["documents:read"]);
  const write = await newToken(storage.tokens, "uploads", ["submissions:write"]);
  storage.flush();
  await storage.close();
  return { read, write };
}

// ---- Processes and wrk --------------------------------------------------------------------------------------

interface Node {
  url: string;
  port: number;
  child: ChildProcess;
}

/** server.ts serve on a free port, log level warn; ready when /readyz answers 200. */
async function startNode(dataDir: string, env: Record<string, string>): Promise<Node> {
  const port = await _freePort();
  const [cmd, ...pre] = serverCommand();
  const child = spawn(cmd!, [...pre, "serve", "--port", String(port), "--data", dataDir, "--rate-limit", "off", "--log-level", "warn", "--demo", "off"],
    { cwd: ROOT, env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] }); // without an inherited DATABASE_URL: the file node is one
  const forward = (d: Buffer): void => {
    for (const line of d.toString().split("\n")) {
      // wrk cuts its connections when a run ends: uploads in flight there are logged as errors (node_adapter's
      // aborted() misses a body that had fully arrived), which is counted, not printed.
      if (/"msg":"unhandled error".*Error: aborted/.test(line)) cutOff++;
      else if (line.trim()) process.stderr.write(`[node :${port}] ${line}\n`);
    }
  };
  child.stdout!.on("data", forward);
  child.stderr!.on("data", forward);
  const url = `http://127.0.0.1:${port}`;
  for (const by = Date.now() + START_TIMEOUT_MS; Date.now() < by;) {
    if (child.exitCode !== null) throw new Error(`server on :${port} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return { url, port, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server on :${port} not ready in ${START_TIMEOUT_MS} ms`);
}

function stopNode(n: Node): Promise<void> {
  return new Promise((resolve) => {
    if (n.child.exitCode !== null) return resolve();
    n.child.once("exit", () => resolve());
    n.child.kill("SIGTERM");
  });
}

/** What wrk sends: one URL over and over, a page from a random cursor of a list, or uploads with unique numbers. */
type Load = { kind: "same" } | { kind: "cursors"; cursors: string[] } | { kind: "upload"; xml: string; boundary: string };

/** wrk's Lua: thread k connects to port k mod N (a round-robin balancer), and `load` decides each request. */
function luaScript(ports: number[], load: Load): string {
  const head = `local ports = { ${ports.join(", ")} }
local created = 0
function setup(thread)
  created = created + 1
  thread.addr = wrk.lookup("127.0.0.1", tostring(ports[(created - 1) % #ports + 1]))[1]
  thread:set("tid", created)
end
`;
  if (load.kind === "same") return head;
  if (load.kind === "cursors") {
    return `${head}
local cursors = { ${load.cursors.map((c) => `"${c}"`).join(",\n")} }
function init(args) math.randomseed(tid * 7919) end
function request()
  return wrk.format(nil, "/api/v1/documents?limit=50&cursor=" .. cursors[math.random(#cursors)])
end
`;
  }
  const [pre, post] = load.xml.split("FV/2026/11/0042");
  const lua = (s: string): string => `[==[${s}]==]`;
  return `${head}
local nonce = "x"
function init(args) nonce = args[1] or "x" end
local n = 0
local pre = "--${load.boundary}\\r\\nContent-Disposition: form-data; name=\\"xml\\"; filename=\\"invoice.xml\\"\\r\\nContent-Type: application/xml\\r\\n\\r\\n" .. ${lua(pre!)}
local post = ${lua(post!)} .. "\\r\\n--${load.boundary}--\\r\\n"
function request()
  n = n + 1
  return wrk.format("POST", "/api/v1/submissions", nil, pre .. "B-" .. nonce .. "-" .. tid .. "-" .. n .. post)
end
`;
}

async function runWrk(url: string, script: string, headers: Record<string, string>, seconds: number, warmUp = false): Promise<WrkResult> {
  const args = [`-t${THREADS}`, `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", "--timeout", "30s", "-s", script];
  for (const [k, v] of Object.entries(headers)) args.push("-H", `${k}: ${v}`);
  args.push(url, "--", Math.random().toString(36).slice(2, 10));
  const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (out += c.toString("utf8")));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const r = parseWrk(out);
  if (code !== 0 || !Number.isFinite(r.rps) || (r.requests === 0 && !warmUp)) throw new Error(`wrk failed (exit ${code}):\n${out}`);
  if (r.errors > 0 && !warmUp) throw new Error(`wrk saw ${r.errors} errors or non-2xx answers:\n${out}`);
  return r;
}

// ---- Main ---------------------------------------------------------------------------------------------------

const G_SAME = "cursor page of 50, the same cursor every time (served from the page cache), 10k documents";
const G_RANDOM = "cursor page of 50 from random positions (mostly uncached), 10k documents";
const G_UPLOAD = "upload, 30 KB invoice";
const G_LARGE = "cursor page of 50 from random positions, 1M documents";

interface Scenario {
  group: typeof G_SAME | typeof G_RANDOM | typeof G_UPLOAD | typeof G_LARGE;
  name: string;
  nodes: Node[];
  /** What wrk is started with (the script may replace the path per request). */
  path: string;
  headers: Record<string, string>;
  script: string;
  runs: WrkResult[];
}

/** Cursors at random positions of a feed of `n`, each the start of a full page. */
function randomCursors(secret: Uint8Array, tenant: string, n: number, seed: number): string[] {
  const codec = createCursorCodec(secret), rand = createRandom(seed);
  return Array.from({ length: CURSORS }, () => codec.encode(`${tenant}\u0000documents`, Math.floor(rand() * (n - 50)), "[]"));
}

const wrkVersion = requireWrk();
const { default: pg } = await import("pg");
const given = opts.flags.get("database-url");
const cluster = given ? null : await startCluster();
const serverUrl = new URL(given ?? cluster!.url);
const maint = new pg.Pool({ connectionString: serverUrl.toString(), max: 1 });
if ((await maint.query("SELECT 1 FROM pg_database WHERE datname = $1", [DB_NAME])).rows.length === 0) await maint.query(`CREATE DATABASE ${DB_NAME}`);
const settings = (await maint.query("SELECT current_setting('server_version') AS v, current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sc")).rows[0]!;
await maint.end();
const dbUrl = new URL(serverUrl);
dbUrl.pathname = `/${DB_NAME}`;
const pool = new pg.Pool({ connectionString: dbUrl.toString(), max: 4 });
const storage = await PostgresStorage.open(pool);
const tmp = mkdtempSync(join(tmpdir(), "bench-pg-"));
const nodes: Node[] = [];
const uploadTenant = `up_${Math.random().toString(36).slice(2, 10)}`;

console.log(`PostgreSQL store vs file store through server.ts: wrk -t${THREADS} -c${CONNECTIONS} -d${opts.duration}s, ${opts.runs} interleaved runs (best used for ratios)`);
console.log(`node ${process.version}, ${wrkVersion}, PostgreSQL ${settings.v} (fsync=${settings.fsync}, synchronous_commit=${settings.sc}` +
  `${cluster ? ", own cluster in .bench/postgres" : ""}), ${availableParallelism()} cores shared by the nodes, PostgreSQL and wrk (no pinning)`);
try {
  const { seed, cached } = await ensureSeeded(storage, pool);
  console.log(`${cached ? "cached" : "seeded"} PostgreSQL data: 10k and 1M documents (generate_series; seeded in ${seed.seconds.toFixed(0)} s)`);
  const uploadToken = await newToken(storage.tokens, uploadTenant, ["submissions:write"]);
  const fileDir = join(tmp, "file");
  const fileTokens = await seedFileStore(fileDir);

  const file = await startNode(fileDir, {});
  nodes.push(file);
  const pgNodes: Node[] = [];
  for (let i = 0; i < NODES; i++) pgNodes.push(await startNode(join(tmp, `node${i}`), { DATABASE_URL: dbUrl.toString() }));
  nodes.push(...pgNodes);
  const one = [pgNodes[0]!];
  const pgSecret = await storage.secret("cursor");
  const fileSecret = readFileSync(join(fileDir, "secrets", "cursor.key")); // written by the file node at start
  const upload: Load = { kind: "upload", xml: ublInvoice(50), boundary: "----bench-postgres-0123456789" }; // 31 KB
  const script = (name: string, on: Node[], load: Load): string => {
    const path = join(tmp, `${name}.lua`);
    writeFileSync(path, luaScript(on.map((n) => n.port), load));
    return path;
  };
  const read10k = { "x-api-token": seed.tenants.b10k!.token };
  const readFile = { "x-api-token": fileTokens.read };
  const multipart = `multipart/form-data; boundary=${upload.boundary}`;
  const upPg = { "x-api-token": uploadToken, "content-type": multipart };
  const upFile = { "x-api-token": fileTokens.write, "content-type": multipart };
  const list = "/api/v1/documents?limit=50";
  const fileCursors: Load = { kind: "cursors", cursors: randomCursors(fileSecret, "b10k", SMALL, 1) };
  const pgCursors: Load = { kind: "cursors", cursors: randomCursors(pgSecret, "b10k", SMALL, 1) };
  const largeCursors: Load = { kind: "cursors", cursors: randomCursors(pgSecret, "b1m", LARGE, 2) };
  const sc = (group: Scenario["group"], name: string, on: Node[], path: string, headers: Record<string, string>, load: Load): Scenario =>
    ({ group, name, nodes: on, path, headers, script: script(`${group.length}-${name}`.replace(/\W+/g, "-"), on, load), runs: [] });
  const scenarios: Scenario[] = [
    sc(G_SAME, "file store, 1 node", [file], list, readFile, { kind: "same" }),
    sc(G_SAME, "PostgreSQL, 1 node", one, list, read10k, { kind: "same" }),
    sc(G_SAME, "PostgreSQL, 3 nodes", pgNodes, list, read10k, { kind: "same" }),
    sc(G_RANDOM, "file store, 1 node", [file], list, readFile, fileCursors),
    sc(G_RANDOM, "PostgreSQL, 1 node", one, list, read10k, pgCursors),
    sc(G_RANDOM, "PostgreSQL, 3 nodes", pgNodes, list, read10k, pgCursors),
    sc(G_UPLOAD, "file store, 1 node", [file], "/api/v1/submissions", upFile, upload),
    sc(G_UPLOAD, "PostgreSQL, 1 node", one, "/api/v1/submissions", upPg, upload),
    sc(G_UPLOAD, "PostgreSQL, 3 nodes", pgNodes, "/api/v1/submissions", upPg, upload),
    sc(G_LARGE, "PostgreSQL, 1 node", one, list, { "x-api-token": seed.tenants.b1m!.token }, largeCursors),
  ];
  // Every listing answers a full page, from the first cursor and from one of the random ones.
  for (const s of scenarios.filter((x) => x.group !== G_UPLOAD)) {
    const cursors = readFileSync(s.script, "utf8").match(/"([A-Za-z0-9_-]{20,})"/);
    const res = await fetch(`${s.nodes[0]!.url}${s.path}${cursors ? `&cursor=${cursors[1]}` : ""}`, { headers: s.headers });
    const body = (await res.json()) as { data?: unknown[] };
    if (res.status !== 200 || body.data?.length !== 50) throw new Error(`${s.group}, ${s.name}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  }
  const settleAll = async (s: Scenario): Promise<void> => {
    for (const n of s.nodes) await settle(`${n.url}/healthz`);
  };
  for (const s of scenarios) { // warm-up: JIT, pools, caches
    await runWrk(`${s.nodes[0]!.url}${s.path}`, s.script, s.headers, 1, true);
    await settleAll(s);
  }
  for (let round = 0; round < opts.runs; round++) {
    for (const s of scenarios) {
      s.runs.push(await runWrk(`${s.nodes[0]!.url}${s.path}`, s.script, s.headers, opts.duration));
      await settleAll(s);
    }
  }

  const best = (s: Scenario): WrkResult => s.runs.reduce((a, b) => (b.rps > a.rps ? b : a));
  const find = (group: Scenario["group"], name: string): WrkResult => best(scenarios.find((x) => x.group === group && x.name === name)!);
  const baseOf = (s: Scenario): WrkResult => s.group === G_LARGE ? find(G_RANDOM, "PostgreSQL, 1 node") : find(s.group, "file store, 1 node");
  for (const group of [G_SAME, G_RANDOM, G_UPLOAD, G_LARGE]) {
    const members = scenarios.filter((x) => x.group === group);
    console.log(`\n## ${group} (ratio: vs ${group === G_LARGE ? "PostgreSQL, 1 node at 10k" : "the file store"})`);
    printTable(
      ["scenario", ...members[0]!.runs.map((_, i) => `req/s #${i + 1}`), ...members[0]!.runs.map((_, i) => `p99 ms #${i + 1}`), "best req/s", "p50 ms", "ratio"],
      members.map((m) => [
        m.name, ...m.runs.map((r) => fmtRps(r.rps)), ...m.runs.map((r) => fmtMs(r.p99)), fmtRps(best(m).rps), fmtMs(best(m).p50),
        fmtRatio(best(m).rps / baseOf(m).rps),
      ]),
    );
  }
  const F = "file store, 1 node", P1 = "PostgreSQL, 1 node", P3 = "PostgreSQL, 3 nodes";
  console.log("\n## Ratios (best of runs)");
  printTable(["what", "ratio"], [
    ["same cursor: PostgreSQL 1 node / file store", fmtRatio(find(G_SAME, P1).rps / find(G_SAME, F).rps)],
    ["same cursor: PostgreSQL 3 nodes / 1 node", fmtRatio(find(G_SAME, P3).rps / find(G_SAME, P1).rps)],
    ["random cursors: PostgreSQL 1 node / file store", fmtRatio(find(G_RANDOM, P1).rps / find(G_RANDOM, F).rps)],
    ["random cursors: PostgreSQL 3 nodes / 1 node", fmtRatio(find(G_RANDOM, P3).rps / find(G_RANDOM, P1).rps)],
    ["upload: PostgreSQL 1 node / file store", fmtRatio(find(G_UPLOAD, P1).rps / find(G_UPLOAD, F).rps)],
    ["upload: PostgreSQL 3 nodes / 1 node", fmtRatio(find(G_UPLOAD, P3).rps / find(G_UPLOAD, P1).rps)],
    ["random cursors, PostgreSQL 1 node: 1M / 10k (req/s)", fmtRatio(find(G_LARGE, P1).rps / find(G_RANDOM, P1).rps)],
    ["random cursors, PostgreSQL 1 node: 1M / 10k (p99)", fmtRatio(find(G_LARGE, P1).p99 / find(G_RANDOM, P1).p99)],
  ]);
  const uploaded = (await pool.query("SELECT count(*)::int AS n, coalesce(avg(octet_length(data)), 0)::int AS bytes FROM blobs WHERE tenant = $1", [uploadTenant])).rows[0]!;
  console.log(`\n${uploaded.n} uploads stored in PostgreSQL this run (${uploaded.bytes} bytes of XML each, as bytea); all answered 201` +
    (cutOff ? `; ${cutOff} uploads cut off by wrk at the end of a run were logged as "unhandled error"` : ""));
} finally {
  await Promise.all(nodes.map(stopNode));
  // The uploads of this run go: the cached database keeps only the seeded tenants.
  for (const table of ["submissions", "changes", "feeds", "blobs", "idempotency", "idempotency_claims", "leases", "tokens", "tenants"]) {
    await pool.query(`DELETE FROM ${table} WHERE ${table === "tenants" ? "id" : "tenant"} = $1`, [uploadTenant]).catch(() => {});
  }
  await storage.close();
  cluster?.stop();
  rmSync(tmp, { recursive: true, force: true });
}

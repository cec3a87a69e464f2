/**
 * Three server processes on one PostgreSQL database, driven as clients
 * would drive them through a load balancer: sync requests that coalesce across
 * nodes, concurrent uploads with shared Idempotency-Keys, a node killed with
 * SIGKILL mid-burst, cursor walks, and webhook deliveries counted by webhook-id.
 * Without a server the test skips, unless CI is set: then it fails (as
 * test/storage_postgres.test.ts). Start one with test/support/start_postgres.sh.
 */
import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { runCli, startChild, type ChildServer } from "../../support/child.ts";
import { assertOneAtATime, type Run } from "../../support/api.ts";
import { fixturePath } from "../../support/server.ts";
import { DATABASE_URL, reachPostgres, redactedDatabaseUrl } from "../../support/postgres.ts";

const TENANT = "acme";
const SCOPES = "documents:read,documents:write,submissions:read,submissions:write,webhooks:read,webhooks:write";
const NODES = 3;
const INBOX_FILES = 20;
const DISTINCT = 60;
const GROUPS = 3;
const GROUP_SIZE = 10;
/** The whole test, startup included (the brief's bound). */
const BUDGET_MS = 60_000;
/** A client's pause after 409 IDEMPOTENCY_KEY_IN_USE; the server says 1 s, a test need not wait that long. */
const IN_USE_PAUSE_MS = 100;

const ubl = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"), "utf8");
const invoice = (n: string): string => ubl.replace("<cbc:ID>Snippet1</cbc:ID>", `<cbc:ID>${n}</cbc:ID>`);
// `unref`: a bound on a wait must not hold the process open once the wait is over.
const pause = (ms: number, unref = false): Promise<void> => new Promise((r) => {
  const timer = setTimeout(r, ms);
  if (unref) timer.unref();
});

/**
 * The pid among `pids` that owns the TCP connection whose local port is `port` and whose peer is
 * 127.0.0.1:`peer` (Linux /proc), or null where /proc cannot tell.
 */
function _pidOfConnection(port: number, peer: number, pids: number[]): number | null {
  let inode: string | undefined;
  try {
    const hex = (p: number): string => p.toString(16).toUpperCase().padStart(4, "0");
    for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[1]?.endsWith(`:${hex(port)}`) && f[2]?.endsWith(`:${hex(peer)}`)) inode = f[9];
    }
    if (!inode) return null;
    for (const pid of pids) {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        try {
          if (readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return pid;
        } catch {
          // the descriptor closed meanwhile
        }
      }
    }
  } catch {
    // no /proc: not Linux
  }
  return null;
}

/** An upload's body as a real encoder (undici's FormData) writes it. */
async function _encoded(n: string): Promise<{ bytes: Uint8Array; type: string }> {
  const form = new FormData();
  form.append("xml", new Blob([invoice(n)], { type: "application/xml" }), `${n}.xml`);
  const r = new Request("http://127.0.0.1/", { method: "POST", body: form });
  return { bytes: new Uint8Array(await r.arrayBuffer()), type: r.headers.get("content-type")! };
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  replayed: boolean;
}

/** An upload whose headers and first half are sent now and whose second half waits for `finish()`. */
async function _halfSent(url: string, token: string, n: string, key: string): Promise<{ finish(): void; answer: Promise<Answer> }> {
  const { bytes, type } = await _encoded(n);
  const half = Math.floor(bytes.length / 2);
  const req = request(`${url}/api/v1/submissions`, {
    method: "POST", agent: false,
    headers: { "x-api-token": token, "idempotency-key": key, "content-type": type, "content-length": String(bytes.length) },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on("error", reject);
    req.on("response", (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown>, replayed: res.headers["idempotent-replayed"] === "true" }));
      res.on("error", reject);
    });
  });
  answer.catch(() => {}); // awaited later; a rejection before then is not unhandled
  req.write(bytes.subarray(0, half));
  return { finish: () => void req.end(bytes.subarray(half)), answer };
}

const reached = await reachPostgres();

if ("why" in reached) {
  const message = `PostgreSQL is not reachable at ${redactedDatabaseUrl()}: ${reached.why}. ` +
    "Start one with: export DATABASE_URL=$(bash test/support/start_postgres.sh)";
  if (process.env.CI) test("the multi-node PostgreSQL test finds its server (CI requires it)", () => assert.fail(message));
  else test("three nodes on one PostgreSQL database", { skip: message }, () => {});
} else {
  const { Pool, admin } = reached;

  test("three nodes on one PostgreSQL database coalesce syncs, execute each key once, survive a SIGKILL mid-burst and deliver every event", { timeout: BUDGET_MS }, async (t) => {
    const started = Date.now();
    const deadline = (ms: number): number => Math.min(Date.now() + ms, started + BUDGET_MS - 2000);
    // A fresh database per run: the nodes migrate it themselves, and it is dropped afterwards.
    const dbName = `nodes_${randomBytes(6).toString("hex")}`;
    await admin.query(`CREATE DATABASE ${dbName}`);
    const u = new URL(DATABASE_URL);
    u.pathname = `/${dbName}`;
    const env = { DATABASE_URL: u.toString() };
    const db = new Pool({ connectionString: env.DATABASE_URL, max: 2 });
    db.on("error", () => {}); // an idle connection that the server ends (DROP DATABASE) is no test failure
    const dirs = Array.from({ length: NODES }, () => mkdtempSync(join(tmpdir(), "pgnode-")));
    const nodes: (ChildServer | null)[] = [];
    const receiver = _receiver();
    try {
      const cli = runCli(["token", "create", "--data", dirs[0]!, "--tenant", TENANT, "--scopes", SCOPES], env);
      assert.equal(cli.status, 0, cli.stderr);
      const token = cli.stdout.trim();
      const h = { "x-api-token": token };
      const args = (dir: string): string[] => [
        "--data", dir, "--rate-limit", "off", "--demo", "off", "--webhook-allow-private", "on",
        "--webhook-retry-schedule", "200ms,200ms,200ms,200ms,200ms",
      ];
      nodes.push(...(await Promise.all(dirs.map((d) => startChild(args(d), env)))));
      const urls = nodes.map((n) => n!.url); // kept after a node dies: its clients still try it
      const url = (i: number): string => urls[i]!;
      const alive = (): number[] => nodes.flatMap((n, i) => (n ? [i] : []));
      t.diagnostic(`3 nodes listening after ${Date.now() - started} ms`);

      await receiver.listening;
      const reg = await fetch(`${url(1)}/api/v1/webhooks`, {
        method: "POST", headers: { ...h, "content-type": "application/json" },
        body: JSON.stringify({ url: receiver.url, events: ["*"] }),
      });
      assert.equal(reg.status, 201);
      receiver.secret = ((await reg.json()) as { secret: string }).secret;

      // ---- Sync: the files are in node 0's inbox only; requests go to every node at once.
      const inbox = join(dirs[0]!, "inbox", TENANT);
      mkdirSync(inbox, { recursive: true });
      for (let i = 0; i < INBOX_FILES; i++) writeFileSync(join(inbox, `D-${i}.xml`), invoice(`D-${i}`));
      let maxActive = 0, watching = true;
      const watcher = (async () => {
        while (watching) {
          const r = await db.query("SELECT count(*)::int AS n FROM runs WHERE status IN ('queued', 'running') GROUP BY tenant, source");
          for (const row of r.rows) maxActive = Math.max(maxActive, row.n as number);
          await pause(5);
        }
      })();
      const requestSync = async (i: number): Promise<string> => {
        const res = await fetch(`${url(i)}/api/v1/documents/sync`, { method: "POST", headers: h });
        assert.equal(res.status, 202);
        return ((await res.json()) as { id: string }).id;
      };
      const burstIds = await Promise.all([0, 0, 0, 0, 1, 1, 1, 2, 2, 2].map(requestSync));
      // Only node 0 can import the files: a run that another node executed found its own inbox empty.
      let extraRequests = 0;
      const syncBy = deadline(20_000);
      while (readdirSync(inbox).some((n) => n.endsWith(".xml"))) {
        assert.ok(Date.now() < syncBy, "node 0's inbox is imported within 20 s");
        const active = await db.query("SELECT 1 FROM runs WHERE status IN ('queued', 'running')");
        if (active.rows.length === 0) {
          await requestSync(0);
          extraRequests++;
        }
        await pause(25);
      }
      const runsDone = deadline(10_000);
      while ((await db.query("SELECT 1 FROM runs WHERE status IN ('queued', 'running')")).rows.length > 0) {
        assert.ok(Date.now() < runsDone, "the last sync run finishes");
        await pause(25);
      }
      watching = false;
      await watcher;
      assert.ok(maxActive <= 1, `never more than one queued or running run per tenant and source (saw ${maxActive})`);
      const runs = (await db.query("SELECT json FROM runs ORDER BY ord")).rows.map((r) => JSON.parse(String(r.json)) as Run & { counts: Record<string, number> });
      assert.ok(runs.every((r) => r.status === "succeeded"), JSON.stringify(runs.map((r) => r.status)));
      assert.ok(burstIds.every((id) => runs.some((r) => r.id === id)));
      assertOneAtATime(runs);
      assert.equal(runs.reduce((n, r) => n + r.counts.created!, 0), INBOX_FILES, "each file created one document");
      const empty = runs.filter((r) => r.counts.fetched === 0).length;
      t.diagnostic(`sync: ${runs.length} runs, ${empty} of them executed by a node without the files (fetched 0); ${extraRequests} extra requests to node 0`);

      // ---- Uploads: 60 distinct invoices, each with its own key, and 3 groups of 10 sharing one key.
      interface Upload { n: string; key: string; node: number; wave: 1 | 2; group: number | null }
      const uploads: Upload[] = [];
      for (let i = 0; i < DISTINCT; i++) uploads.push({ n: `S-${i}`, key: crypto.randomUUID(), node: i % NODES, wave: i < DISTINCT / 2 ? 1 : 2, group: null });
      for (let g = 0; g < GROUPS; g++) {
        const key = crypto.randomUUID();
        for (let j = 0; j < GROUP_SIZE; j++) uploads.push({ n: `K-${g}`, key, node: (g + j) % NODES, wave: j < GROUP_SIZE / 2 ? 1 : 2, group: g });
      }
      const answers = new Map<Upload, Answer>();
      const retried: string[] = [];
      // As a client would: a network error goes to the next node with the same key; IN_USE waits and asks again.
      const send = async (up: Upload): Promise<void> => {
        const by = deadline(30_000);
        let node = up.node, lastError = "";
        while (Date.now() < by) {
          const form = new FormData();
          form.append("xml", new Blob([invoice(up.n)], { type: "application/xml" }), `${up.n}.xml`);
          let res: Response;
          try {
            res = await fetch(`${url(node)}/api/v1/submissions`, { method: "POST", headers: { ...h, "idempotency-key": up.key }, body: form });
          } catch (e) {
            lastError = String((e as Error).cause ?? e);
            retried.push(`${up.n} on node ${node}: ${lastError}`);
            node = (node + 1) % NODES;
            continue;
          }
          const body = (await res.json()) as Record<string, unknown>;
          const code = (body.error as { code?: string } | undefined)?.code;
          if (res.status === 409 && code === "IDEMPOTENCY_KEY_IN_USE") {
            await pause(IN_USE_PAUSE_MS);
            continue;
          }
          answers.set(up, { status: res.status, body, replayed: res.headers.get("idempotent-replayed") === "true" });
          return;
        }
        assert.fail(`${up.n} (key ${up.key}) got no final answer in time: ${lastError}`);
      };
      // Half-sent uploads on every node: in flight when the node dies, and not yet past the key's claim.
      const pending = uploads.filter((up) => up.wave === 2 && up.group === null).slice(0, 2 * NODES);
      const halves = new Map<Upload, Awaited<ReturnType<typeof _halfSent>>>();
      for (const up of pending) halves.set(up, await _halfSent(url(up.node), token, up.n, up.key));

      await Promise.all(uploads.filter((up) => up.wave === 1).map(send));
      t.diagnostic(`wave 1 (${answers.size} uploads) answered after ${Date.now() - started} ms`);

      // Choose the node to kill: not the one that is delivering webhooks. A killed lease holder would stall
      // deliveries for ENDPOINT_LEASE_MS (60 s), a killed key claim would answer 409 for 60 s: both longer than
      // this test may take (README "Several nodes on PostgreSQL"). The receiver holds one delivery, which pins the
      // endpoint's lease to its sender, and no complete request is in flight on the victim.
      const held = receiver.holdNext();
      const trigger = pending.find((up) => up.node === 0)!;
      halves.get(trigger)!.finish(); // makes sure an event is on its way even if everything was delivered
      const triggered = await halves.get(trigger)!.answer;
      assert.equal(triggered.status, 201);
      answers.set(trigger, triggered);
      halves.delete(trigger);
      const sender = await Promise.race([held, pause(Math.max(0, deadline(10_000) - Date.now()), true).then(() => null)]);
      assert.ok(sender, "a delivery reaches the receiver while the kill is prepared");
      const pids = nodes.map((n) => n!.child.pid!);
      const deliverer = _pidOfConnection(sender.port, receiver.port, pids);
      const victim = deliverer === null ? 2 : [1, 2, 0].find((i) => pids[i] !== deliverer)!;
      t.diagnostic(`webhook deliverer: node ${deliverer === null ? "unknown (no /proc)" : pids.indexOf(deliverer)}; killing node ${victim}`);

      // Wave 2 starts on the survivors; once it is under way, the victim dies with half-sent uploads on it.
      const wave2 = uploads.filter((up) => up.wave === 2 && !halves.has(up) && up !== trigger);
      const survivorsFirst = wave2.filter((up) => up.node !== victim).map(send);
      const firstFive = deadline(10_000);
      while (answers.size < uploads.filter((up) => up.wave === 1).length + 1 + 5) {
        assert.ok(Date.now() < firstFive, "wave 2 gets under way");
        await pause(5);
      }
      nodes[victim]!.child.kill("SIGKILL");
      await nodes[victim]!.exited;
      nodes[victim] = null;
      receiver.release();
      t.diagnostic(`node ${victim} killed after ${Date.now() - started} ms with ${answers.size} of ${uploads.length} uploads answered`);
      const rest = [
        ...wave2.filter((up) => up.node === victim).map(send),
        ...[...halves].map(async ([up, half]) => {
          if (up.node !== victim) half.finish();
          try {
            const a = await half.answer;
            if (a.status === 201) return void answers.set(up, a);
          } catch (e) {
            retried.push(`${up.n} half-sent to node ${up.node}: ${String(e)}`);
          }
          await send(up);
        }),
      ];
      await Promise.all([...survivorsFirst, ...rest]);
      t.diagnostic(`all ${answers.size} uploads answered after ${Date.now() - started} ms; ${retried.length} retried after a network error`);

      // ---- What the clients were told.
      assert.equal(answers.size, uploads.length);
      for (const [up, a] of answers) assert.equal(a.status, 201, `${up.n}: ${a.status} ${JSON.stringify(a.body)}`);
      const killedOnes = pending.filter((up) => up.node === victim);
      assert.ok(killedOnes.length > 0 && retried.some((r) => r.includes("half-sent")), "uploads in flight on the killed node failed and were retried");
      for (let g = 0; g < GROUPS; g++) {
        const ids = new Set([...answers].filter(([up]) => up.group === g).map(([, a]) => a.body.id));
        assert.equal(ids.size, 1, `group ${g}: one submission for its key`);
      }
      const answeredIds = new Set([...answers.values()].map((a) => String(a.body.id)));
      assert.equal(answeredIds.size, DISTINCT + GROUPS);

      // ---- What is stored, walked through the API 7 at a time, each page from the next surviving node (one cursor key).
      const walk = async (path: string): Promise<Record<string, unknown>[]> => {
        const seen: Record<string, unknown>[] = [];
        let cursor: string | null = null;
        for (let pages = 0; pages < 100; pages++) {
          const node = alive()[pages % alive().length]!;
          const res: Response = await fetch(`${url(node)}${path}?limit=7${cursor ? `&cursor=${cursor}` : ""}`, { headers: h });
          assert.equal(res.status, 200);
          const page = (await res.json()) as { data: Record<string, unknown>[]; next_cursor: string; has_more: boolean };
          assert.ok(page.data.length <= 7);
          seen.push(...page.data);
          cursor = page.next_cursor;
          if (!page.has_more) return seen;
        }
        assert.fail(`${path} did not end in 100 pages`);
      };
      const subs = await walk("/api/v1/submissions");
      const subIds = subs.map((s) => String(s.id));
      assert.equal(new Set(subIds).size, subIds.length, "no submission twice in the feed");
      assert.deepEqual(new Set(subIds), answeredIds, "every 201 is in the feed, and nothing else");
      const numbers = subs.map((s) => String(s.number)).sort();
      assert.deepEqual(numbers, uploads.filter((up, i, all) => all.findIndex((x) => x.n === up.n) === i).map((up) => up.n).sort());
      const subOrder = (await db.query("SELECT id FROM submissions ORDER BY seq")).rows.map((r) => String(r.id));
      assert.deepEqual(subIds, subOrder, "the walk follows the feed's order");
      const docs = await walk("/api/v1/documents");
      const docIds = docs.map((d) => String(d.id));
      assert.equal(new Set(docIds).size, INBOX_FILES, "no document twice");
      assert.deepEqual(docs.map((d) => String(d.external_id)).sort(), Array.from({ length: INBOX_FILES }, (_, i) => `D-${i}`).sort());
      assert.deepEqual(docIds, (await db.query("SELECT id FROM documents ORDER BY seq")).rows.map((r) => String(r.id)));
      const counts = (await db.query(`SELECT (SELECT count(*) FROM submissions)::int AS subs, (SELECT count(*) FROM documents)::int AS docs,
        (SELECT count(*) FROM idempotency_claims)::int AS claims`)).rows[0]!;
      assert.deepEqual(counts, { subs: DISTINCT + GROUPS, docs: INBOX_FILES, claims: 0 });

      // ---- Webhooks: every submission.created and document.created event reaches the receiver.
      const expected = new Map<string, string>([...subIds.map((id) => [id, "submission.created"] as const), ...docIds.map((id) => [id, "document.created"] as const)]);
      const deliveredBy = deadline(20_000);
      const missing = (): string[] => [...expected].filter(([id, type]) => !receiver.events.some((e) => e.type === type && e.dataId === id)).map(([id]) => id);
      while (missing().length > 0 && Date.now() < deliveredBy) await pause(50);
      assert.deepEqual(missing(), [], "every event was delivered");
      assert.deepEqual(receiver.badSignatures, [], "every delivery is signed with the endpoint's secret");
      assert.equal(receiver.maxConcurrent, 1, "one node at a time delivers to the endpoint");
      const groupIds = new Set([...answers].filter(([up]) => up.group !== null).map(([, a]) => String(a.body.id)));
      const perEvent = new Map<string, number>();
      for (const e of receiver.events) perEvent.set(e.id, (perEvent.get(e.id) ?? 0) + 1);
      const twice = [...perEvent].filter(([, n]) => n > 1);
      if (twice.length > 0) t.diagnostic(`events delivered more than once (at-least-once): ${JSON.stringify(twice)}`);
      for (const e of receiver.events.filter((x) => groupIds.has(x.dataId))) assert.equal(perEvent.get(e.id), 1, `${e.type} ${e.dataId} exactly once`);
      t.diagnostic(`${receiver.events.length} deliveries, ${twice.length} duplicated; done after ${Date.now() - started} ms`);
    } finally {
      for (const n of nodes) if (n) n.child.kill("SIGTERM");
      const stopping = nodes.map((n) => n ? Promise.race([n.exited, pause(10_000, true).then(() => n.child.kill("SIGKILL"))]) : null);
      t.diagnostic(`exit codes after SIGTERM: ${JSON.stringify(await Promise.all(stopping))}`);
      await db.end();
      // FORCE only after our own sessions are gone: it would send them an error while they close.
      for (const by = Date.now() + 5000; Date.now() < by;) {
        const r = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [dbName]);
        if (r.rows[0].n === 0) break;
        await pause(50);
      }
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
      await admin.end();
      receiver.close();
      for (const d of dirs) if (existsSync(d)) rmSync(d, { recursive: true, force: true });
    }
  });
}

interface Received {
  id: string;
  type: string;
  dataId: string;
}

/** A webhook receiver on 127.0.0.1 that checks signatures, counts deliveries, and can hold one delivery. */
function _receiver() {
  const events: Received[] = [];
  const badSignatures: string[] = [];
  let inFlight = 0, maxConcurrent = 0;
  let hold: { resolve: (s: { port: number }) => void; answer: (() => void) | null } | null = null;
  let secret = "";
  const server = createServer((req, res) => {
    inFlight++;
    maxConcurrent = Math.max(maxConcurrent, inFlight);
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      const id = String(req.headers["webhook-id"]), ts = String(req.headers["webhook-timestamp"]);
      const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
      const want = `v1,${createHmac("sha256", key).update(`${id}.${ts}.${body}`).digest("base64")}`;
      if (req.headers["webhook-signature"] !== want) badSignatures.push(id);
      const parsed = JSON.parse(body) as { type: string; data: { id: string } };
      const answer = (): void => {
        events.push({ id, type: parsed.type, dataId: parsed.data.id });
        inFlight--;
        res.writeHead(204);
        res.end();
      };
      if (hold && !hold.answer) {
        hold.answer = answer;
        hold.resolve({ port: req.socket.remotePort! });
      } else {
        answer();
      }
    });
  });
  const listening = new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    listening,
    events, badSignatures,
    get maxConcurrent() {
      return maxConcurrent;
    },
    get port() {
      return (server.address() as { port: number }).port;
    },
    get url() {
      return `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
    },
    set secret(s: string) {
      secret = s;
    },
    /** Holds the next delivery unanswered; resolves with its sender's port. */
    holdNext(): Promise<{ port: number }> {
      return new Promise((resolve) => (hold = { resolve, answer: null }));
    },
    /** Answers the held delivery, if any, and stops holding. */
    release(): void {
      const answer = hold?.answer;
      hold = null;
      answer?.();
    },
    close(): void {
      server.closeAllConnections();
      server.close();
    },
  };
}

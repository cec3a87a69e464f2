import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { SourceError, type SourceItem } from "../../../lib/contracts/document_source.ts";
import { httpSource, type HttpSourceOptions } from "../../../storage/sources/http.ts";
import { inboxSource } from "../../../storage/sources/inbox.ts";
import { createSyncRunner } from "../../../lib/jobs/sync_runner.ts";
import { silentLogger } from "../../../lib/observe/log.ts";
import { MemoryStorage } from "../../../storage/memory.ts";
import type { SyncRunRecord } from "../../../lib/contracts/storage.ts";
import { fixturePath, startServer, type TestServer } from "../../support/server.ts";

const UPLOAD_LIMIT = 10 * 1024 * 1024; // the default of UPLOAD_LIMIT

const xml = readFileSync(fixturePath("samples", "ksef-fa2", "FA_2_Przyklad_9.xml"));
type Doc = { id: string; external_id: string; xml_available: boolean; number: string | null; sha256: string | null };

describe("http source: one server syncs from another that speaks this API", () => {
  let up: TestServer;
  let down: TestServer;
  let upToken = "";
  let downToken = "";
  before(async () => {
    up = await startServer();
    upToken = (await up.token("supplier")).token;
    down = await startServer({
      sources: (tenant) => [
        inboxSource(join(down.dataDir, "inbox"), tenant),
        httpSource({ name: "upstream", url: up.url, token: upToken, positionFile: join(down.dataDir, `${tenant}-upstream.cursor`), retryDelays: [10, 10], pageSize: 2, maxXmlBytes: UPLOAD_LIMIT }),
      ],
    });
    downToken = (await down.token("buyer")).token;
  });
  after(async () => {
    await down.close();
    await up.close();
  });

  async function syncDown(): Promise<Record<string, unknown>> {
    const res = await down.fetch("/api/v1/documents/sync", downToken, { method: "POST", headers: { "content-type": "application/json" }, body: '{"source":"upstream"}' });
    assert.equal(res.status, 202);
    const run = (await res.json()) as { id: string };
    await down.app.sync.idle();
    return (await (await down.fetch(`/api/v1/documents/sync/${run.id}`, downToken)).json()) as Record<string, unknown>;
  }
  const docs = async (s: TestServer, token: string): Promise<Doc[]> => ((await (await s.fetch("/api/v1/documents?limit=500", token)).json()) as { data: Doc[] }).data;

  test("documents, XML-not-yet-available and later updates all flow through", async () => {
    up.drop("supplier", "A.xml", xml);
    up.drop("supplier", "B.xml", xml.toString().replace("<P_2>FV2022/02/150</P_2>", "<P_2>B-1</P_2>"));
    up.drop("supplier", "C.json", JSON.stringify({ number: "C-1", type: "invoice" }));
    await up.sync(upToken);
    const upDocs = await docs(up, upToken);
    assert.equal(upDocs.length, 3);

    const run = await syncDown();
    assert.equal(run.status, "succeeded", JSON.stringify(run));
    assert.deepEqual(run.counts, { fetched: 3, created: 3, updated: 0, unchanged: 0, failed: 0 });
    let mine = await docs(down, downToken);
    const byUpstream = new Map(mine.map((d) => [d.external_id, d]));
    for (const u of upDocs) {
      const d = byUpstream.get(u.id)!;
      assert.ok(d, `upstream ${u.id} arrived`);
      assert.equal(d.xml_available, u.xml_available);
      assert.equal(d.sha256, u.sha256);
    }
    const c = upDocs.find((d) => d.number === "C-1")!;
    const cDown = byUpstream.get(c.id)!;
    assert.equal(cDown.xml_available, false);
    assert.equal((await down.fetch(`/api/v1/documents/${cDown.id}/xml`, downToken)).status, 404);
    const aDown = byUpstream.get(upDocs.find((d) => d.external_id === "A")!.id)!;
    const body = Buffer.from(await (await down.fetch(`/api/v1/documents/${aDown.id}/xml`, downToken)).arrayBuffer());
    assert.deepEqual(body, xml);

    // Nothing new upstream: a second run fetches nothing (the cursor was kept).
    assert.deepEqual((await syncDown()).counts, { fetched: 0, created: 0, updated: 0, unchanged: 0, failed: 0 });

    // C's XML arrives upstream; downstream the same document is updated and moves to the end of its feed.
    up.drop("supplier", "C.xml", xml.toString().replace("<P_2>FV2022/02/150</P_2>", "<P_2>C-1</P_2>"));
    await up.sync(upToken);
    const again = await syncDown();
    assert.deepEqual(again.counts, { fetched: 1, created: 0, updated: 1, unchanged: 0, failed: 0 });
    mine = await docs(down, downToken);
    assert.equal(mine.at(-1)!.id, cDown.id);
    assert.equal(mine.at(-1)!.xml_available, true);
  });

  test("an upstream that keeps failing fails the run with UPSTREAM_ERROR after the retries", async () => {
    let calls = 0;
    const broken = createServer((_req, res) => {
      calls++;
      res.writeHead(503).end();
    });
    await new Promise<void>((r) => broken.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(broken.address() as { port: number }).port}`;
    const s = await startServer({ sources: () => [httpSource({ name: "flaky", url, token: "itk_x_y", positionFile: "/dev/null/none", retryDelays: [5, 5, 5], maxXmlBytes: UPLOAD_LIMIT })] });
    try {
      const { token } = await s.token("t");
      const run = await s.sync(token);
      assert.equal(run.status, "failed");
      assert.equal((run.error as { code: string }).code, "UPSTREAM_ERROR");
      assert.equal(calls, 4);
    } finally {
      await s.close();
      broken.close();
    }
  });
});

// An upstream that misbehaves: a redirect to another origin, pages of the wrong shape or size, an
// XML larger than the upload limit, an upstream that stops answering mid-body. Driven through pull().

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server; seen: IncomingMessage[] }> {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server, seen };
}

const page = (data: unknown[], more = false) => JSON.stringify({ data, next_cursor: "c1", has_more: more });

/** Pulls every item; the SourceError that ends the run, if any. */
async function pullAll(url: string, extra: Partial<HttpSourceOptions> = {}): Promise<{ items: SourceItem[]; error: SourceError | null }> {
  const dir = mkdtempSync(join(tmpdir(), "http-src-"));
  const items: SourceItem[] = [];
  try {
    const src = httpSource({ name: "up", url, token: "itk_secret_token", positionFile: join(dir, "pos"), retryDelays: [5], maxXmlBytes: UPLOAD_LIMIT, ...extra });
    for await (const item of src.pull(new AbortController().signal)) items.push(item);
    return { items, error: null };
  } catch (e) {
    if (!(e instanceof SourceError)) throw e;
    return { items, error: e };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a redirect is not followed and the token never reaches the other origin: the run fails naming the redirect", async () => {
  const thief = await serve((_req, res) => res.end(page([])));
  const up = await serve((_req, res) => {
    res.writeHead(302, { location: `${thief.url}/api/v1/documents` });
    res.end();
  });
  try {
    const { error } = await pullAll(up.url);
    assert.equal(error?.code, "UPSTREAM_ERROR");
    assert.match(error!.message, /redirect/);
    assert.equal(thief.seen.length, 0, "the other origin got no request, so no token");
  } finally {
    up.server.close();
    thief.server.close();
  }
});

const SHAPES = [
  { what: "data is not a list", body: '{"data":"nope","next_cursor":"c","has_more":false}', message: /data is not a list/ },
  { what: "an item without an id", body: page([{ xml_available: false }]), message: /data\[0\]\.id/ },
  { what: "an id that is an object", body: page([{ id: { x: 1 }, xml_available: false }]), message: /data\[0\]\.id/ },
  { what: "no next_cursor", body: '{"data":[],"has_more":false}', message: /next_cursor/ },
  { what: "has_more as a string", body: '{"data":[],"next_cursor":"c","has_more":"no"}', message: /has_more/ },
  { what: "not JSON", body: "<html>login</html>", message: /not JSON/ },
  { what: "a JSON array", body: "[]", message: /not a JSON object/ },
];

for (const { what, body, message } of SHAPES) {
  test(`a feed page with ${what} fails the run with UPSTREAM_ERROR saying so`, async () => {
    const up = await serve((_req, res) => res.end(body));
    try {
      const { error, items } = await pullAll(up.url);
      assert.equal(items.length, 0);
      assert.equal(error?.code, "UPSTREAM_ERROR");
      assert.match(error!.message, message);
    } finally {
      up.server.close();
    }
  });
}

test("a feed page over the page limit fails the run; an XML over the XML limit fails that document only", async () => {
  const big = await serve((_req, res) => res.end(page([{ id: "doc_1", xml_available: false, pad: "x".repeat(5000) }])));
  const xml = await serve((req, res) => {
    if (req.url!.startsWith("/api/v1/documents?")) return res.end(page([{ id: "doc_big", xml_available: true }, { id: "doc_small", xml_available: true }]));
    // The large one sends no Content-Length: the limit holds while reading too.
    if (req.url!.includes("doc_big")) return (res.write("<a>".padEnd(3000, " ")), res.end("</a>"));
    res.end("<a/>");
  });
  try {
    const paged = await pullAll(big.url, { maxPageBytes: 1000 });
    assert.equal(paged.error?.code, "UPSTREAM_ERROR");
    assert.match(paged.error!.message, /larger than 1000 bytes/);
    const docs = await pullAll(xml.url, { maxXmlBytes: 1000 });
    assert.equal(docs.error, null);
    assert.deepEqual(docs.items.map((i) => [i.external_id, i.error?.code ?? null, i.xml?.length ?? null]), [["doc_big", "PAYLOAD_TOO_LARGE", null], ["doc_small", null, 4]]);
  } finally {
    big.server.close();
    xml.server.close();
  }
});

test("an upstream that stops answering mid-body is timed out per request and the run fails after the retries", { timeout: 10_000 }, async () => {
  const up = await serve((req, res) => {
    if (req.url!.startsWith("/api/v1/documents?")) return res.end(page([{ id: "doc_hung", xml_available: true }]));
    res.writeHead(200, { "content-type": "application/xml" });
    res.write("<a>"); // and never more
  });
  try {
    const started = performance.now();
    const { error } = await pullAll(up.url, { timeoutMs: 200 });
    assert.equal(error?.code, "UPSTREAM_ERROR");
    assert.match(error!.message, /no answer within 200 ms/);
    assert.ok(performance.now() - started < 5000);
  } finally {
    up.server.closeAllConnections();
    up.server.close();
  }
});

test("the upstream's KSeF number comes along with its document", async () => {
  const up = await serve((_req, res) => res.end(page([
    { id: "doc_1", xml_available: false, number: "FV/1", ksef_number: "5260250274-20251104-0100001F2E1E-A6" },
    { id: "doc_2", xml_available: false, number: "FV/2", ksef_number: null },
  ])));
  try {
    const { items, error } = await pullAll(up.url);
    assert.equal(error, null);
    assert.deepEqual(items.map((i) => [i.external_id, i.ksef_number ?? null]), [["doc_1", "5260250274-20251104-0100001F2E1E-A6"], ["doc_2", null]]);
  } finally {
    up.server.close();
  }
});

test("the position moves past a page only after the run has saved the counts that include it, so a crash cannot leave them short", async () => {
  const dir = mkdtempSync(join(tmpdir(), "http-pos-"));
  const positionFile = join(dir, "pos");
  const storage = new MemoryStorage();
  const tenant = storage.tenant("acme");
  // What a crash at the request for the second page would leave: the position and the run as saved.
  let atSecondPage: { position: string; run: SyncRunRecord | null } | null = null;
  const up = await serve((req, res) => {
    const cursor = new URL(req.url!, "http://x").searchParams.get("cursor");
    if (cursor === null || cursor === "") return res.end(JSON.stringify({ data: [{ id: "doc_1", number: "A", xml_available: false }, { id: "doc_2", number: "B", xml_available: false }], next_cursor: "c1", has_more: true }));
    void tenant.activeRuns().then((runs) => {
      atSecondPage = { position: readFileSync(positionFile, "utf8"), run: runs[0] ?? null };
      res.end(JSON.stringify({ data: [], next_cursor: "c2", has_more: false }));
    });
  });
  try {
    const source = httpSource({ name: "up", url: up.url, token: "itk_x", positionFile, retryDelays: [5], pageSize: 2, maxXmlBytes: UPLOAD_LIMIT });
    const runner = createSyncRunner({ storage, sources: () => [source], now: Date.now, logger: silentLogger, nodeId: "n1" });
    const { run } = await runner.request(tenant, null);
    await runner.idle();
    assert.equal((await tenant.getRun(run.id))?.status, "succeeded");
    assert.ok(atSecondPage, "the second page was asked for");
    const seen = atSecondPage as { position: string; run: SyncRunRecord | null };
    assert.equal(seen.position, "c1");
    assert.equal(seen.run?.counts.fetched, 2, "the saved counts include the page the position moved past");
    assert.equal(seen.run?.counts.created, 2);
  } finally {
    up.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { httpSource } from "../../../storage/sources/http.ts";
import { inboxSource } from "../../../storage/sources/inbox.ts";
import { fixturePath, startServer, type TestServer } from "../../support/server.ts";

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
        httpSource({ name: "upstream", url: up.url, token: upToken, positionFile: join(down.dataDir, `${tenant}-upstream.cursor`), retryDelays: [10, 10], pageSize: 2 }),
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
    const s = await startServer({ sources: () => [httpSource({ name: "flaky", url, token: "itk_x_y", positionFile: "/dev/null/none", retryDelays: [5, 5, 5] })] });
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

/**
 * Caching of `/api/v1` answers (README "Security model") through a real server: every JSON answer, whatever its
 * status (a 200 list, 201, 202, 401, 404, 405, a replayed 201, the public OpenAPI document), carries
 * `Cache-Control: no-store`, so no shared proxy keeps a tenant's data; downloads keep `private, no-cache` with
 * their ETag, for their 200, 206 and 304 alike.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";

const SAMPLE = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_Przyklad_4_EUR.xml"));

describe("Cache-Control of /api/v1 answers", () => {
  let s: TestServer;
  let token: string;
  let docId: string;
  before(async () => {
    s = await startServer({ storage: "memory", webhooks: { allowPrivate: true } });
    token = (await s.token("acme")).token;
    s.drop("acme", "cached.xml", SAMPLE);
    await s.sync(token);
    const list = (await (await s.fetch("/api/v1/documents", token)).json()) as { data: { id: string }[] };
    docId = list.data[0]!.id;
  });
  after(() => s?.close());

  /** Asserts the header of `res` and drains its body. */
  const expectCache = async (res: Response, status: number, expected: string): Promise<void> => {
    const text = await res.text();
    assert.equal(res.status, status, text);
    assert.equal(res.headers.get("cache-control"), expected, `${res.url} ${status}`);
  };
  const postJson = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    s.fetch(path, token, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

  test("a 200 list, a document and the token's own answer are no-store", async () => {
    await expectCache(await s.fetch("/api/v1/documents", token), 200, "no-store");
    await expectCache(await s.fetch(`/api/v1/documents/${docId}`, token), 200, "no-store");
    await expectCache(await s.fetch("/api/v1/token", token), 200, "no-store");
    await expectCache(await s.fetch("/api/v1/summary", token), 200, "no-store");
  });

  test("errors are no-store: 401, 404 of an id and of an unknown path, 405, 400", async () => {
    await expectCache(await s.fetch("/api/v1/documents", null), 401, "no-store");
    await expectCache(await s.fetch("/api/v1/documents/doc_00000000000000000000000000", token), 404, "no-store");
    await expectCache(await s.fetch("/api/v1/nothing-here", token), 404, "no-store");
    await expectCache(await s.fetch("/api/v1/documents", token, { method: "DELETE" }), 405, "no-store");
    await expectCache(await s.fetch("/api/v1/documents?bogus=1", token), 400, "no-store");
  });

  test("a 201, its replay under the same Idempotency-Key, and a 202 are no-store", async () => {
    const key = crypto.randomUUID();
    const hook = { url: "http://127.0.0.1:9/hook", events: ["document.created"] };
    await expectCache(await postJson("/api/v1/webhooks", hook, { "idempotency-key": key }), 201, "no-store");
    const replay = await postJson("/api/v1/webhooks", hook, { "idempotency-key": key });
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    await expectCache(replay, 201, "no-store");
    await expectCache(await postJson("/api/v1/documents/sync", {}), 202, "no-store");
    await s.app.sync.idle();
  });

  test("the public OpenAPI document is no-store too: one rule for every JSON answer", async () => {
    await expectCache(await s.fetch("/api/v1/openapi.json", null), 200, "no-store");
  });

  test("downloads keep private, no-cache: 200, 206, 304 and HEAD", async () => {
    for (const kind of ["xml", "pdf"]) {
      const path = `/api/v1/documents/${docId}/${kind}`;
      const whole = await s.fetch(path, token);
      const etag = whole.headers.get("etag")!;
      await expectCache(whole, 200, "private, no-cache");
      await expectCache(await s.fetch(path, token, { headers: { range: "bytes=0-9" } }), 206, "private, no-cache");
      await expectCache(await s.fetch(path, token, { headers: { "if-none-match": etag } }), 304, "private, no-cache");
      await expectCache(await s.fetch(path, token, { method: "HEAD" }), 200, "private, no-cache");
    }
  });
});

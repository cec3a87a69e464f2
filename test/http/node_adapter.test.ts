/**
 * The node:http adapter answering before a body is read to its end: the client, still sending, gets the answer
 * (README “Security model”: an upload over the limit is refused while it streams), not a broken pipe.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startServer, type TestServer } from "../support/server.ts";

describe("an answer given before the request body ends", () => {
  let s: TestServer;
  let token: string;
  before(async () => {
    s = await startServer({ uploadLimit: 4096, jsonLimit: 64, rateLimit: null });
    token = (await s.token()).token;
  });
  after(() => s.close());

  test("every client still sending an upload of 6 KB to 2 MB over a 4 KiB limit reads its 413, on kept and fresh connections", async () => {
    for (const size of [6_000, 20_000, 100_000, 2_000_000, 6_000, 20_000, 100_000, 2_000_000]) {
      const xml = new Uint8Array(size).fill(0x20);
      const form = new FormData();
      form.append("xml", new Blob([xml], { type: "application/xml" }), "big.xml");
      const res = await fetch(`${s.url}/api/v1/submissions`, { method: "POST", headers: { "x-api-token": token }, body: form });
      assert.equal(res.status, 413);
      const body = (await res.json()) as { error: { code: string; details: { limit_bytes: number } } };
      assert.equal(body.error.code, "PAYLOAD_TOO_LARGE");
      assert.equal(body.error.details.limit_bytes, 4096);
      assert.equal(res.headers.get("connection"), "close");
    }
  });

  test("a JSON body over its limit, then an upload over its limit on the same connection: both answers arrive", async () => {
    for (let i = 0; i < 4; i++) {
      const json = await fetch(`${s.url}/api/v1/webhooks`, {
        method: "POST", headers: { "x-api-token": token, "content-type": "application/json" },
        body: JSON.stringify({ url: "https://example.com/", events: ["*"], description: "x".repeat(100) }),
      });
      assert.equal(json.status, 413);
      await json.arrayBuffer();
      const form = new FormData();
      form.append("xml", new Blob([new Uint8Array(9_228).fill(0x20)], { type: "application/xml" }), "invoice.xml");
      const res = await fetch(`${s.url}/api/v1/submissions`, { method: "POST", headers: { "x-api-token": token }, body: form });
      assert.equal(res.status, 413);
      await res.arrayBuffer();
    }
  });

  test("after such an answer the server serves the next request as usual", async () => {
    const res = await fetch(`${s.url}/healthz`);
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  });
});

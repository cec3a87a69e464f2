import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { after, before, describe, test } from "node:test";
import { createHttpTransport } from "../../../storage/transports/webhook_http.ts";
import { heldStorage, type HeldStorage } from "../../support/held_storage.ts";
import { fixturePath, startServer, type TestServer } from "../../support/server.ts";

const xml = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml")).toString();
const JSON_HEADERS = { "content-type": "application/json" };

/** A receiver that holds its first request until `release()`, then answers every request 200. */
async function holdingReceiver(): Promise<{ url: string; got: number; first: Promise<void>; release(): void; close(): Promise<void> }> {
  let reach!: () => void;
  let release!: () => void;
  const first = new Promise<void>((r) => (reach = r));
  const released = new Promise<void>((r) => (release = r));
  const rx = {
    url: "", got: 0, first, release,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const server: Server = createServer((req, res) => {
    req.resume().on("end", async () => {
      if (++rx.got === 1) {
        reach();
        await released;
      }
      res.writeHead(200, { connection: "close" }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  rx.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
  return rx;
}

describe("a delivery pass", () => {
  let s: TestServer;
  let held: HeldStorage;
  before(async () => {
    s = await startServer({
      storage: "memory",
      wrapStorage: (inner) => (held = heldStorage(inner)).storage,
      webhooks: { transport: createHttpTransport(true), schedule: [5_000], allowPrivate: true, random: () => 0.5 },
    });
  });
  after(() => s.close());

  async function register(token: string, url: string): Promise<string> {
    const res = await s.fetch("/api/v1/webhooks", token, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ url, events: ["submission.created"] }) });
    assert.equal(res.status, 201);
    return ((await res.json()) as { id: string }).id;
  }

  async function submit(token: string, n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      const form = new FormData();
      form.append("xml", new Blob([xml.replace("<cbc:ID>Snippet1</cbc:ID>", `<cbc:ID>P-${i}</cbc:ID>`)]), `${i}.xml`);
      assert.equal((await s.fetch("/api/v1/submissions", token, { method: "POST", body: form })).status, 201);
    }
  }

  test("sends nothing more after DELETE is answered than the attempt in flight", async (t) => {
    const { token } = await s.token("pass-delete");
    const rx = await holdingReceiver();
    t.after(() => rx.close());
    const id = await register(token, rx.url);
    await submit(token, 4);
    const pass = s.app.webhooks!.runOnce();
    await rx.first;
    assert.equal((await s.fetch(`/api/v1/webhooks/${id}`, token, { method: "DELETE" })).status, 204);
    rx.release();
    await pass;
    assert.equal(rx.got, 1);
  });

  test("sends the next attempt to the new url once a PATCH of url is answered", async (t) => {
    const { token } = await s.token("pass-patch");
    const old = await holdingReceiver();
    const moved = await holdingReceiver();
    t.after(() => Promise.all([old.close(), moved.close()]));
    const id = await register(token, old.url);
    await submit(token, 3);
    const pass = s.app.webhooks!.runOnce();
    await old.first;
    const res = await s.fetch(`/api/v1/webhooks/${id}`, token, { method: "PATCH", headers: JSON_HEADERS, body: JSON.stringify({ url: moved.url }) });
    assert.equal(res.status, 200);
    old.release();
    moved.release();
    await pass;
    assert.deepEqual([old.got, moved.got], [1, 2]);
  });

  test("writes no delivery state for an endpoint with nothing to deliver", async () => {
    const { token } = await s.token("pass-idle");
    await register(token, "http://127.0.0.1:9/never");
    const before = held.calls.get("saveDeliveryState") ?? 0;
    for (let i = 0; i < 3; i++) await s.app.webhooks!.runOnce();
    assert.equal((held.calls.get("saveDeliveryState") ?? 0) - before, 0);
  });
});

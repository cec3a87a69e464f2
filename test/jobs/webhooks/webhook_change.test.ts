import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { after, before, describe, test } from "node:test";
import { createHttpTransport } from "../../../storage/transports/webhook_http.ts";
import { heldStorage, type HeldStorage } from "../../support/held_storage.ts";
import { fixturePath, startServer, type TestServer } from "../../support/server.ts";

const xml = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"));
const JSON_HEADERS = { "content-type": "application/json" };

async function gone(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => req.resume().on("end", () => res.writeHead(410, { connection: "close" }).end()));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`, close: () => new Promise((r) => server.close(() => r())) };
}

for (const kind of ["memory", "file"] as const) {
  describe(`webhook changes race by compare-and-set (${kind} store)`, () => {
    let s: TestServer;
    let held: HeldStorage;
    before(async () => {
      s = await startServer({
        storage: kind,
        wrapStorage: (inner) => (held = heldStorage(inner)).storage,
        webhooks: { transport: createHttpTransport(true), schedule: [5_000], allowPrivate: true, random: () => 0.5 },
      });
    });
    after(() => s.close());

    async function register(token: string, url: string): Promise<string> {
      const res = await s.fetch("/api/v1/webhooks", token, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ url, events: ["*"] }) });
      assert.equal(res.status, 201);
      return ((await res.json()) as { id: string }).id;
    }

    test("a PATCH that read the endpoint before a DELETE does not bring it back", async () => {
      const { token } = await s.token("race-delete");
      const id = await register(token, "https://example.com/a");
      const h = held.hold("getWebhook");
      const patch = s.fetch(`/api/v1/webhooks/${id}`, token, { method: "PATCH", headers: JSON_HEADERS, body: JSON.stringify({ description: "late" }) });
      await h.reached; // the PATCH has read the endpoint
      assert.equal((await s.fetch(`/api/v1/webhooks/${id}`, token, { method: "DELETE" })).status, 204);
      h.release();
      assert.equal((await patch).status, 404);
      assert.equal((await s.fetch(`/api/v1/webhooks/${id}`, token)).status, 404);
      const list = (await (await s.fetch("/api/v1/webhooks", token)).json()) as { data: unknown[] };
      assert.equal(list.data.length, 0);
    });

    test("the worker's disabling keeps a url changed by a PATCH meanwhile", async (t) => {
      const { token } = await s.token("race-disable");
      const rx = await gone();
      t.after(() => rx.close());
      const id = await register(token, rx.url);
      const form = new FormData();
      form.append("xml", new Blob([xml]), "a.xml");
      assert.equal((await s.fetch("/api/v1/submissions", token, { method: "POST", body: form })).status, 201);
      const h = held.hold("getWebhook"); // the worker reads the endpoint only to disable it
      const pass = s.app.webhooks!.runOnce();
      await h.reached;
      const res = await s.fetch(`/api/v1/webhooks/${id}`, token, { method: "PATCH", headers: JSON_HEADERS, body: JSON.stringify({ url: "https://example.com/new" }) });
      assert.equal(res.status, 200);
      h.release();
      await pass;
      const w = (await (await s.fetch(`/api/v1/webhooks/${id}`, token)).json()) as { url: string; status: string };
      assert.deepEqual([w.url, w.status], ["https://example.com/new", "disabled"]);
    });
  });
}

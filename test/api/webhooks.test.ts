import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { after, before, describe, test } from "node:test";
import { createHttpTransport } from "../../storage/transports/webhook_http.ts";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";
import { STORES } from "../support/stores.ts";

interface Received {
  headers: IncomingMessage["headers"];
  body: string;
}

/** A receiver on 127.0.0.1 that answers with the statuses it is given (or `decide` picks), then 200. */
async function receiver(statuses: number[] = [], extra: Record<string, string> = {}, decide?: (r: Received) => number | undefined): Promise<{ url: string; got: Received[]; close(): Promise<void> }> {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      got.push({ headers: req.headers, body });
      res.writeHead(decide?.({ headers: req.headers, body }) ?? statuses.shift() ?? 200, extra);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address() as { port: number };
  return { url: `http://127.0.0.1:${addr.port}/hook`, got, close: () => new Promise((r) => server.close(() => r())) };
}

const SCHEDULE = [5_000, 300_000, 1_800_000];
const xml = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"));

for (const store of STORES) describe(`webhooks${store.label}`, () => {
  let s: TestServer;
  let clock = Date.UTC(2026, 10, 21, 12, 0, 0);
  before(async () => {
    s = await startServer({ storage: store, now: () => clock, webhooks: { transport: createHttpTransport(true), schedule: SCHEDULE, allowPrivate: true, random: () => 0.5 } });
  });
  after(() => s.close());

  async function register(token: string, url: string, events: string[] = ["*"]): Promise<Record<string, string>> {
    const res = await s.fetch("/api/v1/webhooks", token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url, events }) });
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()) as Record<string, string>;
  }

  test("registration validates the URL and events, and shows the secret only once", async () => {
    const { token } = await s.token("reg");
    for (const [body, field] of [
      [{ url: "ftp://example.com", events: ["*"] }, "url"],
      [{ url: "https://user:pw@example.com/", events: ["*"] }, "url"],
      [{ url: "https://example.com/", events: ["document.deleted"] }, "events"],
      [{ url: "https://example.com/" }, "events"],
    ] as const) {
      const res = await s.fetch("/api/v1/webhooks", token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      assert.equal(res.status, 422);
      assert.equal(((await res.json()) as { error: { details: { field: string } } }).error.details.field, field);
    }
    const hook = await register(token, "https://example.com/hook", ["document.created"]);
    assert.match(hook.id!, /^whk_/);
    assert.match(hook.secret!, /^whsec_/);
    assert.equal(hook.status, "enabled");
    const one = (await (await s.fetch(`/api/v1/webhooks/${hook.id}`, token)).json()) as Record<string, unknown>;
    assert.equal(one.secret, undefined);
    const list = (await (await s.fetch("/api/v1/webhooks", token)).json()) as { data: Record<string, unknown>[] };
    assert.equal(list.data.length, 1);
    assert.equal(list.data[0]!.secret, undefined);
    assert.equal((await s.fetch(`/api/v1/webhooks/${hook.id}`, token, { method: "DELETE" })).status, 204);
    assert.equal((await s.fetch(`/api/v1/webhooks/${hook.id}`, token)).status, 404);
    const other = await s.token("someone-else");
    assert.equal((await s.fetch(`/api/v1/webhooks/${hook.id}`, other.token)).status, 404);
  });

  test("a private target is refused unless allowed", async () => {
    const strict = await startServer({ webhooks: { transport: createHttpTransport(false), allowPrivate: false } });
    try {
      const { token } = await strict.token("acme");
      for (const url of ["http://example.com/", "https://127.0.0.1/", "https://[::1]/", "https://10.0.0.1/", "https://localhost/"]) {
        const res = await strict.fetch("/api/v1/webhooks", token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url, events: ["*"] }) });
        assert.equal(res.status, 422, url);
      }
    } finally {
      await strict.close();
    }
  });

  test("deliveries are signed per Standard Webhooks and retried with the same id until they succeed", async () => {
    const { token } = await s.token("deliver");
    let createdAttempts = 0;
    const rx = await receiver([], {}, (r) => (r.body.includes('"document.created"') && ++createdAttempts <= 2 ? 500 : undefined));
    const hook = await register(token, rx.url, ["document.created", "sync.completed"]);
    s.drop("deliver", "INV-1.xml", xml);
    await s.sync(token);
    await s.app.webhooks!.runOnce();
    assert.equal(rx.got.length, 2); // document.created (failed, 500) and sync.completed
    const first = rx.got[0]!;
    const id = first.headers["webhook-id"] as string;
    assert.match(id, /^evt_[0-9A-Z]{26}$/);
    // The signature, recomputed from the spec's definition.
    const key = Buffer.from(hook.secret!.slice("whsec_".length), "base64");
    const expected = createHmac("sha256", key).update(`${id}.${first.headers["webhook-timestamp"]}.${first.body}`).digest("base64");
    assert.equal(first.headers["webhook-signature"], `v1,${expected}`);
    assert.equal(first.headers["content-type"], "application/json");
    const body = JSON.parse(first.body) as { type: string; timestamp: string; data: { external_id: string } };
    assert.equal(body.type, "document.created");
    assert.equal(body.data.external_id, "INV-1");
    assert.match(body.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal((JSON.parse(rx.got[1]!.body) as { type: string }).type, "sync.completed");
    // Nothing is due before 5 s.
    clock += 4_000;
    const before = rx.got.length;
    await s.app.webhooks!.runOnce();
    assert.equal(rx.got.filter((g) => g.headers["webhook-id"] === id).length, 1);
    clock += 2_000; // 6 s: the second attempt (5 s ± 10 %) is due
    await s.app.webhooks!.runOnce();
    const attempts = rx.got.filter((g) => g.headers["webhook-id"] === id);
    assert.equal(attempts.length, 2, `got ${rx.got.length - before} new deliveries`);
    assert.notEqual(attempts[1]!.headers["webhook-timestamp"], attempts[0]!.headers["webhook-timestamp"]);
    clock += 330_000; // the third attempt after 5 min ± 10 % succeeds
    await s.app.webhooks!.runOnce();
    assert.equal(rx.got.filter((g) => g.headers["webhook-id"] === id).length, 3);
    clock += 3_600_000;
    await s.app.webhooks!.runOnce();
    assert.equal(rx.got.filter((g) => g.headers["webhook-id"] === id).length, 3, "delivered once after it succeeded");
    assert.equal(((await (await s.fetch(`/api/v1/webhooks/${hook.id}`, token)).json()) as { status: string }).status, "enabled");
    await rx.close();
  });

  test("410 Gone disables the endpoint at once; a redirect is a failure", async () => {
    const { token } = await s.token("gone");
    const rx = await receiver([410]);
    const hook = await register(token, rx.url, ["submission.created"]);
    const form = new FormData();
    form.append("xml", new Blob([xml]), "a.xml");
    assert.equal((await s.fetch("/api/v1/submissions", token, { method: "POST", body: form })).status, 201);
    await s.app.webhooks!.runOnce();
    assert.equal(rx.got.length, 1);
    assert.equal((JSON.parse(rx.got[0]!.body) as { type: string }).type, "submission.created");
    assert.equal(((await (await s.fetch(`/api/v1/webhooks/${hook.id}`, token)).json()) as { status: string }).status, "disabled");

    const redirect = await receiver([302, 302, 302, 302], { location: "http://127.0.0.1:1/" });
    const hook2 = await register(token, redirect.url, ["submission.created"]);
    const form2 = new FormData();
    form2.append("xml", new Blob([xml.toString().replace("<cbc:ID>Snippet1</cbc:ID>", "<cbc:ID>R-2</cbc:ID>")]), "b.xml");
    assert.equal((await s.fetch("/api/v1/submissions", token, { method: "POST", body: form2 })).status, 201);
    await s.app.webhooks!.runOnce();
    assert.equal(redirect.got.length, 1);
    // The schedule has three delays: after the fourth failed attempt the endpoint is disabled.
    for (let i = 0; i < 3; i++) {
      clock += 2 * 3_600_000;
      await s.app.webhooks!.runOnce();
    }
    assert.equal(redirect.got.length, 4);
    assert.equal(((await (await s.fetch(`/api/v1/webhooks/${hook2.id}`, token)).json()) as { status: string }).status, "disabled");
    await rx.close();
    await redirect.close();
  });

  test("a dead endpoint does not hold up another", async () => {
    const { token } = await s.token("two");
    const dead = await receiver([500, 500, 500, 500, 500]);
    const live = await receiver();
    await register(token, dead.url, ["document.created"]);
    await register(token, live.url, ["document.created"]);
    s.drop("two", "A.xml", xml);
    await s.sync(token);
    await s.app.webhooks!.runOnce();
    assert.equal(live.got.length, 1);
    assert.equal(dead.got.length, 1);
    await dead.close();
    await live.close();
  });
  test("a tenant has at most 50 endpoints and 5 with the same url; beyond, 422 names the limit", async () => {
    const { token } = await s.token("limits");
    const post = (url: string) => s.fetch("/api/v1/webhooks", token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url, events: ["*"] }) });
    const details = async (res: Response) => ((await res.json()) as { error: { details: Record<string, unknown> } }).error.details;
    for (let i = 0; i < 5; i++) assert.equal((await post("https://example.com/same")).status, 201);
    const same = await post("https://example.com/same");
    assert.equal(same.status, 422);
    assert.deepEqual(await details(same), { field: "url", issue: "too_many_webhooks_for_url", limit: 5 });
    const ids: string[] = [];
    for (let i = 5; i < 50; i++) ids.push(((await (await post(`https://example.com/${i}`)).json()) as { id: string }).id);
    const over = await post("https://example.com/one-more");
    assert.equal(over.status, 422);
    assert.deepEqual(await details(over), { field: "url", issue: "too_many_webhooks", limit: 50 });
    // A PATCH to a url that five endpoints already have is refused likewise; a DELETE makes room.
    const patch = await s.fetch(`/api/v1/webhooks/${ids[0]}`, token, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: "https://example.com/same" }) });
    assert.equal(patch.status, 422);
    assert.equal((await details(patch)).issue, "too_many_webhooks_for_url");
    assert.equal((await s.fetch(`/api/v1/webhooks/${ids[0]}`, token, { method: "DELETE" })).status, 204);
    assert.equal((await post("https://example.com/one-more")).status, 201);
  });
});

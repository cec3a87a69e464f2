/**
 * Webhooks you can see into (README “Webhooks”): the delivery state on the resource, the
 * deliveries list, retry-now and PATCH, driven through a real server with an
 * injected clock and a scripted transport, so every attempt is counted exactly.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import type { WebhookTransport } from "../../lib/jobs/webhooks/worker.ts";
import { createJsonLogger } from "../../lib/observe/log.ts";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";

type Body = any;
const UBL = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"), "utf8");
const SCHEDULE = [5_000, 60_000];

/** What the scripted transport does per URL: a status, or "down" for a network error. */
type Answer = number | "down";

describe("webhook delivery state, deliveries, retry-now and PATCH", () => {
  let s: TestServer;
  let clock = Date.UTC(2026, 10, 21, 12, 0, 0);
  const sent: { url: string; id: string; type: string; body: string; headers: Record<string, string> }[] = [];
  const answers = new Map<string, Answer>();
  const logs: Record<string, unknown>[] = [];
  const transport: WebhookTransport = async (req) => {
    const body = JSON.parse(req.body) as { type: string };
    sent.push({ url: req.url, id: req.headers["webhook-id"]!, type: body.type, body: req.body, headers: req.headers });
    const a = answers.get(req.url) ?? 200;
    if (a === "down") throw new Error("connect ECONNREFUSED 127.0.0.1:9");
    return { status: a, retryAfter: null };
  };
  let n = 0;

  before(async () => {
    s = await startServer({
      now: () => clock,
      logger: createJsonLogger("debug", (line) => void logs.push(JSON.parse(line) as Record<string, unknown>)),
      webhooks: { transport, schedule: SCHEDULE, allowPrivate: false, random: () => 0.5 },
    });
  });
  after(() => s.close());

  const post = (token: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    s.fetch(path, token, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const patch = (token: string, id: string, body: unknown) =>
    s.fetch(`/api/v1/webhooks/${id}`, token, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const get = async (token: string, path: string): Promise<Body> => {
    const res = await s.fetch(path, token);
    assert.equal(res.status, 200, path);
    return res.json();
  };

  async function register(token: string, url: string, events = ["submission.created"]): Promise<Body> {
    const res = await post(token, "/api/v1/webhooks", { url, events });
    assert.equal(res.status, 201, await res.clone().text());
    return res.json();
  }

  /** Uploads a new invoice (a submission.created event); returns its id. */
  async function submit(token: string): Promise<string> {
    const form = new FormData();
    form.append("xml", new Blob([UBL.replace("<cbc:ID>Snippet1</cbc:ID>", `<cbc:ID>D-${++n}</cbc:ID>`)]), "a.xml");
    const res = await s.fetch("/api/v1/submissions", token, { method: "POST", body: form });
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { id: string }).id;
  }

  const to = (url: string) => sent.filter((d) => d.url === url);

  test("a failing endpoint shows its last error and consecutive failures, and its deliveries list grows", async () => {
    const { token } = await s.token("failing");
    const url = "https://failing.example/hook";
    answers.set(url, 500);
    const hook = await register(token, url);
    assert.equal(hook.consecutive_failures, 0);
    assert.equal(hook.last_attempt_at, null);
    await submit(token);
    await s.app.webhooks!.runOnce();
    let w = await get(token, `/api/v1/webhooks/${hook.id}`);
    assert.equal(w.consecutive_failures, 1);
    assert.deepEqual(w.last_error, { status: 500, message: "HTTP 500" });
    assert.equal(w.last_attempt_at, new Date(clock).toISOString());
    assert.equal(w.last_success_at, null);
    assert.equal(w.next_attempt_at, new Date(clock + 5_000).toISOString()); // 5 s, jitter 0 at random 0.5
    const first = await get(token, `/api/v1/webhooks/${hook.id}/deliveries`);
    assert.equal(first.data.length, 1);
    assert.deepEqual({ ...first.data[0], duration_ms: 0 }, {
      event_id: to(url)[0]!.id, type: "submission.created", attempt: 1, manual: false, attempted_at: new Date(clock).toISOString(),
      status_code: 500, duration_ms: 0, error: "HTTP 500",
    });
    assert.equal(first.has_more, false);

    answers.set(url, "down");
    clock += 6_000;
    await s.app.webhooks!.runOnce();
    w = await get(token, `/api/v1/webhooks/${hook.id}`);
    assert.equal(w.consecutive_failures, 2);
    assert.equal(w.last_error.status, null);
    assert.match(w.last_error.message, /ECONNREFUSED/);
    // Only what happened since: the stored cursor gives the second attempt alone.
    const since = await get(token, `/api/v1/webhooks/${hook.id}/deliveries?cursor=${first.next_cursor}`);
    assert.deepEqual(since.data.map((a: Body) => [a.attempt, a.status_code]), [[2, null]]);
    assert.equal((await get(token, `/api/v1/webhooks/${hook.id}/deliveries`)).data.length, 2);
    // Logged at warn with the endpoint and the event, never the secret.
    const warns = logs.filter((l) => l.msg === "webhook delivery failed" && l.webhook === hook.id);
    assert.equal(warns.length, 2);
    assert.ok(warns.every((l) => l.level === "warn" && l.event === to(url)[0]!.id));
    assert.ok(!JSON.stringify(logs).includes(hook.secret.slice("whsec_".length)), "the secret is never logged");

    answers.set(url, 200);
    clock += 61_000;
    await s.app.webhooks!.runOnce();
    w = await get(token, `/api/v1/webhooks/${hook.id}`);
    assert.equal(w.consecutive_failures, 0);
    assert.equal(w.last_error, null);
    assert.equal(w.last_success_at, new Date(clock).toISOString());
    assert.equal(w.next_attempt_at, null);
  });

  test("retry-now sends the event once more, once per idempotency key, outside the schedule", async () => {
    const { token } = await s.token("retry");
    const url = "https://retry.example/hook";
    const hook = await register(token, url);
    await submit(token);
    await s.app.webhooks!.runOnce();
    assert.equal(to(url).length, 1);
    const evt = to(url)[0]!.id;
    const key = crypto.randomUUID();
    const path = `/api/v1/webhooks/${hook.id}/deliveries/${evt}/retry`;
    const res = await post(token, path, undefined, { "idempotency-key": key });
    assert.equal(res.status, 202, await res.clone().text());
    assert.deepEqual(await res.json(), { webhook_id: hook.id, event_id: evt, status: "queued", requested_at: new Date(clock).toISOString() });
    const again = await post(token, path, undefined, { "idempotency-key": key });
    assert.equal(again.status, 202);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    await s.app.webhooks!.runOnce();
    await s.app.webhooks!.runOnce();
    assert.deepEqual(to(url).map((d) => d.id), [evt, evt], "sent once more, and only once");
    assert.notEqual(to(url)[1]!.headers["webhook-signature"], undefined);
    const log = await get(token, `/api/v1/webhooks/${hook.id}/deliveries`);
    assert.deepEqual(log.data.map((a: Body) => [a.event_id, a.attempt, a.manual, a.status_code]), [[evt, 1, false, 200], [evt, 1, true, 200]]);
    // An event never delivered to this endpoint, another tenant's endpoint: 404.
    const unknown = await post(token, `/api/v1/webhooks/${hook.id}/deliveries/evt_00000000000000000000000000/retry`, undefined);
    assert.equal(unknown.status, 404);
    const other = await s.token("someone-else");
    assert.equal((await post(other.token, path, undefined)).status, 404);
    assert.equal((await s.fetch(`/api/v1/webhooks/${hook.id}/deliveries`, other.token)).status, 404);
  });

  test("re-enabling a disabled endpoint resumes where it stopped, without gaps or duplicates", async () => {
    const { token } = await s.token("resume");
    const url = "https://resume.example/hook";
    answers.set(url, 503);
    const hook = await register(token, url);
    const subs = [await submit(token)];
    await s.app.webhooks!.runOnce(); // attempt 1 of the first event fails
    for (const delay of SCHEDULE) {
      clock += delay * 1.2;
      await s.app.webhooks!.runOnce();
    }
    let w = await get(token, `/api/v1/webhooks/${hook.id}`);
    assert.equal(w.status, "disabled");
    assert.equal(w.consecutive_failures, 3);
    assert.equal(w.next_attempt_at, null);
    const disabled = logs.filter((l) => l.msg === "webhook disabled" && l.webhook === hook.id);
    assert.equal(disabled.length, 1);
    assert.equal(disabled[0]!.level, "error");
    assert.equal(disabled[0]!.event, to(url)[0]!.id);
    // While disabled, nothing is sent; two more events happen.
    subs.push(await submit(token), await submit(token));
    clock += 3_600_000;
    await s.app.webhooks!.runOnce();
    assert.equal(to(url).length, 3);

    answers.set(url, 200);
    const res = await patch(token, hook.id, { status: "enabled" });
    assert.equal(res.status, 200);
    w = await res.json();
    assert.equal(w.status, "enabled");
    assert.equal(w.next_attempt_at, new Date(clock).toISOString());
    await s.app.webhooks!.runOnce();
    await s.app.webhooks!.runOnce();
    const delivered = to(url).slice(3);
    assert.deepEqual(delivered.map((d) => (JSON.parse(d.body) as { data: { id: string } }).data.id), subs, "every event once, in order");
    assert.equal(new Set(delivered.map((d) => d.id)).size, 3);
    assert.equal(delivered[0]!.id, to(url)[0]!.id, "the event that failed is the first one resumed");
    w = await get(token, `/api/v1/webhooks/${hook.id}`);
    assert.equal(w.consecutive_failures, 0);
    assert.equal(w.next_attempt_at, null);
  });

  test("PATCH changes url, events, description and status, validated as on POST", async () => {
    const { token } = await s.token("patch");
    const hook = await register(token, "https://patch.example/a");
    const ok = await patch(token, hook.id, { url: "https://patch.example/b", events: ["*"], description: "b", status: "disabled" });
    assert.equal(ok.status, 200);
    const w = (await ok.json()) as Body;
    assert.deepEqual([w.url, w.events, w.description, w.status, w.secret], ["https://patch.example/b", ["*"], "b", "disabled", undefined]);
    assert.equal((await get(token, `/api/v1/webhooks/${hook.id}`)).url, "https://patch.example/b");
    for (const [body, field] of [
      [{ url: "ftp://x.example/" }, "url"], [{ url: "http://x.example/" }, "url"], [{ events: ["document.deleted"] }, "events"],
      [{ description: 5 }, "description"], [{ status: "deleted" }, "status"],
    ] as const) {
      const res = await patch(token, hook.id, body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(((await res.json()) as Body).error.details.field, field);
    }
    const readOnly = (await s.token("patch", ["webhooks:read"])).token;
    assert.equal((await patch(readOnly, hook.id, { status: "enabled" })).status, 403);
    assert.equal((await post(readOnly, `/api/v1/webhooks/${hook.id}/deliveries/evt_00000000000000000000000000/retry`, undefined)).status, 403);
    assert.equal((await s.fetch(`/api/v1/webhooks/${hook.id}/deliveries`, readOnly)).status, 200);
    assert.equal((await patch(token, "whk_00000000000000000000000000", { status: "enabled" })).status, 404);
  });
});

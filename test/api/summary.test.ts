/**
 * `GET /api/v1/summary` (README "Summary") through a real server on every store: a part per scope, 403 with none;
 * counts by status and mode, offline deadlines, per_hour and per_day buckets under an injected clock; the same
 * counts after a restart of the file store; the answer checked against the OpenAPI document; and its cost: the
 * store calls it makes are the same with 3 documents as with 60, and it never reads a document or submission record.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Storage, SubmissionKsef, TenantStore } from "../../lib/contracts/storage.ts";
import { validate, type Schema } from "../support/json_schema.ts";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";
import { STORES } from "../support/stores.ts";

type Json = Record<string, unknown>;
const SAMPLE = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_Przyklad_4_EUR.xml"), "utf8");
const invoiceXml = (number: string): Uint8Array => new TextEncoder().encode(SAMPLE.replace(/<P_2>[^<]*<\/P_2>/, `<P_2>${number}</P_2>`));
const UBL = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"), "utf8");
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The server's clock, moved by the tests. */
let clock = Date.parse("2026-11-20T10:30:00.000Z");

function upload(s: TestServer, token: string, bytes: Uint8Array): Promise<Response> {
  const form = new FormData();
  form.append("xml", new Blob([new Uint8Array(bytes)], { type: "application/xml" }), "invoice.xml");
  return s.fetch("/api/v1/submissions", token, { method: "POST", body: form });
}

async function summary(s: TestServer, token: string): Promise<Json> {
  const res = await s.fetch("/api/v1/summary", token);
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text) as Json;
}

/** A storage whose tenant stores count every call by method name. */
function countingStorage(inner: Storage, calls: Map<string, number>): Storage {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const own = Reflect.get(target, prop, receiver) as unknown;
      if (prop !== "tenant") return typeof own === "function" ? (own as (...a: unknown[]) => unknown).bind(target) : own;
      return (id: string): TenantStore => new Proxy(target.tenant(id), {
        get(t, p) {
          const v = Reflect.get(t, p, t) as unknown;
          if (typeof v !== "function") return v;
          return (...args: unknown[]) => {
            calls.set(String(p), (calls.get(String(p)) ?? 0) + 1);
            return (v as (...a: unknown[]) => unknown).apply(t, args);
          };
        },
      });
    },
  });
}

for (const store of STORES) {
  describe(`GET /api/v1/summary${store.label}`, () => {
    let s: TestServer;
    const calls = new Map<string, number>();
    before(async () => {
      s = await startServer({
        storage: store, now: () => clock, wrapStorage: (inner) => countingStorage(inner, calls),
        ksefSend: { sends: (tenant) => tenant === "acme", wake: () => {} },
      });
    });
    after(() => s.close());

    test("a token gets the parts of its scopes, and 403 FORBIDDEN with none of them", async () => {
      const docsOnly = (await s.token("scopes", ["documents:read"])).token;
      assert.deepEqual(Object.keys(await summary(s, docsOnly)), ["documents"]);
      const subsHooks = (await s.token("scopes", ["submissions:read", "webhooks:read"])).token;
      assert.deepEqual(Object.keys(await summary(s, subsHooks)), ["submissions", "webhooks"]);
      const writer = (await s.token("scopes", ["documents:write", "submissions:write"])).token;
      const res = await s.fetch("/api/v1/summary", writer);
      assert.equal(res.status, 403);
      const body = (await res.json()) as { error: { code: string; details: { any_of: string[] } } };
      assert.equal(body.error.code, "FORBIDDEN");
      assert.deepEqual(body.error.details.any_of, ["submissions:read", "documents:read", "webhooks:read"]);
      assert.equal((await s.fetch("/api/v1/summary", null)).status, 401);
    });

    test("submissions count by status and mode, per hour over 48 hours, oldest first", async () => {
      clock = Date.parse("2026-11-20T10:30:00.000Z");
      const token = (await s.token("acme")).token;
      const ids: string[] = [];
      for (const n of ["S/1", "S/2", "S/3"]) {
        const res = await upload(s, token, invoiceXml(n));
        assert.equal(res.status, 201, await res.clone().text());
        ids.push(((await res.json()) as { id: string }).id);
      }
      // Not sent: a tenant that does not send.
      const other = (await s.token("plain")).token;
      assert.equal((await upload(s, other, new TextEncoder().encode(UBL))).status, 201);
      clock += 2 * HOUR; // 12:30
      const tenant = s.storage.tenant("acme");
      const base = (await tenant.getSubmission(ids[0]!))!.record.ksef!;
      const at = new Date(clock).toISOString();
      const state = (over: Partial<SubmissionKsef>): SubmissionKsef => ({ ...base, updated_at: at, ...over });
      await tenant.saveSubmissionKsef(ids[0]!, state({ status: "accepted", ksef_number: null, session: "S-1", session_type: "online" }));
      await tenant.saveSubmissionKsef(ids[1]!, state({ status: "rejected", error: { code: "KSEF_450", message: "no", details: [] } }));
      await tenant.saveSubmissionKsef(ids[2]!, state({ status: "sending", session: "20261120-SO-1", session_type: "batch" }));

      const body = await summary(s, token);
      const subs = body.submissions as Json;
      assert.deepEqual(subs.by_status, { queued: 0, sending: 1, accepted: 1, rejected: 1, not_sent: 0 });
      assert.deepEqual(subs.by_mode, { online: 3, offline: 0 });
      const perHour = subs.per_hour as { hour: string; received: number; accepted: number; rejected: number }[];
      assert.equal(perHour.length, 48);
      assert.equal(perHour[47]!.hour, "2026-11-20T12:00:00.000Z");
      assert.equal(perHour[0]!.hour, "2026-11-18T13:00:00.000Z");
      assert.deepEqual(perHour[45], { hour: "2026-11-20T10:00:00.000Z", received: 3, accepted: 0, rejected: 0 });
      assert.deepEqual(perHour[47], { hour: "2026-11-20T12:00:00.000Z", received: 0, accepted: 1, rejected: 1 });
      assert.equal(perHour.reduce((a, h) => a + h.received, 0), 3);
      assert.deepEqual(subs.ksef_sessions, [{ type: "batch", reference: "20261120-SO-1", opened_at: at, invoices: 1 }]);
      const plain = (await summary(s, other)).submissions as Json;
      assert.deepEqual(plain.by_status, { queued: 0, sending: 0, accepted: 0, rejected: 0, not_sent: 1 });

      // 47 hours later the uploads' hour has left the window; the verdicts' hour is the oldest in it.
      clock += 47 * HOUR;
      const later = (await summary(s, token)).submissions as Json;
      const laterHours = later.per_hour as { hour: string; received: number; accepted: number }[];
      assert.equal(laterHours.reduce((a, h) => a + h.received, 0), 0);
      assert.equal(laterHours[0]!.hour, "2026-11-20T12:00:00.000Z");
      assert.equal(laterHours[0]!.accepted, 1);
      assert.deepEqual(later.by_status, subs.by_status, "the totals stay");
    });

    test("offline submissions KSeF has not accepted count as overdue or near by their deadline", async () => {
      clock = Date.parse("2026-11-25T12:00:00.000Z");
      const token = (await s.token("offline")).token;
      const tenant = s.storage.tenant("offline");
      const made: string[] = [];
      for (const n of ["O/1", "O/2", "O/3"]) {
        const r = await tenant.createSubmission({
          fields: { type: "invoice", format: "ksef-fa3", number: n, issue_date: "2026-11-24", currency: "PLN", seller: { name: "S", tax_id: "5451824119" }, buyer: null, totals: null },
          xml: await tenant.putBlob(invoiceXml(n)), send: true, issue: { mode: "offline", deadline: n === "O/1" ? "2026-11-24" : n === "O/2" ? "2026-11-25" : "2026-11-30" },
        }, new Date(clock).toISOString());
        assert.ok("created" in r);
        made.push(r.created.id);
      }
      let subs = (await summary(s, token)).submissions as Json;
      assert.equal(subs.offline_overdue, 1, "the deadline of 24 November has ended");
      assert.equal(subs.offline_deadline_near, 1, "25 November ends (23:00 UTC, midnight in Warsaw) within 12 hours of 12:00 UTC");
      assert.deepEqual(subs.by_mode, { online: 0, offline: 3 });
      const k = (await tenant.getSubmission(made[0]!))!.record.ksef!;
      await tenant.saveSubmissionKsef(made[0]!, { ...k, status: "accepted", updated_at: new Date(clock).toISOString() });
      subs = (await summary(s, token)).submissions as Json;
      assert.equal(subs.offline_overdue, 0, "accepted late is no longer open");
    });

    test("documents count total, XML missing, and per day over 30 days; sources show their last run", async () => {
      clock = Date.parse("2026-11-10T08:00:00.000Z");
      const token = (await s.token("docs")).token;
      s.drop("docs", "a.xml", invoiceXml("D/1"));
      s.drop("docs", "b.json", JSON.stringify({ number: "D/2" }));
      await s.sync(token);
      clock += 3 * DAY;
      s.drop("docs", "c.xml", invoiceXml("D/3"));
      const run = await s.sync(token);
      const docs = (await summary(s, token)).documents as Json;
      assert.equal(docs.total, 3);
      assert.equal(docs.xml_missing, 1);
      assert.equal(docs.invalid, 0);
      const perDay = docs.per_day as { day: string; synced: number }[];
      assert.equal(perDay.length, 30);
      assert.equal(perDay[29]!.day, "2026-11-13");
      assert.equal(perDay[26]!.day, "2026-11-10");
      assert.equal(perDay[26]!.synced, 2);
      assert.equal(perDay[29]!.synced, 1);
      assert.deepEqual(docs.sources, [{ source: "inbox", type: "inbox", last_run: run }]);
      // b arrives with its XML: the document moves to the day of that sync, and is no longer missing its XML.
      s.drop("docs", "b.xml", invoiceXml("D/2"));
      await s.sync(token);
      const again = (await summary(s, token)).documents as Json;
      assert.equal(again.xml_missing, 0);
      assert.deepEqual((again.per_day as { synced: number }[]).slice(26).map((d) => d.synced), [1, 0, 0, 2]);
    });

    test("documents whose XML fails validation count as invalid, as their validation says, until a valid version arrives", async () => {
      const token = (await s.token("judged")).token;
      const tooLong = new TextEncoder().encode(SAMPLE.replace(/<P_2>[^<]*<\/P_2>/, `<P_2>${"9".repeat(300)}</P_2>`)); // P_2 allows 256
      s.drop("judged", "bad.xml", tooLong);
      s.drop("judged", "good.xml", invoiceXml("J/1"));
      await s.sync(token);
      assert.equal(((await summary(s, token)).documents as Json).invalid, 1);
      const list = (await (await s.fetch("/api/v1/documents?limit=10", token)).json()) as { data: { id: string; external_id: string }[] };
      for (const d of list.data) {
        const one = (await (await s.fetch(`/api/v1/documents/${d.id}`, token)).json()) as { validation: { valid: boolean } };
        assert.equal(one.validation.valid, d.external_id !== "bad", `${d.external_id}: the count agrees with the document's validation`);
      }
      s.drop("judged", "bad.xml", invoiceXml("J/2"));
      await s.sync(token);
      assert.equal(((await summary(s, token)).documents as Json).invalid, 0, "the fixed XML replaced the invalid one");
    });

    test("webhook endpoints show their health", async () => {
      const token = (await s.token("hooks")).token;
      const res = await s.fetch("/api/v1/webhooks", token, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: "https://example.com/hook", events: ["*"] }),
      });
      assert.equal(res.status, 201);
      const id = ((await res.json()) as { id: string }).id;
      assert.deepEqual((await summary(s, token)).webhooks, [{ id, url: "https://example.com/hook", status: "enabled", consecutive_failures: 0, last_error: null, next_attempt_at: null }]);
    });

    test("the answer matches the OpenAPI document's Summary schema", async () => {
      const doc = (await (await s.fetch("/api/v1/openapi.json", null)).json()) as Json;
      const schema = ((doc.components as Json).schemas as Json).Summary as Schema;
      for (const tenant of ["acme", "docs", "hooks", "offline"]) {
        const body = await summary(s, (await s.token(tenant)).token);
        assert.deepEqual(validate(schema, body, doc), [], tenant);
      }
    });

    test("its store calls do not grow with the documents, and it reads no document or submission", async () => {
      clock = Date.parse("2026-11-15T08:00:00.000Z");
      const token = (await s.token("cost")).token;
      s.drop("cost", "x0.xml", invoiceXml("C/0"));
      await s.sync(token);
      const measure = async (): Promise<Map<string, number>> => {
        calls.clear();
        await summary(s, token);
        return new Map(calls);
      };
      const small = await measure();
      // 59 more documents, through the store (a sync would take long on the shared machine).
      const tenant = s.storage.tenant("cost");
      const fields = { type: "invoice" as const, format: "ksef-fa3" as const, number: null, issue_date: null, currency: null, seller: null, buyer: null, totals: null };
      await tenant.upsertDocuments(Array.from({ length: 59 }, (_, i) => ({ source: "inbox", external_id: `m${i}`, fields, xml: null, received_at: null })), new Date(clock).toISOString());
      const large = await measure();
      assert.deepEqual([...large].sort(), [...small].sort());
      for (const reads of ["getDocument", "documentChanges", "documentPage", "getSubmission", "submissionChanges", "rawChanges"]) {
        assert.equal(large.get(reads), undefined, `${reads} is not called`);
      }
      assert.equal(((await summary(s, token)).documents as Json).total, 60);
    });
  });
}

describe("GET /api/v1/summary after a restart of the file store", () => {
  test("the counters are derived again from what was written", async () => {
    clock = Date.parse("2026-11-20T10:30:00.000Z");
    const dataDir = mkdtempSync(join(tmpdir(), "summary-restart-"));
    try {
      const first = await startServer({ now: () => clock, dataDir, ksefSend: { sends: () => true, wake: () => {} } });
      let before: Json;
      try {
        const token = (await first.token("acme")).token;
        first.drop("acme", "a.xml", invoiceXml("R/1"));
        first.drop("acme", "b.json", JSON.stringify({ number: "R/2" }));
        await first.sync(token);
        assert.equal((await upload(first, token, invoiceXml("R/3"))).status, 201);
        before = await summary(first, token);
      } finally {
        await first.close();
      }
      const second = await startServer({ now: () => clock, dataDir });
      try {
        const afterRestart = await summary(second, (await second.token("acme")).token);
        assert.deepEqual(afterRestart, before);
        assert.equal((afterRestart.documents as Json).total, 2);
        assert.equal(((afterRestart.submissions as Json).by_status as Json).queued, 1);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/**
 * Sending submissions to KSeF end to end (README "Sending to KSeF"): through the HTTP API of a real server, the
 * sender job and the simulator's online-session side.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { isKsefNumber } from "../../../../lib/formats/invoice/ksef_number.ts";
import { fixturePath } from "../../../support/server.ts";
import { fa3, receiver, sendSetup, type SendSetup } from "./send_setup.ts";

const sha = (b: Uint8Array): string => createHash("sha256").update(b).digest("base64");

describe("sending submissions to KSeF", () => {
  let s: SendSetup;
  before(async () => {
    s = await sendSetup();
  });
  after(() => s.close());

  test("an FA invoice is queued, sent, accepted with its KSeF number, and its UPO is served byte for byte", async () => {
    const xml = fa3("SEND/1");
    const created = await s.upload("acme", xml);
    const ksef = created.ksef as Record<string, unknown>;
    assert.equal(ksef.status, "queued");
    assert.equal(created.ksef_number, null);
    const upoBefore = await s.server.fetch(`/api/v1/submissions/${created.id}/upo`, s.tokens.acme);
    assert.equal(upoBefore.status, 404);
    assert.equal(((await upoBefore.json()) as { error: { code: string } }).error.code, "UPO_NOT_AVAILABLE");
    const pdfBefore = Buffer.from(await (await s.server.fetch(`/api/v1/submissions/${created.id}/pdf`, s.tokens.acme)).arrayBuffer());
    await s.settle();
    const sub = await s.get("acme", String(created.id));
    const k = sub.ksef as Record<string, unknown>;
    assert.equal(k.status, "accepted");
    assert.ok(isKsefNumber(String(k.ksef_number)), String(k.ksef_number));
    assert.equal(sub.ksef_number, k.ksef_number);
    assert.equal(k.attempts, 1);
    assert.equal(k.error, null);
    assert.match(String(k.acquired_at), /Z$/);
    const received = s.online.invoices.find((i) => i.ksefNumber === k.ksef_number)!;
    assert.equal(k.session, received.session);
    assert.equal(k.reference, received.reference);
    assert.deepEqual(Buffer.from(received.xml), Buffer.from(xml), "KSeF received the uploaded bytes");
    assert.equal((sub.links as Record<string, unknown>).upo, `/api/v1/submissions/${created.id}/upo`);
    const upo = await s.server.fetch(`/api/v1/submissions/${created.id}/upo`, s.tokens.acme);
    assert.equal(upo.status, 200);
    assert.match(upo.headers.get("content-type")!, /^application\/xml/);
    assert.deepEqual(Buffer.from(await upo.arrayBuffer()), Buffer.from(received.upo!), "the UPO as KSeF issued it");
    // The rendering of an accepted submission carries its KSeF number (the PDF tests read it back with pdftotext).
    const pdf = Buffer.from(await (await s.server.fetch(`/api/v1/submissions/${created.id}/pdf`, s.tokens.acme)).arrayBuffer());
    assert.ok(pdf.length > 1000);
    assert.notDeepEqual(pdf, pdfBefore, "rendered again with the KSeF number");
  });

  test("what one tenant sent as seller comes back to the buyer's tenant through KSeF's export, byte for byte", async () => {
    const xml = fa3("ROUNDTRIP/1");
    const created = await s.upload("acme", xml);
    await s.settle();
    const number = ((await s.get("acme", String(created.id))).ksef as Record<string, unknown>).ksef_number;
    const run = await s.server.sync(s.tokens.buyer);
    assert.equal(run.status, "succeeded", JSON.stringify(run));
    const docs = ((await (await s.server.fetch(`/api/v1/documents?ksef_number=${number}`, s.tokens.buyer)).json()) as { data: Record<string, unknown>[] }).data;
    assert.equal(docs.length, 1);
    const back = await s.server.fetch(`/api/v1/documents/${docs[0]!.id}/xml`, s.tokens.buyer);
    assert.deepEqual(Buffer.from(await back.arrayBuffer()), Buffer.from(xml));
  });

  test("a burst of 30 goes out in at most 2 sessions, each invoice once and in acceptance order", async () => {
    const before = { send: s.online.calls.send ?? 0, open: s.online.calls.open ?? 0 };
    const ids: string[] = [];
    const sent: string[] = [];
    for (let i = 0; i < 30; i++) {
      const xml = fa3(`BURST/${i}`);
      sent.push(sha(xml));
      ids.push(String((await s.upload("acme", xml)).id));
    }
    await s.settle();
    assert.equal((s.online.calls.send ?? 0) - before.send, 30);
    assert.ok((s.online.calls.open ?? 0) - before.open <= 2);
    const got = s.online.invoices.slice(-30).map((i) => sha(i.xml));
    assert.deepEqual(got, sent, "each once, in the order they were accepted");
    for (const id of ids) assert.equal(((await s.get("acme", id)).ksef as { status: string }).status, "accepted");
  });

  test("5xx answers are retried: the invoice is accepted once", async () => {
    s.online.failNext(2, 503);
    const created = await s.upload("acme", fa3("RETRY/1"));
    await s.settle();
    const k = (await s.get("acme", String(created.id))).ksef as Record<string, unknown>;
    assert.equal(k.status, "accepted");
    assert.equal(s.online.invoices.filter((i) => i.invoiceNumber === "RETRY/1").length, 1);
  });

  test("a 429 is waited out per Retry-After", async () => {
    s.online.failNext(1, 429, 1);
    const created = await s.upload("acme", fa3("THROTTLED/1"));
    await s.settle();
    assert.equal(((await s.get("acme", String(created.id))).ksef as Record<string, unknown>).status, "accepted");
  });

  // Few passes on purpose: each waits for the tenant's backoff (`due()`), so one after the outage is enough; a
  // `due()` that returned early would spend them all before the backoff ended.
  test("an outage leaves submissions queued or sending, never rejected, and they go out once KSeF is back", async () => {
    s.online.failNext(1000, 503);
    const created = await s.upload("acme", fa3("OUTAGE/1"));
    await s.sender.passNow();
    const during = (await s.get("acme", String(created.id))).ksef as Record<string, unknown>;
    assert.ok(during.status === "queued" || during.status === "sending", String(during.status));
    s.online.failNext(0, 503);
    await s.settle(5);
    assert.equal(((await s.get("acme", String(created.id))).ksef as Record<string, unknown>).status, "accepted");
  });

  test("KSeF's duplicate (440): the same content is the original acceptance, other content is rejected, with webhooks", async () => {
    const rx = await receiver();
    const hook = await s.server.fetch("/api/v1/webhooks", s.tokens.beta, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: rx.url, events: ["submission.ksef_accepted", "submission.ksef_rejected"] }),
    });
    assert.equal(hook.status, 201);
    const xml = fa3("DUP/1");
    const first = await s.upload("acme", xml);
    await s.settle();
    const original = ((await s.get("acme", String(first.id))).ksef as Record<string, unknown>).ksef_number;
    // The same bytes from another tenant of the same NIP: as a resend after a crash would be.
    const same = await s.upload("beta", xml);
    const other = await s.upload("beta", fa3("DUP/1", "<!-- changed -->"), "other.xml").catch(() => null);
    assert.equal(other, null, "our own duplicate check refuses the same number within a tenant");
    await s.settle();
    const k = (await s.get("beta", String(same.id))).ksef as Record<string, unknown>;
    assert.equal(k.status, "accepted");
    assert.equal(k.ksef_number, original);
    const upo = await s.server.fetch(`/api/v1/submissions/${same.id}/upo`, s.tokens.beta);
    assert.equal(upo.status, 200);
    // Different content under the same seller, kind and number: rejected with KSeF's 440.
    const third = await s.upload("plain", fa3("DUP/1", "<!-- other -->"));
    assert.equal(third.ksef, null, "plain does not send");
    const changed = fa3("DUP/2");
    await s.upload("acme", changed);
    const clash = await s.upload("beta", fa3("DUP/2", "<!-- different -->"));
    await s.settle();
    const r = (await s.get("beta", String(clash.id))).ksef as Record<string, { code: string; details: string[] } | string>;
    assert.equal(r.status, "rejected");
    assert.equal((r.error as { code: string }).code, "KSEF_440");
    assert.ok((r.error as { details: string[] }).details.some((d) => d.startsWith("originalKsefNumber: ")));
    await s.server.app.webhooks!.runOnce();
    assert.deepEqual(rx.types().sort(), ["submission.ksef_accepted", "submission.ksef_rejected"]);
    const rejected = rx.bodies.find((b) => b.type === "submission.ksef_rejected")!.data as Record<string, unknown>;
    assert.equal(rejected.id, clash.id);
    await rx.close();
  });

  test("a tenant without send, and a UBL invoice, are never sent: ksef is null", async () => {
    const calls = s.online.calls.send ?? 0;
    const plain = await s.upload("plain", fa3("PLAIN/1"));
    assert.equal(plain.ksef, null);
    const ubl = await s.upload("acme", readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml")));
    assert.equal(ubl.ksef, null);
    await s.settle();
    assert.equal(s.online.calls.send ?? 0, calls);
    assert.equal(((await s.get("acme", String(ubl.id))).links as Record<string, unknown>).upo, null);
    const upo = await s.server.fetch(`/api/v1/submissions/${ubl.id}/upo`, s.tokens.acme);
    assert.equal(((await upo.json()) as { error: { code: string } }).error.code, "UPO_NOT_AVAILABLE");
  });

  test("the feed is ordered by last change and filters by ksef_status, format and type", async () => {
    const a = await s.upload("acme", fa3("FEED/A"));
    const b = await s.upload("acme", fa3("FEED/B"));
    const page = async (q: string) => ((await (await s.server.fetch(`/api/v1/submissions?limit=500${q}`, s.tokens.acme)).json()) as { data: Record<string, unknown>[] }).data;
    const queued = (await page("&ksef_status=queued")).map((x) => x.id);
    assert.deepEqual(queued, [a.id, b.id]);
    await s.settle();
    const all = await page("");
    // Their outcomes arrive in the order KSeF answers the concurrent status lookups, so either may be last.
    assert.deepEqual(all.slice(-2).map((x) => x.id).sort(), [a.id, b.id].sort(), "accepted ones moved to the end of the feed");
    assert.equal(new Set(all.map((x) => x.id)).size, all.length, "each listed once");
    assert.deepEqual(await page("&ksef_status=queued"), []);
    assert.ok((await page("&ksef_status=accepted")).length >= 2);
    assert.ok((await page("&format=ubl")).every((x) => x.format === "ubl"));
    assert.ok((await page("&type=invoice")).every((x) => x.type === "invoice"));
    const bad = await s.server.fetch("/api/v1/submissions?ksef_status=lost", s.tokens.acme);
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { error: { details: { field: string } } }).error.details.field, "ksef_status");
  });
});

test("a token without InvoiceWrite leaves submissions queued, never rejected", async () => {
  const s = await sendSetup({}, {}, ["InvoiceRead"]);
  try {
    const created = await s.upload("acme", fa3("NOWRITE/1"));
    await s.sender.passNow();
    await s.sender.passNow();
    const k = (await s.get("acme", String(created.id))).ksef as Record<string, unknown>;
    assert.equal(k.status, "queued");
    assert.equal(s.online.invoices.length, 0);
  } finally {
    await s.close();
  }
});

test("a session is closed at its per-session limit, and once idle", async () => {
  const s = await sendSetup({}, { maxInvoices: 20 });
  try {
    for (let i = 0; i < 30; i++) await s.upload("acme", fa3(`LIMIT/${i}`));
    await s.settle();
    assert.equal(s.sender.sessionsOpened("acme"), 2);
    const sessions = [...s.online.sessions.values()];
    assert.deepEqual(sessions.map((x) => x.count), [20, 10]);
    assert.deepEqual(sessions.map((x) => x.open), [false, true], "the full one closed, the second still in use");
  } finally {
    await s.close();
  }
  const idle = await sendSetup({}, { idleMs: 0 });
  try {
    await idle.upload("acme", fa3("IDLE/1"));
    await idle.settle();
    await idle.sender.passNow();
    assert.deepEqual([...idle.online.sessions.values()].map((x) => x.open), [false], "closed once it had no invoices to send");
  } finally {
    await idle.close();
  }
});

test("a withdrawn encryption key (21470) fetches the certificates again and opens the session with the new key", async () => {
  const s = await sendSetup({}, { maxInvoices: 1 });
  try {
    await s.upload("acme", fa3("ROTATE/1"));
    await s.settle();
    const fetches = s.sim.stats.certificateFetches;
    s.sim.rotateKeys(); // the sender still holds the certificate of the withdrawn key
    const second = await s.upload("acme", fa3("ROTATE/2"));
    await s.settle();
    const k = (await s.get("acme", String(second.id))).ksef as Record<string, unknown>;
    assert.equal(k.status, "accepted");
    assert.equal(s.sender.sessionsOpened("acme"), 2);
    assert.equal(s.sim.stats.certificateFetches, fetches + 1, "fetched once more, after the 21470");
    const refused = s.sim.log.filter((e) => e.path === "/sessions/online" && e.status === 400);
    assert.equal(refused.length, 1, "one open refused for the withdrawn key");
    assert.match(JSON.stringify(refused[0]!.body), /21470/);
  } finally {
    await s.close();
  }
});

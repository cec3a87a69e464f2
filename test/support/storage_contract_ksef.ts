/**
 * The storage contract's part for sending submissions to KSeF (README "Sending to KSeF"): the `ksef` state of a
 * submission, the send queue in acceptance order, the feed ordered by last change and its filters, and the state
 * surviving a reopen. Registered by storageContract() in storage_contract.ts, so an adapter runs it with the rest.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import type { Storage, SubmissionKsef, TenantStore } from "../../lib/contracts/storage.ts";
import { fields } from "./storage_contract.ts";

const dec = new TextDecoder();
const parse = (b: Uint8Array): Record<string, unknown> => JSON.parse(dec.decode(b)) as Record<string, unknown>;
const at = (n: number): string => new Date(Date.UTC(2026, 10, 1, 0, 0, n)).toISOString();

async function submit(t: TenantStore, n: string, send: boolean, format: "ksef-fa3" | "ubl" = "ksef-fa3"): Promise<string> {
  const bytes = new TextEncoder().encode(`<x n="${n}"/>`);
  const xml = { sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length };
  const r = await t.createSubmission({ fields: fields({ number: n, format, type: "invoice" }), xml, send }, at(1));
  assert.ok("created" in r);
  return r.created.id;
}

function state(over: Partial<SubmissionKsef>): SubmissionKsef {
  return { status: "sending", ksef_number: null, acquired_at: null, session: null, reference: null, attempts: 1, error: null, updated_at: at(5), ...over };
}

/** Registers the send-queue contract tests for a storage made by `make`; `reopen` opens the same data again, when it persists. */
export function ksefSendContract(name: string, make: () => Promise<Storage>, reopen?: (s: Storage) => Promise<Storage>): void {
  describe(`storage contract, sending to KSeF: ${name}`, () => {
    test("a sent submission starts queued, one that is not sent has ksef null", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const sent = parse((await t.getSubmission(await submit(t, "A", true)))!.json);
      assert.deepEqual(sent.ksef, {
        status: "queued", ksef_number: null, acquired_at: null, session: null, session_type: null, reference: null, attempts: 0, error: null, updated_at: at(1),
        mode: "online", invoicing_mode: null, deadline: null, deadline_warned_at: null, corrects: null, corrected_by: null, warnings: [],
      });
      assert.equal(sent.ksef_number, null);
      assert.equal((sent.links as Record<string, unknown>).upo, null);
      const local = parse((await t.getSubmission(await submit(t, "B", false)))!.json);
      assert.equal(local.ksef, null);
      assert.equal(local.updated_at, at(1));
      await s.close();
    });

    test("an offline submission keeps its mode and deadline through every change of its ksef state", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const bytes = new TextEncoder().encode(`<x n="OFF"/>`);
      const xml = { sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length };
      const r = await t.createSubmission({ fields: fields({ number: "OFF", format: "ksef-fa3", type: "invoice" }), xml, send: true, issue: { mode: "offline", deadline: "2026-11-02" } }, at(1));
      assert.ok("created" in r);
      const k = (await t.getSubmission(r.created.id))!.record.ksef!;
      assert.deepEqual([k.mode, k.invoicing_mode, k.deadline, k.deadline_warned_at], ["offline", null, "2026-11-02", null]);
      await t.saveSubmissionKsef(r.created.id, { ...k, status: "accepted", invoicing_mode: "offline", deadline_warned_at: at(3), updated_at: at(4) });
      const back = parse((await t.getSubmission(r.created.id))!.json).ksef as Record<string, unknown>;
      assert.deepEqual([back.mode, back.invoicing_mode, back.deadline, back.deadline_warned_at], ["offline", "offline", "2026-11-02", at(3)]);
      await s.close();
    });

    test("the queue lists queued and sending submissions in acceptance order, and a changed one moves to the end of the feed", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const ids = [];
      for (const n of ["A", "B", "C", "D"]) ids.push(await submit(t, n, n !== "C"));
      assert.deepEqual((await t.pendingKsefSubmissions(10)).map((x) => x.number), ["A", "B", "D"]);
      assert.deepEqual((await t.pendingKsefSubmissions(2)).map((x) => x.number), ["A", "B"]);
      const saved = await t.saveSubmissionKsef(ids[1]!, state({ status: "sending", session: "S1", reference: "R1" }));
      assert.equal(saved?.record.ksef?.reference, "R1");
      assert.deepEqual((await t.pendingKsefSubmissions(10)).map((x) => x.number), ["A", "B", "D"], "sending stays in the queue, in its place");
      await t.saveSubmissionKsef(ids[0]!, state({ status: "accepted", ksef_number: "5265877635-20250626-010080DD2B5E-26", updated_at: at(6) }));
      assert.deepEqual((await t.pendingKsefSubmissions(10)).map((x) => x.number), ["B", "D"]);
      const feed = await t.submissionChanges(0, 10, 1000);
      assert.deepEqual(feed.items.map((b) => parse(b).number), ["C", "D", "B", "A"]);
      const a = parse(feed.items[3]!);
      assert.equal(a.ksef_number, "5265877635-20250626-010080DD2B5E-26");
      assert.equal(a.updated_at, at(6));
      assert.equal((a.links as Record<string, unknown>).upo, `/api/v1/submissions/${ids[0]}/upo`);
      assert.equal(await t.saveSubmissionKsef("sub_01JD0000000000000000000000", state({})), null);
      const raw = await t.rawChanges("submissions", 0, 100);
      assert.deepEqual(raw.map((c) => c.first), [true, true, true, true, false, false]);
      await s.close();
    });

    test("the feed filters by ksef_status, format and type", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const a = await submit(t, "A", true);
      await submit(t, "B", true);
      await submit(t, "U", false, "ubl");
      await t.saveSubmissionKsef(a, state({ status: "rejected", error: { code: "KSEF_450", message: "Błąd", details: [] } }));
      const numbers = async (f: Parameters<TenantStore["submissionChanges"]>[3]) => (await t.submissionChanges(0, 10, 1000, f)).items.map((b) => parse(b).number);
      assert.deepEqual(await numbers({ ksef_status: "queued" }), ["B"]);
      assert.deepEqual(await numbers({ ksef_status: "rejected" }), ["A"]);
      assert.deepEqual(await numbers({ format: "ubl" }), ["U"]);
      assert.deepEqual(await numbers({ format: "ksef-fa3", type: "invoice" }), ["B", "A"]);
      assert.deepEqual(await numbers({ type: "credit_note" }), []);
      await s.close();
    });

    test("the feed filters by ksef_mode and by an offline deadline before a day, not counting accepted ones", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const offline = async (n: string, deadline: string): Promise<string> => {
        const bytes = new TextEncoder().encode(`<x n="${n}"/>`);
        const xml = { sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length };
        const r = await t.createSubmission({ fields: fields({ number: n, format: "ksef-fa3", type: "invoice" }), xml, send: true, issue: { mode: "offline", deadline } }, at(1));
        assert.ok("created" in r);
        return r.created.id;
      };
      await submit(t, "A", true);
      await offline("O1", "2026-11-02");
      await offline("O2", "2026-11-05");
      const o3 = await offline("O3", "2026-11-01");
      await submit(t, "U", false, "ubl");
      const k3 = (await t.getSubmission(o3))!.record.ksef!;
      await t.saveSubmissionKsef(o3, { ...k3, status: "accepted", ksef_number: "X", updated_at: at(6) });
      const numbers = async (f: Parameters<TenantStore["submissionChanges"]>[3]) => (await t.submissionChanges(0, 10, 1000, f)).items.map((b) => parse(b).number);
      assert.deepEqual(await numbers({ ksef_mode: "online" }), ["A"]);
      assert.deepEqual(await numbers({ ksef_mode: "offline" }), ["O1", "O2", "O3"]);
      assert.deepEqual(await numbers({ deadline_before: "2026-11-03" }), ["O1"]);
      assert.deepEqual(await numbers({ deadline_before: "2026-11-06" }), ["O1", "O2"]);
      assert.deepEqual(await numbers({ deadline_before: "2026-11-06", ksef_status: "queued", ksef_mode: "offline" }), ["O1", "O2"]);
      assert.deepEqual(await numbers({ deadline_before: "2026-11-02" }), []);
      await s.close();
    });

    if (reopen) {
      test("the queue and each submission's session and reference survive a reopen", async () => {
        let s = await make();
        const t = s.tenant("acme");
        const a = await submit(t, "A", true);
        await submit(t, "B", true);
        await t.saveSubmissionKsef(a, state({ session: "S1", session_type: "batch", reference: "R1" }));
        s = await reopen(s);
        const back = await s.tenant("acme").pendingKsefSubmissions(10);
        assert.deepEqual(back.map((x) => [x.number, x.ksef?.status, x.ksef?.session_type ?? null, x.ksef?.reference ?? null]), [["A", "sending", "batch", "R1"], ["B", "queued", null, null]]);
        await s.close();
      });
    }
  });
}

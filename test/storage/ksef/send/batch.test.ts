/**
 * Batch sending through the HTTP API and the KSeF simulator (README "Sending to KSeF"): a burst goes as one batch
 * session and every submission ends accepted with its UPO byte for byte, a lone invoice still goes online in
 * `auto`, invoices KSeF refuses are rejected with its reasons while the rest are accepted, a part upload that
 * fails is retried, and a session KSeF fails or that cannot be completed returns its invoices to the queue.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { schemaJudge } from "../../../support/ksef_simulator_online.ts";
import { fa3, sendSetup, type SendSetup } from "./send_setup.ts";

async function uploadMany(s: SendSetup, prefix: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await s.upload("acme", fa3(`${prefix}/${i}`))).id as string);
  return ids;
}

/** Every invoice KSeF accepted, by the simulator's own record: each exactly once. */
function acceptedOnce(s: SendSetup, count: number): void {
  const kept = s.online.invoices.filter((i) => i.status.code === 200);
  assert.equal(kept.length, count, "KSeF accepted each invoice once");
  assert.equal(new Set(kept.map((i) => i.key)).size, count);
}

test("a burst of 500 goes as one batch session; each submission ends accepted with its UPO byte for byte and its session's UPO page", { timeout: 300_000 }, async () => {
  // Parts of 64 KB: the package is cut into several, each encrypted and uploaded on its own.
  const s = await sendSetup({}, { partBytes: 64_000 }, undefined, "auto");
  try {
    const ids = await uploadMany(s, "BURST", 500);
    await s.settle();
    assert.equal(s.sender.batchesOpened("acme"), 1, "one batch session");
    assert.equal(s.sender.sessionsOpened("acme"), 0, "no online session");
    const session = [...s.batch.sessions.values()][0]!;
    assert.ok(session.parts.length > 1, `${session.parts.length} parts`);
    for (const id of ids) {
      const sub = await s.get("acme", id);
      const k = sub.ksef as Record<string, unknown>;
      assert.equal(k.status, "accepted", id);
      assert.equal(k.session_type, "batch");
      assert.equal(k.session, session.reference);
      assert.equal(sub.ksef_number, k.ksef_number);
      const inv = session.invoices.find((i) => i.fileName === `${id}.xml`)!;
      assert.equal(k.ksef_number, inv.ksefNumber);
      assert.equal(k.reference, inv.reference);
      const upo = await s.server.fetch(`/api/v1/submissions/${id}/upo`, s.tokens.acme);
      assert.equal(upo.status, 200);
      assert.deepEqual(new Uint8Array(await upo.arrayBuffer()), inv.upo, "the UPO as KSeF issued it");
      const page = await s.server.fetch(`/api/v1/submissions/${id}/session-upo`, s.tokens.acme);
      assert.equal(page.status, 200);
      assert.deepEqual(Buffer.from(await page.arrayBuffer()), session.upoPages[0], "the collective UPO page that lists it");
    }
    acceptedOnce(s, 500);
  } finally {
    await s.close();
  }
});

test("in auto mode a lone invoice still goes online, and its session-upo is not available", async () => {
  const s = await sendSetup({}, { autoQuietMs: 0 }, undefined, "auto");
  try {
    const [id] = await uploadMany(s, "LONE", 1);
    await s.settle();
    const sub = await s.get("acme", id!);
    assert.equal((sub.ksef as Record<string, unknown>).status, "accepted");
    assert.equal((sub.ksef as Record<string, unknown>).session_type, "online");
    assert.equal(s.sender.batchesOpened("acme"), 0);
    assert.equal(s.online.calls.send, 1);
    const page = await s.server.fetch(`/api/v1/submissions/${id}/session-upo`, s.tokens.acme);
    assert.equal(page.status, 404);
    assert.equal(((await page.json()) as { error: { code: string } }).error.code, "UPO_NOT_AVAILABLE");
  } finally {
    await s.close();
  }
});

test("a batch with invoices KSeF refuses: the rest are accepted, those rejected with KSeF's reasons", { timeout: 120_000 }, async () => {
  const judge = (xml: Uint8Array, code: string) => new TextDecoder().decode(xml).includes("<P_2>BAD/")
    ? { code: 450, description: "Błąd weryfikacji semantyki dokumentu faktury", details: ["Numer faktury odrzucony przez symulator"] }
    : schemaJudge(xml, code);
  const s = await sendSetup({ judge }, { gatherMs: 0 }, undefined, "batch");
  try {
    const good = await uploadMany(s, "GOOD", 17);
    const bad = await uploadMany(s, "BAD", 3);
    await s.settle(200);
    assert.equal(s.sender.batchesOpened("acme"), 1);
    for (const id of good) assert.equal(((await s.get("acme", id)).ksef as Record<string, unknown>).status, "accepted");
    for (const id of bad) {
      const k = (await s.get("acme", id)).ksef as Record<string, unknown>;
      assert.equal(k.status, "rejected");
      assert.deepEqual(k.error, { code: "KSEF_450", message: "Błąd weryfikacji semantyki dokumentu faktury", details: ["Numer faktury odrzucony przez symulator"] });
      assert.equal(k.session_type, "batch");
    }
  } finally {
    await s.close();
  }
});

for (const fault of [500, "lost"] as const) test(`a part upload that fails (${fault === 500 ? "a 500" : "its answer lost"}) is uploaded again; all accepted once`, { timeout: 120_000 }, async () => {
  const s = await sendSetup({}, { partBytes: 16_000 }, undefined, "auto");
  try {
    s.batch.failNextUploads(1, fault);
    const ids = await uploadMany(s, "RETRY", 30);
    await s.settle();
    assert.equal(s.sender.batchesOpened("acme"), 1);
    const parts = [...s.batch.sessions.values()][0]!.parts.length;
    assert.ok(s.batch.calls.upload! > parts, `${s.batch.calls.upload} uploads of ${parts} parts`);
    for (const id of ids) assert.equal(((await s.get("acme", id)).ksef as Record<string, unknown>).status, "accepted");
    acceptedOnce(s, 30);
  } finally {
    await s.close();
  }
});

for (const fault of ["KSeF fails the session as a whole", "a part upload is refused (403)", "the session expires before it is closed"] as const) {
  test(`${fault}: its invoices return to the queue and go in a new session, each accepted once`, { timeout: 120_000 }, async () => {
    const options: { uploadWindowMs?: number } = fault.startsWith("the session expires") ? { uploadWindowMs: -1 } : {};
    const s = await sendSetup({}, {}, undefined, "auto", options);
    try {
      if (fault.startsWith("KSeF fails")) s.batch.failNextSession = 500;
      if (fault.startsWith("a part upload")) s.batch.failNextUploads(1, 403);
      s.batch.onRequest = (op) => {
        if (op === "open" && s.batch.sessions.size === 1) delete options.uploadWindowMs; // the second session has time
      };
      const ids = await uploadMany(s, "AGAIN", 12);
      await s.settle();
      assert.equal(s.sender.batchesOpened("acme"), 2);
      const [first, second] = [...s.batch.sessions.values()];
      assert.notEqual(first!.status.code, 200);
      for (const id of ids) {
        const k = (await s.get("acme", id)).ksef as Record<string, unknown>;
        assert.equal(k.status, "accepted");
        assert.equal(k.session, second!.reference);
        assert.equal(k.attempts, 2);
      }
      acceptedOnce(s, 12);
    } finally {
      await s.close();
    }
  });
}

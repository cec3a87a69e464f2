/**
 * Sending offline invoices (README "Offline invoices", tryby-offline.md): issued while KSeF is down, final at once
 * (its PDF with KOD I labelled OFFLINE and KOD II), sent with `offlineMode: true` once KSeF is back, online or in a
 * batch session of offline invoices only, and KSeF's `invoicingMode` recorded (also for an online upload whose
 * issue date is before the day KSeF received it, which KSeF marks offline by itself).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { makeOfflineCertificate } from "../../../support/offline_certificates.ts";
import { pdfPages, pdfQrCodes } from "../../../support/pdf_text.ts";
import { fa3, sendSetup, type SendSetup } from "./send_setup.ts";

let dir: string;
let offline: { certificateFile: string; keyFile: string };
before(() => {
  dir = mkdtempSync(join(tmpdir(), "offline-send-"));
  offline = makeOfflineCertificate(dir, "offline", { key: "p256" });
});
after(() => rmSync(dir, { recursive: true, force: true }));

const ksefOf = async (s: SendSetup, id: string) => (await s.get("acme", id)).ksef as Record<string, unknown>;
const pdfOf = async (s: SendSetup, id: string) => new Uint8Array(await (await s.server.fetch(`/api/v1/submissions/${id}/pdf`, s.tokens.acme)).arrayBuffer());

test("KSeF down: an offline invoice is final at once; KSeF back: sent with offlineMode, accepted, its PDF shows the KSeF number", { timeout: 120_000 }, async () => {
  const s = await sendSetup({}, {}, undefined, "online", {}, { offline });
  try {
    s.online.failNext(1_000_000, 503);
    const off = String((await s.upload("acme", fa3("OFF/1"), "off.xml", { ksef_mode: "offline" })).id);
    const on = String((await s.upload("acme", fa3("ON/1"))).id);
    await s.sender.passNow();
    const during = await ksefOf(s, off);
    assert.ok(during.status === "queued" || during.status === "sending", String(during.status));
    assert.deepEqual([during.mode, during.invoicing_mode, during.deadline], ["offline", null, "2025-12-05"]);
    const first = await pdfOf(s, off);
    assert.match(pdfPages(first).join("\n"), /OFFLINE/);
    const codes = pdfQrCodes(first);
    assert.equal(codes.filter((c) => c.includes("/certificate/")).length, 1, "KOD II while KSeF is down");

    s.online.failNext(0, 503);
    await s.settle(10);
    const k = await ksefOf(s, off);
    assert.deepEqual([k.status, k.mode, k.invoicing_mode], ["accepted", "offline", "offline"]);
    const sent = s.online.invoices.filter((i) => i.invoiceNumber === "OFF/1");
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.offlineMode, true, "declared offlineMode: true");
    // Online as uploaded, yet its issue date (2025-12-04) is before the day KSeF received it: KSeF marks it offline.
    const o = await ksefOf(s, on);
    assert.deepEqual([o.status, o.mode, o.invoicing_mode, o.deadline], ["accepted", "online", "offline", null]);
    assert.equal(s.online.invoices.find((i) => i.invoiceNumber === "ON/1")!.offlineMode, false);

    const now = await pdfOf(s, off);
    const text = pdfPages(now).join("\n");
    assert.ok(text.includes(String(k.ksef_number)), "the KSeF number under KOD I");
    assert.doesNotMatch(text, /OFFLINE/);
    assert.deepEqual(pdfQrCodes(now).filter((c) => c.includes("/certificate/")), codes.filter((c) => c.includes("/certificate/")), "the same KOD II");
  } finally {
    await s.close();
  }
});

test("in batch mode offline and online invoices go in separate batch sessions, the offline one declared offlineMode", { timeout: 120_000 }, async () => {
  const s = await sendSetup({}, { gatherMs: 0 }, undefined, "batch", {}, { offline });
  try {
    const ids = [];
    for (const n of [1, 2]) ids.push(String((await s.upload("acme", fa3(`BOFF/${n}`), "off.xml", { ksef_mode: "offline" })).id));
    for (const n of [1, 2]) ids.push(String((await s.upload("acme", fa3(`BON/${n}`))).id));
    await s.settle();
    const sessions = [...s.batch.sessions.values()];
    assert.equal(sessions.length, 2);
    const offlineSession = sessions.find((x) => x.offlineMode)!;
    assert.deepEqual(offlineSession.invoices.map((i) => i.invoiceNumber).sort(), ["BOFF/1", "BOFF/2"]);
    assert.deepEqual(sessions.find((x) => !x.offlineMode)!.invoices.map((i) => i.invoiceNumber).sort(), ["BON/1", "BON/2"]);
    for (const id of ids.slice(0, 2)) {
      const k = await ksefOf(s, id);
      assert.deepEqual([k.status, k.session_type, k.session, k.invoicing_mode], ["accepted", "batch", offlineSession.reference, "offline"]);
    }
  } finally {
    await s.close();
  }
});

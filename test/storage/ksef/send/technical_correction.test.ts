/**
 * Technical corrections of offline invoices (README "Offline invoices", `offline/korekta-techniczna.md`): an offline
 * invoice KSeF rejected for a technical reason is corrected with `corrects=<id>`, sent in an online session (even
 * when the tenant sends in batches) with `offlineMode: true` and `hashOfCorrectedInvoice`, and the two are linked;
 * corrections KSeF would not take are refused with 422 naming the reason.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { schemaJudge, type Judge } from "../../../support/ksef_simulator_online.ts";
import { makeOfflineCertificate } from "../../../support/offline_certificates.ts";
import { fa3, receiver, sendSetup, type SendSetup } from "./send_setup.ts";

/** KSeF's verdict, with two faults a test can put in an invoice: a schema error (450) and missing permissions (410). */
const judge: Judge = (xml, code) => {
  const text = Buffer.from(xml).toString();
  if (text.includes("<!-- schema -->")) return { code: 450, description: "Błąd weryfikacji semantyki dokumentu faktury", details: ["schema"] };
  if (text.includes("<!-- perm -->")) return { code: 410, description: "Nieprawidłowy zakres uprawnień", details: [] };
  return schemaJudge(xml, code);
};

describe("technical corrections", () => {
  let s: SendSetup;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "correction-"));
    s = await sendSetup({ judge }, { gatherMs: 0 }, undefined, "batch", {}, { offline: makeOfflineCertificate(dir, "c", { key: "p256" }) });
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ksefOf = async (id: string) => (await s.get("acme", id)).ksef as Record<string, unknown>;
  const correct = async (xml: Uint8Array, id: string, extra: Record<string, string> = {}) => {
    const form = new FormData();
    form.append("xml", new Blob([new Uint8Array(xml)], { type: "application/xml" }), "fixed.xml");
    form.append("corrects", id);
    for (const [k, v] of Object.entries(extra)) form.append(k, v);
    return s.server.fetch("/api/v1/submissions", s.tokens.acme, { method: "POST", body: form });
  };
  const refusal = async (r: Response) => {
    assert.equal(r.status, 422);
    return ((await r.json()) as { error: { details: { field: string; issue: string }; message: string } }).error;
  };

  test("a rejected offline invoice is corrected: sent online with offlineMode and the rejected file's hash, linked both ways", { timeout: 120_000 }, async () => {
    const rx = await receiver();
    after(() => rx.close());
    const hook = await s.server.fetch("/api/v1/webhooks", s.tokens.acme, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: rx.url, events: ["submission.ksef_rejected"] }),
    });
    assert.equal(hook.status, 201);
    const bad = fa3("TC/1", "<!-- schema -->");
    const original = String((await s.upload("acme", bad, "bad.xml", { ksef_mode: "offline" })).id);
    await s.settle();
    const k = await ksefOf(original);
    assert.deepEqual([k.status, (k.error as { code: string }).code], ["rejected", "KSEF_450"]);
    const opened = s.sender.sessionsOpened("acme");

    const r = await correct(fa3("TC/1"), original);
    assert.equal(r.status, 201, await r.clone().text());
    const correction = (await r.json()) as { id: string; ksef: Record<string, unknown> };
    assert.deepEqual([correction.ksef.mode, correction.ksef.corrects, correction.ksef.deadline], ["offline", original, k.deadline]);
    assert.equal((await ksefOf(original)).corrected_by, correction.id);
    await s.settle();
    const c = await ksefOf(correction.id);
    assert.equal(c.status, "accepted");
    assert.equal(c.session_type, "online", "a correction goes in an online session, even for a tenant that sends in batches");
    assert.equal(s.sender.sessionsOpened("acme"), opened + 1);
    const sent = s.online.invoices.find((i) => i.ksefNumber === c.ksef_number)!;
    assert.equal(sent.offlineMode, true);
    assert.equal(sent.hashOfCorrectedInvoice, createHash("sha256").update(bad).digest("base64"));
    assert.ok(sent.corrects && Buffer.from(sent.corrects.xml).equals(Buffer.from(bad)), "KSeF links it to the rejected invoice");
    // Linking the original to its correction is not a second rejection.
    await s.server.app.webhooks!.runOnce();
    const rejected = rx.bodies.filter((b) => b.type === "submission.ksef_rejected").map((b) => (b.data as { id: string }).id);
    assert.deepEqual(rejected, [original]);

    const again = await refusal(await correct(fa3("TC/1", "<!-- again -->"), original));
    assert.deepEqual([again.details.field, again.details.issue], ["corrects", "already_corrected"]);
  });

  test("refused, naming the reason: not offline, not rejected, rejected for a reason that is not technical, unknown", { timeout: 120_000 }, async () => {
    const online = String((await s.upload("acme", fa3("TC/ON", "<!-- schema -->"))).id);
    const accepted = String((await s.upload("acme", fa3("TC/OK"), "ok.xml", { ksef_mode: "offline" })).id);
    const perm = String((await s.upload("acme", fa3("TC/PERM", "<!-- perm -->"), "perm.xml", { ksef_mode: "offline" })).id);
    await s.settle();
    assert.equal((await ksefOf(perm)).status, "rejected");
    for (const [id, issue] of [[online, "not_offline"], [accepted, "not_technically_rejected"], [perm, "not_technically_rejected"], ["sub_01JD0000000000000000000000", "not_found"]] as const) {
      const e = await refusal(await correct(fa3("TC/X"), id));
      assert.deepEqual([e.details.field, e.details.issue], ["corrects", issue], id);
    }
    assert.match((await refusal(await correct(fa3("TC/X"), perm))).message, /KSEF_410/);
    const online2 = await refusal(await correct(fa3("TC/X"), perm, { ksef_mode: "online" }));
    assert.deepEqual([online2.details.field, online2.details.issue], ["ksef_mode", "correction_is_offline"]);
  });
});

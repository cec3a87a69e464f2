/**
 * KSeF FA_RR(1) and PEF(3) with KSeF (README "Sending to KSeF", "Document sources"): a sending tenant's FA_RR
 * upload goes out in an online session opened with FA_RR's own form code (FA_RR (1), 1-1E, FA_RR), one session
 * per form code beside FA(3)'s; a PEF upload is never sent; and a sync of a KSeF source whose export holds an FA_RR
 * and a PEF invoice yields documents of the right formats, with their invoice JSON and PDF. All against the
 * KSeF simulator (test/support/ksef_simulator*.ts) and a real server.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { isKsefNumber } from "../../../../lib/formats/invoice/ksef_number.ts";
import { makeOfflineCertificate } from "../../../support/offline_certificates.ts";
import { pdfPages, pdfQrCodes } from "../../../support/pdf_text.ts";
import { fixturePath } from "../../../support/server.ts";
import { BUYER_NIP, fa3, NIP, sendSetup, type SendSetup } from "./send_setup.ts";

const RR = readFileSync(fixturePath("ksef-rr", "fa_rr1_vat_rr.xml"), "utf8");
const PEF = readFileSync(fixturePath("ksef-pef", "pef3_invoice.xml"), "utf8");

/** The test VAT RR invoice issued by the buyer `issuer` (Podmiot2) with its own number. */
function rr(number: string, issuer: string): Uint8Array {
  return Buffer.from(RR.replace("<P_4C>RR/2026/11/0042</P_4C>", `<P_4C>${number}</P_4C>`).replace("<NIP>5260250274</NIP>", `<NIP>${issuer}</NIP>`));
}

describe("KSeF FA_RR(1) and PEF(3) with KSeF", () => {
  let s: SendSetup;
  before(async () => {
    s = await sendSetup();
  });
  after(() => s.close());

  test("an FA_RR(1) upload is sent in a session opened with FA_RR's form code and accepted with its UPO", async () => {
    const created = await s.upload("acme", rr("RR/SEND/1", NIP));
    assert.equal((created.ksef as Record<string, unknown>).status, "queued");
    await s.settle();
    const sub = await s.get("acme", String(created.id));
    const k = sub.ksef as Record<string, unknown>;
    assert.equal(k.status, "accepted", JSON.stringify(k.error));
    assert.ok(isKsefNumber(String(k.ksef_number)));
    const received = s.online.invoices.find((i) => i.ksefNumber === k.ksef_number)!;
    assert.equal(s.online.sessions.get(received.session)?.systemCode, "FA_RR (1)");
    const open = s.sim.log.filter((e) => e.path === "/sessions/online" && e.status === 201);
    assert.ok(open.length >= 1);
    const upo = Buffer.from(await (await s.server.fetch(`/api/v1/submissions/${created.id}/upo`, s.tokens.acme)).arrayBuffer()).toString("utf8");
    assert.match(upo, /<KodFormularza>FA_RR \(1\)<\/KodFormularza>/);
    assert.match(upo, /<NumerFaktury>RR\/SEND\/1<\/NumerFaktury>/);
  });

  test("an FA(3) and an FA_RR(1) waiting together go out in two sessions, one per form code", async () => {
    const a = await s.upload("acme", fa3("MIX/1"));
    const b = await s.upload("acme", rr("RR/MIX/1", NIP));
    await s.settle();
    const codes = [];
    for (const id of [a.id, b.id]) {
      const k = (await s.get("acme", String(id))).ksef as Record<string, unknown>;
      assert.equal(k.status, "accepted");
      codes.push(s.online.sessions.get(String(k.session))?.systemCode);
    }
    assert.deepEqual(codes, ["FA (3)", "FA_RR (1)"]);
  });

  test("a PEF(3) upload of a sending tenant is never sent: ksef is null", async () => {
    const created = await s.upload("acme", Buffer.from(PEF));
    assert.equal(created.format, "ksef-pef3");
    assert.equal(created.ksef, null);
  });

  test("a sync of a KSeF source whose export holds an FA_RR and a PEF invoice yields both, with their formats, JSON and PDF", async () => {
    const farmer = "7251801126";
    const rrInvoice = s.sim.add({ seller: farmer, buyer: BUYER_NIP, xml: rr("RR/SYNC/1", BUYER_NIP), invoiceNumber: "RR/SYNC/1", net: 20275, vat: 1419.25, gross: 21694.25 });
    const pefInvoice = s.sim.add({ seller: "5731121005", buyer: BUYER_NIP, xml: Buffer.from(PEF), invoiceNumber: "PEF/2026/11/015", net: 1500, vat: 345, gross: 1845 });
    const run = await s.server.sync(s.tokens.buyer);
    assert.equal(run.status, "succeeded", JSON.stringify(run));
    for (const [inv, format, number] of [[rrInvoice, "ksef-fa-rr1", "RR/SYNC/1"], [pefInvoice, "ksef-pef3", "PEF/2026/11/015"]] as const) {
      const docs = ((await (await s.server.fetch(`/api/v1/documents?ksef_number=${inv.ksefNumber}&expand=invoice`, s.tokens.buyer)).json()) as { data: Record<string, unknown>[] }).data;
      assert.equal(docs.length, 1, format);
      const doc = docs[0]!;
      assert.deepEqual([doc.format, doc.number, doc.xml_available], [format, number, true]);
      assert.equal((doc.invoice as { format: string }).format, format);
      const pdf = await s.server.fetch(`/api/v1/documents/${doc.id}/pdf`, s.tokens.buyer);
      assert.equal(pdf.status, 200);
      assert.equal(pdf.headers.get("content-type"), "application/pdf");
    }
  });

  test("an FA_RR and a PEF credit note whose XML KSeF cannot deliver yet arrive with their format and type from KSeF's metadata", async () => {
    const korPef = readFileSync(fixturePath("ksef-pef", "pef3_kor_credit_note.xml"));
    const a = s.sim.add({ seller: "7251801126", buyer: BUYER_NIP, xml: rr("RR/LATE/1", BUYER_NIP), invoiceNumber: "RR/LATE/1", xmlPending: true });
    const b = s.sim.add({ seller: "5731121005", buyer: BUYER_NIP, xml: korPef, invoiceNumber: "PEF-KOR/2026/11/003", xmlPending: true });
    const run = await s.server.sync(s.tokens.buyer);
    assert.equal(run.status, "succeeded", JSON.stringify(run));
    const doc = async (n: string) => ((await (await s.server.fetch(`/api/v1/documents?ksef_number=${n}`, s.tokens.buyer)).json()) as { data: Record<string, unknown>[] }).data[0]!;
    assert.deepEqual([(await doc(a.ksefNumber)).format, (await doc(a.ksefNumber)).type, (await doc(a.ksefNumber)).xml_available], ["ksef-fa-rr1", "invoice", false]);
    assert.deepEqual([(await doc(b.ksefNumber)).format, (await doc(b.ksefNumber)).type], ["ksef-pef3", "credit_note"]);
  });
});

test("FA_RR(1) invoices in send mode batch go out in a batch session opened with FA_RR's form code", { timeout: 120_000 }, async () => {
  const s = await sendSetup({}, { gatherMs: 0 }, undefined, "batch");
  try {
    const ids = [];
    for (let i = 1; i <= 3; i++) ids.push(String((await s.upload("acme", rr(`RR/BATCH/${i}`, NIP))).id));
    await s.settle(200);
    assert.equal(s.sender.batchesOpened("acme"), 1);
    assert.deepEqual([...s.batch.sessions.values()].map((x) => x.systemCode), ["FA_RR (1)"]);
    for (const id of ids) {
      const k = (await s.get("acme", id)).ksef as Record<string, unknown>;
      assert.deepEqual([k.status, k.session_type], ["accepted", "batch"]);
    }
  } finally {
    await s.close();
  }
});

test("an FA_RR(1) issued offline carries KOD I labelled OFFLINE and KOD II, and is sent with offlineMode once KSeF is back", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "offline-rr-"));
  const offline = makeOfflineCertificate(dir, "offline", { key: "p256" });
  const s = await sendSetup({}, {}, undefined, "online", {}, { offline });
  try {
    s.online.failNext(1_000_000, 503);
    const id = String((await s.upload("acme", rr("RR/OFF/1", NIP), "rr.xml", { ksef_mode: "offline" })).id);
    await s.sender.passNow();
    const pdf = new Uint8Array(await (await s.server.fetch(`/api/v1/submissions/${id}/pdf`, s.tokens.acme)).arrayBuffer());
    assert.match(pdfPages(pdf).join("\n"), /OFFLINE/);
    const codes = pdfQrCodes(pdf);
    assert.equal(codes.filter((c) => c.includes("/invoice/7251801126/20-11-2026/")).length, 1, "KOD I of the farmer's NIP and P_4B");
    assert.equal(codes.filter((c) => c.includes("/certificate/")).length, 1, "KOD II");
    s.online.failNext(0, 503);
    await s.settle(10);
    const k = (await s.get("acme", id)).ksef as Record<string, unknown>;
    assert.deepEqual([k.status, k.mode], ["accepted", "offline"]);
    const sent = s.online.invoices.filter((i) => i.invoiceNumber === "RR/OFF/1");
    assert.deepEqual(sent.map((i) => [i.offlineMode, s.online.sessions.get(i.session)?.systemCode]), [[true, "FA_RR (1)"]]);
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

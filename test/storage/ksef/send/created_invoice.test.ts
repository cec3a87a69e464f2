/**
 * An invoice created from JSON (README "Creating invoices") is a submission like an upload: for a tenant that sends
 * to KSeF it is queued, sent and accepted, and what KSeF received is the written XML, `/xml`. Through a real
 * server, the sender and the KSeF simulator, which judges the invoice by the FA(3) schema as KSeF does.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { isKsefNumber } from "../../../../lib/formats/invoice/ksef_number.ts";
import { MINIMAL_FA3 } from "../../../support/minimal_invoice.ts";
import { NIP, sendSetup } from "./send_setup.ts";

test("the README's minimal JSON invoice, created for a tenant that sends, is accepted by KSeF with a KSeF number", { timeout: 60_000 }, async () => {
  const s = await sendSetup();
  try {
    const body = structuredClone(MINIMAL_FA3);
    body.invoice.seller.tax_id.value = NIP; // the NIP the tenant's KSeF session is opened for
    const res = await s.server.fetch("/api/v1/submissions", s.tokens.acme, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    assert.equal(res.status, 201, await res.clone().text());
    const created = (await res.json()) as { id: string; format: string; ksef: { status: string } | null };
    assert.equal(created.format, "ksef-fa3");
    assert.equal(created.ksef?.status, "queued");
    await s.settle();
    const sub = (await s.get("acme", created.id)) as { ksef_number: string | null; ksef: { status: string; ksef_number: string | null; error: unknown }; links: { xml: string } };
    assert.equal(sub.ksef.status, "accepted", JSON.stringify(sub.ksef));
    assert.equal(sub.ksef.error, null);
    assert.ok(isKsefNumber(sub.ksef_number ?? ""), `a KSeF number with its checksum: ${sub.ksef_number}`);
    assert.ok(sub.ksef_number!.startsWith(`${NIP}-`));
    assert.equal(sub.ksef.ksef_number, sub.ksef_number);
    const sent = s.online.invoices.find((i) => i.ksefNumber === sub.ksef_number);
    assert.ok(sent, "KSeF holds the invoice under that number");
    const xml = new Uint8Array(await (await s.server.fetch(sub.links.xml, s.tokens.acme)).arrayBuffer());
    assert.deepEqual(sent.xml, xml);
  } finally {
    await s.close();
  }
});

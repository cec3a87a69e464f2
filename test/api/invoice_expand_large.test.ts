import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { invoiceJsonKey } from "../../lib/api/invoice_expand.ts";
import { LARGE_XML_BYTES } from "../../lib/api/invoice_reader.ts";
import { readInvoiceXml } from "../../lib/formats/invoice/read_xml.ts";
import { startServer, type TestServer } from "../support/server.ts";

/** An FA(3) of minimal lines just over the large-read threshold. */
function largeKsef(): Uint8Array {
  const rows: string[] = [];
  let size = 600;
  for (let i = 1; size < LARGE_XML_BYTES + 4096; i++) {
    const row = `<FaWiersz><NrWierszaFa>${i}</NrWierszaFa><P_7>T</P_7><P_8B>1</P_8B><P_11>1</P_11></FaWiersz>`;
    rows.push(row);
    size += row.length;
  }
  const n = rows.length;
  return new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?><Faktura xmlns="http://crd.gov.pl/wzor/2025/06/25/13775/">` +
    `<Podmiot1><DaneIdentyfikacyjne><NIP>5260250274</NIP><Nazwa>S</Nazwa></DaneIdentyfikacyjne></Podmiot1>` +
    `<Fa><KodWaluty>PLN</KodWaluty><P_1>2026-01-01</P_1><P_2>BIG/1</P_2><P_13_1>${n}.00</P_13_1><P_14_1>0.00</P_14_1>` +
    `<P_15>${n}.00</P_15><RodzajFaktury>VAT</RodzajFaktury>${rows.join("")}</Fa></Faktura>`);
}

describe("the invoice JSON of a large invoice", () => {
  const xml = largeKsef();
  let s: TestServer;
  let token: string;
  let id: string;
  let builds = 0;
  // Each build waits for the test to let it finish, so that the test can ask /healthz meanwhile.
  let held: { started: () => void; release: Promise<void> } | null = null;
  before(async () => {
    s = await startServer({
      readInvoiceJsonOffThread: async (bytes: Uint8Array) => {
        builds++;
        if (held) {
          held.started();
          await held.release;
        }
        return new TextEncoder().encode(JSON.stringify(readInvoiceXml(bytes)));
      },
    });
    token = (await s.token("acme")).token;
    s.drop("acme", "big.xml", xml);
    await s.sync(token);
    const list = (await (await s.fetch("/api/v1/documents", token)).json()) as { data: { id: string }[] };
    assert.equal(list.data.length, 1, "the large invoice was imported");
    id = list.data[0]!.id;
  });
  after(async () => {
    await s.close();
    rmSync(s.dataDir, { recursive: true, force: true });
  });

  test("is built off the event loop, once: /healthz answers meanwhile, and the second GET serves the kept JSON", async () => {
    let started!: () => void;
    const building = new Promise<void>((r) => (started = r));
    let release!: () => void;
    held = { started, release: new Promise<void>((r) => (release = r)) };
    const first = s.fetch(`/api/v1/documents/${id}`, token);
    await building;
    const health = await s.fetch("/healthz", null);
    assert.equal(health.status, 200, "/healthz answers while the JSON is being built");
    await health.text();
    held = null;
    release();
    const a = await first;
    assert.equal(a.status, 200);
    const one = (await a.json()) as { invoice: { lines: unknown[] } | null };
    assert.ok(one.invoice !== null && one.invoice.lines.length > 1000);
    assert.equal(builds, 1);

    const b = await s.fetch(`/api/v1/documents/${id}`, token);
    assert.deepEqual(await b.json(), one);
    assert.equal(builds, 1, "the second GET does not build the JSON again");
    const sha = (one as unknown as { sha256: string }).sha256;
    assert.ok(await s.storage.tenant("acme").getDerived(invoiceJsonKey(sha)), "the JSON is kept as a derived blob");

    const listed = (await (await s.fetch("/api/v1/documents?expand=invoice", token)).json()) as { data: { invoice: unknown }[] };
    assert.deepEqual(listed.data[0]!.invoice, one.invoice);
    assert.equal(builds, 1, "a list with expand=invoice serves the kept JSON too");
  });
});

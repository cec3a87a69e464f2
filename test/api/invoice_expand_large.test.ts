import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { invoiceJsonKey } from "../../lib/api/invoice_expand.ts";
import { readInvoiceXml } from "../../lib/formats/invoice/read_xml.ts";
import { importLargeInvoice, largeKsef } from "../support/large_invoice.ts";
import { startServer, type TestServer } from "../support/server.ts";

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
    ({ token, id } = await importLargeInvoice(s, xml));
  });
  after(async () => {
    await s.close();
    rmSync(s.dataDir, { recursive: true, force: true });
  });

  test("is built off the event loop, once: /healthz answers meanwhile, and the second GET serves the kept JSON", { timeout: 60_000 }, async () => {
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

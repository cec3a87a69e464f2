/**
 * Concurrent reads of one large invoice (README "Limits"): requests for the same derived result wait for one
 * build instead of each taking a waiting place, and a tenant over its share of the places is told 429, not 503.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { test } from "node:test";
import { invoiceJson } from "../../lib/api/documents/invoice_json.ts";
import { readInvoiceXml } from "../../lib/formats/invoice/read_xml.ts";
import { renderInvoicePdf } from "../../lib/formats/pdf/invoice_pdf.ts";
import { PdfFonts } from "../../lib/formats/pdf/pdf_fonts.ts";
import { readPdfFontFiles } from "../../storage/fonts/font_files.ts";
import { errorOf } from "../support/api.ts";
import { importLargeInvoice, largeKsef, minimalLinesKsef } from "../support/large_invoice.ts";
import { startServer, type TestServer } from "../support/server.ts";

const fonts = new PdfFonts(readPdfFontFiles());

/** Builds that wait until the test lets them go, counting how many were started. */
function heldBuilds() {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const started = { json: 0, pdf: 0 };
  return {
    started, release,
    options: {
      readInvoiceJsonOffThread: async (xml: Uint8Array) => {
        started.json++;
        await released;
        return new TextEncoder().encode(invoiceJson(readInvoiceXml(xml)));
      },
      renderPdfOffThread: async (xml: Uint8Array, job: object) => {
        started.pdf++;
        await released;
        return renderInvoicePdf(readInvoiceXml(xml), { ...job, fonts });
      },
    },
  };
}

/** Waits until GET /metrics shows the gauge `name` at `n`. */
async function gaugeAt(s: TestServer, name: string, n: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = await (await s.fetch("/metrics", null)).text();
    if (new RegExp(`^${name} ${n}$`, "m").test(text)) return;
    assert.ok(Date.now() < deadline, `${name} never reached ${n}:\n${text.split("\n").filter((l) => l.startsWith(name)).join("\n")}`);
    await new Promise((r) => setImmediate(r));
  }
}

test("eight concurrent reads of one large invoice (four JSON, four PDF) wait for two builds and all get 200", { timeout: 90_000 }, async () => {
  const held = heldBuilds();
  const s = await startServer(held.options);
  try {
    const { token, id } = await importLargeInvoice(s, largeKsef());
    const requests = [
      ...Array.from({ length: 4 }, () => s.fetch(`/api/v1/documents/${id}`, token)),
      ...Array.from({ length: 4 }, () => s.fetch(`/api/v1/documents/${id}/pdf`, token)),
    ];
    await gaugeAt(s, "invoice_builds_joined", 6);
    held.release();
    const responses = await Promise.all(requests);
    assert.deepEqual(responses.map((r) => r.status), [200, 200, 200, 200, 200, 200, 200, 200]);
    const bodies = await Promise.all(responses.map(async (r) => new Uint8Array(await r.arrayBuffer())));
    assert.deepEqual(bodies[1], bodies[0]);
    assert.deepEqual(bodies[7], bodies[4]);
    assert.deepEqual(held.started, { json: 1, pdf: 1 }, "one build per result");
  } finally {
    await s.close();
    rmSync(s.dataDir, { recursive: true, force: true });
  }
});

test("a tenant over its share of the waiting places gets 429 with Retry-After; another tenant is still served", { timeout: 90_000 }, async () => {
  const held = heldBuilds();
  const s = await startServer(held.options);
  try {
    // Six different large invoices of one tenant: one build runs, four wait (the tenant's share), the sixth is refused.
    const token = (await s.token("acme")).token;
    for (let i = 1; i <= 6; i++) s.drop("acme", `big-${i}.xml`, minimalLinesKsef(300 * 1024, `BIG/${i}`));
    await s.sync(token);
    const ids = ((await (await s.fetch("/api/v1/documents", token)).json()) as { data: { id: string }[] }).data.map((d) => d.id);
    assert.equal(ids.length, 6);
    const other = await importLargeInvoice(s, largeKsef(), "other");
    const first = s.fetch(`/api/v1/documents/${ids[0]}/pdf`, token);
    const waiting = ids.slice(1, 5).map((id) => s.fetch(`/api/v1/documents/${id}/pdf`, token));
    await gaugeAt(s, "large_reads_waiting", 4);
    const refused = await s.fetch(`/api/v1/documents/${ids[5]}/pdf`, token);
    assert.equal(refused.headers.get("retry-after"), "1");
    await errorOf(refused, 429, "RATE_LIMITED");
    // Another tenant's large read is queued, not refused.
    const otherPdf = s.fetch(`/api/v1/documents/${other.id}/pdf`, other.token);
    await gaugeAt(s, "large_reads_waiting", 5);
    held.release();
    const all = await Promise.all([first, ...waiting, otherPdf]);
    assert.deepEqual(all.map((r) => r.status), [200, 200, 200, 200, 200, 200]);
  } finally {
    await s.close();
    rmSync(s.dataDir, { recursive: true, force: true });
  }
});

test("a large upload of a tenant over its share of the waiting places is refused 429 before its body is read", { timeout: 90_000 }, async () => {
  const { request } = await import("node:http");
  const { readAndValidate } = await import("../../lib/formats/validation/read_and_validate.ts");
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const s = await startServer({
    checkUploadOffThread: async (xml: Uint8Array) => {
      await released;
      return readAndValidate(xml, null);
    },
  });
  try {
    const token = (await s.token("acme")).token;
    const upload = (n: number) => {
      const form = new FormData();
      form.append("xml", new Blob([minimalLinesKsef(300 * 1024, `UP/${n}`)], { type: "application/xml" }), "big.xml");
      return s.fetch("/api/v1/submissions", token, { method: "POST", body: form });
    };
    // One check runs (held), four wait: the tenant's share of the waiting places.
    const first = upload(1);
    const waiting = [2, 3, 4, 5].map(upload);
    await gaugeAt(s, "large_reads_waiting", 4);
    // The sixth declares 2 MB and sends none of it: answered at once, from its headers alone.
    let answered = false;
    const answer = await new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
      const req = request(`${s.url}/api/v1/submissions`, {
        method: "POST",
        headers: { "x-api-token": token, "content-type": "multipart/form-data; boundary=b0undary", "content-length": String(2_000_000) },
      }, (res) => {
        // The answer is whole once its Content-Length has arrived (the server then lingers for the unsent body).
        let body = "";
        res.on("data", (c: Buffer) => {
          body += c.toString();
          if (Buffer.byteLength(body) >= Number(res.headers["content-length"])) {
            answered = true;
            resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body });
            req.destroy();
          }
        });
      });
      req.on("error", (e) => {
        if (!answered) reject(e); // not when destroyed here once answered
      });
      req.flushHeaders();
      setTimeout(() => reject(new Error("no answer without the body: the server waited to read it")), 20_000).unref();
    });
    assert.equal(answer.status, 429, answer.body);
    assert.equal(answer.connection, "close");
    assert.equal((JSON.parse(answer.body) as { error: { code: string } }).error.code, "RATE_LIMITED");
    release();
    const all = await Promise.all([first, ...waiting]);
    assert.deepEqual(all.map((r) => r.status), [201, 201, 201, 201, 201]);
  } finally {
    release();
    await s.close();
    rmSync(s.dataDir, { recursive: true, force: true });
  }
});

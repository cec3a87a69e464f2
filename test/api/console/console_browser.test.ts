/**
 * The console (README "Console") in a real headless chromium driven over the DevTools protocol, against a real
 * server: signing in by keyboard with the token kept in sessionStorage alone; the overview; a submission turning
 * from queued to accepted while its page is open; an invalid upload's violations; a JSON upload, created or refused
 * with its JSON path; a converted upload's losses and source; a failed webhook delivery retried
 * from its log; hostile names shown as text with no dialog and no request for their URLs; no CSP violation
 * reported; a documents:read token offered no submission or webhook actions, and its console making no request the
 * token may not make (the server's request log holds no 403 of it); a hash that is no valid percent-encoding shown
 * as not found without an uncaught error; screenshots at 1280 and 390 px.
 */
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { WebhookTransport } from "../../../lib/jobs/webhooks/worker.ts";
import { createJsonLogger } from "../../../lib/observe/log.ts";
import { BrowserPage, chromiumSkip, requireChromium } from "../../support/chromium.ts";
import { MINIMAL_FA3 } from "../../support/minimal_invoice.ts";
import { fixturePath, startServer, type TestServer } from "../../support/server.ts";

const SAMPLE = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_Przyklad_4_EUR.xml"), "utf8");
const HOSTILE_SELLER = "<img src=x onerror=alert(1)>";
const HOSTILE_FILE = "<img src=y onerror=alert(2)>.xml";
/** The FA(3) sample with its own number and, optionally, another seller name. */
const invoice = (number: string, seller = "test"): string =>
  SAMPLE.replace(/<P_2>[^<]*<\/P_2>/, `<P_2>${number}</P_2>`).replace("<Nazwa>test</Nazwa>", `<Nazwa>${seller.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</Nazwa>`);
/** A KSeF number with a valid checksum (KSeF's own example in open-api.json). */
const KSEF_NUMBER = "5265877635-20250826-0100001AF629-AF";
const README_SHOT = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..", "..", "fixtures", "readme", "console.png");

const skip = chromiumSkip();

describe("the console in headless chromium", { skip }, () => {
  let s: TestServer;
  let page: BrowserPage;
  let token: string;
  let files: string;
  let failing = true;
  const transport: WebhookTransport = async () => ({ status: failing ? 500 : 204, retryAfter: null });
  /** The server's request log lines (README "Configuration": one line per request, with the key id, never the token). */
  const requests: { method: string; route: string | null; status: number; key_id: string | null }[] = [];
  const logger = createJsonLogger("info", (line) => {
    const entry = JSON.parse(line) as { msg: string; method: string; route: string | null; status: number; key_id: string | null };
    if (entry.msg === "request") requests.push(entry);
  });

  before(async () => {
    if (process.env.CI === "true") requireChromium();
    files = mkdtempSync(join(tmpdir(), "console-"));
    s = await startServer({
      storage: "memory",
      ksefSend: { sends: () => true, wake: () => {} },
      // One attempt and a long wait: only the console's retry-now sends the event again.
      webhooks: { transport, schedule: [3_600_000], allowPrivate: true },
      logger,
    });
    token = (await s.token("acme")).token;
    page = await BrowserPage.open(1280, 900);
  });
  after(async () => {
    await page?.close();
    await s?.close();
    rmSync(files, { recursive: true, force: true });
  });

  const upload = async (xml: string): Promise<string> => {
    const form = new FormData();
    form.append("xml", new Blob([xml], { type: "application/xml" }), "a.xml");
    const res = await s.fetch("/api/v1/submissions", token, { method: "POST", body: form });
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { id: string }).id;
  };
  const text = (selector: string): Promise<string> => page.eval<string>(`(document.querySelector(${JSON.stringify(selector)}) || {}).textContent || ""`);

  test("sign in by keyboard: the overview shows the summary, the token is in sessionStorage only", async () => {
    await page.goto(`${s.url}/console`);
    await page.until("document.querySelector('#token')", "the sign-in form");
    await page.type("#token", token);
    await page.press("Enter");
    await page.until("document.querySelector('#chart-hours') && document.querySelector('#chart-days')", "both charts");
    assert.equal(await text("#count-queued .n"), "0");
    assert.equal(await page.eval("sessionStorage.getItem('console.token')"), token);
    assert.equal(await page.eval("localStorage.length"), 0);
    assert.equal(await page.eval("document.cookie"), "");
    assert.ok(!(await page.eval<string>("location.href")).includes(token), "not in the URL");
    assert.ok(!page.requests().some((u) => u.includes(token)), "never in a request's URL");
    // 48 groups of 3 bars and 30 bars.
    assert.equal(await page.eval("document.querySelectorAll('#chart-hours rect').length"), 144);
    assert.equal(await page.eval("document.querySelectorAll('#chart-days rect').length"), 30);
  });

  test("a submission turns from queued to accepted on its open page, and the overview follows", async () => {
    const id = await upload(invoice("LIVE/1"));
    await page.goto(`${s.url}/console#/submissions/${id}`);
    await page.until("document.querySelector('#ksef-status')", "the KSeF status");
    assert.equal(await text("#ksef-status"), "queued");
    await page.until("document.querySelector('#pdf iframe')", "the PDF frame");
    assert.match(await page.eval<string>("document.querySelector('#pdf iframe').src"), /^blob:/);
    const navigations = page.events.filter((e) => e.method === "Page.frameNavigated" && !(e.params.frame as { parentId?: string }).parentId).length;
    const tenant = s.storage.tenant("acme");
    const k = (await tenant.getSubmission(id))!.record.ksef!;
    await tenant.saveSubmissionKsef(id, { ...k, status: "accepted", ksef_number: KSEF_NUMBER, acquired_at: new Date().toISOString(), updated_at: new Date().toISOString() });
    await page.until("document.querySelector('#ksef-status').textContent === 'accepted'", "accepted without a reload");
    assert.equal(await text("#ksef-number"), KSEF_NUMBER);
    const after = page.events.filter((e) => e.method === "Page.frameNavigated" && !(e.params.frame as { parentId?: string }).parentId).length;
    assert.equal(after, navigations, "the page was not reloaded");
    await page.goto(`${s.url}/console#/overview`);
    await page.until("document.querySelector('#count-accepted .n') && document.querySelector('#count-accepted .n').textContent === '1'", "the overview's count");
  });

  test("a CII submission's page offers its Factur-X PDF, and so does a KSeF submission's (written as CII)", async () => {
    const cii = await upload(readFileSync(fixturePath("samples", "cii", "mustang_factur-x.xml"), "utf8"));
    await page.goto(`${s.url}/console#/submissions/${cii}`);
    await page.until("document.querySelector('#download-facturx')", "the Factur-X button");
    assert.equal(await text("#download-facturx"), "Download Factur-X PDF");
    const ksef = await upload(invoice("FX/1"));
    await page.goto(`${s.url}/console#/submissions/${ksef}`);
    await page.until("document.querySelector('#ksef-status')", "the KSeF submission's page");
    await page.until("document.querySelector('#download-facturx')", "the KSeF submission's Factur-X button");
  });

  test("an invalid upload shows its violations in place", async () => {
    await page.goto(`${s.url}/console#/submissions`);
    await page.until("document.querySelector('#upload-file')", "the upload form");
    const bad = join(files, "bad.xml");
    writeFileSync(bad, invoice("BAD/1").replace("<KodWaluty>EUR", "<KodWaluty>ZZEUR")); // not a currency of the schema's list
    await page.setFiles("#upload-file", [bad]);
    await page.click("#upload-form button[type=submit]");
    await page.until("document.querySelector('#upload-result .error')", "the upload's answer");
    assert.match(await text("#upload-result"), /VALIDATION_ERROR/);
    await page.until("document.querySelectorAll('#upload-violations tbody tr').length > 0", "the violations table");
    const cells = await page.eval<string[]>("[...document.querySelectorAll('#upload-violations tbody tr:first-child td')].map((td) => td.textContent)");
    assert.equal(cells[0], "XSD");
    assert.equal(cells[3], "/Faktura/Fa/KodWaluty");
    assert.equal(cells[4], "37:9");
    assert.match(await text("#upload-result .error"), /VALIDATION_ERROR/);
  });

  test("a JSON file is uploaded as the JSON of a creation: a valid one is created, a refused one shows its violation's JSON path", async () => {
    await page.goto(`${s.url}/console#/submissions`);
    await page.until("document.querySelector('#upload-file')", "the upload form");
    const good = join(files, "minimal.json");
    writeFileSync(good, JSON.stringify(MINIMAL_FA3));
    await page.setFiles("#upload-file", [good]);
    await page.click("#upload-form button[type=submit]");
    await page.until("document.querySelector('#upload-result .ok, #upload-result .error')", "the upload's answer");
    assert.match(await text("#upload-result"), /FV\/2026\/12\/001 \(sub_/, await text("#upload-result"));
    // Told by its first character: a name without .json.
    const refused = structuredClone(MINIMAL_FA3);
    refused.invoice.number = "FV/2026/12/002";
    refused.invoice.lines[1]!.vat_rate = "19";
    const bad = join(files, "refused-invoice");
    writeFileSync(bad, `  ${JSON.stringify(refused)}`);
    await page.setFiles("#upload-file", [bad]);
    await page.click("#upload-form button[type=submit]");
    await page.until("document.querySelectorAll('#upload-violations tbody tr').length > 0", "the violations table");
    assert.match(await text("#upload-result .error"), /VALIDATION_ERROR/);
    const head = await page.eval<string[]>("[...document.querySelectorAll('#upload-violations thead th')].map((th) => th.textContent)");
    assert.equal(head.at(-1), "Field");
    const cells = await page.eval<string[]>("[...document.querySelectorAll('#upload-violations tbody tr:first-child td')].map((td) => td.textContent)");
    assert.equal(cells[0], "INVOICE-VAT-RATE");
    assert.equal(cells.at(-1), "invoice.lines[1].vat_rate");
  });

  test("a converted upload's page shows what the conversion lost and downloads its source", async () => {
    const form = new FormData();
    form.append("xml", new Blob([readFileSync(fixturePath("samples", "ksef-fa2", "FA_2_Przyklad_14_ROZ.xml"))], { type: "application/xml" }), "roz.xml");
    form.append("as", "ksef-fa3");
    const res = await s.fetch("/api/v1/submissions", token, { method: "POST", body: form });
    assert.equal(res.status, 201, await res.clone().text());
    const sub = (await res.json()) as { id: string; conversion: { losses: { field: string }[] } };
    await page.goto(`${s.url}/console#/submissions/${sub.id}`);
    await page.until("document.querySelectorAll('#losses-table tbody tr').length > 0", "the losses");
    assert.equal(await page.eval("document.querySelectorAll('#losses-table tbody tr').length"), sub.conversion.losses.length);
    assert.equal(await text("#losses-table tbody tr:first-child td:first-child"), "invoice.payment.due_dates[0].description");
    assert.match(await text("#losses"), /Converted from ksef-fa2/);
    await page.click("#download-source button");
    await page.waitFor(async () => page.requests().some((u) => u.endsWith(`/api/v1/submissions/${sub.id}/source`)), "the source's download");
  });

  test("a failed webhook delivery is retried from its log", async () => {
    const res = await s.fetch("/api/v1/webhooks", token, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: "http://127.0.0.1:9/hook", events: ["submission.created"] }),
    });
    const hook = (await res.json()) as { id: string };
    await upload(invoice("HOOK/1"));
    await s.app.webhooks!.runOnce();
    failing = false;
    await page.goto(`${s.url}/console#/webhooks/${hook.id}`);
    await page.until("document.querySelectorAll('#deliveries-table tbody tr').length === 1", "the failed attempt");
    assert.match(await text("#deliveries-table tbody tr td:nth-child(5)"), /500/);
    await page.click("#deliveries-table button.retry");
    await page.until("document.querySelector('#deliveries-table button.retry') === null || document.querySelector('#deliveries-table button.retry').textContent !== 'Retry'", "the retry's answer");
    await s.app.webhooks!.runOnce();
    await page.until("document.querySelectorAll('#deliveries-table tbody tr').length === 2", "the manual attempt in the log");
    const second = await page.eval<string[]>("[...document.querySelectorAll('#deliveries-table tbody tr:nth-child(2) td')].map((td) => td.textContent)");
    assert.match(second[2]!, /manual/);
    assert.equal(second[4], "204");
  });

  test("hostile names are shown as text: no dialog, no request for their URLs", async () => {
    const id = await upload(invoice("EVIL/1", HOSTILE_SELLER));
    s.drop("acme", "<img src=z onerror=alert(3)>.xml", invoice("EVIL/2", HOSTILE_SELLER));
    await s.sync(token);
    await page.goto(`${s.url}/console#/submissions`);
    await page.until(`[...document.querySelectorAll('#submissions-table td')].some((td) => td.textContent === ${JSON.stringify(HOSTILE_SELLER)})`, "the hostile seller as text in the list");
    await page.goto(`${s.url}/console#/submissions/${id}`);
    await page.until(`document.querySelector('#submission') && document.querySelector('#submission').textContent.includes(${JSON.stringify(HOSTILE_SELLER)})`, "the hostile seller on its page");
    // A hostile file name chosen for upload.
    await page.goto(`${s.url}/console#/submissions`);
    await page.until("document.querySelector('#upload-file')", "the upload form");
    const evil = join(files, HOSTILE_FILE);
    writeFileSync(evil, invoice("EVIL/3"));
    await page.setFiles("#upload-file", [evil]);
    await page.until(`document.querySelector('#upload-form .drop').textContent === ${JSON.stringify(HOSTILE_FILE)}`, "the file name as text");
    await page.goto(`${s.url}/console#/documents`);
    await page.until(`[...document.querySelectorAll('#documents-table td')].some((td) => td.textContent.includes(${JSON.stringify(HOSTILE_SELLER)}))`, "the hostile document");
    assert.equal(await page.eval("document.querySelectorAll('main img').length"), 0, "no img element was made");
    assert.deepEqual(page.events.filter((e) => e.method === "Page.javascriptDialogOpening"), [], "no dialog");
    const leaked = page.requests().filter((u) => /\/(x|y|z)$/.test(new URL(u).pathname) || u.includes("onerror"));
    assert.deepEqual(leaked, [], "no request for the hostile URLs");
  });

  test("a technically rejected offline invoice offers its correction, and the two link to each other", async () => {
    const tenant = s.storage.tenant("acme");
    const made = await tenant.createSubmission({
      fields: { type: "invoice", format: "ksef-fa3", number: "OFF/1", issue_date: "2026-11-20", currency: "PLN", seller: { name: "S", tax_id: "5451824119" }, buyer: null, totals: null },
      xml: await tenant.putBlob(new TextEncoder().encode(invoice("OFF/1"))), send: true, issue: { mode: "offline", deadline: "2026-11-23" },
    }, new Date().toISOString());
    assert.ok("created" in made);
    const id = made.created.id;
    const k = made.created.ksef!;
    await tenant.saveSubmissionKsef(id, { ...k, status: "rejected", error: { code: "KSEF_440", message: "Duplikat faktury", details: ["the same seller, type and number"] }, updated_at: new Date().toISOString() });
    await page.goto(`${s.url}/console#/submissions/${id}`);
    await page.until("document.querySelector('#correction-form')", "the correction upload");
    assert.match(await text("#ksef"), /KSEF_440/);
    assert.match(await text("#ksef"), /the same seller, type and number/);
    // Once a correction exists, the original links to it (and no longer offers another).
    const fix = await upload(invoice("OFF/1-FIX"));
    await tenant.saveSubmissionKsef(id, { ...(await tenant.getSubmission(id))!.record.ksef!, corrected_by: fix });
    await tenant.saveSubmissionKsef(fix, { ...(await tenant.getSubmission(fix))!.record.ksef!, corrects: id });
    await page.until("document.querySelector('#link-corrected-by') && !document.querySelector('#correction-form')", "the link to the correction");
    await page.click("#link-corrected-by");
    await page.until(`document.querySelector('#link-corrects') && document.querySelector('#link-corrects').textContent === ${JSON.stringify(id)}`, "the link back");
  });

  test("a sync started from the Syncs view runs and shows in its history", async () => {
    s.drop("acme", "sync-me.xml", invoice("SYNC/1"));
    await page.goto(`${s.url}/console#/syncs`);
    await page.until("document.querySelector('button.start[data-source=inbox]')", "the start button");
    await page.click("button.start[data-source=inbox]");
    await page.until("[...document.querySelectorAll('#runs-table tbody tr td:nth-child(3)')].some((td) => td.textContent === 'succeeded')", "the run succeeded in the history");
    assert.match(await text("#runs-table tbody tr:first-child"), /created 1/);
  });

  test("the overview refreshes while visible, stops while hidden, and resumes when shown again", async () => {
    await page.goto(`${s.url}/console#/overview`);
    await page.until("document.querySelector('#chart-hours')", "the overview");
    const summaries = () => page.requests().filter((u) => u.endsWith("/api/v1/summary")).length;
    const first = summaries();
    await page.waitFor(async () => summaries() > first, "a refresh while visible", 15_000);
    await page.hide();
    const hidden = summaries();
    // Nothing to await for an absence: one refresh period (5 s) and a margin, bounded.
    await new Promise((r) => setTimeout(r, 6_500));
    assert.equal(summaries(), hidden, "no request while hidden");
    await page.show();
    await page.waitFor(async () => summaries() > hidden, "a refresh as soon as it is shown", 3_000);
  });

  test("a hash that is no valid percent-encoding shows Not found, on a hash change and on a fresh load, with no uncaught error", async () => {
    await page.goto(`${s.url}/console#/overview`);
    await page.until("document.querySelector('#overview')", "the overview");
    const seen = page.events.length;
    await page.eval("location.hash = '#/documents/%E0%A4%A'");
    await page.until("document.querySelector('#not-found')", "Not found after the hash change");
    assert.equal(await text("#not-found"), "Not found");
    await page.call("Page.reload", { ignoreCache: true });
    await page.waitFor(async () => page.events.slice(seen).some((e) => e.method === "Page.loadEventFired"), "the reload");
    await page.until("document.querySelector('#not-found')", "Not found after a fresh load");
    assert.ok(await page.eval<boolean>("document.querySelector('nav a#nav-overview') !== null"), "the page is drawn around it");
    const thrown = page.events.slice(seen).filter((e) => e.method === "Runtime.exceptionThrown");
    assert.deepEqual(thrown.map((e) => JSON.stringify(e.params.exceptionDetails)), [], "no uncaught error");
    // A valid id that names nothing is the API's 404, shown in place.
    await page.eval("location.hash = '#/documents/doc_00000000000000000000000000'");
    await page.until("document.querySelector('#document .error')", "the API's 404");
    assert.match(await text("#document .error"), /NOT_FOUND/);
  });

  test("the language switch shows Polish labels", async () => {
    await page.goto(`${s.url}/console#/overview`);
    await page.until("document.querySelector('#lang')", "the switch");
    await page.click("#lang");
    await page.until("document.querySelector('#nav-overview').textContent === 'Przegląd'", "Polish labels");
    assert.equal(await page.eval("document.documentElement.lang"), "pl");
    await page.click("#lang");
    await page.until("document.querySelector('#nav-overview').textContent === 'Overview'", "English again");
  });

  test("no Content-Security-Policy violation and no page error was reported", () => {
    const bad = page.messages().filter((m) => /Content Security Policy|Refused to|exception:|console\.error/.test(m));
    assert.deepEqual(bad, []);
  });

  test("screenshots at 1280 and 390 px", async () => {
    const dir = mkdtempSync(join(tmpdir(), "console-shots-"));
    await page.goto(`${s.url}/console#/overview`);
    // A fresh load with the token in the tab: how long until the overview's data is drawn.
    const seen = page.events.length;
    await page.call("Page.reload", { ignoreCache: true });
    await page.waitFor(async () => page.events.slice(seen).some((e) => e.method === "Page.loadEventFired"), "the reload");
    await page.until("document.readyState === 'complete' && document.querySelector('#chart-hours') && document.querySelector('#chart-days')", "the overview");
    process.stderr.write(`console: overview drawn ${Math.round(await page.eval<number>("performance.now()"))} ms after navigation started\n`);
    for (const width of [1280, 390]) {
      const png = await page.screenshot(width);
      assert.equal(png.subarray(1, 4).toString("latin1"), "PNG");
      assert.equal(png.readUInt32BE(16), width);
      // The page is as wide as the screen: nothing forces a sideways scroll.
      assert.ok(await page.eval<boolean>("document.documentElement.scrollWidth <= window.innerWidth"), `no horizontal overflow at ${width}`);
      writeFileSync(join(dir, `console-${width}.png`), png);
    }
    await page.goto(`${s.url}/console#/submissions`);
    await page.until("document.querySelector('#submissions-table')", "the list");
    writeFileSync(join(dir, "console-submissions-390.png"), await page.screenshot(390));
    if (process.env.CONSOLE_README_SHOT === "1") {
      mkdirSync(join(README_SHOT, ".."), { recursive: true });
      copyFileSync(join(dir, "console-1280.png"), README_SHOT);
    }
    process.stderr.write(`console screenshots in ${dir}\n`);
  });

  test("a documents:read token is offered no submission or webhook view or action", async () => {
    const reader = (await s.token("acme", ["documents:read"])).token;
    const p = await BrowserPage.open(1280, 900);
    try {
      await p.goto(`${s.url}/console`);
      await p.until("document.querySelector('#token')", "the sign-in form");
      await p.type("#token", reader);
      await p.press("Enter");
      await p.until("document.querySelector('#summary-documents')", "the documents part");
      const nav = await p.eval<string[]>("[...document.querySelectorAll('nav a')].map((a) => a.id)");
      assert.deepEqual(nav, ["nav-overview", "nav-documents", "nav-syncs"]);
      assert.equal(await p.eval("document.querySelector('#summary-submissions')"), null);
      await p.eval("location.hash = '#/submissions'");
      await p.until("document.querySelector('#overview')", "the overview instead");
      assert.equal(await p.eval("document.querySelector('#upload-form')"), null);
      await p.eval("location.hash = '#/syncs'");
      await p.until("document.querySelector('#sources-table')", "the sources");
      assert.equal(await p.eval("document.querySelectorAll('button.start').length"), 0, "no sync can be started");
      await p.eval("location.hash = '#/webhooks'");
      await p.until("document.querySelector('#overview')", "the overview instead");
      assert.equal(await p.eval("document.querySelectorAll('button.retry, #webhook-form').length"), 0);
    } finally {
      await p.close();
    }
  });

  test("a documents:read token's console makes no request the token may not make: no 403 in the server's log", async () => {
    const { token: reader, keyId } = await s.token("acme", ["documents:read"]);
    s.drop("acme", "reader.xml", invoice("READ/1"));
    await s.sync(token);
    const doc = ((await (await s.fetch("/api/v1/documents?limit=1", reader)).json()) as { data: { id: string }[] }).data[0]!.id;
    const p = await BrowserPage.open(1280, 900);
    try {
      const mine = () => requests.filter((r) => r.key_id === keyId);
      const before = mine().length;
      await p.goto(`${s.url}/console`);
      await p.until("document.querySelector('#token')", "the sign-in form");
      await p.type("#token", reader);
      await p.press("Enter");
      await p.until("document.querySelector('#summary-documents')", "the documents part");
      // Every view and page the token may see, and two it may not (the console falls back to the overview).
      for (const [hash, ready] of [
        ["#/documents", "#documents-table"], [`#/documents/${doc}`, "#pdf iframe"], ["#/syncs", "#sources-table"],
        ["#/submissions", "#overview"], ["#/webhooks", "#overview"],
      ] as const) {
        await p.eval(`location.hash = ${JSON.stringify(hash)}`);
        await p.until(`location.hash === ${JSON.stringify(hash)} && document.querySelector(${JSON.stringify(ready)})`, ready);
      }
      const made = mine().slice(before);
      assert.ok(made.some((r) => r.route === "/api/v1/token"), "the scopes were read from GET /api/v1/token");
      assert.deepEqual(made.filter((r) => r.status === 403 || r.status === 401), [], "no request was refused");
      assert.deepEqual(made.filter((r) => r.method !== "GET" && r.method !== "HEAD"), [], "a reader changes nothing");
      const allowed = new Set(["/api/v1/token", "/api/v1/summary", "/api/v1/documents", "/api/v1/documents/:id", "/api/v1/documents/:id/pdf", "/api/v1/documents/:id/xml", "/api/v1/documents/sync/:id"]);
      assert.deepEqual(made.filter((r) => !allowed.has(r.route ?? "")), [], "only what documents:read grants");
    } finally {
      await p.close();
    }
  });
});

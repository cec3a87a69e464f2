/**
 * KSeF's technical warnings on the receiving side (README "KSeF"; KSeF API 2.6.0: the `X-System-Warning` header,
 * open-api.json `SystemWarning`): a sync run that hears one logs it at warn level with the tenant and the request,
 * and lists it under `warnings`, each distinct one once however many answers carry it. Through a real server and
 * the KSeF simulator.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Logger } from "../../../../lib/observe/log.ts";
import { validate, type Schema } from "../../../support/json_schema.ts";
import { invoiceXml, NIP, PARTNER, setup } from "./ksef_setup.ts";

function recordingLogger(): { logger: Logger; warned: Record<string, unknown>[] } {
  const warned: Record<string, unknown>[] = [];
  const none = () => {};
  return { warned, logger: { debug: none, info: none, error: none, warn: (msg, f) => void (msg === "upstream warning" && warned.push(f ?? {})), enabled: () => true } };
}

const EXPORT_WARNING = "[EXP-1]: Zapytanie bez restrictToPermanentStorageHwmDate zostanie odrzucone od 2027-01-01 | [EXP-2]: Drugie ostrzezenie";

test("a sync run that hears X-System-Warning logs each distinct warning once with the tenant and request, and lists it under warnings", async () => {
  const log = recordingLogger();
  const t = await setup({}, {}, log.logger);
  try {
    // Every export (one per subject type: three) carries two warnings; the challenge one without a code.
    t.sim.systemWarning = (method, path) => method === "POST" && path === "/invoices/exports" ? EXPORT_WARNING
      : method === "POST" && path === "/auth/challenge" ? "Bez kodu" : null;
    t.sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml("W-1"), invoiceNumber: "W-1" });
    const run = await t.sync();
    assert.equal(run.status, "succeeded", JSON.stringify(run));
    assert.equal(t.sim.log.filter((e) => e.method === "POST" && e.path === "/invoices/exports").length, 3, "three answers carried the export warnings");
    const warnings = run.warnings as Record<string, unknown>[];
    assert.deepEqual(warnings.map((w) => [w.code, w.message, w.operation]), [
      [null, "Bez kodu", "POST /auth/challenge"],
      ["EXP-1", "Zapytanie bez restrictToPermanentStorageHwmDate zostanie odrzucone od 2027-01-01", "POST /invoices/exports"],
      ["EXP-2", "Drugie ostrzezenie", "POST /invoices/exports"],
    ]);
    for (const w of warnings) assert.match(w.at as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(log.warned.map((f) => [f.tenant, f.source, f.run, f.operation, f.code, f.message]), warnings.map((w) => ["acme", "ksef", run.id, w.operation, w.code, w.message]));

    // The run as its id reads later, in the shape the OpenAPI document gives.
    const again = (await (await t.server.fetch(`/api/v1/documents/sync/${String(run.id)}`, t.apiToken)).json()) as Record<string, unknown>;
    assert.deepEqual(again.warnings, warnings);
    const doc = (await (await t.server.fetch("/api/v1/openapi.json", null)).json()) as { components: { schemas: Record<string, Schema> } };
    assert.deepEqual(validate(doc.components.schemas.SyncRun!, again, doc), []);

    // KSeF stops warning: the next run lists none.
    t.sim.systemWarning = null;
    const quiet = await t.sync();
    assert.deepEqual([quiet.status, quiet.warnings], ["succeeded", []]);
  } finally {
    await t.close();
  }
});

/**
 * The CIUS rule packs at the API (README "EU formats"): POST /api/v1/validate names the pack the invoice's
 * specification identifier chooses, an upload that breaks a pack's error rule is refused with its rule id,
 * and a pack's warning never refuses one. Through a real server.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { errorOf } from "../support/api.ts";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";

const text = (dir: string, file: string) => readFileSync(fixturePath("samples", dir, file), "utf8");

/** An upload's body: the invoice as the multipart part `xml`. */
function form(xml: string): FormData {
  const f = new FormData();
  f.append("xml", new Blob([xml], { type: "application/xml" }), "invoice.xml");
  return f;
}

interface Verdict {
  valid: boolean;
  checks: string[];
  errors: { rule: string; path: string; line: number | null }[];
  warnings: { rule: string }[];
}

describe("rule packs at the API", () => {
  let s: TestServer;
  let token: string;
  before(async () => {
    s = await startServer();
    token = (await s.token("acme")).token;
  });
  after(() => s.close());

  const validate = async (xml: string): Promise<Verdict> => {
    const res = await s.fetch("/api/v1/validate", token, { method: "POST", body: xml, headers: { "content-type": "application/xml" } });
    assert.equal(res.status, 200);
    return (await res.json()) as Verdict;
  };

  test("KoSIT's XRechnung business cases pass, with the XRechnung pack named in checks, in UBL and in CII", async () => {
    for (const [dir, file] of [["ubl", "xrechnung_01.02a-INVOICE_ubl.xml"], ["cii", "xrechnung_01.01a-INVOICE_uncefact.xml"]] as const) {
      const v = await validate(text(dir, file));
      assert.equal(v.checks.at(-1), "XRECHNUNG:3.0.2", file);
      assert.deepEqual(v.errors, [], file);
    }
  });

  test("OpenPeppol's example passes with the Peppol pack named in checks", async () => {
    const v = await validate(text("ubl", "peppol-bis3_base-example.xml"));
    assert.deepEqual([v.valid, v.checks.at(-1), v.errors], [true, "PEPPOL-BIS:3.0 3.0.21", []]);
  });

  test("an upload whose GLN fails its check digit is 422 with PEPPOL-COMMON-R040 at the element", async () => {
    const xml = text("ubl", "peppol-bis3_base-example.xml").replace('<cbc:EndpointID schemeID="0088">9482348239847239874</cbc:EndpointID>', '<cbc:EndpointID schemeID="0088">9482348239847239875</cbc:EndpointID>');
    const error = await errorOf(await s.fetch("/api/v1/submissions", token, { method: "POST", body: form(xml) }), 422, "VALIDATION_ERROR");
    const violations = error.details.violations as Verdict["errors"];
    const gln = violations.find((v) => v.rule === "PEPPOL-COMMON-R040");
    assert.ok(gln, JSON.stringify(violations));
    assert.equal(gln.path, "/Invoice/cac:AccountingSupplierParty/cac:Party/cbc:EndpointID");
    assert.equal(typeof gln.line, "number");
  });

  test("an XRechnung invoice that only breaks a warning rule (BR-DE-27, a telephone without three digits) is accepted with the warning", async () => {
    const xml = text("ubl", "xrechnung_01.02a-INVOICE_ubl.xml").replace("<cbc:Telephone>[012-3456789]</cbc:Telephone>", "<cbc:Telephone>ab</cbc:Telephone>");
    const res = await s.fetch("/api/v1/submissions", token, { method: "POST", body: form(xml) });
    const body = (await res.json()) as { validation: Verdict };
    assert.equal(res.status, 201, JSON.stringify(body));
    assert.ok(body.validation.warnings.some((w) => w.rule === "BR-DE-27"));
    assert.ok(body.validation.checks.includes("XRECHNUNG:3.0.2"));
  });
});

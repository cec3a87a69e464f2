import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { formatOf, validateInvoice } from "../../../lib/formats/validation/invoice_validation.ts";
import { SchemaSet } from "../../../lib/formats/validation/schema_set.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import { readSchemaFiles } from "../../../storage/schemas/schema_files.ts";
import { INVALID_SAMPLES, PACK_FAILING_SAMPLES, RULE_FAILING_SAMPLES } from "../../support/invalid_samples.ts";
import { fixturePath } from "../../support/server.ts";

const schemas = new SchemaSet(readSchemaFiles());

/** The CIUS packs' rule ids (Peppol BIS Billing, XRechnung): apart from them, the EN 16931 verdicts stay as they were. */
const PACK_RULE = /^(PEPPOL-|BR-DE-|BR-DEX-|BR-TMP-|(NO|DK|IT|SE|GR|IS|NL|DE)-[RS]-)/;

function verdict(bytes: Uint8Array) {
  const doc = parseXml(bytes);
  return validateInvoice(bytes, doc, formatOf(doc.root)!, schemas);
}

describe("validateInvoice() on the samples", () => {
  for (const dir of ["ksef-fa2", "ksef-fa3", "ubl", "cii"]) {
    for (const file of readdirSync(fixturePath("samples", dir)).filter((f) => f.endsWith(".xml")).sort()) {
      const name = `${dir}/${file}`;
      const reason = INVALID_SAMPLES[name];
      const broken = RULE_FAILING_SAMPLES[name];
      test(`${name} ${reason ? `fails its schema: ${reason}` : broken ? `breaks EN 16931 rules: ${broken.reason}` : "passes"}`, () => {
        const whole = verdict(readFileSync(fixturePath("samples", dir, file)));
        const packErrors = whole.errors.filter((e) => PACK_RULE.test(e.rule));
        assert.deepEqual([...new Set(packErrors.map((e) => e.rule))].sort(), PACK_FAILING_SAMPLES[name] ?? [], name);
        const errors = whole.errors.filter((e) => !PACK_RULE.test(e.rule));
        const r = { ...whole, errors, valid: errors.length === 0 };
        if (broken) {
          assert.equal(r.valid, false);
          assert.deepEqual([...new Set(r.errors.map((e) => e.rule))].sort(), [...broken.rules].sort(), name);
        } else if (reason === undefined) assert.deepEqual(r.errors, [], name);
        else {
          assert.equal(r.valid, false);
          assert.ok(r.errors.every((e) => e.rule === "XSD" && e.line !== null), JSON.stringify(r.errors));
        }
      });
    }
  }
});

test("the shipped schemas compile whole (every type, not only those the samples use)", () => {
  for (const f of ["ksef-fa2", "ubl", "cii"] as const) schemas.forFormat(f).compileAll();
});

test("validateInvoice() names the checks it ran", () => {
  const fa3 = verdict(readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_complex.xml")));
  assert.deepEqual(fa3.checks, ["KSEF-FILE", "XSD:FA(3) 1-0E"]);
  const fa2 = verdict(readFileSync(fixturePath("samples", "ksef-fa2", "FA_2_Przyklad_20.xml")));
  assert.deepEqual(fa2.checks, ["KSEF-FILE", "XSD:FA(2) 1-0E"]);
  const ubl = verdict(readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml")));
  assert.equal(ubl.checks[0], "XSD:UBL 2.1");
  const cii = verdict(readFileSync(fixturePath("samples", "cii", "mustang_facturFrMinimum.xml")));
  assert.deepEqual(cii.checks, ["XSD:CII D16B"], "Factur-X MINIMUM gets its schema only");
});

test("validateInvoice() lists at most 200 findings, errors first", () => {
  const text = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_complex.xml"), "utf8");
  const line = /<FaWiersz>[\s\S]*?<\/FaWiersz>/.exec(text)![0];
  const bad = line.replace(/<P_7>[^<]*<\/P_7>/, `<P_7>${"x".repeat(600)}</P_7>`);
  const r = verdict(new TextEncoder().encode(text.replace(line, Array.from({ length: 300 }, () => bad).join(""))));
  assert.equal(r.valid, false);
  assert.equal(r.errors.length + r.warnings.length, 200);
});

import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { checkSyntaxRules, syntaxRuleSet } from "../../../../lib/formats/validation/en16931/syntax.ts";
import type { XmlElement } from "../../../../lib/formats/xml/tree.ts";
import { BASE, loadSample, sampleBytes } from "./syntax_cases.ts";
import { ruleName, shareRuleNamespaces } from "../../../../lib/formats/validation/en16931/syntax/paths.ts";
import { parseXml } from "../../../../lib/formats/xml/parse.ts";

const SAMPLES = fileURLToPath(new URL("../../../fixtures/samples/", import.meta.url));

/**
 * Samples that break syntax rules, with the error rules they break (checked by hand against the
 * artefacts' Schematron). The rest must pass without an error.
 */
const KNOWN_BAD: Record<string, string[]> = {
  // OASIS's UBL 2.1 example credit note, not an EN 16931 invoice: GLN/ZZZ/CVR/GTIN/UNSPSC/CPV schemes,
  // tax category AA, exemption code AAM, three-decimal line tax amounts.
  "ubl/mustang_UBL-CreditNote-2.1-Example_BOM.ubl.xml": [
    "BR-CL-10", "BR-CL-11", "BR-CL-13", "BR-CL-17", "BR-CL-18", "BR-CL-21", "BR-CL-22", "BR-CL-25", "UBL-DT-01",
  ],
  // Factur-X EXTENDED: a line (a sub-total group) without a net price (CII-SR-439).
  "cii/mustang_UC11_F202600022_EXTENDED_FX_BOM.xml": ["CII-SR-439"],
  // Factur-X EXTENDED: a delivery note reference with an issue date (CII-DT-027).
  "cii/mustang_factur-x-extended.xml": ["CII-DT-027"],
  // Factur-X MINIMUM (not an EN 16931 invoice; checked against its schema only): amounts with currencyID.
  "cii/mustang_facturFrMinimum.xml": ["CII-DT-031"],
};

describe("checkSyntaxRules() on the official and public samples", () => {
  for (const syntax of ["ubl", "cii"] as const) {
    for (const name of readdirSync(SAMPLES + syntax).sort()) {
      const key = `${syntax}/${name}`;
      const expected = KNOWN_BAD[key] ?? [];
      test(`${key} ${expected.length === 0 ? "passes" : `fails ${expected.join(", ")}`}`, () => {
        const violations = checkSyntaxRules(loadSample(syntax, name), syntax);
        const errors = [...new Set(violations.filter((v) => v.severity === "error").map((v) => v.rule))].sort();
        assert.deepEqual(errors, expected);
        for (const v of violations) {
          assert.ok(v.path.startsWith("/") && v.line !== null && v.line > 0 && v.message.length > 0, JSON.stringify(v));
        }
      });
    }
  }
});

describe("the syntax rule sets", () => {
  /** Rule ids per family in the artefacts 1.3.16 (counted in the preprocessed Schematron). */
  const FAMILIES = {
    ubl: { "UBL-SR": 54, "UBL-DT": 24, "UBL-CR": 678, "BR-CL": 23 },
    cii: { "CII-SR": 482, "CII-DT": 101, "BR-CL": 23 },
  };
  for (const syntax of ["ubl", "cii"] as const) {
    test(`${syntax}: every syntax rule and code list of the artefacts, each once`, () => {
      const ids = syntaxRuleSet(syntax).ruleIds;
      assert.equal(new Set(ids).size, ids.length, "no duplicate id");
      const counts: Record<string, number> = {};
      for (const id of ids) {
        const family = id.replace(/-\d+$/, "");
        counts[family] = (counts[family] ?? 0) + 1;
      }
      assert.deepEqual(counts, FAMILIES[syntax]);
    });
  }

  test("a violation carries the rule id, the artefacts' severity, the element's path and position", () => {
    const root = loadSample("ubl", "en16931_ubl-tc434-example1.xml");
    const code = root.children.find((c) => c.local === "DocumentCurrencyCode")!;
    code.text = "XEU";
    const [v, ...rest] = checkSyntaxRules(root, "ubl");
    assert.deepEqual(rest, []);
    assert.deepEqual(v, {
      rule: "BR-CL-04",
      severity: "error",
      path: "/Invoice/cbc:DocumentCurrencyCode",
      line: code.line,
      column: code.column,
      message: "'XEU' is not a valid ISO 4217 alpha-3 currency code",
    });
  });

  test("a damaged document (elements dropped, text emptied, the other syntax) gets verdicts, never an exception", () => {
    for (const [syntax, name] of [["ubl", "en16931_ubl-tc434-example1.xml"], ["cii", "en16931_CII_example1.xml"]] as const) {
      for (let k = 2; k < 9; k++) {
        const root = loadSample(syntax, name);
        let n = 0;
        const damage = (el: XmlElement): void => {
          el.children = el.children.filter(() => ++n % k !== 0);
          if (n % (k + 1) === 0) el.text = "";
          for (const kid of el.children) damage(kid);
        };
        damage(root);
        assert.ok(Array.isArray(checkSyntaxRules(root, syntax)));
        assert.ok(Array.isArray(checkSyntaxRules(root, syntax === "ubl" ? "cii" : "ubl")));
      }
    }
  });

  test("a path names the position of an element among same-named siblings", () => {
    const root = loadSample("ubl", "en16931_ubl-tc434-example1.xml");
    const lines = root.children.filter((c) => c.local === "InvoiceLine");
    const qty = lines[1]!.children.find((c) => c.local === "InvoicedQuantity")!;
    qty.attrs = qty.attrs.map((a) => (a.local === "unitCode" ? { ...a, value: "PIECES" } : a));
    const found = checkSyntaxRules(root, "ubl").filter((v) => v.rule === "BR-CL-23");
    assert.deepEqual(found.map((v) => v.path), ["/Invoice/cac:InvoiceLine[2]/cbc:InvoicedQuantity"]);
  });
});

describe("checkSyntaxRules() keeps nothing of a document", () => {
  test("an element of a namespace no rule names: its namespace is not kept, and the verdict is the same each time", () => {
    const uri = `urn:example:${"x".repeat(100_000)}`;
    const xml = new TextDecoder().decode(sampleBytes("ubl", BASE.ubl)).replace("</Invoice>", `<x:Extra xmlns:x="${uri}"><x:Inner/></x:Extra></Invoice>`);
    const first = checkSyntaxRules(parseXml(xml).root, "ubl");
    assert.equal(ruleName(uri), undefined);
    assert.deepEqual(checkSyntaxRules(parseXml(xml).root, "ubl"), first);
  });
});

test("shareRuleNamespaces() changes no element's namespace URI, in an invoice and past its bound of namespaces", () => {
  const namespacesOf = (el: XmlElement, out: string[] = []): string[] => {
    out.push(el.ns);
    for (const c of el.children) namespacesOf(c, out);
    return out;
  };
  const foreign = Array.from({ length: 40 }, (_, i) => `<x${i}:Note xmlns:x${i}="urn:example:note:${i}">n</x${i}:Note>`).join("");
  const xml = new TextDecoder().decode(sampleBytes("ubl", "en16931_ubl-tc434-example1.xml")).replace("</cbc:ID>", `</cbc:ID>${foreign}`);
  const root = parseXml(new TextEncoder().encode(xml)).root;
  const before = namespacesOf(root);
  assert.ok(new Set(before).size > 40);
  shareRuleNamespaces(root);
  assert.deepEqual(namespacesOf(root), before);
});

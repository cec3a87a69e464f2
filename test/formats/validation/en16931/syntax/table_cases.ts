/**
 * Generates, for every row of a syntax rule table, a document that breaks the rule and checks
 * that the unmodified base document does not: the table-driven families are exercised entry by entry.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { checkSyntaxRules } from "../../../../../lib/formats/validation/en16931/syntax.ts";
import type { RuleRow, SyntaxTable } from "../../../../../lib/formats/validation/en16931/syntax/table.ts";
import { addPath, BASE, createContext, ensureContext as ensureOrCreate, loadSample, only, setAttr } from "../syntax_cases.ts";

/** Rules the artefacts declare but never apply: an earlier context of their pattern matches every element theirs does. */
export const SHADOWED: Record<string, string> = {
  "CII-DT-010": "//ram:TypeCode comes first in the pattern",
  "CII-DT-011": "//ram:TypeCode comes first in the pattern",
  "CII-DT-012": "//ram:TypeCode comes first in the pattern",
};

/**
 * The base document with the rule broken at an element its context matches: an existing one, or
 * (`fresh`) a new one, for contexts whose first match in the base is claimed by an earlier context.
 */
function breakRule(syntax: "ubl" | "cii", context: string, row: RuleRow, fresh: boolean): ReturnType<typeof loadSample> {
  const root = loadSample(syntax, BASE[syntax]);
  const ensureContext = fresh ? createContext : ensureOrCreate;
  switch (row[2]) {
    case "absent":
      addPath(ensureContext(root, context), row[3], 1);
      break;
    case "max":
    case "exactly":
      // Two for "none may differ from the first" (count = 0): one alone is the first.
      addPath(ensureContext(root, context), row[3], row[4] === 0 ? 2 : row[4] + 1);
      break;
    case "present":
      createContext(root, context);
      break;
    case "fn":
      throw new Error(`${row[0]} is tested by hand`);
    default: {
      const el = createContext(root, context);
      const bad = "NOT A CODE";
      if (row[3] === ".") el.text = bad;
      else setAttr(el, row[3].slice(1), bad);
    }
  }
  return root;
}

/** Registers one test per table row (rows of kind `fn` are tested by hand elsewhere). */
export function tableTests(syntax: "ubl" | "cii", table: SyntaxTable): void {
  const clean = checkSyntaxRules(loadSample(syntax, BASE[syntax]), syntax);
  for (const [context, rules] of [...table.syntax, ...table.codes, ...table.model]) {
    for (const row of rules) {
      if (row[2] === "fn") continue;
      const [id, severity, kind] = row;
      test(`${id} (${kind} ${row[3]}) in ${context.slice(0, 80)}`, () => {
        assert.deepEqual(only(clean, id), [], "the base document satisfies the rule");
        let found = only(checkSyntaxRules(breakRule(syntax, context, row, false), syntax), id);
        if (found.length === 0) found = only(checkSyntaxRules(breakRule(syntax, context, row, true), syntax), id);
        if (SHADOWED[id] !== undefined) {
          assert.deepEqual(found, [], SHADOWED[id]);
          return;
        }
        assert.ok(found.length > 0, `${id} fires`);
        assert.equal(found[0]!.severity, severity);
        assert.ok(found[0]!.path.startsWith("/"));
        if (kind === "code" || kind === "code-upper" || kind === "code-exact") {
          // The same element with a listed code passes.
          const root = loadSample(syntax, BASE[syntax]);
          const el = createContext(root, context);
          const code = [...row[4].codes][0]!;
          const value = kind === "code-upper" ? code.toLowerCase() : ` ${code} `.slice(kind === "code-exact" ? 1 : 0, kind === "code-exact" ? -1 : undefined);
          if (row[3] === ".") el.text = value;
          else setAttr(el, row[3].slice(1), value);
          assert.deepEqual(only(checkSyntaxRules(root, syntax), id), []);
        }
      });
    }
  }
}

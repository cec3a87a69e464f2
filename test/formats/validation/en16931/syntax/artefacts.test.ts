/**
 * Reads the CEN/TC 434 artefacts themselves (when they are at hand: EN16931_ARTEFACTS, or a
 * the copies in test/fixtures/en16931/) and checks the rule tables against them:
 * every syntax rule and code-list rule, in its pattern and context order, with its severity, its
 * test path and every code of its list. Skipped where the artefacts are absent.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { CII_TABLE } from "../../../../../lib/formats/validation/en16931/syntax/cii_table.ts";
import type { CodeRow, SyntaxTable } from "../../../../../lib/formats/validation/en16931/syntax/table.ts";
import { UBL_TABLE } from "../../../../../lib/formats/validation/en16931/syntax/ubl_table.ts";

const REPO = fileURLToPath(new URL("../../../../../", import.meta.url));
const DIR = [process.env.EN16931_ARTEFACTS, join(REPO, "test/fixtures/en16931")].find(
  (d): d is string => d !== undefined && existsSync(d),
);

interface Assert {
  pattern: string;
  context: string;
  id: string;
  severity: string;
  test: string;
}

function unescape(s: string): string {
  return s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, "&");
}

/** The syntax-bound and code-list assertions of a preprocessed Schematron, in document order. */
function readAsserts(file: string): Assert[] {
  const text = readFileSync(file, "utf8");
  const out: Assert[] = [];
  for (const p of text.matchAll(/<pattern[^>]*id="([^"]*)"([\s\S]*?)<\/pattern>/g)) {
    for (const r of p[2]!.matchAll(/<rule([^>]*)>([\s\S]*?)<\/rule>/g)) {
      const context = unescape(/context="([^"]*)"/.exec(r[1]!)![1]!).replace(/\s+/g, " ").trim();
      for (const a of r[2]!.matchAll(/<assert((?:\s+[a-z]+="[^"]*")*)\s*>/g)) {
        const id = /id="([^"]*)"/.exec(a[1]!)![1]!;
        if (!/^(UBL-|CII-|BR-CL-)/.test(id)) continue;
        const flag = /flag="([^"]*)"/.exec(a[1]!)![1]!;
        const t = unescape(/test="([^"]*)"/.exec(a[1]!)![1]!).replace(/\s+/g, " ");
        out.push({ pattern: p[1]!, context, id, severity: flag === "fatal" ? "error" : "warning", test: t });
      }
    }
  }
  return out;
}

function check(table: SyntaxTable, file: string): void {
  const ours = [...table.syntax, ...table.codes, ...table.model].flatMap(([context, rules]) => rules.map((r) => ({ context, r })));
  const theirs = readAsserts(file);
  assert.deepEqual(
    ours.map(({ r }) => r[0]).sort(),
    theirs.map((a) => a.id).sort(),
    "the same rule ids",
  );
  const byId = new Map(theirs.map((a) => [a.id, a]));
  for (const { context, r } of ours) {
    const a = byId.get(r[0])!;
    assert.equal(context, a.context, `${r[0]} context`);
    assert.equal(r[1], a.severity, `${r[0]} severity`);
    if (r[2] === "absent" || r[2] === "present" || r[2] === "max" || r[2] === "exactly") {
      assert.ok(a.test.includes(r[3]), `${r[0]} path ${r[3]} in ${a.test}`);
      if (r[2] === "max" || r[2] === "exactly") assert.match(a.test, new RegExp(`${r[2] === "max" ? "<=" : "="}\\s*${r[4]}\\s*\\)?$`), r[0]);
    } else if (r[2] !== "fn") {
      const listed = [...a.test.matchAll(/'( [^']+ )'/g)].map((m) => m[1]!.trim().split(" "));
      const mime = [...a.test.matchAll(/@mimeCode\s*=\s*'([^']*)'/g)].map((m) => m[1]!);
      const codes = r[2] === "code-exact" ? mime : listed.sort((x, y) => y.length - x.length)[0]!;
      assert.deepEqual([...(r as CodeRow)[4].codes].sort(), [...codes].sort(), `${r[0]} code list`);
    }
  }
  // First-match order: our patterns (syntax, codes, model) hold the rules in the artefacts' order.
  const rank = (a: Assert) => (/^(UBL|CII)-/.test(a.id) ? 0 : /Codes/.test(a.pattern) ? 1 : 2);
  const inOrder = theirs.map((a, i) => ({ a, i })).sort((x, y) => rank(x.a) - rank(y.a) || x.i - y.i);
  assert.deepEqual(ours.map(({ r }) => r[0]), inOrder.map(({ a }) => a.id), "rule order");
}

describe("the syntax rule tables against the CEN/TC 434 artefacts 1.3.16", { skip: DIR === undefined ? "artefacts not found" : false }, () => {
  test("UBL", () => check(UBL_TABLE, join(DIR!, "ubl/EN16931-UBL-validation-preprocessed.sch")));
  test("CII", () => check(CII_TABLE, join(DIR!, "cii/EN16931-CII-validation-preprocessed.sch")));
});

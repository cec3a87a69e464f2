/**
 * Shared helpers for the EN 16931 semantic rule tests: the two base invoices
 * (a Peppol BIS UBL example and an XRechnung CII example, both valid), string
 * edits that fail loudly when their anchor is missing (so a case cannot pass by
 * not mutating anything), and a runner for `{ rule, breaks, holds }` tables.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { checkSemanticRules } from "../../../../lib/formats/validation/en16931/semantic.ts";
import type { Violation } from "../../../../lib/formats/validation/violation.ts";
import { parseXml } from "../../../../lib/formats/xml/parse.ts";

export type Syntax = "ubl" | "cii";

export const SAMPLES = join(import.meta.dirname, "..", "..", "..", "fixtures", "samples");

export function sample(syntax: Syntax, name: string): string {
  return readFileSync(join(SAMPLES, syntax, name), "utf8");
}

export const BASE: Record<Syntax, string> = {
  ubl: sample("ubl", "peppol-bis3_base-example.xml"),
  cii: sample("cii", "xrechnung_01.01a-INVOICE_uncefact.xml"),
};

/** The semantic violations of an XML text. */
export function violations(xml: string, syntax: Syntax): Violation[] {
  return checkSemanticRules(parseXml(xml).root, syntax);
}

/** The ids of the rules the text breaks. */
export function rulesOf(xml: string, syntax: Syntax): Set<string> {
  return new Set(violations(xml, syntax).map((v) => v.rule));
}

/** Replaces the `n`-th (1-based) occurrence of `from`; throws when there is none. */
export function edit(xml: string, from: string | RegExp, to: string, n = 1): string {
  let seen = 0;
  const re = typeof from === "string" ? new RegExp(from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "g") : new RegExp(from.source, from.flags.includes("g") ? from.flags : `${from.flags}g`);
  let done = false;
  const out = xml.replace(re, (m: string, ...groups: unknown[]) => {
    seen++;
    if (seen !== n) return m;
    done = true;
    return to.replace(/\$(\d)/g, (_, d: string) => String(groups[Number(d) - 1] ?? ""));
  });
  if (!done) throw new Error(`Cannot find occurrence ${n} of ${String(from)}`);
  return out;
}

/** Replaces every occurrence of `from`; throws when there is none. */
export function editAll(xml: string, from: string, to: string): string {
  if (!xml.includes(from)) throw new Error(`Cannot find ${from}`);
  return xml.split(from).join(to);
}

/** Removes the `n`-th element named `tag` (written with its prefix), content and all. */
export function drop(xml: string, tag: string, n = 1): string {
  return edit(xml, new RegExp(`<${tag}(?:\\s[^>]*)?(?:/>|>[\\s\\S]*?</${tag}>)`), "", n);
}

/** Inserts `text` right before the `n`-th occurrence of `anchor`. */
export function before(xml: string, anchor: string, text: string, n = 1): string {
  return edit(xml, anchor, text + anchor, n);
}

/** Inserts `text` right after the `n`-th occurrence of `anchor`. */
export function after(xml: string, anchor: string, text: string, n = 1): string {
  return edit(xml, anchor, anchor + text, n);
}

export interface RuleCase {
  rule: string;
  syntax: Syntax;
  /** What the broken document changes, in words, for the test name. */
  what: string;
  breaks: (xml: string) => string;
  /** The document that satisfies the rule (with its context present); the base when omitted. */
  holds?: (xml: string) => string;
  base?: string;
}

/** One test per case: the mutated document breaks the rule, the other one does not. */
export function runCases(cases: RuleCase[]): void {
  for (const c of cases) {
    test(`${c.rule} (${c.syntax}): ${c.what}`, () => {
      const base = c.base ?? BASE[c.syntax];
      const bad = rulesOf(c.breaks(base), c.syntax);
      assert.ok(bad.has(c.rule), `expected ${c.rule} among ${[...bad].join(", ") || "none"}`);
      const good = rulesOf(c.holds ? c.holds(base) : base, c.syntax);
      assert.ok(!good.has(c.rule), `${c.rule} reported on the document that satisfies it (${[...good].join(", ")})`);
    });
  }
}

/** A case of one syntax, written without repeating the syntax. */
export type SyntaxCase = Omit<RuleCase, "syntax">;

/** runCases for a table of one syntax. */
export function runSyntaxCases(syntax: Syntax, cases: SyntaxCase[]): void {
  runCases(cases.map((c) => ({ ...c, syntax })));
}

/**
 * The shape of the syntax rule tables (`ubl_table.ts`, `cii_table.ts`): Schematron patterns as
 * ordered lists of rule contexts, each with the rules that apply to the elements it matches.
 * @module
 */
import type { CodeList } from "../code_lists/code_list.ts";
import type { Severity } from "../../violation.ts";

/** The artefacts' `fatal`. */
export const E: Severity = "error";
/** The artefacts' `warning`. */
export const W: Severity = "warning";

/** A rule checked by a hand-written function (see the syntax function modules). */
export type FnRow = readonly [id: string, severity: Severity, kind: "fn"];
/** A rule on what a relative path selects from the context element. */
export type PathRow =
  | readonly [id: string, severity: Severity, kind: "absent" | "present", path: string]
  | readonly [id: string, severity: Severity, kind: "max" | "exactly", path: string, limit: number];
/** A code-list rule on the context element's value (`.`) or one of its attributes (`@name`). */
export type CodeRow = readonly [
  id: string,
  severity: Severity,
  kind: "code" | "code-upper" | "code-exact",
  source: string,
  list: CodeList,
];
export type RuleRow = FnRow | PathRow | CodeRow;

/** A Schematron rule: its context expression and its assertions. */
export type ContextRow = readonly [context: string, rules: readonly RuleRow[]];

/** The patterns of one syntax; within each, an element is checked by the first context that matches it. */
export interface SyntaxTable {
  syntax: readonly ContextRow[];
  codes: readonly ContextRow[];
  model: readonly ContextRow[];
}

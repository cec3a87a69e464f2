/**
 * EN 16931 syntax-bound rules (`UBL-SR-*`, `UBL-DT-*`, `UBL-CR-*`, `CII-SR-*`, `CII-DT-*`) and code
 * lists (`BR-CL-*`), as the CEN/TC 434 validation artefacts 1.3.16 define them for UBL 2.1 and
 * CII D16B: tables of the artefacts' rule contexts and tests (syntax/*_table.ts), the code lists
 * (code_lists/), and hand-written checks where a test is more than a path or a list. Each syntax's
 * rule set is compiled on first use and kept; a check is one walk over the tree.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import type { Violation } from "../violation.ts";
import type { CompiledSyntax } from "./syntax/engine.ts";
import { CII_CHECKS } from "./syntax/cii_checks.ts";
import { CII_TABLE } from "./syntax/cii_table.ts";
import { compileSyntax, runSyntax } from "./syntax/engine.ts";
import { UBL_CHECKS } from "./syntax/ubl_checks.ts";
import { UBL_TABLE } from "./syntax/ubl_table.ts";

const compiled: { ubl?: CompiledSyntax; cii?: CompiledSyntax } = {};

/** The compiled syntax rule set (compiled once, then shared: it holds no per-document state). */
export function syntaxRuleSet(syntax: "ubl" | "cii"): CompiledSyntax {
  return (compiled[syntax] ??= syntax === "ubl" ? compileSyntax(UBL_TABLE, UBL_CHECKS) : compileSyntax(CII_TABLE, CII_CHECKS));
}

/** The syntax rules the document breaks. */
export function checkSyntaxRules(root: XmlElement, syntax: "ubl" | "cii"): Violation[] {
  return runSyntax(syntaxRuleSet(syntax), root);
}

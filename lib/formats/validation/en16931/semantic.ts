/**
 * EN 16931 semantic rules (`BR-*`, `BR-CO-*`, VAT-category rules, `BR-DEC-*`).
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import type { Violation } from "../violation.ts";

/** The semantic rules the document breaks. */
export function checkSemanticRules(_root: XmlElement, _syntax: "ubl" | "cii"): Violation[] {
  return [];
}

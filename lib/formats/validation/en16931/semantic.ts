/**
 * EN 16931 semantic rules (`BR-*`, `BR-CO-*`, the VAT-category rules, `BR-B-*`,
 * `BR-DEC-*`) as the CEN/TC 434 validation artefacts 1.3.16 define them for UBL and
 * CII: each syntax is read into one neutral view (semantic_view_ubl.ts,
 * semantic_view_cii.ts) and one rule set runs over it, following each syntax's
 * artefact where the two test a rule differently. Code lists (`BR-CL-*`) and the
 * syntax-bound rules are in syntax.ts.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import type { Violation } from "../violation.ts";
import { checkDocumentAllowances, checkHeader, checkLines } from "./semantic_core.ts";
import { Report } from "./semantic_report.ts";
import { checkTotals, checkVatTotals } from "./semantic_totals.ts";
import { checkVatCategories } from "./semantic_vat.ts";
import { readCiiView } from "./semantic_view_cii.ts";
import { readUblView } from "./semantic_view_ubl.ts";

/** The semantic rules the document breaks. */
export function checkSemanticRules(root: XmlElement, syntax: "ubl" | "cii"): Violation[] {
  const view = syntax === "ubl" ? readUblView(root) : readCiiView(root);
  const report = new Report(root);
  checkHeader(view, report);
  checkDocumentAllowances(view, report);
  checkLines(view, report);
  checkTotals(view, report);
  checkVatTotals(view, report);
  checkVatCategories(view, report);
  return report.violations;
}

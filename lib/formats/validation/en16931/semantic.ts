/**
 * EN 16931 semantic rules (`BR-*`, `BR-CO-*`, the VAT-category rules, `BR-B-*`,
 * `BR-DEC-*`) as the CEN/TC 434 validation artefacts 1.3.16 define them for UBL and
 * CII: each syntax is read into one neutral view (semantic_view_ubl.ts,
 * semantic_view_cii.ts) and one rule set runs over it, following each syntax's
 * artefact where the two test a rule differently. Code lists (`BR-CL-*`) and the
 * syntax-bound rules are in syntax.ts.
 *
 * Where the two artefacts differ, both are followed: the sums of BR-CO-16 (UBL
 * rounds, CII does not), the tolerance of BR-CO-17 (UBL strict, CII inclusive),
 * BR-CO-15 (CII also accepts equal totals with and without VAT), BR-53 (CII also
 * wants a tax currency other than the invoice's), BR-DEC-13/15 (CII compares values,
 * UBL's test selects nothing), the VAT-category -01 counts, -08 (UBL exact or ±1 by
 * rate; CII rounds each sum, ±1 or exact), -09 (CII skips L and M), the IGIC rate
 * (UBL ≥ 0, CII > 0), and where a rule is reported (UBL once on the invoice, CII on
 * each category or breakdown). BR-CO-05..08 are `true()` in both and never fail.
 * Where an artefact would stop with an XPath error (a number that is not one), the
 * value counts as absent.
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

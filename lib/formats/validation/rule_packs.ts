/**
 * The CIUS rule packs that run on top of the EN 16931 rules, chosen by the specification identifier
 * (BT-24) the invoice claims, as the receivers of those countries check (README "EU formats"):
 * XRechnung 3.0 (xrechnung/) and Peppol BIS Billing 3.0 (peppol/), for UBL and CII. An identifier that
 * names neither gets no pack.
 * @module
 */
import type { XmlElement } from "../xml/tree.ts";
import { specificationIdentifier, type En16931Syntax } from "./en16931/rules.ts";
import { checkPeppol, claimsPeppol, PEPPOL_CHECK } from "./peppol/pack.ts";
import type { Violation } from "./violation.ts";
import { checkXrechnung, claimsXrechnung, XRECHNUNG_CHECK } from "./xrechnung/pack.ts";

/** The packs' names for `checks`, and what they found. */
export interface RulePacksResult {
  checks: string[];
  violations: Violation[];
}

/** Runs the packs the document's BT-24 names. */
export function checkRulePacks(root: XmlElement, syntax: En16931Syntax): RulePacksResult {
  const id = specificationIdentifier(root, syntax);
  if (claimsXrechnung(id)) return { checks: [XRECHNUNG_CHECK], violations: checkXrechnung(root, syntax) };
  if (claimsPeppol(id)) return { checks: [PEPPOL_CHECK[syntax]], violations: checkPeppol(root, syntax) };
  return { checks: [], violations: [] };
}

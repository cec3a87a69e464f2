/**
 * The Peppol BIS Billing 3.0 rule pack: OpenPeppol's schematron (PEPPOL-EN16931-UBL.sch release 3.0.21,
 * PEPPOL-EN16931-CII.sch release 3.0.13) over an invoice whose specification identifier (BT-24) names
 * Peppol BIS Billing 3.0, on top of the EN 16931 rules. Ported by hand; no XSLT at run time.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import type { Violation } from "../violation.ts";
import { checkPeppolCore } from "./core.ts";

/** BT-24 of a Peppol BIS Billing 3.0 invoice (PEPPOL-EN16931-R004: it begins with this). */
export const PEPPOL_BIS_ID = "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0";

/** The pack's name in `checks`, with the release of OpenPeppol's schematron for the syntax (its header: "2026 May release 3.0.21", "2022 May release 3.0.13"). */
export const PEPPOL_CHECK = { ubl: "PEPPOL-BIS:3.0 3.0.21", cii: "PEPPOL-BIS:3.0 3.0.13" } as const;

/** True when BT-24 claims Peppol BIS Billing 3.0. */
export function claimsPeppol(specId: string): boolean {
  return specId.startsWith(PEPPOL_BIS_ID);
}

/** Every Peppol rule the document breaks. */
export function checkPeppol(root: XmlElement, syntax: "ubl" | "cii"): Violation[] {
  return checkPeppolCore(root, syntax);
}

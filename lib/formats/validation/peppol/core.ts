/**
 * Peppol BIS Billing 3.0's rules other than the national ones, over UBL (ubl_core.ts): what the Peppol pack
 * runs, and what the XRechnung pack takes a part of. OpenPeppol's CII binding is not ported yet.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import { Report } from "../en16931/semantic_report.ts";
import type { Violation } from "../violation.ts";
import { checkPeppolUbl, type PeppolReading } from "./ubl_core.ts";

/** Every Peppol transaction, identifier, code-list, profile and format rule the UBL document breaks. */
export function checkPeppolCore(root: XmlElement, reading: PeppolReading = { hufSlack: false }): Violation[] {
  const r = new Report(root);
  checkPeppolUbl(root, r, reading);
  return r.violations;
}

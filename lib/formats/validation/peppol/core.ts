/**
 * Peppol BIS Billing 3.0's rules over UBL (ubl_core.ts, the national ones in ubl_national*.ts) or CII
 * (cii_core.ts, cii_national.ts): what the Peppol pack runs.
 * The XRechnung pack runs its own reading of a part of them.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import { Report } from "../en16931/semantic_report.ts";
import type { Violation } from "../violation.ts";
import { checkPeppolCii } from "./cii_core.ts";
import { checkPeppolCiiNational } from "./cii_national.ts";
import { checkPeppolUbl } from "./ubl_core.ts";
import { checkPeppolUblNational } from "./ubl_national.ts";
import { checkPeppolUblGermany, checkPeppolUblGreece } from "./ubl_national_gr_de.ts";

/** Every Peppol transaction, identifier, code-list, profile and format rule the document breaks. */
export function checkPeppolCore(root: XmlElement, syntax: "ubl" | "cii"): Violation[] {
  const r = new Report(root);
  if (syntax === "ubl") {
    checkPeppolUbl(root, r);
    checkPeppolUblNational(root, r);
    checkPeppolUblGreece(root, r);
    checkPeppolUblGermany(root, r);
  }
  else {
    checkPeppolCii(root, r);
    checkPeppolCiiNational(root, r);
  }
  return r.violations;
}

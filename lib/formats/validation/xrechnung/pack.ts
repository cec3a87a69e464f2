/**
 * The XRechnung 3.0 rule pack: KoSIT's XRechnung schematron 2.5.0 (for XRechnung 3.0.x) over a UBL
 * invoice or credit note that claims XRechnung 3.0, its extension or its CVD profile, on top of the EN 16931
 * rules. The CII binding of the schematron is not ported yet: a CII invoice gets the EN 16931 rules only.
 * XRechnung takes over Peppol BIS Billing 3.0's transaction rules: the ones KoSIT's own test instances
 * exercise run here too, under their Peppol ids. Ported by hand; no XSLT at run time.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import { Report } from "../en16931/semantic_report.ts";
import type { Severity, Violation } from "../violation.ts";
import { checkPeppolCii } from "../peppol/cii_core.ts";
import { checkPeppolUbl } from "../peppol/ubl_core.ts";
import { checkXrechnungCii } from "./cii.ts";
import { checkXrechnungCiiCvd, checkXrechnungCiiExtension } from "./cii_extension.ts";
import { checkXrechnungUbl } from "./ubl.ts";
import { checkXrechnungUblCvd, checkXrechnungUblExtension } from "./ubl_extension.ts";
import { XR_CIUS_ID } from "./vocabulary.ts";

/** The pack's name in `checks`: XRechnung 3.0.2, the standard KoSIT's schematron release 2.5.0 implements ("compatible with XRechnung 3.0.x", its CHANGELOG). */
export const XRECHNUNG_CHECK = "XRECHNUNG:3.0.2";

/**
 * The Peppol BIS Billing rules that XRechnung 3.0 validation reports (the ones KoSIT's test instances name):
 * R004 (Peppol's own specification identifier) and the national rules are not among them.
 */
const PEPPOL_RULES_IN_XRECHNUNG: ReadonlySet<string> = new Set(
  ["001", "005", "008", "010", "020", "040", "041", "042", "043", "043-1", "043-2", "044", "046", "053", "054", "055", "061", "101", "110", "111", "120", "121", "130"].map((n) => `PEPPOL-EN16931-R${n}`),
);

/** True when BT-24 claims XRechnung 3.0 (the CIUS, its extension `#conformant#…` and its CVD profile start with the CIUS id). */
export function claimsXrechnung(specId: string): boolean {
  return specId.startsWith(XR_CIUS_ID);
}

/** Every XRechnung rule the document breaks. */
export function checkXrechnung(root: XmlElement, syntax: "ubl" | "cii"): Violation[] {
  const r = new _XrechnungReport(root);
  if (syntax === "ubl") {
    checkXrechnungUbl(root, r);
    checkXrechnungUblExtension(root, r);
    checkXrechnungUblCvd(root, r);
    checkPeppolUbl(root, r, { hufSlack: true });
  } else {
    checkXrechnungCii(root, r);
    checkXrechnungCiiExtension(root, r);
    checkXrechnungCiiCvd(root, r);
    checkPeppolCii(root, r, { hufSlack: true, xrechnung: true });
  }
  return r.violations;
}

/** A report that drops the Peppol rules XRechnung does not take over before it locates them (locating costs a pass). */
class _XrechnungReport extends Report {
  override add(rule: string, el: XmlElement, message: string, severity: Severity = "error"): void {
    if (rule.startsWith("PEPPOL-") && !PEPPOL_RULES_IN_XRECHNUNG.has(rule)) return;
    super.add(rule, el, message, severity);
  }
}

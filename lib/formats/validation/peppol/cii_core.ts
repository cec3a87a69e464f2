/**
 * Peppol BIS Billing 3.0's transaction rules over CII (OpenPeppol's PEPPOL-EN16931-CII.sch, release 3.0.13).
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import type { Report } from "../en16931/semantic_report.ts";

/** Every Peppol transaction rule (not the national ones) the CII document breaks. */
export function checkPeppolCii(_root: XmlElement, _r: Report): void {}

/**
 * `DaneFaKorygowanej`, the invoice a KSeF correction corrects: the same block in FA(2), FA(3) and FA_RR(1).
 * @module
 */
import type { XmlElement } from "../xml/tree.ts";
import type { InvoiceReference } from "./model.ts";
import { field, fieldsOf, parseDate } from "./query.ts";

/** The corrected invoice as a reference. */
export function readKsefCorrectedInvoice(c: XmlElement, ns: string): InvoiceReference {
  const f = fieldsOf(c, ns);
  return {
    number: field(f, "NrFaKorygowanej"),
    issue_date: parseDate(field(f, "DataWystFaKorygowanej")),
    // NrKSeFN = 1 says the corrected invoice has no KSeF number: that stays null.
    ksef_number: field(f, "NrKSeFFaKorygowanej"),
    in_ksef: field(f, "NrKSeF") === "1" ? true : field(f, "NrKSeFN") === "1" ? false : null,
  };
}

/**
 * The entry point for invoices: detects the format by the root element's
 * namespace and local name (FIELDS.md; a UBL root with KSeF's Polish extension is
 * PEF(3), pef.ts) and reads it into the one invoice model
 * (README “The PDF”); checks the fields a submission needs (the OpenAPI document). Parsing the
 * bytes is lib/formats/xml's job; this module only sees the tree.
 * @module
 */

import { InvoiceError } from "./errors.ts";
import type { XmlDocument } from "../xml/tree.ts";
import { CII_RSM_NS, readCii } from "./cii.ts";
import { KSEF_FA2_NS, KSEF_FA3_NS, readKsef } from "./ksef.ts";
import { KSEF_FA_RR1_NS, readKsefRr } from "./ksef_rr.ts";
import type { Invoice, Party } from "./model.ts";
import { hasPefExtension, readPefParties } from "./pef.ts";
import { readUbl, UBL_CREDIT_NOTE_NS, UBL_INVOICE_NS } from "./ubl.ts";

/**
 * The root element each UBL invoice was read from, for the XML paths of
 * `requireSubmissionFields` (a UBL CreditNote and an Invoice with code 381 both
 * read as type credit_note; no other format's paths depend on it). Kept out of
 * the model: it is not invoice data.
 */
const ROOTS = new WeakMap<Invoice, string>();

/** Options of readInvoice. */
export interface ReadOptions {
  /**
   * False: the lines are left out (`lines` stays empty, and what only lines say: per-line exchange rates, a VAT
   * breakdown's rate told from its lines). A document record's fields come from the rest; a long invoice is read
   * about a third faster.
   */
  lines?: boolean;
}

/** Reads a parsed KSeF FA(2)/FA(3)/FA_RR(1), KSeF PEF(3), UBL 2.1 or CII D16B invoice; any other root is an InvoiceError. */
export function readInvoice(doc: XmlDocument, options: ReadOptions = {}): Invoice {
  const root = doc.root;
  const lines = options.lines ?? true;
  let inv: Invoice;
  if (root.local === "Faktura" && root.ns === KSEF_FA3_NS) inv = readKsef(root, "ksef-fa3", lines);
  else if (root.local === "Faktura" && root.ns === KSEF_FA2_NS) inv = readKsef(root, "ksef-fa2", lines);
  else if (root.local === "Faktura" && root.ns === KSEF_FA_RR1_NS) inv = readKsefRr(root, lines);
  else if ((root.local === "Invoice" && root.ns === UBL_INVOICE_NS) || (root.local === "CreditNote" && root.ns === UBL_CREDIT_NOTE_NS)) {
    const pef = hasPefExtension(root);
    inv = readUbl(root, lines, pef ? "ksef-pef3" : "ubl");
    if (pef) for (const p of readPefParties(root)) inv.third_parties.push(p);
    ROOTS.set(inv, root.local);
  }
  else if (root.local === "CrossIndustryInvoice" && root.ns === CII_RSM_NS) inv = readCii(root, lines);
  else {
    throw new InvoiceError(
      "xml",
      `unsupported root element {${root.ns}}${root.local}`,
      "The XML is not a supported invoice format (KSeF FA(2), FA(3), FA_RR(1), PEF(3), UBL 2.1, CII)",
    );
  }
  return inv;
}

/**
 * The one tax id of a party for the compact JSON and the duplicate key: the VAT
 * id (BT-31, KSeF NIP / NrVatUE / NrID), else the first other tax id (BT-32).
 */
export function partyTaxId(p: Party): string | null {
  return p.tax_id?.value ?? p.other_tax_ids[0]?.value ?? null;
}

/** Throws InvoiceError `required`, naming the XML path, when the number, issue date or seller tax id is missing. */
export function requireSubmissionFields(inv: Invoice): void {
  const paths = _paths(inv);
  if (inv.number === null) throw _required(paths.number, "invoice number");
  if (inv.issue_date === null) throw _required(paths.issueDate, "issue date");
  if (partyTaxId(inv.seller) === null) throw _required(paths.sellerTaxId, "seller tax id");
}

function _required(path: string, what: string) {
  return new InvoiceError(path, "required", `The ${what} is required (${path.slice(4)})`);
}

/** Where each required field lives, in the format's own terms (FIELDS.md). */
function _paths(inv: Invoice): { number: string; issueDate: string; sellerTaxId: string } {
  switch (inv.format) {
    case "ksef-fa2":
    case "ksef-fa3":
      return {
        number: "xml:/Faktura/Fa/P_2",
        issueDate: "xml:/Faktura/Fa/P_1",
        sellerTaxId: "xml:/Faktura/Podmiot1/DaneIdentyfikacyjne/NIP",
      };
    case "ksef-fa-rr1":
      // The farmer (Podmiot1, the supplier) is the seller; the number and issue date are FakturaRR's.
      return {
        number: "xml:/Faktura/FakturaRR/P_4C",
        issueDate: "xml:/Faktura/FakturaRR/P_4B",
        sellerTaxId: "xml:/Faktura/Podmiot1/DaneIdentyfikacyjne/NIP",
      };
    case "ubl":
    case "ksef-pef3": {
      // An invoice copied from a worker thread is not in ROOTS: a UBL credit note has the CreditNote root.
      const root = (ROOTS.get(inv) ?? (inv.type === "credit_note" ? "CreditNote" : "Invoice")) === "CreditNote" ? "/CreditNote" : "/Invoice";
      return {
        number: `xml:${root}/cbc:ID`,
        issueDate: `xml:${root}/cbc:IssueDate`,
        sellerTaxId: `xml:${root}/cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID`,
      };
    }
    case "cii": {
      const doc = "xml:/rsm:CrossIndustryInvoice/rsm:ExchangedDocument";
      return {
        number: `${doc}/ram:ID`,
        issueDate: `${doc}/ram:IssueDateTime/udt:DateTimeString`,
        sellerTaxId:
          "xml:/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement" +
          "/ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID",
      };
    }
  }
}

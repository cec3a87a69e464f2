/**
 * The fields of the invoice object that the UBL writer writes, or that the UBL reader derives again from what it
 * writes (a code's text, a tax id's country, the document type): every other set value is a loss (write_losses.ts).
 * Read beside ubl.ts, ubl_party.ts and ubl_line.ts: a field they read belongs here.
 * @module
 */

import { type CoveredFields, coveredFields } from "./write_losses.ts";

const PARTY = [
  "name", "trading_name", "tax_id", "other_tax_ids", "identifiers", "electronic_address", "registers", "legal_info",
  "address.lines", "address.city", "address.postal_code", "address.subdivision", "address.country_code", "address.gln",
  // A second contact and a department are reported by the party writer.
  "contacts",
];

const LINE = [
  "number", "notes", "object_id", "order_line_reference", "accounting_reference", "period", "name", "description",
  "seller_item_id", "buyer_item_id", "standard_item_id", "classifications", "origin_country", "attributes", "quantity",
  "unit", "net_price", "price_discount", "list_price", "price_base_quantity", "price_base_unit", "net_amount",
  "vat_amount", "vat_category", "vat_rate", "allowances_charges",
];

/** Field patterns (`[]` for a list's items) that the UBL writer covers. */
export const UBL_COVERED: CoveredFields = coveredFields([
  "format", "profile", "business_process", "type", "kind", "number", "issue_date", "tax_point_date",
  // BT-8, written in the period, is checked by the writer.
  "tax_point_date_code",
  "currency", "tax_currency", "notes",
  "delivery.date", "delivery.period", "delivery.party_name", "delivery.location_id",
  ...PARTY.filter((f) => f.startsWith("address.")).map((f) => `delivery.${f}`),
  ...["seller", "buyer", "payee", "tax_representative"].flatMap((p) => PARTY.map((f) => `${p}.${f}`)),
  ...LINE.map((f) => `lines[].${f}`),
  "allowances_charges",
  ...["category", "rate", "taxable_amount", "tax_amount", "exemption_reason", "exemption_reason_code", "tax_scheme"].map((f) => `vat_breakdown[].${f}`),
  ...["line_net", "allowances", "charges", "net", "tax", "tax_in_tax_currency", "gross", "prepaid", "rounding", "payable"].map((f) => `totals.${f}`),
  "payment.means", "payment.means_text", "payment.remittance_info", "payment.terms", "payment.due_dates[].date",
  "payment.accounts[].number", "payment.accounts[].name", "payment.accounts[].bic", "payment.accounts[].bank_name",
  "payment.card", "payment.direct_debit",
  ...["buyer_reference", "project", "contract", "order", "sales_order", "receiving_advice", "despatch_advice", "tender",
    "invoiced_object", "accounting_reference", "preceding_invoices[].number", "preceding_invoices[].issue_date"].map((f) => `references.${f}`),
  // An attachment's filename and MIME code are reported by the writer: the object has not the content.
  "attachments",
]);

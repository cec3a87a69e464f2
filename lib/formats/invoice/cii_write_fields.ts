/**
 * The fields of the invoice object that the CII writer writes, or that the CII reader derives again from what it
 * writes (a code's text, a tax id's country, the document type): every other set value is a loss (write_losses.ts).
 * Read beside cii.ts, cii_party.ts and cii_line.ts: a field they read belongs here.
 * @module
 */

import { type CoveredFields, coveredFields } from "./write_losses.ts";

const PARTY = [
  "name", "trading_name", "tax_id", "other_tax_ids", "identifiers", "electronic_address", "legal_info", "contacts",
  // Registers past the first, address lines past the third and the GLN are reported by the party writer.
  "registers", "address",
];

const LINE = [
  "number", "notes", "object_id", "order_line_reference", "accounting_reference", "period", "name", "description",
  "seller_item_id", "buyer_item_id", "standard_item_id", "classifications", "origin_country", "attributes", "quantity",
  "unit", "net_price", "price_discount", "list_price", "price_base_quantity", "price_base_unit", "net_amount",
  "amount_with_vat", "vat_amount", "vat_category", "vat_rate", "parent_number", "status_reason", "vat_exemption_reason",
  "allowances_charges", ...PARTY.map((f) => `item_seller.${f}`),
];

/** Field patterns of a party that the CII writer covers, and the invoicee's role. */
export const CII_PARTY_COVERED: CoveredFields = coveredFields([...PARTY, "role"]);

/** Field patterns (`[]` for a list's items) that the CII writer covers. */
export const CII_COVERED: CoveredFields = coveredFields([
  "format", "profile", "business_process", "type", "kind", "number", "issue_date", "tax_point_date", "tax_point_date_code",
  "currency", "tax_currency", "notes",
  // The document's exchange rate, the invoicee and the rest of these lists are sorted by the writer.
  "exchange_rates", "third_parties",
  "delivery.date", "delivery.period", "delivery.party_name", "delivery.location_id", "delivery.address",
  ...["seller", "buyer", "payee", "tax_representative"].flatMap((p) => PARTY.map((f) => `${p}.${f}`)),
  ...LINE.map((f) => `lines[].${f}`),
  "allowances_charges",
  ...["category", "rate", "taxable_amount", "tax_amount", "exemption_reason", "exemption_reason_code", "tax_scheme",
    "line_total_basis_amount", "allowance_charge_basis_amount"].map((f) => `vat_breakdown[].${f}`),
  ...["line_net", "allowances", "charges", "net", "tax", "tax_in_tax_currency", "gross", "prepaid", "rounding", "payable"].map((f) => `totals.${f}`),
  "payment.means", "payment.means_text", "payment.remittance_info", "payment.terms", "payment.due_dates[].date",
  "payment.accounts[].number", "payment.accounts[].name", "payment.accounts[].bic",
  "payment.card", "payment.direct_debit", "payment.discount",
  ...["buyer_reference", "project", "contract", "order", "sales_order", "receiving_advice", "despatch_advice", "tender",
    "invoiced_object", "accounting_reference", "preceding_invoices[].number", "preceding_invoices[].issue_date",
    "delivery_notes"].map((f) => `references.${f}`),
  // An attachment's filename and MIME code are reported by the writer: the object has not the content.
  "attachments",
]);

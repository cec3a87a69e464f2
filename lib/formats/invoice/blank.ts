/**
 * Empty values of the invoice model's records, for the readers to fill: every
 * value null, every list empty, every flag false (README “The invoice object”: absent is null or []).
 * No reading here; one place so the three readers start from the same shape.
 * @module
 */

import type { Address, Delivery, Invoice, InvoiceFormat, InvoiceLine, Party, Payment, References } from "./model.ts";

/** An invoice of `format` with nothing read yet. */
export function blankInvoice(format: InvoiceFormat): Invoice {
  return {
    format, profile: null, business_process: null, type: "other", kind: null, number: null,
    issue_date: null, issue_place: null, tax_point_date: null, tax_point_date_code: null,
    created_at: null, system_info: null, delivery: null, currency: null, tax_currency: null,
    exchange_rates: [], seller: blankParty(), buyer: blankParty(), payee: null, tax_representative: null,
    third_parties: [], authorized_party: null, lines: [], allowances_charges: [], vat_breakdown: [],
    totals: {
      line_net: null, allowances: null, charges: null, net: null, tax: null, tax_in_tax_currency: null,
      net_in_tax_currency: null, gross: null, gross_in_tax_currency: null, gross_in_words: null, prepaid: null, rounding: null,
      payable: null,
    },
    settlement: null, payment: null, advance_payments: [], references: blankReferences(), correction: null,
    notes: [], annotations: null, additional_info: [], transaction_terms: null, orders: [], attachments: [],
    registers: [], footer: [], markers: null,
  };
}

/** A party with nothing read yet. */
export function blankParty(): Party {
  return {
    name: null, trading_name: null, tax_id: null, other_tax_ids: [], no_tax_id: false, identifiers: [],
    electronic_address: null, registers: [], legal_info: null, address: null, correspondence_address: null,
    contacts: [], vat_prefix: null, status: null, customer_number: null, supplier_number: null, buyer_id: null, jst: null, gv: null,
  };
}

/** An address with nothing read yet. */
export function blankAddress(): Address {
  return { lines: [], city: null, postal_code: null, subdivision: null, country_code: null, gln: null };
}

/** A line with nothing read yet. */
export function blankLine(): InvoiceLine {
  return {
    number: null, uu_id: null, notes: [], object_id: null, order_line_reference: null,
    accounting_reference: null, period: null, delivery_date: null, name: null, description: null,
    seller_item_id: null, buyer_item_id: null, standard_item_id: null, classifications: [],
    origin_country: null, attributes: [], quantity: null, unit: null, net_price: null, price_with_vat: null,
    price_discount: null, list_price: null, price_base_quantity: null, price_base_unit: null, discount: null,
    net_amount: null, amount_with_vat: null, vat_amount: null, vat_category: null, vat_rate: null,
    vat_rate_text: null, vat_rate_oss: null, annex_15: false, excise_amount: null, gtu: null,
    procedure: null, quality_class: null, exchange_rate: null, before_correction: false, parent_number: null, status_reason: null,
    vat_exemption_reason: null, item_seller: null, allowances_charges: [],
  };
}

/** References with nothing read yet. */
export function blankReferences(): References {
  return {
    buyer_reference: null, project: null, contract: null, order: null, sales_order: null,
    receiving_advice: null, despatch_advice: null, tender: null, invoiced_object: null,
    accounting_reference: null, preceding_invoices: [], advance_invoices: [], delivery_notes: [],
  };
}

/** Payment with nothing read yet. */
export function blankPayment(): Payment {
  return {
    means: null, means_text: null, remittance_info: null, terms: null, due_dates: [], accounts: [],
    card: null, direct_debit: null, paid: false, paid_date: null, partial_status: null,
    partial_payments: [], discount: null, link: null, ksef_payment_id: null, proof_documents: [],
  };
}

/** The invoice's delivery (BG-13), made empty on first use: readers fill it from wherever its parts are. */
export function deliveryOf(inv: Invoice): Delivery {
  inv.delivery ??= { date: null, period: null, party_name: null, location_id: null, address: null };
  return inv.delivery;
}

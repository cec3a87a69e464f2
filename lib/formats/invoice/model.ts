/**
 * One invoice model for every supported format, guided by the EN 16931 semantic
 * model (BT/BG numbers in comments). Readers fill it from XML; the document JSON,
 * duplicate detection and the PDF work from it, never from format-specific XML.
 * Money and quantities are exact decimal strings; absent data is `null`.
 * @module
 */

/** A decimal number written as a plain string: "1230.00", "-5", "0.12345678". */
export type Decimal = string;

import type { DocumentType, InvoiceFormat } from "./vocabulary.ts";

export type { DocumentType, InvoiceFormat } from "./vocabulary.ts";


/** A postal address (BG-5, BG-8). */
export interface Address {
  /** Street lines as written (KSeF AdresL1/AdresL2; UBL StreetName/AdditionalStreetName; CII LineOne…). */
  lines: string[];
  city: string | null;
  postal_code: string | null;
  /** ISO 3166-1 alpha-2 country code. */
  country: string | null;
}

/** A seller or buyer (BG-4, BG-7). */
export interface Party {
  name: string | null;
  /** VAT or tax id as written, without the country prefix when it was given separately (KSeF NIP; BT-31/BT-48). */
  tax_id: string | null;
  /** Country prefix of an EU VAT id when the format gives it separately (KSeF PrefiksPodatnika, KodUE). */
  tax_id_prefix: string | null;
  address: Address | null;
  email: string | null;
}

/** One invoice line (BG-25). */
export interface InvoiceLine {
  /** Line number as written (NrWierszaFa, cbc:ID, ram:LineID). */
  number: string | null;
  name: string | null;
  quantity: Decimal | null;
  /** Unit as written: KSeF P_8A ("szt."), UN/ECE rec 20 code for UBL/CII ("C62"). */
  unit: string | null;
  unit_price: Decimal | null;
  /** True when `unit_price` and `amount` are gross (KSeF P_9B/P_11A). */
  gross_priced: boolean;
  /** Line amount: net (BT-131) or gross when `gross_priced`. */
  amount: Decimal | null;
  /** VAT rate as written: "23", "8", "0", "zw", "np", "0 KR", "19.00", … */
  vat_rate: string | null;
  /** VAT category code where the format has one (UNCL5305: S, Z, E, AE, K, G, O, L, M). */
  vat_category: string | null;
  /** Line VAT amount when given (KSeF P_11Vat). */
  vat_amount: Decimal | null;
  /** KSeF StanPrzed = 1: the row shows the state before the correction. */
  before_correction: boolean;
}

/** One row of the VAT breakdown (BG-23). */
export interface VatBreakdown {
  rate: string | null;
  category: string | null;
  net: Decimal | null;
  tax: Decimal | null;
}

/** Document totals (BG-22). */
export interface Totals {
  /** BT-109; KSeF: sum of P_13_*. */
  net: Decimal | null;
  /** BT-110 in the document currency; KSeF: sum of P_14_*. */
  tax: Decimal | null;
  /** BT-112; KSeF P_15. */
  gross: Decimal | null;
  /** BT-115; KSeF P_15. */
  payable: Decimal | null;
}

/** Payment instructions (BG-16, BT-9, BT-20). */
export interface Payment {
  due_date: string | null;
  /** Payment means as text or code (KSeF FormaPlatnosci "6" = transfer; UNCL4461 "58" = SEPA transfer). */
  means: string | null;
  /** Account number / IBAN (BT-84, KSeF NrRB). */
  account: string | null;
  bank_name: string | null;
  /** Free-text payment terms (BT-20). */
  terms: string | null;
}

/** A reference to an invoice that this one corrects (BG-3; KSeF DaneFaKorygowanej). */
export interface CorrectedInvoice {
  number: string | null;
  issue_date: string | null;
  ksef_number: string | null;
}

/** The invoice, read from any supported format. */
export interface Invoice {
  format: InvoiceFormat;
  /** CustomizationID / guideline id / "FA (3)". */
  profile: string | null;
  type: DocumentType;
  /** The type as written: KSeF RodzajFaktury (VAT, KOR, ZAL, ROZ, UPR, KOR_ZAL, KOR_ROZ) or UNCL1001 (380, 381, 384…). */
  type_code: string | null;
  number: string | null;
  /** YYYY-MM-DD (BT-2). */
  issue_date: string | null;
  /** Date of supply, YYYY-MM-DD (KSeF P_6; BT-72). */
  sale_date: string | null;
  /** ISO 4217 (BT-5). */
  currency: string | null;
  seller: Party;
  buyer: Party;
  lines: InvoiceLine[];
  vat_breakdown: VatBreakdown[];
  totals: Totals;
  payment: Payment | null;
  corrected_invoices: CorrectedInvoice[];
  correction_reason: string | null;
  notes: string[];
}

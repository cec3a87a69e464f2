/**
 * One invoice model for every supported format (README “The invoice object”). EN 16931's business
 * terms are the spine (snake_case names, BT/BG ids in comments); KSeF elements with
 * no EN 16931 term get named places of their own (KSeF element names in comments).
 * Money, quantities and rates are exact decimal strings; dates YYYY-MM-DD; an absent
 * value is `null`, an absent list `[]`. No catch-all bag: every value has a place.
 * What each field holds (its BT/BG id, its KSeF element) is in descriptions.ts, one
 * table per record checked against these interfaces; the OpenAPI document serves those
 * texts. A field's comment here, where there is one, adds detail to the table's text.
 * @module
 */

/** A decimal number written as a plain string: "1230.00", "-5", "0.12345678". */
export type Decimal = string;

import type { DocumentType, InvoiceFormat } from "./vocabulary.ts";

export type { DocumentType, InvoiceFormat } from "./vocabulary.ts";


/** A code as the XML gives it, with readable text where a code list maps it. */
export interface Code {
  code: string;
  /** English text of the code list entry; null when the list does not map the code. */
  text: string | null;
}

/** An identifier with its scheme (EN 16931 "Identifier" with scheme identifier). */
export interface Identifier {
  value: string;
  /** Scheme as written (ISO 6523 ICD "0088", EAS "9930", "GLN", "KSeF IDWew"…), or null. */
  scheme: string | null;
}

/** A tax identifier (BT-31/BT-32/BT-48/BT-63; KSeF NIP, KodUE + NrVatUE, KodKraju + NrID). */
export interface TaxId {
  /** The number; an EU VAT number keeps its country prefix ("DE123456789"), a Polish NIP has none. */
  value: string;
  /** ISO 3166-1 alpha-2 country of the number when known (KSeF KodUE/KodKraju, "PL" for NIP). */
  country: string | null;
  /** "VAT" (EU VAT number, UBL/CII scheme VA), "NIP", "FC" (tax registration, BT-32), "other" (KSeF NrID)… */
  scheme: string | null;
}

/** A postal address (BG-5, BG-8, BG-12, BG-15, BT-75…; KSeF TAdres). */
export interface Address {
  /** Lines as written (BT-35, BT-36, BT-162; KSeF AdresL1, AdresL2). */
  lines: string[];
  city: string | null;
  postal_code: string | null;
  subdivision: string | null;
  /** BT-40 ISO 3166-1 alpha-2 country code (KSeF KodKraju). */
  country_code: string | null;
  /** KSeF GLN of the address. */
  gln: string | null;
}

/** A contact (BG-6, BG-9; KSeF DaneKontaktowe). */
export interface Contact {
  name: string | null;
  /** BT-42/BT-57 telephone (KSeF Telefon). */
  phone: string | null;
  /** BT-43/BT-58 e-mail (KSeF Email). */
  email: string | null;
  /** UBL Telefax / CII FaxUniversalCommunication (no EN 16931 term). */
  fax: string | null;
  /** CII DepartmentName (BT-41 when no person is named). */
  department: string | null;
}

/** A party: seller (BG-4), buyer (BG-7), payee (BG-10), tax representative (BG-11), KSeF Podmiot1/2/3. */
export interface Party {
  /** BT-27/BT-44/BT-59/BT-62; KSeF DaneIdentyfikacyjne/Nazwa. */
  name: string | null;
  trading_name: string | null;
  /** BT-31/BT-48/BT-63 VAT identifier; KSeF NIP or KodUE + NrVatUE or KodKraju + NrID. */
  tax_id: TaxId | null;
  /** Further tax ids: BT-32 tax registration (scheme FC) and others beyond the first. */
  other_tax_ids: TaxId[];
  no_tax_id: boolean;
  /** BT-29/BT-46/BT-60 party identifiers; KSeF IDWew (scheme "IDWew"), NrEORI (scheme "EORI"). */
  identifiers: Identifier[];
  electronic_address: Identifier | null;
  /** BT-30/BT-47/BT-61 legal registration identifiers (company register numbers). */
  registers: Identifier[];
  /** BT-33 additional legal information (share capital, register court). */
  legal_info: string | null;
  /** BG-5/BG-8 address; KSeF Adres. */
  address: Address | null;
  correspondence_address: Address | null;
  /** BG-6/BG-9 contacts; KSeF DaneKontaktowe (up to three). */
  contacts: Contact[];
  vat_prefix: string | null;
  status: Code | null;
  /** KSeF NrKlienta: the customer number. */
  customer_number: string | null;
  /** KSeF FA_RR NrKontrahenta of Podmiot1: the farmer's number in the buyer's contract or order. */
  supplier_number: string | null;
  /** KSeF IDNabywcy: the buyer's id linking a corrected buyer to its correction. */
  buyer_id: string | null;
  /** KSeF JST = 1: a unit of local government (jednostka samorządu terytorialnego); false for 2. */
  jst: boolean | null;
  /** KSeF GV = 1: a VAT group member (grupa VAT); false for 2. */
  gv: boolean | null;
}

/** A third party (KSeF Podmiot3; EN 16931 has none): a party with its role and share. */
export interface ThirdParty extends Party {
  /** KSeF Rola code with its text (1 factor, 2 recipient, 4 additional buyer, 6 payer…). */
  role: Code | null;
  /** KSeF RolaInna = 1 with OpisRoli: a role not on the list, described. */
  role_description: string | null;
  /** KSeF Udzial: the share in percent of an additional buyer. */
  share: Decimal | null;
}

/** A period (BG-14, BG-26; KSeF OkresFa P_6_Od/P_6_Do). */
export interface Period {
  start: string | null;
  end: string | null;
  /** BT-8 / UNTDID 2005 code saying which date is the VAT point, when given with the period. */
  description: string | null;
}

/** Delivery information (BG-13; KSeF P_6, OkresFa). */
export interface Delivery {
  /** BT-72 actual delivery date; KSeF P_6 (date of supply). */
  date: string | null;
  period: Period | null;
  party_name: string | null;
  /** BT-71 deliver-to location identifier. */
  location_id: Identifier | null;
  address: Address | null;
}

/** An exchange rate (KSeF KursWaluty, KursWalutyZ, KursWalutyZK, KursUmowny; BT-111 context). */
export interface ExchangeRate {
  /** Where the rate applies: "invoice", "line", "advance", "before_correction", "contract". */
  applies_to: "invoice" | "line" | "advance" | "before_correction" | "contract";
  /** Line number for a line's rate (KSeF FaWiersz/KursWaluty). */
  line_number: string | null;
  /** The currency converted from (the document currency, or KSeF WalutaUmowna). */
  from_currency: string | null;
  /** The currency converted to (PLN for KSeF, BT-6 for UBL/CII). */
  to_currency: string | null;
  rate: Decimal;
  date: string | null;
}

/** An allowance or charge (BG-20, BG-21, BG-27, BG-28). */
export interface AllowanceCharge {
  /** True for a charge (BG-21/BG-28), false for an allowance (BG-20/BG-27). */
  charge: boolean;
  amount: Decimal | null;
  base_amount: Decimal | null;
  percentage: Decimal | null;
  /** BT-95/BT-102 VAT category (UNCL5305). */
  vat_category: Code | null;
  vat_rate: Decimal | null;
  reason: string | null;
  /** BT-98/BT-105/BT-140/BT-145 (UNCL5189 / UNCL7161). */
  reason_code: Code | null;
}

/** An item classification (BT-158; KSeF PKWiU, CN, PKOB, GTU). */
export interface Classification {
  value: string;
  /** UNTDID 7143 list id ("STI", "HS", …) or the KSeF element: "PKWiU", "CN", "PKOB", "GTU". */
  scheme: string | null;
  /** BT-158-2 scheme version. */
  version: string | null;
}

/** An item attribute (BG-32). */
export interface ItemAttribute {
  name: string | null;
  value: string | null;
}

/** One invoice line (BG-25; KSeF FaWiersz), or one order line (KSeF ZamowienieWiersz). */
export interface InvoiceLine {
  number: string | null;
  /** KSeF UU_ID / UU_IDZ: the universal unique line id. */
  uu_id: string | null;
  notes: string[];
  object_id: Identifier | null;
  order_line_reference: string | null;
  accounting_reference: string | null;
  period: Period | null;
  delivery_date: string | null;
  name: string | null;
  description: string | null;
  seller_item_id: string | null;
  buyer_item_id: string | null;
  /** BT-157 standard item id (GTIN, scheme 0160); KSeF GTIN. */
  standard_item_id: Identifier | null;
  /** BT-158 classifications; KSeF PKWiU, CN, PKOB. */
  classifications: Classification[];
  origin_country: string | null;
  attributes: ItemAttribute[];
  quantity: Decimal | null;
  /** BT-130 unit: UN/ECE rec 20 code for UBL/CII ("C62"), KSeF P_8A as written ("szt."). */
  unit: string | null;
  net_price: Decimal | null;
  /** KSeF P_9B: the unit price including VAT (gross-priced lines, art. 106e ust. 7–8). */
  price_with_vat: Decimal | null;
  price_discount: Decimal | null;
  /** BT-148 item gross price (the price before the price discount, not VAT-inclusive). */
  list_price: Decimal | null;
  price_base_quantity: Decimal | null;
  price_base_unit: string | null;
  /** KSeF P_10: discounts and reductions not in the unit price. */
  discount: Decimal | null;
  net_amount: Decimal | null;
  /** KSeF P_11A: the line value including VAT. */
  amount_with_vat: Decimal | null;
  /** KSeF P_11Vat (P_11VatZ for order lines): the line's VAT amount. */
  vat_amount: Decimal | null;
  /** BT-151 VAT category (UNCL5305; for KSeF derived from P_12). */
  vat_category: Code | null;
  /** BT-152 VAT rate; KSeF P_12 as written ("23", "zw", "np I", "0 KR"…). */
  vat_rate: string | null;
  /** Readable text of a KSeF P_12 code that is not a number ("zw" exempt…). */
  vat_rate_text: string | null;
  /** KSeF P_12_XII: the OSS rate of another member state. */
  vat_rate_oss: Decimal | null;
  /** KSeF P_12_Zal_15 = 1: goods of annex 15 (split payment list). */
  annex_15: boolean;
  /** KSeF KwotaAkcyzy: excise included. */
  excise_amount: Decimal | null;
  /** KSeF GTU: goods and services group code. */
  gtu: string | null;
  /** KSeF Procedura: the procedure marker (WSTO_EE, IED, TT_D, …). */
  procedure: string | null;
  /** KSeF FA_RR P_6C: the class or quality of the farm produce or service bought. */
  quality_class: string | null;
  exchange_rate: Decimal | null;
  before_correction: boolean;
  /** CII ParentLineID (Factur-X Extended): the line this sub-line belongs to. */
  parent_number: string | null;
  /** CII LineStatusReasonCode (Factur-X Extended: DETAIL, GROUP, INFORMATION). */
  status_reason: string | null;
  /** BT-120-like exemption reason given on the line (CII ExemptionReason). */
  vat_exemption_reason: string | null;
  /** CII ItemSellerTradeParty (Factur-X Extended): the seller of this item. */
  item_seller: Party | null;
  allowances_charges: AllowanceCharge[];
}

/** One row of the VAT breakdown (BG-23; KSeF P_13_x/P_14_x/P_14_xW). */
export interface VatBreakdown {
  /** BT-118 VAT category (UNCL5305); for KSeF derived from the P_13 field. */
  category: Code | null;
  /** BT-119 VAT rate; KSeF the rate of the P_13_x field ("23", "zw", "np I"…). */
  rate: string | null;
  /** BT-116 taxable amount; KSeF P_13_x. */
  taxable_amount: Decimal | null;
  /** BT-117 VAT amount; KSeF P_14_x. */
  tax_amount: Decimal | null;
  /** KSeF P_14_xW: the VAT converted to PLN; UBL/CII: VAT in the tax currency (BT-6) where given per rate. */
  tax_amount_tax_currency: Decimal | null;
  /** BT-120 exemption reason text. */
  exemption_reason: string | null;
  /** BT-121 exemption reason code (VATEX). */
  exemption_reason_code: string | null;
  /** The tax scheme: UBL TaxScheme/ID, CII TypeCode ("VAT"); null for KSeF. */
  tax_scheme: string | null;
  /** CII LineTotalBasisAmount and AllowanceChargeBasisAmount (Factur-X Extended). */
  line_total_basis_amount: Decimal | null;
  allowance_charge_basis_amount: Decimal | null;
  /** The KSeF field the row comes from ("P_13_1"), null for UBL/CII. */
  ksef_field: string | null;
}

/** Document totals (BG-22). */
export interface Totals {
  line_net: Decimal | null;
  /** BT-107 sum of allowances. */
  allowances: Decimal | null;
  /** BT-108 sum of charges. */
  charges: Decimal | null;
  /** BT-109 total without VAT; KSeF the sum of P_13_x. */
  net: Decimal | null;
  /** BT-110 total VAT in the document currency; KSeF the sum of P_14_x. */
  tax: Decimal | null;
  /** BT-111 total VAT in the tax currency; KSeF the sum of P_14_xW (PLN); KSeF FA_RR P_11_2W. */
  tax_in_tax_currency: Decimal | null;
  /** KSeF FA_RR P_11_1W: the value bought, in PLN, of an invoice in another currency. */
  net_in_tax_currency: Decimal | null;
  /** BT-112 total with VAT; KSeF P_15; KSeF FA_RR P_12_1 (the value with the flat-rate refund). */
  gross: Decimal | null;
  /** KSeF FA_RR P_12_1W: the gross in PLN, of an invoice in another currency. */
  gross_in_tax_currency: Decimal | null;
  /** KSeF FA_RR P_12_2: the gross in words. */
  gross_in_words: string | null;
  /** BT-113 paid amount (prepaid). */
  prepaid: Decimal | null;
  /** BT-114 rounding amount. */
  rounding: Decimal | null;
  /** BT-115 amount due; KSeF P_15, or Rozliczenie/DoZaplaty when given. */
  payable: Decimal | null;
}

/** KSeF Rozliczenie: charges and deductions settled on the invoice. */
export interface Settlement {
  /** KSeF Obciazenia (Kwota, Powod). */
  charges: { amount: Decimal | null; reason: string | null }[];
  charges_total: Decimal | null;
  /** KSeF Odliczenia (Kwota, Powod). */
  deductions: { amount: Decimal | null; reason: string | null }[];
  deductions_total: Decimal | null;
  /** KSeF DoZaplaty: the amount to pay. */
  to_pay: Decimal | null;
  /** KSeF DoRozliczenia: the amount to settle (overpaid). */
  to_settle: Decimal | null;
}

/** A payment account (BG-17 credit transfer; KSeF RachunekBankowy, RachunekBankowyFaktora). */
export interface PaymentAccount {
  /** BT-84 account id (IBAN); KSeF NrRB. */
  number: string | null;
  /** BT-85 account name. */
  name: string | null;
  /** BT-86 service provider id (BIC); KSeF SWIFT. */
  bic: string | null;
  bank_name: string | null;
  description: string | null;
  /** KSeF RachunekWlasnyBanku code with its text (1–3: the bank's own account…). */
  bank_own_account: Code | null;
  /** True for the factor's account (KSeF RachunekBankowyFaktora). */
  factor: boolean;
  /** Whose account: KSeF FA_RR RachunekBankowy1 the farmer's ("seller"), RachunekBankowy2 the buyer's ("buyer"); else null. */
  held_by: "seller" | "buyer" | null;
}

/** A due date (BT-9; KSeF TerminPlatnosci). */
export interface DueDate {
  date: string | null;
  /** KSeF TerminOpis as free text (FA(2)). */
  description: string | null;
  /** KSeF TerminOpis/Ilosc (FA(3)): how many units after the start event. */
  quantity: string | null;
  /** KSeF TerminOpis/Jednostka (FA(3)): "dni", "tygodnie"… */
  unit: string | null;
  /** KSeF TerminOpis/ZdarzeniePoczatkowe (FA(3)): the event the term counts from. */
  start_event: string | null;
}

/** A partial payment (KSeF ZaplataCzesciowa) or an advance received (KSeF ZaliczkaCzesciowa). */
export interface PartialPayment {
  amount: Decimal | null;
  date: string | null;
  means: Code | null;
  exchange_rate: Decimal | null;
}

/** Payment instructions and status (BG-16, BT-9, BT-20; KSeF Platnosc). */
export interface Payment {
  /** BT-81 payment means (UNCL4461) or KSeF FormaPlatnosci (1–7), with text. */
  means: Code | null;
  /** BT-82 payment means text; KSeF OpisPlatnosci (PlatnoscInna). */
  means_text: string | null;
  /** BT-83 remittance information. */
  remittance_info: string | null;
  /** BT-20 payment terms text. */
  terms: string | null;
  /** BT-9 due dates; KSeF TerminPlatnosci. */
  due_dates: DueDate[];
  /** BG-17; KSeF RachunekBankowy and RachunekBankowyFaktora. */
  accounts: PaymentAccount[];
  /** BG-18 card: BT-87 last digits of the PAN, BT-88 holder. */
  card: { pan: string | null; holder: string | null } | null;
  /** BG-19 direct debit: BT-89 mandate, BT-90 creditor id, BT-91 debited account. */
  direct_debit: { mandate: string | null; creditor_id: string | null; debited_account: string | null } | null;
  /** KSeF Zaplacono = 1: paid in full. */
  paid: boolean;
  paid_date: string | null;
  /** KSeF ZnacznikZaplatyCzesciowej (1 partly paid, 2 paid in parts in full). */
  partial_status: Code | null;
  partial_payments: PartialPayment[];
  /** KSeF Skonto: the cash discount conditions and amount. */
  discount: { conditions: string | null; amount: string | null } | null;
  /** KSeF LinkDoPlatnosci (FA(3)). */
  link: string | null;
  /** KSeF IPKSeF (FA(3), FA_RR(1)): the payment identifier. */
  ksef_payment_id: string | null;
  /** KSeF FA_RR DokumentZaplaty: the documents that prove the payment (art. 116 ust. 6 pkt 3 of the VAT act). */
  proof_documents: { number: string | null; date: string | null }[];
}

/** A reference to a preceding or corrected invoice (BG-3; KSeF DaneFaKorygowanej). */
export interface InvoiceReference {
  number: string | null;
  issue_date: string | null;
  /** KSeF NrKSeFFaKorygowanej; null when NrKSeFN = 1 says it has none. */
  ksef_number: string | null;
  /** KSeF NrKSeF = 1: issued in KSeF (true); NrKSeFN = 1: issued outside KSeF (false); null when not said. */
  in_ksef: boolean | null;
}

/** A KSeF FakturaZaliczkowa: an advance invoice settled by a final (ROZ) invoice. */
export interface AdvanceInvoiceReference {
  /** KSeF NrFaZaliczkowej (issued outside KSeF, NrKSeFZN = 1). */
  number: string | null;
  ksef_number: string | null;
}

/** A supporting or referenced document (BG-24, BT-17, BT-18 …). */
export interface DocumentReference {
  id: string | null;
  /** Scheme of the id (BT-18-1) or the document type code. */
  scheme: string | null;
  issue_date: string | null;
}

/** References to other documents (BT-10…BT-19, BG-3; KSeF WZ, FakturaZaliczkowa). */
export interface References {
  /** BT-10 buyer reference (Leitweg-ID…). */
  buyer_reference: string | null;
  /** BT-11 project reference. */
  project: string | null;
  /** BT-12 contract reference. */
  contract: string | null;
  /** BT-13 purchase order reference. */
  order: string | null;
  /** BT-14 sales order reference. */
  sales_order: string | null;
  /** BT-15 receiving advice reference. */
  receiving_advice: string | null;
  /** BT-16 despatch advice reference. */
  despatch_advice: string | null;
  /** BT-17 tender or lot reference. */
  tender: string | null;
  /** BT-18 invoiced object identifier with its scheme. */
  invoiced_object: Identifier | null;
  /** BT-19 buyer accounting reference. */
  accounting_reference: string | null;
  /** BG-3 preceding invoices; KSeF DaneFaKorygowanej of corrections. */
  preceding_invoices: InvoiceReference[];
  /** KSeF FakturaZaliczkowa: advance invoices settled by this one. */
  advance_invoices: AdvanceInvoiceReference[];
  /** KSeF WZ: goods-issue note numbers. */
  delivery_notes: string[];
}

/** What a correction corrects and why (KSeF PrzyczynaKorekty, TypKorekty, Podmiot1K, Podmiot2K). */
export interface Correction {
  reason: string | null;
  /** KSeF TypKorekty (1 as of the original, 2 as of the correction, 3 other) with text. */
  type: Code | null;
  /** KSeF NrFaKorygowany: the right number, when the correction corrects the invoice number. */
  corrected_number: string | null;
  /** KSeF OkresFaKorygowanej: the period of a collective correction. */
  period: string | null;
  /** KSeF Podmiot1K: the seller's data as on the corrected invoice. */
  seller_before: Party | null;
  /** KSeF Podmiot2K: the buyers' data as on the corrected invoice. */
  buyers_before: Party[];
  /** KSeF P_15ZK: the amount before the correction (advance invoices). */
  amount_before: Decimal | null;
  /** KSeF KursWalutyZK: the rate before the correction. */
  exchange_rate_before: Decimal | null;
}

/** A document note (BG-1). */
export interface Note {
  /** BT-21 subject code (UNCL4451). */
  subject_code: string | null;
  /** BT-22 text. */
  text: string;
}

/** KSeF Adnotacje: the annotations with their legal meaning. */
export interface Annotations {
  /** P_16 = 1: cash accounting (metoda kasowa). */
  cash_accounting: boolean;
  /** P_17 = 1: self-billing (samofakturowanie). */
  self_billing: boolean;
  /** P_18 = 1: reverse charge (odwrotne obciążenie). */
  reverse_charge: boolean;
  /** P_18A = 1: split payment mechanism (mechanizm podzielonej płatności). */
  split_payment: boolean;
  /** Zwolnienie: P_19 = 1 with its basis P_19A (act), P_19B (directive), P_19C (other); P_19N = 1 none. */
  exemption: { applies: boolean; act: string | null; directive: string | null; other: string | null };
  /** NoweSrodkiTransportu: P_22 = 1 (intra-EU supply of new means of transport), with P_42_5 and vehicles. */
  new_transport: { applies: boolean; art_42_5: boolean; vehicles: NewVehicle[] };
  /** P_23 = 1: simplified triangular procedure (procedura uproszczona WE). */
  triangular: boolean;
  /** PMarzy: P_PMarzy = 1 with its scheme (P_PMarzy_2, _3_1, _3_2, _3_3) as code and text. */
  margin: { applies: boolean; scheme: Code | null };
}

/** KSeF NowySrodekTransportu: one new means of transport. */
export interface NewVehicle {
  /** P_22A date of first use. */
  first_use_date: string | null;
  /** NrWierszaNST: the invoice line. */
  line_number: string | null;
  /** P_22BMK make, P_22BMD model, P_22BK colour, P_22BNR registration, P_22BRP year. */
  make: string | null;
  model: string | null;
  colour: string | null;
  registration: string | null;
  year: string | null;
  /** P_22B (mileage), P_22C (hours of use, vessel), P_22D (hours, aircraft) with P_22B1–4, P_22BT, P_22C1, P_22D1. */
  usage: { field: string; value: string }[];
}

/** KSeF DodatkowyOpis: a key and value, tied to a line when NrWiersza is given. */
export interface AdditionalInfo {
  line_number: string | null;
  key: string | null;
  value: string | null;
}

/** A transport of KSeF WarunkiTransakcji/Transport. */
export interface Transport {
  /** RodzajTransportu code with text, or TransportInny + OpisInnegoTransportu. */
  kind: Code | null;
  kind_description: string | null;
  /** Przewoznik: the carrier, with AdresPrzewoznika. */
  carrier: Party | null;
  order_number: string | null;
  /** OpisLadunku code with text, or LadunekInny + OpisInnegoLadunku. */
  cargo: Code | null;
  cargo_description: string | null;
  packaging: string | null;
  /** DataGodzRozpTransportu / DataGodzZakTransportu as written (date-time). */
  start: string | null;
  end: string | null;
  /** WysylkaZ, WysylkaPrzez, WysylkaDo. */
  from: Address | null;
  via: Address[];
  to: Address | null;
}

/** KSeF WarunkiTransakcji: contracts, orders, delivery terms, contract rate, transport. */
export interface TransactionTerms {
  /** Umowy: DataUmowy, NrUmowy. */
  contracts: { date: string | null; number: string | null }[];
  /** Zamowienia: DataZamowienia, NrZamowienia. */
  orders: { date: string | null; number: string | null }[];
  batch_numbers: string[];
  delivery_terms: string | null;
  /** KursUmowny and WalutaUmowna. */
  contract_rate: Decimal | null;
  contract_currency: string | null;
  transports: Transport[];
  /** PodmiotPosredniczacy = 1: an intermediary in a chain transaction. */
  intermediary: boolean;
}

/** KSeF Zamowienie: the order of an advance invoice (ZAL), its value and lines. */
export interface Order {
  value: Decimal | null;
  lines: InvoiceLine[];
}

/** A table of a KSeF Zalacznik block. */
export interface AttachmentTable {
  /** TMetaDane: TKlucz, TWartosc. */
  meta: { key: string | null; value: string | null }[];
  description: string | null;
  /** TNaglowek/Kol: column type (attribute Typ) and name (NKom). */
  columns: { type: string | null; name: string | null }[];
  rows: string[][];
  summary: string[];
}

/** An attachment: a KSeF Zalacznik/BlokDanych, or an EN 16931 supporting document (BG-24). */
export interface Attachment {
  /** BT-122 supporting document reference. */
  id: string | null;
  /** BT-123 description; KSeF ZNaglowek (the block's heading). */
  description: string | null;
  /** BT-124 external location. */
  url: string | null;
  /** BT-125 attached document's filename and MIME code (content is not copied). */
  filename: string | null;
  mime_code: string | null;
  /** KSeF MetaDane: ZKlucz, ZWartosc. */
  meta: { key: string | null; value: string | null }[];
  paragraphs: string[];
  tables: AttachmentTable[];
}

/** KSeF Stopka/Rejestry: the seller's registers. */
export interface Registers {
  full_name: string | null;
  krs: string | null;
  regon: string | null;
  bdo: string | null;
}

/** KSeF Fa flags outside Adnotacje. */
export interface Markers {
  /** FP = 1: an invoice for a receipt (art. 109 ust. 3d). */
  receipt_invoice: boolean;
  /** TP = 1: related parties (art. 32 ust. 2). */
  related_parties: boolean;
  /** ZwrotAkcyzy = 1: excise refund for farmers. */
  excise_refund: boolean;
}

/** The invoice, read from any supported format (README “The invoice object”). */
export interface Invoice {
  format: InvoiceFormat;
  /** BT-24 specification identifier (CustomizationID / guideline); KSeF kodSystemowy "FA (3)". */
  profile: string | null;
  /** BT-23 business process (ProfileID). */
  business_process: string | null;
  type: DocumentType;
  /** KSeF RodzajFaktury (VAT, KOR, ZAL, ROZ, UPR, KOR_ZAL, KOR_ROZ) or BT-3 UNTDID 1001 code, with text. */
  kind: Code | null;
  number: string | null;
  /** BT-2 YYYY-MM-DD; KSeF P_1. */
  issue_date: string | null;
  /** KSeF P_1M: place of issue. */
  issue_place: string | null;
  /** BT-7 VAT point date. */
  tax_point_date: string | null;
  /** BT-8 VAT point date code (UNTDID 2005). */
  tax_point_date_code: string | null;
  /** KSeF Naglowek/DataWytworzeniaFa: when the XML was made. */
  created_at: string | null;
  system_info: string | null;
  /** BG-13/BG-14 delivery and invoicing period; KSeF P_6, OkresFa. */
  delivery: Delivery | null;
  /** BT-5 ISO 4217; KSeF KodWaluty. */
  currency: string | null;
  /** BT-6 VAT accounting currency; "PLN" for KSeF invoices in another currency with PLN amounts. */
  tax_currency: string | null;
  /** KSeF KursWaluty (lines), KursWalutyZ, KursWalutyZK, KursUmowny. */
  exchange_rates: ExchangeRate[];
  seller: Party;
  buyer: Party;
  /** BG-10 payee. */
  payee: Party | null;
  /** BG-11 seller's tax representative. */
  tax_representative: Party | null;
  /** KSeF Podmiot3: third parties with role and share. */
  third_parties: ThirdParty[];
  /** KSeF PodmiotUpowazniony with its RolaPU in `status`. */
  authorized_party: ThirdParty | null;
  /** BG-25; KSeF FaWiersz (before/after rows of corrections marked). */
  lines: InvoiceLine[];
  /** BG-20, BG-21 document allowances and charges. */
  allowances_charges: AllowanceCharge[];
  vat_breakdown: VatBreakdown[];
  totals: Totals;
  settlement: Settlement | null;
  payment: Payment | null;
  /** KSeF ZaliczkaCzesciowa: advances received that this invoice documents (FA(3)). */
  advance_payments: PartialPayment[];
  references: References;
  /** Corrections: KSeF PrzyczynaKorekty, TypKorekty, Podmiot1K/2K, P_15ZK. Null for other documents. */
  correction: Correction | null;
  /** BG-1 notes. */
  notes: Note[];
  /** KSeF Adnotacje; null for UBL/CII. */
  annotations: Annotations | null;
  additional_info: AdditionalInfo[];
  transaction_terms: TransactionTerms | null;
  orders: Order[];
  /** KSeF Zalacznik blocks; BG-24 supporting documents. */
  attachments: Attachment[];
  /** KSeF Stopka/Rejestry (up to 100). */
  registers: Registers[];
  footer: string[];
  /** KSeF FP, TP, ZwrotAkcyzy; null for UBL/CII. */
  markers: Markers | null;
}

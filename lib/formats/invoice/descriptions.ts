/**
 * What each field of the invoice model (model.ts) holds: its EN 16931 business term (BT/BG)
 * and/or the KSeF element it comes from. The one home of these texts: the OpenAPI
 * document's invoice schemas (README “The invoice object”) take their descriptions from
 * here. Each table is checked against its interface, so a field added to the model
 * without a description here fails the type check.
 * @module
 */
import type {
  AdditionalInfo, AdvanceInvoiceReference, AllowanceCharge, Annotations, Attachment, AttachmentTable, Classification, Code,
  Contact, Correction, Delivery, DueDate, ExchangeRate, Identifier, Invoice, InvoiceLine, InvoiceReference, ItemAttribute,
  Markers, Address, NewVehicle, Note, Order, PartialPayment, Party, Payment, PaymentAccount, Period, References, Registers,
  Settlement, TaxId, ThirdParty, Totals, TransactionTerms, Transport, VatBreakdown,
} from "./model.ts";

/** A description per field; null where the field's type says all (a plain value, an enum). */
type Described<T> = Record<keyof T, string | null>;
/** The fields a record adds to the one it extends. */
type Added<T, Base> = Record<Exclude<keyof T, keyof Base>, string | null>;

/** What each record (and each nested object without a record of its own) is. */
export const RECORD_DESCRIPTIONS = {
  code: "A code as the XML gives it, with readable text where a code list maps it",
  identifier: "An identifier with its scheme",
  tax_id: "A tax identifier",
  address: "A postal address (BG-5, BG-8, BG-12, BG-15; KSeF TAdres)",
  contact: "A contact (BG-6, BG-9; KSeF DaneKontaktowe)",
  party: "A party: seller (BG-4, KSeF Podmiot1), buyer (BG-7, Podmiot2), payee (BG-10), tax representative (BG-11)",
  third_party: "A third party (KSeF Podmiot3, PodmiotUpowazniony; CII InvoiceeTradeParty; KSeF PEF cac-pl:AdditionalAddressData parties) with role and share",
  period: "A period (BG-14, BG-26; KSeF OkresFa)",
  delivery: "Delivery (BG-13)",
  exchange_rate: "An exchange rate (KSeF KursWaluty, KursWalutyZ, KursWalutyZK, KursUmowny; CII TaxApplicableTradeCurrencyExchange)",
  allowance_charge: "An allowance or charge (BG-20, BG-21, BG-27, BG-28)",
  classification: "An item classification (BT-158)",
  item_attribute: "An item attribute (BG-32)",
  line: "An invoice line (BG-25; KSeF FaWiersz) or an order line (KSeF ZamowienieWiersz)",
  vat_breakdown: "A VAT breakdown row (BG-23; KSeF P_13_x/P_14_x/P_14_xW)",
  totals: "Document totals (BG-22)",
  settlement: "KSeF Rozliczenie",
  settlement_charge: "Obciazenia",
  settlement_deduction: "Odliczenia",
  payment_account: "A payment account (BG-17; KSeF RachunekBankowy, RachunekBankowyFaktora)",
  due_date: "A due date (BT-9; KSeF TerminPlatnosci)",
  partial_payment: "A partial payment (KSeF ZaplataCzesciowa) or an advance received (KSeF ZaliczkaCzesciowa)",
  payment: "Payment instructions and status (BG-16; KSeF Platnosc)",
  card: "BG-18",
  direct_debit: "BG-19",
  payment_discount: "KSeF Skonto; CII ApplicableTradePaymentDiscountTerms",
  proof_document: "KSeF FA_RR DokumentZaplaty: a document proving the payment",
  invoice_reference: "A preceding or corrected invoice (BG-3; KSeF DaneFaKorygowanej)",
  advance_invoice: "KSeF FakturaZaliczkowa",
  references: "References (BT-10…BT-19, BG-3)",
  correction: "A correction (KSeF)",
  note: "A note (BG-1)",
  annotations: "KSeF Adnotacje",
  exemption: "Zwolnienie",
  new_transport: "NoweSrodkiTransportu",
  new_vehicle: "NowySrodekTransportu",
  vehicle_usage: "P_22B… usage field",
  margin: "PMarzy",
  additional_info: "KSeF DodatkowyOpis",
  transport: "KSeF WarunkiTransakcji/Transport",
  transaction_terms: "KSeF WarunkiTransakcji",
  contract: "Umowy",
  order_ref: "Zamowienia",
  order: "KSeF Zamowienie",
  attachment_table: "A KSeF Zalacznik table (Tabela)",
  attachment_meta: "A key and its value",
  attachment_column: "A column",
  attachment: "A KSeF Zalacznik/BlokDanych, or an EN 16931 supporting document (BG-24; content not copied)",
  registers: "KSeF Stopka/Rejestry",
  markers: "KSeF FP, TP, ZwrotAkcyzy",
  invoice: "The whole invoice: EN 16931 business terms, KSeF elements in places of their own",
} as const;

export const CODE_FIELDS = {
  code: null, text: "English text of the code list entry; null when unmapped",
} as const satisfies Described<Code>;

export const IDENTIFIER_FIELDS = {
  value: null, scheme: "Scheme as written (ISO 6523 ICD, EAS code, GTIN, IDWew…)",
} as const satisfies Described<Identifier>;

export const TAX_ID_FIELDS = {
  value: "The number; an EU VAT number keeps its country prefix",
  country: "ISO 3166-1 alpha-2 country of the number (KSeF KodUE/KodKraju; PL for NIP)",
  scheme: "VAT (EU VAT number; UBL TaxScheme), NIP, NrID (KSeF), VA/FC (CII schemeID), FC (BT-32)",
} as const satisfies Described<TaxId>;

export const ADDRESS_FIELDS = {
  lines: "BT-35, BT-36, BT-162 address lines; KSeF AdresL1, AdresL2",
  city: "BT-37 city", postal_code: "BT-38 post code", subdivision: "BT-39 country subdivision",
  country_code: "BT-40 country code; KSeF KodKraju", gln: "KSeF GLN; UBL address ID with scheme 0088",
} as const satisfies Described<Address>;

export const CONTACT_FIELDS = {
  name: "BT-41/BT-56 contact point", phone: "BT-42/BT-57 telephone; KSeF Telefon",
  email: "BT-43/BT-58 e-mail; KSeF Email", fax: "UBL Telefax, CII FaxUniversalCommunication",
  department: "CII DepartmentName",
} as const satisfies Described<Contact>;

export const PARTY_FIELDS = {
  name: "BT-27/BT-44/BT-59/BT-62 name; KSeF DaneIdentyfikacyjne/Nazwa",
  trading_name: "BT-28/BT-45 trading name; CII TradingBusinessName",
  tax_id: "BT-31/BT-48/BT-63 VAT identifier; KSeF NIP, KodUE + NrVatUE or KodKraju + NrID",
  other_tax_ids: "BT-32 tax registration (scheme FC) and further tax ids",
  no_tax_id: "KSeF BrakID = 1: the party has no identifier",
  identifiers: "BT-29/BT-46/BT-60 party identifiers; KSeF IDWew (scheme IDWew), NrEORI (scheme EORI)",
  electronic_address: "BT-34/BT-49 electronic address with its EAS scheme",
  registers: "BT-30/BT-47/BT-61 legal registration identifiers",
  legal_info: "BT-33 additional legal information; UBL CompanyLegalForm, CII Description",
  address: "BG-5/BG-8/BG-12 postal address; KSeF Adres",
  correspondence_address: "KSeF AdresKoresp: the correspondence address",
  contacts: "BG-6/BG-9 contacts; KSeF DaneKontaktowe",
  vat_prefix: "KSeF PrefiksPodatnika of Podmiot1: the seller's EU VAT prefix",
  status: "KSeF StatusInfoPodatnika (1 liquidation, 2 restructuring, 3 bankruptcy, 4 inheritance)",
  customer_number: "KSeF NrKlienta",
  supplier_number: "KSeF FA_RR NrKontrahenta (Podmiot1): the farmer's number in the buyer's contract or order",
  buyer_id: "KSeF IDNabywcy",
  jst: "KSeF JST: a unit of local government (1 true, 2 false)",
  gv: "KSeF GV: a member of a VAT group (1 true, 2 false)",
} as const satisfies Described<Party>;

export const THIRD_PARTY_FIELDS = {
  role: "KSeF Rola (1 factor, 2 recipient, 4 additional buyer, 6 payer…) or RolaPU; CII invoicee; PEF SellerSupplierParty or ReceiverParty",
  role_description: "KSeF OpisRoli (RolaInna = 1)",
  share: "KSeF Udzial: share in percent of an additional buyer",
} as const satisfies Added<ThirdParty, Party>;

export const PERIOD_FIELDS = {
  start: "BT-73/BT-134; KSeF P_6_Od", end: "BT-74/BT-135; KSeF P_6_Do",
  description: "BT-8 VAT point date code given with the period (UBL DescriptionCode)",
} as const satisfies Described<Period>;

export const DELIVERY_FIELDS = {
  date: "BT-72 actual delivery date; KSeF P_6", period: "BG-14 invoicing period; KSeF OkresFa",
  party_name: "BT-70 deliver-to party name", location_id: "BT-71 deliver-to location id",
  address: "BG-15 deliver-to address",
} as const satisfies Described<Delivery>;

export const EXCHANGE_RATE_FIELDS = {
  applies_to: null,
  line_number: "Line of a line rate (KSeF FaWiersz/KursWaluty)",
  from_currency: "Source currency", to_currency: "Target currency (PLN for KSeF; BT-6)",
  rate: null, date: "CII ConversionRateDateTime",
} as const satisfies Described<ExchangeRate>;

export const ALLOWANCE_CHARGE_FIELDS = {
  charge: "True for a charge, false for an allowance (ChargeIndicator)",
  amount: "BT-92/BT-99/BT-136/BT-141", base_amount: "BT-93/BT-100/BT-137/BT-142",
  percentage: "BT-94/BT-101/BT-138/BT-143", vat_category: "BT-95/BT-102 (UNCL5305)",
  vat_rate: "BT-96/BT-103", reason: "BT-97/BT-104/BT-139/BT-144",
  reason_code: "BT-98/BT-105/BT-140/BT-145 (UNCL5189; charges UNCL7161, unmapped)",
} as const satisfies Described<AllowanceCharge>;

export const CLASSIFICATION_FIELDS = {
  value: null, scheme: "BT-158-1 list id, or PKWiU/CN/PKOB for KSeF", version: "BT-158-2",
} as const satisfies Described<Classification>;

export const ITEM_ATTRIBUTE_FIELDS = { name: "BT-160", value: "BT-161" } as const satisfies Described<ItemAttribute>;

export const LINE_FIELDS = {
  number: "BT-126 line id; KSeF NrWierszaFa / NrWierszaZam",
  uu_id: "KSeF UU_ID / UU_IDZ",
  notes: "BT-127 line notes",
  object_id: "BT-128 invoice line object identifier",
  order_line_reference: "BT-132 referenced purchase order line",
  accounting_reference: "BT-133 buyer accounting reference",
  period: "BG-26 line period",
  delivery_date: "KSeF P_6A: the line's date of supply",
  name: "BT-153 item name; KSeF P_7",
  description: "BT-154 item description",
  seller_item_id: "BT-155 seller's item id; KSeF Indeks",
  buyer_item_id: "BT-156 buyer's item id",
  standard_item_id: "BT-157 standard item id (GTIN); KSeF GTIN",
  classifications: "BT-158 item classifications; KSeF PKWiU, CN, PKOB",
  origin_country: "BT-159 country of origin",
  attributes: "BG-32 item attributes",
  quantity: "BT-129 invoiced quantity; KSeF P_8B",
  unit: "BT-130 unit: UN/ECE rec 20 code (UBL/CII) or KSeF P_8A as written",
  net_price: "BT-146 item net price; KSeF P_9A",
  price_with_vat: "KSeF P_9B: unit price including VAT",
  price_discount: "BT-147 item price discount",
  list_price: "BT-148 item gross price (before the price discount)",
  price_base_quantity: "BT-149 price base quantity",
  price_base_unit: "BT-150 unit of the price base quantity",
  discount: "KSeF P_10: discounts not included in the unit price",
  net_amount: "BT-131 line net amount; KSeF P_11 (P_11NettoZ for order lines)",
  amount_with_vat: "KSeF P_11A: line value including VAT; CII line GrandTotalAmount",
  vat_amount: "KSeF P_11Vat (P_11VatZ); UBL line TaxTotal; CII line TaxTotalAmount",
  vat_category: "BT-151 VAT category (UNCL5305); for KSeF derived from P_12",
  vat_rate: "BT-152 VAT rate; KSeF P_12 as written (23, zw, np I, 0 KR…)",
  vat_rate_text: "Readable text of a KSeF P_12 code that is not a number",
  vat_rate_oss: "KSeF P_12_XII: OSS rate of another member state",
  annex_15: "KSeF P_12_Zal_15 = 1: goods of annex 15",
  excise_amount: "KSeF KwotaAkcyzy",
  gtu: "KSeF GTU",
  procedure: "KSeF Procedura",
  quality_class: "KSeF FA_RR P_6C: class or quality of the farm produce or service bought",
  exchange_rate: "KSeF KursWaluty of the line (FA(3))",
  before_correction: "KSeF StanPrzed = 1: the row shows the state before the correction",
  parent_number: "CII ParentLineID (Factur-X Extended)",
  status_reason: "CII LineStatusReasonCode (Factur-X Extended)",
  vat_exemption_reason: "CII line ExemptionReason (like BT-120)",
  item_seller: "CII ItemSellerTradeParty (Factur-X Extended)",
  allowances_charges: "BG-27/BG-28 line allowances and charges",
} as const satisfies Described<InvoiceLine>;

export const VAT_BREAKDOWN_FIELDS = {
  category: "BT-118 VAT category (UNCL5305); for KSeF derived from the field",
  rate: "BT-119 rate; KSeF the rate the P_13_x field stands for",
  taxable_amount: "BT-116; KSeF P_13_x", tax_amount: "BT-117; KSeF P_14_x",
  tax_amount_tax_currency: "KSeF P_14_xW: the VAT in PLN",
  exemption_reason: "BT-120; for KSeF zw the basis P_19A/B/C", exemption_reason_code: "BT-121 (VATEX)",
  tax_scheme: "UBL TaxScheme/ID, CII TypeCode (VAT)",
  line_total_basis_amount: "CII LineTotalBasisAmount", allowance_charge_basis_amount: "CII AllowanceChargeBasisAmount",
  ksef_field: "The KSeF P_13 field of the row",
} as const satisfies Described<VatBreakdown>;

export const TOTALS_FIELDS = {
  line_net: "BT-106 sum of line net amounts", allowances: "BT-107", charges: "BT-108",
  net: "BT-109; KSeF sum of P_13_x", tax: "BT-110; KSeF sum of P_14_x",
  tax_in_tax_currency: "BT-111; KSeF sum of P_14_xW (PLN); KSeF FA_RR P_11_2W (the flat-rate refund in PLN)",
  net_in_tax_currency: "KSeF FA_RR P_11_1W: the value bought in PLN",
  gross: "BT-112; KSeF P_15; KSeF FA_RR P_12_1 (value with the flat-rate refund)",
  gross_in_tax_currency: "KSeF FA_RR P_12_1W: P_12_1 in PLN", gross_in_words: "KSeF FA_RR P_12_2: P_12_1 in words",
  prepaid: "BT-113", rounding: "BT-114", payable: "BT-115; KSeF P_15 or Rozliczenie/DoZaplaty",
} as const satisfies Described<Totals>;

export const SETTLEMENT_FIELDS = {
  charges: "Obciazenia", charges_total: "SumaObciazen", deductions: "Odliczenia",
  deductions_total: "SumaOdliczen", to_pay: "DoZaplaty", to_settle: "DoRozliczenia",
} as const satisfies Described<Settlement>;

/** Obciazenia and Odliczenia rows alike. */
export const SETTLEMENT_ROW_FIELDS = {
  amount: "Kwota", reason: "Powod",
} as const satisfies Described<Settlement["charges"][number]> & Described<Settlement["deductions"][number]>;

export const PAYMENT_ACCOUNT_FIELDS = {
  number: "BT-84 (IBAN); KSeF NrRB", name: "BT-85", bic: "BT-86; KSeF SWIFT",
  bank_name: "KSeF NazwaBanku", description: "KSeF OpisRachunku",
  bank_own_account: "KSeF RachunekWlasnyBanku", factor: "KSeF RachunekBankowyFaktora: the factor's account",
  held_by: "KSeF FA_RR: seller for RachunekBankowy1 (the farmer's account), buyer for RachunekBankowy2; null for other formats",
} as const satisfies Described<PaymentAccount>;

export const DUE_DATE_FIELDS = {
  date: "BT-9; KSeF Termin", description: "KSeF TerminOpis as text (FA(2))",
  quantity: "KSeF TerminOpis/Ilosc (FA(3))", unit: "KSeF TerminOpis/Jednostka",
  start_event: "KSeF TerminOpis/ZdarzeniePoczatkowe",
} as const satisfies Described<DueDate>;

export const PARTIAL_PAYMENT_FIELDS = {
  amount: "KwotaZaplatyCzesciowej / P_15Z",
  date: "DataZaplatyCzesciowej / P_6Z",
  means: "FormaPlatnosci of the partial payment (FA(3))",
  exchange_rate: "KursWalutyZW of an advance (FA(3))",
} as const satisfies Described<PartialPayment>;

export const PAYMENT_FIELDS = {
  means: "BT-81 (UNCL4461) or KSeF FormaPlatnosci", means_text: "BT-82; KSeF OpisPlatnosci",
  remittance_info: "BT-83", terms: "BT-20", due_dates: "BT-9; KSeF TerminPlatnosci",
  accounts: "BG-17",
  card: null, direct_debit: null,
  paid: "KSeF Zaplacono = 1", paid_date: "KSeF DataZaplaty",
  partial_status: "KSeF ZnacznikZaplatyCzesciowej", partial_payments: "KSeF ZaplataCzesciowa",
  discount: null,
  link: "KSeF LinkDoPlatnosci", ksef_payment_id: "KSeF IPKSeF",
  proof_documents: "KSeF FA_RR DokumentZaplaty (NrDokumentu, DataDokumentu): documents proving the payment",
} as const satisfies Described<Payment>;

export const PROOF_DOCUMENT_FIELDS = {
  number: "NrDokumentu", date: "DataDokumentu",
} as const satisfies Described<Payment["proof_documents"][number]>;

export const CARD_FIELDS = { pan: "BT-87", holder: "BT-88" } as const satisfies Described<NonNullable<Payment["card"]>>;

export const DIRECT_DEBIT_FIELDS = {
  mandate: "BT-89", creditor_id: "BT-90", debited_account: "BT-91",
} as const satisfies Described<NonNullable<Payment["direct_debit"]>>;

export const PAYMENT_DISCOUNT_FIELDS = {
  conditions: "WarunkiSkonta", amount: "WysokoscSkonta",
} as const satisfies Described<NonNullable<Payment["discount"]>>;

export const INVOICE_REFERENCE_FIELDS = {
  number: "BT-25; KSeF NrFaKorygowanej", issue_date: "BT-26; KSeF DataWystFaKorygowanej",
  ksef_number: "KSeF NrKSeFFaKorygowanej", in_ksef: "KSeF NrKSeF = 1 true, NrKSeFN = 1 false",
} as const satisfies Described<InvoiceReference>;

export const ADVANCE_INVOICE_FIELDS = {
  number: "NrFaZaliczkowej", ksef_number: "NrKSeFFaZaliczkowej",
} as const satisfies Described<AdvanceInvoiceReference>;

export const REFERENCES_FIELDS = {
  buyer_reference: "BT-10", project: "BT-11", contract: "BT-12", order: "BT-13",
  sales_order: "BT-14", receiving_advice: "BT-15", despatch_advice: "BT-16", tender: "BT-17",
  invoiced_object: "BT-18", accounting_reference: "BT-19",
  preceding_invoices: "BG-3; KSeF DaneFaKorygowanej",
  advance_invoices: "KSeF FakturaZaliczkowa",
  delivery_notes: "KSeF WZ; CII DeliveryNoteReferencedDocument",
} as const satisfies Described<References>;

export const CORRECTION_FIELDS = {
  reason: "PrzyczynaKorekty", type: "TypKorekty", corrected_number: "NrFaKorygowany",
  period: "OkresFaKorygowanej", seller_before: "Podmiot1K",
  buyers_before: "Podmiot2K", amount_before: "P_15ZK",
  exchange_rate_before: "KursWalutyZK",
} as const satisfies Described<Correction>;

export const NOTE_FIELDS = { subject_code: "BT-21 (UNCL4451)", text: "BT-22" } as const satisfies Described<Note>;

export const ANNOTATIONS_FIELDS = {
  cash_accounting: "P_16 = 1: metoda kasowa", self_billing: "P_17 = 1: samofakturowanie",
  reverse_charge: "P_18 = 1: odwrotne obciążenie", split_payment: "P_18A = 1: mechanizm podzielonej płatności",
  exemption: null, new_transport: null,
  triangular: "P_23 = 1: procedura uproszczona",
  margin: null,
} as const satisfies Described<Annotations>;

export const EXEMPTION_FIELDS = {
  applies: "P_19 = 1 (P_19N = 1: false)", act: "P_19A", directive: "P_19B", other: "P_19C",
} as const satisfies Described<Annotations["exemption"]>;

export const NEW_TRANSPORT_FIELDS = {
  applies: "P_22 = 1 (P_22N = 1: false)", art_42_5: "P_42_5 = 1", vehicles: "NowySrodekTransportu",
} as const satisfies Described<Annotations["new_transport"]>;

export const NEW_VEHICLE_FIELDS = {
  first_use_date: "P_22A", line_number: "P_NrWierszaNST", make: "P_22BMK", model: "P_22BMD",
  colour: "P_22BK", registration: "P_22BNR", year: "P_22BRP",
  usage: "P_22B, P_22B1–4, P_22BT, P_22C, P_22C1, P_22D, P_22D1",
} as const satisfies Described<NewVehicle>;

export const VEHICLE_USAGE_FIELDS = { field: null, value: null } as const satisfies Described<NewVehicle["usage"][number]>;

export const MARGIN_FIELDS = {
  applies: "P_PMarzy = 1 (P_PMarzyN = 1: false)", scheme: "P_PMarzy_2, _3_1, _3_2, _3_3",
} as const satisfies Described<Annotations["margin"]>;

export const ADDITIONAL_INFO_FIELDS = {
  line_number: "NrWiersza", key: "Klucz", value: "Wartosc",
} as const satisfies Described<AdditionalInfo>;

export const TRANSPORT_FIELDS = {
  kind: "RodzajTransportu", kind_description: "OpisInnegoTransportu", carrier: "Przewoznik",
  order_number: "NrZleceniaTransportu", cargo: "OpisLadunku", cargo_description: "OpisInnegoLadunku",
  packaging: "JednostkaOpakowania", start: "DataGodzRozpTransportu", end: "DataGodzZakTransportu",
  from: "WysylkaZ", via: "WysylkaPrzez", to: "WysylkaDo",
} as const satisfies Described<Transport>;

export const TRANSACTION_TERMS_FIELDS = {
  contracts: "Umowy", orders: "Zamowienia",
  batch_numbers: "NrPartiiTowaru", delivery_terms: "WarunkiDostawy (Incoterms)",
  contract_rate: "KursUmowny", contract_currency: "WalutaUmowna",
  transports: "Transport", intermediary: "PodmiotPosredniczacy = 1",
} as const satisfies Described<TransactionTerms>;

export const CONTRACT_FIELDS = {
  date: "DataUmowy", number: "NrUmowy",
} as const satisfies Described<TransactionTerms["contracts"][number]>;

export const ORDER_REF_FIELDS = {
  date: "DataZamowienia", number: "NrZamowienia",
} as const satisfies Described<TransactionTerms["orders"][number]>;

export const ORDER_FIELDS = { value: "WartoscZamowienia", lines: "ZamowienieWiersz" } as const satisfies Described<Order>;

export const ATTACHMENT_TABLE_FIELDS = {
  meta: "TMetaDane", description: "Opis", columns: "TNaglowek/Kol", rows: "Wiersz/WKom", summary: "Suma/SKom",
} as const satisfies Described<AttachmentTable>;

/** TMetaDane (TKlucz, TWartosc) and MetaDane (ZKlucz, ZWartosc) rows alike: the element names per table. */
export const ATTACHMENT_TABLE_META_FIELDS = {
  key: "TKlucz", value: "TWartosc",
} as const satisfies Described<AttachmentTable["meta"][number]>;

export const ATTACHMENT_COLUMN_FIELDS = {
  type: "Kol attribute Typ", name: "Kol/NKom",
} as const satisfies Described<AttachmentTable["columns"][number]>;

export const ATTACHMENT_FIELDS = {
  id: "BT-122", description: "BT-123; KSeF ZNaglowek", url: "BT-124", filename: "BT-125 filename",
  mime_code: "BT-125 MIME code", meta: "KSeF MetaDane", paragraphs: "KSeF Tekst/Akapit",
  tables: "KSeF Tabela",
} as const satisfies Described<Attachment>;

export const ATTACHMENT_META_FIELDS = {
  key: "ZKlucz", value: "ZWartosc",
} as const satisfies Described<Attachment["meta"][number]>;

export const REGISTERS_FIELDS = {
  full_name: "PelnaNazwa", krs: "KRS", regon: "REGON", bdo: "BDO",
} as const satisfies Described<Registers>;

export const MARKERS_FIELDS = {
  receipt_invoice: "FP = 1", related_parties: "TP = 1", excise_refund: "ZwrotAkcyzy = 1",
} as const satisfies Described<Markers>;

export const INVOICE_FIELDS = {
  format: null,
  profile: "BT-24 specification identifier; KSeF kodSystemowy", business_process: "BT-23",
  type: null,
  kind: "KSeF RodzajFaktury (VAT, KOR, ZAL, ROZ, UPR, KOR_ZAL, KOR_ROZ; FA_RR: VAT_RR, KOR_VAT_RR) or BT-3 UNTDID 1001 code",
  number: "BT-1; KSeF P_2; FA_RR P_4C", issue_date: "BT-2; KSeF P_1; FA_RR P_4B", issue_place: "KSeF P_1M",
  tax_point_date: "BT-7", tax_point_date_code: "BT-8 (UNTDID 2005)",
  created_at: "KSeF Naglowek/DataWytworzeniaFa", system_info: "KSeF Naglowek/SystemInfo",
  delivery: "BG-13/BG-14; KSeF P_6, OkresFa; FA_RR P_4A (date of purchase)",
  currency: "BT-5; KSeF KodWaluty", tax_currency: "BT-6; PLN for KSeF invoices in another currency",
  exchange_rates: "KSeF KursWaluty, KursWalutyZ, KursWalutyZK, KursUmowny; CII currency exchange",
  seller: "BG-4; KSeF Podmiot1. On FA_RR (VAT RR) the flat-rate farmer who supplies (Podmiot1, dostawca), although the buyer issues the invoice",
  buyer: "BG-7; KSeF Podmiot2. On FA_RR (VAT RR) the buyer of the farm produce, who issues the invoice (Podmiot2, nabywca)",
  payee: "BG-10", tax_representative: "BG-11",
  third_parties: "KSeF Podmiot3; CII InvoiceeTradeParty; PEF cac-pl:AdditionalAddressData parties",
  authorized_party: "KSeF PodmiotUpowazniony",
  lines: "BG-25; KSeF FaWiersz; FA_RR FakturaRRWiersz (P_5 name, P_6A unit, P_6B quantity, P_6C quality, P_7 price, P_8 value, P_9 refund rate, P_10 refund, P_11 value with refund)",
  allowances_charges: "BG-20/BG-21",
  vat_breakdown: "BG-23; KSeF P_13_x/P_14_x/P_14_xW; FA_RR one row of the flat-rate refund (P_11_1, P_11_2, P_11_2W)",
  totals: "BG-22; FA_RR: net P_11_1 (value bought), tax P_11_2 (flat-rate refund), gross P_12_1",
  settlement: "KSeF Rozliczenie", payment: "BG-16; KSeF Platnosc; FA_RR also DokumentZaplaty",
  advance_payments: "KSeF ZaliczkaCzesciowa",
  references: "BT-10…BT-19, BG-3; KSeF WZ, FakturaZaliczkowa",
  correction: "KSeF PrzyczynaKorekty, TypKorekty, Podmiot1K/2K, P_15ZK",
  notes: "BG-1", annotations: "KSeF Adnotacje",
  additional_info: "KSeF DodatkowyOpis",
  transaction_terms: "KSeF WarunkiTransakcji",
  orders: "KSeF Zamowienie",
  attachments: "KSeF Zalacznik; BG-24",
  registers: "KSeF Stopka/Rejestry", footer: "KSeF Stopka/Informacje/StopkaFaktury",
  markers: null,
} as const satisfies Described<Invoice>;

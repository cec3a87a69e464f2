/**
 * The JSON Schemas of the `invoice` object (README “The invoice object”), one component per record
 * of lib/formats/invoice/model.ts, each field described with its EN 16931 business
 * term (BT/BG) and/or the KSeF element it comes from. Closed objects: the HTTP
 * tests validate every served invoice against them, so the two cannot drift.
 * @module
 */
import { ref, type Json } from "./schemas.ts";
import { DOCUMENT_TYPES, INVOICE_FORMATS } from "../../formats/invoice/vocabulary.ts";

const DECIMAL_PATTERN = "^-?\\d+(\\.\\d+)?$";

function _str(description: string): Json {
  return { type: ["string", "null"], description };
}
function _dec(description: string): Json {
  return { type: ["string", "null"], pattern: DECIMAL_PATTERN, description: `${description}. A decimal string` };
}
function _date(description: string): Json {
  return { type: ["string", "null"], pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: `${description}. YYYY-MM-DD` };
}
function _bool(description: string): Json {
  return { type: "boolean", description };
}
function _nbool(description: string): Json {
  return { type: ["boolean", "null"], description };
}
function _list(items: Json, description: string): Json {
  return { type: "array", items, description };
}
function _strs(description: string): Json {
  return _list({ type: "string" }, description);
}
/** A component that may be null. */
function _ref(name: string, description: string): Json {
  return { oneOf: [ref(name), { type: "null" }], description };
}
function _object(description: string, properties: Record<string, Json>): Json {
  return { type: "object", description, required: Object.keys(properties), additionalProperties: false, properties };
}
function _kv(description: string, key: string, value: string): Json {
  return _list(_object("A key and its value", { key: _str(key), value: _str(value) }), description);
}

const CODE = (description: string): Json => _ref("InvoiceCode", description);

const PARTY_FIELDS: Record<string, Json> = {
  name: _str("BT-27/BT-44/BT-59/BT-62 name; KSeF DaneIdentyfikacyjne/Nazwa"),
  trading_name: _str("BT-28/BT-45 trading name; CII TradingBusinessName"),
  tax_id: _ref("InvoiceTaxId", "BT-31/BT-48/BT-63 VAT identifier; KSeF NIP, KodUE + NrVatUE or KodKraju + NrID"),
  other_tax_ids: _list(ref("InvoiceTaxId"), "BT-32 tax registration (scheme FC) and further tax ids"),
  no_tax_id: _bool("KSeF BrakID = 1: the party has no identifier"),
  identifiers: _list(ref("InvoiceIdentifier"), "BT-29/BT-46/BT-60 party identifiers; KSeF IDWew (scheme IDWew), NrEORI (scheme EORI)"),
  electronic_address: _ref("InvoiceIdentifier", "BT-34/BT-49 electronic address with its EAS scheme"),
  registers: _list(ref("InvoiceIdentifier"), "BT-30/BT-47/BT-61 legal registration identifiers"),
  legal_info: _str("BT-33 additional legal information; UBL CompanyLegalForm, CII Description"),
  address: _ref("InvoiceAddress", "BG-5/BG-8/BG-12 postal address; KSeF Adres"),
  correspondence_address: _ref("InvoiceAddress", "KSeF AdresKoresp: the correspondence address"),
  contacts: _list(ref("InvoiceContact"), "BG-6/BG-9 contacts; KSeF DaneKontaktowe"),
  vat_prefix: _str("KSeF PrefiksPodatnika of Podmiot1: the seller's EU VAT prefix"),
  status: CODE("KSeF StatusInfoPodatnika (1 liquidation, 2 restructuring, 3 bankruptcy, 4 inheritance)"),
  customer_number: _str("KSeF NrKlienta"),
  buyer_id: _str("KSeF IDNabywcy"),
  jst: _nbool("KSeF JST: a unit of local government (1 true, 2 false)"),
  gv: _nbool("KSeF GV: a member of a VAT group (1 true, 2 false)"),
};

const LINE_FIELDS: Record<string, Json> = {
  number: _str("BT-126 line id; KSeF NrWierszaFa / NrWierszaZam"),
  uu_id: _str("KSeF UU_ID / UU_IDZ"),
  notes: _strs("BT-127 line notes"),
  object_id: _ref("InvoiceIdentifier", "BT-128 invoice line object identifier"),
  order_line_reference: _str("BT-132 referenced purchase order line"),
  accounting_reference: _str("BT-133 buyer accounting reference"),
  period: _ref("InvoicePeriod", "BG-26 line period"),
  delivery_date: _date("KSeF P_6A: the line's date of supply"),
  name: _str("BT-153 item name; KSeF P_7"),
  description: _str("BT-154 item description"),
  seller_item_id: _str("BT-155 seller's item id; KSeF Indeks"),
  buyer_item_id: _str("BT-156 buyer's item id"),
  standard_item_id: _ref("InvoiceIdentifier", "BT-157 standard item id (GTIN); KSeF GTIN"),
  classifications: _list(ref("InvoiceClassification"), "BT-158 item classifications; KSeF PKWiU, CN, PKOB"),
  origin_country: _str("BT-159 country of origin"),
  attributes: _list(ref("InvoiceItemAttribute"), "BG-32 item attributes"),
  quantity: _dec("BT-129 invoiced quantity; KSeF P_8B"),
  unit: _str("BT-130 unit: UN/ECE rec 20 code (UBL/CII) or KSeF P_8A as written"),
  net_price: _dec("BT-146 item net price; KSeF P_9A"),
  price_with_vat: _dec("KSeF P_9B: unit price including VAT"),
  price_discount: _dec("BT-147 item price discount"),
  list_price: _dec("BT-148 item gross price (before the price discount)"),
  price_base_quantity: _dec("BT-149 price base quantity"),
  price_base_unit: _str("BT-150 unit of the price base quantity"),
  discount: _dec("KSeF P_10: discounts not included in the unit price"),
  net_amount: _dec("BT-131 line net amount; KSeF P_11 (P_11NettoZ for order lines)"),
  amount_with_vat: _dec("KSeF P_11A: line value including VAT; CII line GrandTotalAmount"),
  vat_amount: _dec("KSeF P_11Vat (P_11VatZ); UBL line TaxTotal; CII line TaxTotalAmount"),
  vat_category: CODE("BT-151 VAT category (UNCL5305); for KSeF derived from P_12"),
  vat_rate: _str("BT-152 VAT rate; KSeF P_12 as written (23, zw, np I, 0 KR…)"),
  vat_rate_text: _str("Readable text of a KSeF P_12 code that is not a number"),
  vat_rate_oss: _dec("KSeF P_12_XII: OSS rate of another member state"),
  annex_15: _bool("KSeF P_12_Zal_15 = 1: goods of annex 15"),
  excise_amount: _dec("KSeF KwotaAkcyzy"),
  gtu: _str("KSeF GTU"),
  procedure: _str("KSeF Procedura"),
  exchange_rate: _dec("KSeF KursWaluty of the line (FA(3))"),
  before_correction: _bool("KSeF StanPrzed = 1: the row shows the state before the correction"),
  parent_number: _str("CII ParentLineID (Factur-X Extended)"),
  status_reason: _str("CII LineStatusReasonCode (Factur-X Extended)"),
  vat_exemption_reason: _str("CII line ExemptionReason (like BT-120)"),
  item_seller: _ref("InvoiceParty", "CII ItemSellerTradeParty (Factur-X Extended)"),
  allowances_charges: _list(ref("InvoiceAllowanceCharge"), "BG-27/BG-28 line allowances and charges"),
};

const ATTACHMENT_TABLE: Json = _object("A KSeF Zalacznik table (Tabela)", {
  meta: _kv("TMetaDane", "TKlucz", "TWartosc"),
  description: _str("Opis"),
  columns: _list(_object("A column", { type: _str("Kol attribute Typ"), name: _str("Kol/NKom") }), "TNaglowek/Kol"),
  rows: _list({ type: "array", items: { type: "string" } }, "Wiersz/WKom"),
  summary: _strs("Suma/SKom"),
});

const PARTIAL_PAYMENT: Json = _object("A partial payment (KSeF ZaplataCzesciowa) or an advance received (KSeF ZaliczkaCzesciowa)", {
  amount: _dec("KwotaZaplatyCzesciowej / P_15Z"),
  date: _date("DataZaplatyCzesciowej / P_6Z"),
  means: CODE("FormaPlatnosci of the partial payment (FA(3))"),
  exchange_rate: _dec("KursWalutyZW of an advance (FA(3))"),
});

/** The `components.schemas` entries of the invoice object. */
export function invoiceSchemas(): Record<string, Json> {
  return {
    InvoiceCode: _object("A code as the XML gives it, with readable text where a code list maps it", {
      code: { type: "string" }, text: _str("English text of the code list entry; null when unmapped"),
    }),
    InvoiceIdentifier: _object("An identifier with its scheme", {
      value: { type: "string" }, scheme: _str("Scheme as written (ISO 6523 ICD, EAS code, GTIN, IDWew…)"),
    }),
    InvoiceTaxId: _object("A tax identifier", {
      value: { type: "string", description: "The number; an EU VAT number keeps its country prefix" },
      country: _str("ISO 3166-1 alpha-2 country of the number (KSeF KodUE/KodKraju; PL for NIP)"),
      scheme: _str("VAT (EU VAT number; UBL TaxScheme), NIP, NrID (KSeF), VA/FC (CII schemeID), FC (BT-32)"),
    }),
    InvoiceAddress: _object("A postal address (BG-5, BG-8, BG-12, BG-15; KSeF TAdres)", {
      lines: _strs("BT-35, BT-36, BT-162 address lines; KSeF AdresL1, AdresL2"),
      city: _str("BT-37 city"), postal_code: _str("BT-38 post code"), subdivision: _str("BT-39 country subdivision"),
      country_code: _str("BT-40 country code; KSeF KodKraju"), gln: _str("KSeF GLN; UBL address ID with scheme 0088"),
    }),
    InvoiceContact: _object("A contact (BG-6, BG-9; KSeF DaneKontaktowe)", {
      name: _str("BT-41/BT-56 contact point"), phone: _str("BT-42/BT-57 telephone; KSeF Telefon"),
      email: _str("BT-43/BT-58 e-mail; KSeF Email"), fax: _str("UBL Telefax, CII FaxUniversalCommunication"),
      department: _str("CII DepartmentName"),
    }),
    InvoiceParty: _object("A party: seller (BG-4, KSeF Podmiot1), buyer (BG-7, Podmiot2), payee (BG-10), tax representative (BG-11)", PARTY_FIELDS),
    InvoiceThirdParty: _object("A third party (KSeF Podmiot3, PodmiotUpowazniony; CII InvoiceeTradeParty) with role and share", {
      ...PARTY_FIELDS,
      role: CODE("KSeF Rola (1 factor, 2 recipient, 4 additional buyer, 6 payer…) or RolaPU; CII invoicee"),
      role_description: _str("KSeF OpisRoli (RolaInna = 1)"),
      share: _dec("KSeF Udzial: share in percent of an additional buyer"),
    }),
    InvoicePeriod: _object("A period (BG-14, BG-26; KSeF OkresFa)", {
      start: _date("BT-73/BT-134; KSeF P_6_Od"), end: _date("BT-74/BT-135; KSeF P_6_Do"),
      description: _str("BT-8 VAT point date code given with the period (UBL DescriptionCode)"),
    }),
    InvoiceDelivery: _object("Delivery (BG-13)", {
      date: _date("BT-72 actual delivery date; KSeF P_6"), period: _ref("InvoicePeriod", "BG-14 invoicing period; KSeF OkresFa"),
      party_name: _str("BT-70 deliver-to party name"), location_id: _ref("InvoiceIdentifier", "BT-71 deliver-to location id"),
      address: _ref("InvoiceAddress", "BG-15 deliver-to address"),
    }),
    InvoiceExchangeRate: _object("An exchange rate (KSeF KursWaluty, KursWalutyZ, KursWalutyZK, KursUmowny; CII TaxApplicableTradeCurrencyExchange)", {
      applies_to: { type: "string", enum: ["invoice", "line", "advance", "before_correction", "contract"] },
      line_number: _str("Line of a line rate (KSeF FaWiersz/KursWaluty)"),
      from_currency: _str("Source currency"), to_currency: _str("Target currency (PLN for KSeF; BT-6)"),
      rate: { type: "string", pattern: DECIMAL_PATTERN }, date: _date("CII ConversionRateDateTime"),
    }),
    InvoiceAllowanceCharge: _object("An allowance or charge (BG-20, BG-21, BG-27, BG-28)", {
      charge: _bool("True for a charge, false for an allowance (ChargeIndicator)"),
      amount: _dec("BT-92/BT-99/BT-136/BT-141"), base_amount: _dec("BT-93/BT-100/BT-137/BT-142"),
      percentage: _dec("BT-94/BT-101/BT-138/BT-143"), vat_category: CODE("BT-95/BT-102 (UNCL5305)"),
      vat_rate: _dec("BT-96/BT-103"), reason: _str("BT-97/BT-104/BT-139/BT-144"),
      reason_code: CODE("BT-98/BT-105/BT-140/BT-145 (UNCL5189; charges UNCL7161, unmapped)"),
    }),
    InvoiceClassification: _object("An item classification (BT-158)", {
      value: { type: "string" }, scheme: _str("BT-158-1 list id, or PKWiU/CN/PKOB for KSeF"), version: _str("BT-158-2"),
    }),
    InvoiceItemAttribute: _object("An item attribute (BG-32)", { name: _str("BT-160"), value: _str("BT-161") }),
    InvoiceLine: _object("An invoice line (BG-25; KSeF FaWiersz) or an order line (KSeF ZamowienieWiersz)", LINE_FIELDS),
    InvoiceVatBreakdown: _object("A VAT breakdown row (BG-23; KSeF P_13_x/P_14_x/P_14_xW)", {
      category: CODE("BT-118 VAT category (UNCL5305); for KSeF derived from the field"),
      rate: _str("BT-119 rate; KSeF the rate the P_13_x field stands for"),
      taxable_amount: _dec("BT-116; KSeF P_13_x"), tax_amount: _dec("BT-117; KSeF P_14_x"),
      tax_amount_tax_currency: _dec("KSeF P_14_xW: the VAT in PLN"),
      exemption_reason: _str("BT-120; for KSeF zw the basis P_19A/B/C"), exemption_reason_code: _str("BT-121 (VATEX)"),
      tax_scheme: _str("UBL TaxScheme/ID, CII TypeCode (VAT)"),
      line_total_basis_amount: _dec("CII LineTotalBasisAmount"), allowance_charge_basis_amount: _dec("CII AllowanceChargeBasisAmount"),
      ksef_field: _str("The KSeF P_13 field of the row"),
    }),
    InvoiceTotals: _object("Document totals (BG-22)", {
      line_net: _dec("BT-106 sum of line net amounts"), allowances: _dec("BT-107"), charges: _dec("BT-108"),
      net: _dec("BT-109; KSeF sum of P_13_x"), tax: _dec("BT-110; KSeF sum of P_14_x"),
      tax_in_tax_currency: _dec("BT-111; KSeF sum of P_14_xW (PLN)"), gross: _dec("BT-112; KSeF P_15"),
      prepaid: _dec("BT-113"), rounding: _dec("BT-114"), payable: _dec("BT-115; KSeF P_15 or Rozliczenie/DoZaplaty"),
    }),
    InvoiceSettlement: _object("KSeF Rozliczenie", {
      charges: _list(_object("Obciazenia", { amount: _dec("Kwota"), reason: _str("Powod") }), "Obciazenia"),
      charges_total: _dec("SumaObciazen"),
      deductions: _list(_object("Odliczenia", { amount: _dec("Kwota"), reason: _str("Powod") }), "Odliczenia"),
      deductions_total: _dec("SumaOdliczen"), to_pay: _dec("DoZaplaty"), to_settle: _dec("DoRozliczenia"),
    }),
    InvoicePaymentAccount: _object("A payment account (BG-17; KSeF RachunekBankowy, RachunekBankowyFaktora)", {
      number: _str("BT-84 (IBAN); KSeF NrRB"), name: _str("BT-85"), bic: _str("BT-86; KSeF SWIFT"),
      bank_name: _str("KSeF NazwaBanku"), description: _str("KSeF OpisRachunku"),
      bank_own_account: CODE("KSeF RachunekWlasnyBanku"), factor: _bool("KSeF RachunekBankowyFaktora: the factor's account"),
    }),
    InvoiceDueDate: _object("A due date (BT-9; KSeF TerminPlatnosci)", {
      date: _date("BT-9; KSeF Termin"), description: _str("KSeF TerminOpis as text (FA(2))"),
      quantity: _str("KSeF TerminOpis/Ilosc (FA(3))"), unit: _str("KSeF TerminOpis/Jednostka"),
      start_event: _str("KSeF TerminOpis/ZdarzeniePoczatkowe"),
    }),
    InvoicePartialPayment: PARTIAL_PAYMENT,
    InvoicePayment: _object("Payment instructions and status (BG-16; KSeF Platnosc)", {
      means: CODE("BT-81 (UNCL4461) or KSeF FormaPlatnosci"), means_text: _str("BT-82; KSeF OpisPlatnosci"),
      remittance_info: _str("BT-83"), terms: _str("BT-20"), due_dates: _list(ref("InvoiceDueDate"), "BT-9; KSeF TerminPlatnosci"),
      accounts: _list(ref("InvoicePaymentAccount"), "BG-17"),
      card: { oneOf: [_object("BG-18", { pan: _str("BT-87"), holder: _str("BT-88") }), { type: "null" }] },
      direct_debit: {
        oneOf: [_object("BG-19", { mandate: _str("BT-89"), creditor_id: _str("BT-90"), debited_account: _str("BT-91") }), { type: "null" }],
      },
      paid: _bool("KSeF Zaplacono = 1"), paid_date: _date("KSeF DataZaplaty"),
      partial_status: CODE("KSeF ZnacznikZaplatyCzesciowej"), partial_payments: _list(ref("InvoicePartialPayment"), "KSeF ZaplataCzesciowa"),
      discount: { oneOf: [_object("KSeF Skonto; CII ApplicableTradePaymentDiscountTerms", { conditions: _str("WarunkiSkonta"), amount: _str("WysokoscSkonta") }), { type: "null" }] },
      link: _str("KSeF LinkDoPlatnosci"), ksef_payment_id: _str("KSeF IPKSeF"),
    }),
    InvoiceReference: _object("A preceding or corrected invoice (BG-3; KSeF DaneFaKorygowanej)", {
      number: _str("BT-25; KSeF NrFaKorygowanej"), issue_date: _date("BT-26; KSeF DataWystFaKorygowanej"),
      ksef_number: _str("KSeF NrKSeFFaKorygowanej"), in_ksef: _nbool("KSeF NrKSeF = 1 true, NrKSeFN = 1 false"),
    }),
    InvoiceReferences: _object("References (BT-10…BT-19, BG-3)", {
      buyer_reference: _str("BT-10"), project: _str("BT-11"), contract: _str("BT-12"), order: _str("BT-13"),
      sales_order: _str("BT-14"), receiving_advice: _str("BT-15"), despatch_advice: _str("BT-16"), tender: _str("BT-17"),
      invoiced_object: _ref("InvoiceIdentifier", "BT-18"), accounting_reference: _str("BT-19"),
      preceding_invoices: _list(ref("InvoiceReference"), "BG-3; KSeF DaneFaKorygowanej"),
      advance_invoices: _list(_object("KSeF FakturaZaliczkowa", { number: _str("NrFaZaliczkowej"), ksef_number: _str("NrKSeFFaZaliczkowej") }), "KSeF FakturaZaliczkowa"),
      delivery_notes: _strs("KSeF WZ; CII DeliveryNoteReferencedDocument"),
    }),
    InvoiceCorrection: _object("A correction (KSeF)", {
      reason: _str("PrzyczynaKorekty"), type: CODE("TypKorekty"), corrected_number: _str("NrFaKorygowany"),
      period: _str("OkresFaKorygowanej"), seller_before: _ref("InvoiceParty", "Podmiot1K"),
      buyers_before: _list(ref("InvoiceParty"), "Podmiot2K"), amount_before: _dec("P_15ZK"),
      exchange_rate_before: _dec("KursWalutyZK"),
    }),
    InvoiceNote: _object("A note (BG-1)", { subject_code: _str("BT-21 (UNCL4451)"), text: { type: "string", description: "BT-22" } }),
    InvoiceAnnotations: _object("KSeF Adnotacje", {
      cash_accounting: _bool("P_16 = 1: metoda kasowa"), self_billing: _bool("P_17 = 1: samofakturowanie"),
      reverse_charge: _bool("P_18 = 1: odwrotne obciążenie"), split_payment: _bool("P_18A = 1: mechanizm podzielonej płatności"),
      exemption: _object("Zwolnienie", {
        applies: _bool("P_19 = 1 (P_19N = 1: false)"), act: _str("P_19A"), directive: _str("P_19B"), other: _str("P_19C"),
      }),
      new_transport: _object("NoweSrodkiTransportu", {
        applies: _bool("P_22 = 1 (P_22N = 1: false)"), art_42_5: _bool("P_42_5 = 1"),
        vehicles: _list(_object("NowySrodekTransportu", {
          first_use_date: _date("P_22A"), line_number: _str("P_NrWierszaNST"), make: _str("P_22BMK"), model: _str("P_22BMD"),
          colour: _str("P_22BK"), registration: _str("P_22BNR"), year: _str("P_22BRP"),
          usage: _list(_object("P_22B… usage field", { field: { type: "string" }, value: { type: "string" } }), "P_22B, P_22B1–4, P_22BT, P_22C, P_22C1, P_22D, P_22D1"),
        }), "NowySrodekTransportu"),
      }),
      triangular: _bool("P_23 = 1: procedura uproszczona"),
      margin: _object("PMarzy", { applies: _bool("P_PMarzy = 1 (P_PMarzyN = 1: false)"), scheme: CODE("P_PMarzy_2, _3_1, _3_2, _3_3") }),
    }),
    InvoiceAdditionalInfo: _object("KSeF DodatkowyOpis", { line_number: _str("NrWiersza"), key: _str("Klucz"), value: _str("Wartosc") }),
    InvoiceTransport: _object("KSeF WarunkiTransakcji/Transport", {
      kind: CODE("RodzajTransportu"), kind_description: _str("OpisInnegoTransportu"), carrier: _ref("InvoiceParty", "Przewoznik"),
      order_number: _str("NrZleceniaTransportu"), cargo: CODE("OpisLadunku"), cargo_description: _str("OpisInnegoLadunku"),
      packaging: _str("JednostkaOpakowania"), start: _str("DataGodzRozpTransportu"), end: _str("DataGodzZakTransportu"),
      from: _ref("InvoiceAddress", "WysylkaZ"), via: _list(ref("InvoiceAddress"), "WysylkaPrzez"), to: _ref("InvoiceAddress", "WysylkaDo"),
    }),
    InvoiceTransactionTerms: _object("KSeF WarunkiTransakcji", {
      contracts: _list(_object("Umowy", { date: _date("DataUmowy"), number: _str("NrUmowy") }), "Umowy"),
      orders: _list(_object("Zamowienia", { date: _date("DataZamowienia"), number: _str("NrZamowienia") }), "Zamowienia"),
      batch_numbers: _strs("NrPartiiTowaru"), delivery_terms: _str("WarunkiDostawy (Incoterms)"),
      contract_rate: _dec("KursUmowny"), contract_currency: _str("WalutaUmowna"),
      transports: _list(ref("InvoiceTransport"), "Transport"), intermediary: _bool("PodmiotPosredniczacy = 1"),
    }),
    InvoiceOrder: _object("KSeF Zamowienie", { value: _dec("WartoscZamowienia"), lines: _list(ref("InvoiceLine"), "ZamowienieWiersz") }),
    InvoiceAttachmentTable: ATTACHMENT_TABLE,
    InvoiceAttachment: _object("A KSeF Zalacznik/BlokDanych, or an EN 16931 supporting document (BG-24; content not copied)", {
      id: _str("BT-122"), description: _str("BT-123; KSeF ZNaglowek"), url: _str("BT-124"), filename: _str("BT-125 filename"),
      mime_code: _str("BT-125 MIME code"), meta: _kv("KSeF MetaDane", "ZKlucz", "ZWartosc"), paragraphs: _strs("KSeF Tekst/Akapit"),
      tables: _list(ref("InvoiceAttachmentTable"), "KSeF Tabela"),
    }),
    InvoiceRegisters: _object("KSeF Stopka/Rejestry", { full_name: _str("PelnaNazwa"), krs: _str("KRS"), regon: _str("REGON"), bdo: _str("BDO") }),
    Invoice: _object("The whole invoice: EN 16931 business terms, KSeF elements in places of their own", {
      format: { type: "string", enum: [...INVOICE_FORMATS] },
      profile: _str("BT-24 specification identifier; KSeF kodSystemowy"), business_process: _str("BT-23"),
      type: { type: "string", enum: [...DOCUMENT_TYPES] },
      kind: CODE("KSeF RodzajFaktury (VAT, KOR, ZAL, ROZ, UPR, KOR_ZAL, KOR_ROZ) or BT-3 UNTDID 1001 code"),
      number: _str("BT-1; KSeF P_2"), issue_date: _date("BT-2; KSeF P_1"), issue_place: _str("KSeF P_1M"),
      tax_point_date: _date("BT-7"), tax_point_date_code: _str("BT-8 (UNTDID 2005)"),
      created_at: _str("KSeF Naglowek/DataWytworzeniaFa"), system_info: _str("KSeF Naglowek/SystemInfo"),
      delivery: _ref("InvoiceDelivery", "BG-13/BG-14; KSeF P_6, OkresFa"),
      currency: _str("BT-5; KSeF KodWaluty"), tax_currency: _str("BT-6; PLN for KSeF invoices in another currency"),
      exchange_rates: _list(ref("InvoiceExchangeRate"), "KSeF KursWaluty, KursWalutyZ, KursWalutyZK, KursUmowny; CII currency exchange"),
      seller: { ...ref("InvoiceParty"), description: "BG-4; KSeF Podmiot1" },
      buyer: { ...ref("InvoiceParty"), description: "BG-7; KSeF Podmiot2" },
      payee: _ref("InvoiceParty", "BG-10"), tax_representative: _ref("InvoiceParty", "BG-11"),
      third_parties: _list(ref("InvoiceThirdParty"), "KSeF Podmiot3; CII InvoiceeTradeParty"),
      authorized_party: _ref("InvoiceThirdParty", "KSeF PodmiotUpowazniony"),
      lines: _list(ref("InvoiceLine"), "BG-25; KSeF FaWiersz"),
      allowances_charges: _list(ref("InvoiceAllowanceCharge"), "BG-20/BG-21"),
      vat_breakdown: _list(ref("InvoiceVatBreakdown"), "BG-23; KSeF P_13_x/P_14_x/P_14_xW"),
      totals: { ...ref("InvoiceTotals"), description: "BG-22" },
      settlement: _ref("InvoiceSettlement", "KSeF Rozliczenie"), payment: _ref("InvoicePayment", "BG-16; KSeF Platnosc"),
      advance_payments: _list(ref("InvoicePartialPayment"), "KSeF ZaliczkaCzesciowa"),
      references: { ...ref("InvoiceReferences"), description: "BT-10…BT-19, BG-3; KSeF WZ, FakturaZaliczkowa" },
      correction: _ref("InvoiceCorrection", "KSeF PrzyczynaKorekty, TypKorekty, Podmiot1K/2K, P_15ZK"),
      notes: _list(ref("InvoiceNote"), "BG-1"), annotations: _ref("InvoiceAnnotations", "KSeF Adnotacje"),
      additional_info: _list(ref("InvoiceAdditionalInfo"), "KSeF DodatkowyOpis"),
      transaction_terms: _ref("InvoiceTransactionTerms", "KSeF WarunkiTransakcji"),
      orders: _list(ref("InvoiceOrder"), "KSeF Zamowienie"),
      attachments: _list(ref("InvoiceAttachment"), "KSeF Zalacznik; BG-24"),
      registers: _list(ref("InvoiceRegisters"), "KSeF Stopka/Rejestry"), footer: _strs("KSeF Stopka/Informacje/StopkaFaktury"),
      markers: { oneOf: [_object("KSeF FP, TP, ZwrotAkcyzy", {
        receipt_invoice: _bool("FP = 1"), related_parties: _bool("TP = 1"), excise_refund: _bool("ZwrotAkcyzy = 1"),
      }), { type: "null" }] },
    }),
  };
}

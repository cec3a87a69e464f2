/**
 * Polish and English wording of the printed invoice: every label as a [Polish, English] pair,
 * with the legal wording of the KSeF annotations as the Ministry of Finance's visualisation
 * prints it. Code lists (document titles, payment means, units, KSeF codes) are in
 * code_words.ts. Labels only; no layout.
 * @module
 */

import type { Lang } from "./format.ts";

const _PAIRS = {
  // Header and page
  issueDate: ["Data wystawienia", "Issue date"], saleDate: ["Data sprzedaży", "Date of supply"],
  currency: ["Waluta", "Currency"], format: ["Format", "Format"], number: ["Nr", "No."], ksefNumber: ["Nr KSeF", "KSeF number"],
  // Parties
  seller: ["Sprzedawca", "Seller"], buyer: ["Nabywca", "Buyer"], taxId: ["NIP", "Tax ID (NIP)"],
  euVat: ["Nr VAT UE", "EU VAT number"], vatId: ["Nr VAT", "VAT identifier"], foreignTaxId: ["Identyfikator podatkowy", "Tax identifier"],
  taxRegistration: ["Nr rejestracji podatkowej", "Tax registration number"], noTaxId: ["Brak identyfikatora podatkowego", "No tax identifier"],
  vatPrefix: ["Prefiks VAT UE", "EU VAT prefix"], identifier: ["Identyfikator", "Identifier"], internalId: ["Identyfikator wewnętrzny", "Internal identifier"],
  eori: ["Nr EORI", "EORI number"], electronicAddress: ["Adres elektroniczny", "Electronic address"],
  legalRegistration: ["Nr rejestrowy", "Legal registration"], legalInfo: ["Informacje prawne", "Additional legal information"],
  tradingName: ["Nazwa handlowa", "Trading name"], corrAddress: ["Adres korespondencyjny", "Correspondence address"],
  gln: ["GLN", "GLN"], contact: ["Kontakt", "Contact"], phone: ["Tel.", "Phone"], email: ["E-mail", "Email"], fax: ["Faks", "Fax"],
  department: ["Dział", "Department"], status: ["Status podatnika", "Taxpayer status"], customerNumber: ["Numer klienta", "Customer number"],
  buyerId: ["Identyfikator nabywcy", "Buyer identifier"], jst: ["Jednostka podrzędna JST", "Subordinate local government unit (JST)"],
  gv: ["Członek grupy VAT (GV)", "VAT group member (GV)"], yes: ["tak", "yes"],
  thirdParty: ["Podmiot trzeci", "Third party"], share: ["Udział", "Share"],
  authorizedParty: ["Podmiot upoważniony", "Authorised party"], payee: ["Odbiorca płatności", "Payee"],
  taxRepresentative: ["Przedstawiciel podatkowy", "Seller's tax representative"], itemSeller: ["Sprzedawca pozycji", "Item seller"],
  deliverTo: ["Miejsce dostawy", "Deliver to"], location: ["Lokalizacja", "Location"],
  sellerBefore: ["Dane sprzedawcy przed korektą", "Seller as on the corrected invoice"],
  buyerBefore: ["Dane nabywcy przed korektą", "Buyer as on the corrected invoice"],
  // Details and references
  details: ["Szczegóły", "Details"], issuePlace: ["Miejsce wystawienia", "Place of issue"],
  advanceDate: ["Data otrzymania zapłaty", "Date the payment was received"],
  period: ["Okres", "Period"], from: ["od", "from"], to: ["do", "to"], taxPointDate: ["Data obowiązku podatkowego", "VAT point date"],
  taxPointCode: ["Kod daty obowiązku podatkowego", "VAT point date code"], taxCurrency: ["Waluta rozliczenia VAT", "VAT accounting currency"],
  exchangeRate: ["Kurs waluty", "Exchange rate"], rateOfAdvance: ["Kurs waluty zaliczki", "Exchange rate of the advance"],
  kind: ["Rodzaj faktury", "Invoice kind"], createdAt: ["Data wytworzenia", "Created"],
  buyerReference: ["Referencja nabywcy", "Buyer reference"], project: ["Projekt", "Project"], contract: ["Umowa", "Contract"],
  order: ["Zamówienie", "Purchase order"], salesOrder: ["Zamówienie sprzedawcy", "Sales order"], receivingAdvice: ["Przyjęcie towaru", "Receiving advice"],
  despatchAdvice: ["Awizo wysyłki", "Despatch advice"], tender: ["Przetarg lub część", "Tender or lot"], invoicedObject: ["Identyfikator obiektu", "Invoiced object"],
  accountingRef: ["Konto księgowe nabywcy", "Buyer accounting reference"], advanceInvoices: ["Faktury zaliczkowe", "Advance invoices"],
  deliveryNotes: ["Dokumenty WZ", "Goods-issue notes (WZ)"], receiptInvoice: ["Faktura do paragonu (FP)", "Invoice for a receipt (FP)"],
  relatedParties: ["Powiązania między nabywcą a dostawcą (TP)", "Related parties (TP)"], exciseRefund: ["Zwrot akcyzy", "Excise refund"],
  // Corrections
  correction: ["Korekta", "Correction"], correctedInvoice: ["Faktura korygowana", "Corrected invoice"], correctedInvoices: ["Faktury korygowane", "Corrected invoices"],
  dated: ["z dnia", "of"], correctionReason: ["Przyczyna korekty", "Reason for correction"], correctionType: ["Typ skutku korekty", "Correction takes effect"],
  correctedNumber: ["Poprawny numer faktury", "Correct invoice number"], correctedPeriod: ["Okres, którego dotyczy rabat", "Period corrected"],
  amountBefore: ["Kwota zapłaty przed korektą", "Amount before the correction"], rateBefore: ["Kurs waluty przed korektą", "Exchange rate before the correction"],
  outsideKsef: ["poza KSeF", "outside KSeF"],
  // Lines
  lines: ["Pozycje", "Lines"], lineNo: ["Lp.", "No."], name: ["Nazwa towaru lub usługi", "Description"], quantity: ["Ilość", "Quantity"], unit: ["J.m.", "Unit"],
  unitPriceNet: ["Cena jedn. netto", "Unit price (net)"], unitPriceGross: ["Cena jedn. brutto", "Unit price (gross)"], discount: ["Rabat", "Discount"],
  amountNet: ["Wartość netto", "Net amount"], amountGross: ["Wartość brutto", "Gross amount"], vatRate: ["Stawka VAT", "VAT rate"],
  vatAmount: ["Kwota VAT", "VAT amount"], beforeCorrection: ["przed korektą", "before correction"], afterCorrection: ["po korekcie", "after correction"],
  moreColumns: ["Pozycje – dalsze kolumny", "Lines – further columns"], description: ["Opis", "Description"], sellerItemId: ["Indeks", "Seller's item ID"],
  buyerItemId: ["Indeks nabywcy", "Buyer's item ID"], standardItemId: ["Identyfikator towaru", "Standard item ID"], classification: ["Klasyfikacja", "Classification"],
  origin: ["Kraj pochodzenia", "Country of origin"], lineDate: ["Data dostawy", "Date of supply"], objectId: ["Identyfikator obiektu", "Object identifier"],
  orderLine: ["Pozycja zamówienia", "Order line"], uuId: ["UU_ID", "UU_ID"], excise: ["Kwota akcyzy", "Excise"], annex15: ["Załącznik nr 15", "Annex 15 goods"],
  ossRate: ["Stawka OSS", "OSS rate"], gtu: ["GTU", "GTU"], procedure: ["Procedura", "Procedure"],
  exemptionReason: ["Podstawa zwolnienia", "Exemption reason"], categoryOrReason: ["Kategoria lub podstawa zwolnienia", "Category or exemption reason"], priceBase: ["Ilość bazowa ceny", "Price base quantity"],
  listPrice: ["Cena przed rabatem", "Price before discount"], priceDiscount: ["Rabat od ceny", "Price discount"], allowance: ["Obniżka", "Allowance"],
  charge: ["Obciążenie", "Charge"], parentLine: ["Pozycja nadrzędna", "Parent line"], lineStatus: ["Status pozycji", "Line status"], note: ["Uwagi", "Note"],
  // Totals and VAT
  vatSummary: ["Podsumowanie stawek VAT", "VAT summary"], net: ["Netto", "Net"], vat: ["VAT", "VAT"], gross: ["Brutto", "Gross"],
  totalNet: ["Razem netto", "Total net"], totalTax: ["Razem VAT", "Total VAT"], totalGross: ["Razem brutto", "Total gross"],
  lineNet: ["Suma wartości pozycji", "Sum of line net amounts"], allowancesTotal: ["Suma obniżek", "Sum of allowances"],
  chargesTotal: ["Suma obciążeń", "Sum of charges"], prepaid: ["Zapłacono wcześniej", "Paid amount"], rounding: ["Zaokrąglenie", "Rounding"],
  payable: ["Do zapłaty", "Amount due"], refund: ["Do zwrotu", "Amount to refund"], paidInFull: ["Zapłacono", "Paid"],
  paidOn: ["Data zapłaty", "Paid on"], allowancesCharges: ["Obniżki i obciążenia", "Allowances and charges"], reason: ["Przyczyna", "Reason"],
  baseAmount: ["Podstawa", "Base amount"], percentage: ["Procent", "Percentage"], amount: ["Kwota", "Amount"],
  settlement: ["Rozliczenie", "Settlement"], deductions: ["Odliczenia", "Deductions"],
  deductionsTotal: ["Suma odliczeń", "Sum of deductions"], toSettle: ["Do rozliczenia", "To settle"],
  // Annotations (the Ministry's wording)
  annotations: ["Adnotacje", "Annotations"], cashAccounting: ["Metoda kasowa", "Cash accounting (metoda kasowa)"],
  selfBilling: ["Samofakturowanie", "Self-billing (samofakturowanie)"], reverseCharge: ["Odwrotne obciążenie", "Reverse charge (odwrotne obciążenie)"],
  splitPayment: ["Mechanizm podzielonej płatności", "Split payment mechanism (mechanizm podzielonej płatności)"],
  exemption: ["Dostawa towarów lub świadczenie usług zwolnionych od podatku", "Supply exempt from VAT"],
  exemptAct: ["Przepis ustawy albo aktu wydanego na podstawie ustawy", "Provision of the VAT act or its regulations"],
  exemptDirective: ["Przepis dyrektywy 2006/112/WE", "Provision of Directive 2006/112/EC"], exemptOther: ["Inna podstawa prawna", "Other legal basis"],
  newTransport: ["Wewnątrzwspólnotowa dostawa nowych środków transportu", "Intra-Community supply of new means of transport"],
  art42: ["art. 42 ust. 5 ustawy", "art. 42(5) of the VAT act"],
  triangular: ["Procedura uproszczona (WE) – art. 135 ust. 1 pkt 4 lit. b i c oraz art. 136", "Simplified triangular procedure (art. 135(1)(4)(b,c) and art. 136)"],
  margin: ["Procedura marży", "Margin scheme (procedura marży)"], firstUse: ["Data dopuszczenia do użytku", "Date of first use"],
  make: ["Marka", "Make"], model: ["Model", "Model"], colour: ["Kolor", "Colour"], registration: ["Nr rejestracyjny", "Registration"],
  year: ["Rok produkcji", "Year"], line: ["Pozycja", "Line"],
  // Payment
  payment: ["Płatność", "Payment"], dueDate: ["Termin płatności", "Due date"], means: ["Forma płatności", "Payment means"],
  meansText: ["Opis płatności", "Payment means text"], account: ["Numer rachunku", "Account"],
  bank: ["Bank", "Bank"], bic: ["SWIFT/BIC", "SWIFT/BIC"], accountName: ["Nazwa rachunku", "Account name"], accountDesc: ["Opis rachunku", "Account description"],
  ownAccount: ["Rachunek własny banku", "Bank's own account"], factorAccount: ["Rachunek faktora", "Factor's account"], terms: ["Warunki płatności", "Payment terms"],
  remittance: ["Tytuł płatności", "Remittance information"], card: ["Karta płatnicza", "Payment card"], cardHolder: ["Posiadacz", "Holder"],
  mandate: ["Mandat", "Mandate reference"], creditorId: ["Identyfikator wierzyciela", "Creditor identifier"],
  debitedAccount: ["Rachunek obciążany", "Debited account"], partialStatus: ["Status zapłaty", "Payment status"],
  partialPayments: ["Zapłata częściowa", "Partial payment"], advancePayments: ["Otrzymana zaliczka", "Advance payment received"],
  cashDiscount: ["Skonto", "Cash discount"], paymentLink: ["Link do płatności", "Payment link"],
  ksefPaymentId: ["Identyfikator płatności KSeF", "KSeF payment identifier"],
  // KSeF FA_RR(1) only (fields the other forms do not have)
  qualityClass: ["Klasa lub jakość", "Class or quality"], grossInWords: ["Słownie", "In words"],
  proofOfPayment: ["Dokument zapłaty", "Proof of payment"], farmerAccount: ["Rachunek rolnika", "Farmer's account"],
  buyerAccount: ["Rachunek nabywcy", "Buyer's account"], supplierNumber: ["Numer kontrahenta", "Supplier number"],

  // Transaction terms and orders
  transactionTerms: ["Warunki transakcji", "Transaction terms"],
  batch: ["Numery partii towaru", "Batch numbers"], deliveryTerms: ["Warunki dostawy", "Delivery terms"], contractRate: ["Kurs umowny", "Contract rate"],
  contractCurrency: ["Waluta umowna", "Contract currency"], transportKind: ["Rodzaj transportu", "Mode of transport"],
  carrier: ["Przewoźnik", "Carrier"], transportOrder: ["Nr zlecenia transportu", "Transport order"], cargo: ["Ładunek", "Cargo"],
  packaging: ["Jednostka opakowania", "Packaging unit"], start: ["Rozpoczęcie", "Start"], end: ["Zakończenie", "End"],
  shipFrom: ["Wysyłka z", "Shipped from"], shipVia: ["Wysyłka przez", "Shipped via"], shipTo: ["Wysyłka do", "Shipped to"],
  intermediary: ["Podmiot pośredniczący", "Intermediary"], orderTable: ["Zamówienie", "Order"], orderValue: ["Wartość zamówienia", "Order value"],
  // Notes, attachments, footer
  notes: ["Uwagi", "Notes"], additionalInfo: ["Dodatkowe informacje", "Additional information"], attachments: ["Załączniki", "Attachments"],
  supportingDocs: ["Dokumenty uzupełniające", "Supporting documents"], file: ["Plik", "File"], url: ["Adres", "Location"],
  registers: ["Rejestry", "Registers"], fullName: ["Pełna nazwa", "Full name"], krs: ["KRS", "KRS"], regon: ["REGON", "REGON"], bdo: ["BDO", "BDO"],
  footer: ["Stopka", "Footer"], columnTypes: ["Typy danych kolumn", "Column data types"],
  qrTitle: ["Kod weryfikujący KSeF (KOD I)", "KSeF verification code (KOD I)"],
  qrCaption: ["Zeskanuj kod lub otwórz link poniżej, aby zweryfikować fakturę w KSeF.", "Scan the code or open the link below to verify the invoice in KSeF."],
  qrCertificateTitle: ["Kod weryfikujący certyfikat KSeF wystawcy (KOD II)", "KSeF issuer certificate verification code (KOD II)"],
  qrCertificateCaption: ["Faktura wystawiona w trybie offline: zeskanuj kod lub otwórz link poniżej, aby potwierdzić autentyczność wystawcy w KSeF.",
    "Invoice issued offline: scan the code or open the link below to confirm the issuer's authenticity in KSeF."],
} as const satisfies Record<string, readonly [string, string]>;

/** Every fixed text on the page, by name. */
export type Labels = { readonly [K in keyof typeof _PAIRS]: string };

function _pick(i: 0 | 1): Labels {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(_PAIRS)) out[k] = v[i];
  return out as Labels;
}

/** The labels of each language. */
export const LABELS: Record<Lang, Labels> = { pl: _pick(0), en: _pick(1) };

/**
 * KSeF FA_RR(1), the VAT RR invoice (art. 116 of the VAT act): the farmer supplies and the buyer issues, and the
 * flat-rate refund (zryczałtowany zwrot podatku) stands where VAT stands on other invoices. Its fields' names, as
 * schemat_FA_RR(1)_v1-1E.xsd documents them, replace the VAT wording.
 */
const _RR_PAIRS = {
  seller: ["Dostawca (rolnik ryczałtowy)", "Supplier (flat-rate farmer)"],
  buyer: ["Nabywca (wystawca faktury)", "Buyer (issuer of the invoice)"],
  sellerBefore: ["Dane dostawcy przed korektą", "Supplier as on the corrected invoice"],
  saleDate: ["Data dokonania nabycia", "Date of purchase"], lineDate: ["Data dokonania nabycia", "Date of purchase"],
  // Line table heads are narrow: P_7, P_8, P_9, P_10, P_11 in short.
  name: ["Produkt rolny lub usługa rolnicza", "Farm produce or service"],
  unitPriceNet: ["Cena jedn. bez zwrotu", "Unit price without refund"],
  amountNet: ["Wartość bez zwrotu", "Value without refund"],
  vatRate: ["Stawka zwrotu", "Refund rate"], vatAmount: ["Kwota zwrotu", "Refund"],
  amountGross: ["Wartość ze zwrotem", "Value with refund"],
  vatSummary: ["Zryczałtowany zwrot podatku", "Flat-rate tax refund"],
  net: ["Wartość nabycia", "Value bought"], vat: ["Zwrot podatku", "Refund"], gross: ["Należność", "Amount due"],
  // Short forms in the totals column: P_11_1, P_11_2 and P_12_1 (the value with the refund).
  totalNet: ["Wartość nabycia", "Value bought"], totalTax: ["Zwrot podatku", "Flat-rate refund"],
  totalGross: ["Należność ogółem", "Total amount due"],
} as const satisfies Partial<Record<keyof typeof _PAIRS, readonly [string, string]>>;

/** The labels of FA_RR(1) invoices in each language: the common ones with the VAT RR wording. */
export const RR_LABELS: Record<Lang, Labels> = {
  pl: { ...LABELS.pl, ...Object.fromEntries(Object.entries(_RR_PAIRS).map(([k, v]) => [k, v[0]])) },
  en: { ...LABELS.en, ...Object.fromEntries(Object.entries(_RR_PAIRS).map(([k, v]) => [k, v[1]])) },
};

/**
 * Reads a KSeF structured invoice, FA(2) or FA(3) (schemat_FA(2)_v1-0E.xsd,
 * schemat_FA(3)_v1-0E.xsd), into the invoice model. Net and tax totals are the
 * exact sums of the P_13_* and P_14_* fields (API.md §8). Does not validate
 * against the XSD: what is missing is null, nothing here throws.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { parseDecimal, sumDecimals } from "./decimal.ts";
import { documentTypeFromKsef } from "./document_type.ts";
import type {
  Address, CorrectedInvoice, Decimal, Invoice, InvoiceLine, Party, Payment, VatBreakdown,
} from "./model.ts";
import { attr, child, childText, compact, parseDate, textOf } from "./query.ts";

/** Namespace of KSeF FA(2) (FIELDS.md). */
export const KSEF_FA2_NS = "http://crd.gov.pl/wzor/2023/06/29/12648/";
/** Namespace of KSeF FA(3) (FIELDS.md). */
export const KSEF_FA3_NS = "http://crd.gov.pl/wzor/2025/06/25/13775/";

/**
 * The VAT summary fields of Fa, in schema order, with the rate each one stands
 * for (XSD documentation of P_13_x). `alt` is the other rate the same field may
 * carry (23 or 22, 8 or 7, 4 or 3); the line rates decide between them.
 */
const VAT_FIELDS: readonly { net: string; tax: string | null; rate: string; alt: string | null }[] = [
  { net: "P_13_1", tax: "P_14_1", rate: "23", alt: "22" },
  { net: "P_13_2", tax: "P_14_2", rate: "8", alt: "7" },
  { net: "P_13_3", tax: "P_14_3", rate: "5", alt: null },
  // Flat-rate tax for passenger taxis (ryczałt dla taksówek osobowych).
  { net: "P_13_4", tax: "P_14_4", rate: "4", alt: "3" },
  // Special procedure of dział XII rozdział 6a (OSS): the rates are other member states'.
  { net: "P_13_5", tax: "P_14_5", rate: "OSS", alt: null },
  { net: "P_13_6_1", tax: null, rate: "0 KR", alt: null },
  { net: "P_13_6_2", tax: null, rate: "0 WDT", alt: null },
  { net: "P_13_6_3", tax: null, rate: "0 EX", alt: null },
  { net: "P_13_7", tax: null, rate: "zw", alt: null },
  // Supplies outside the country, except P_13_5 and P_13_9.
  { net: "P_13_8", tax: null, rate: "np I", alt: null },
  // Services of art. 100 ust. 1 pkt 4 (EU reverse charge services).
  { net: "P_13_9", tax: null, rate: "np II", alt: null },
  { net: "P_13_10", tax: null, rate: "oo", alt: null },
  { net: "P_13_11", tax: null, rate: "marża", alt: null },
];

/** Reads a Faktura root element in FA(2) or FA(3). */
export function readKsef(root: XmlElement, format: "ksef-fa2" | "ksef-fa3"): Invoice {
  const ns = root.ns;
  let profile: string | null = null;
  let seller = _emptyParty();
  let buyer = _emptyParty();
  let fa: XmlElement | null = null;
  const footers: string[] = [];
  for (const c of root.children) {
    if (c.ns !== ns) continue;
    switch (c.local) {
      case "Naglowek":
        profile = attr(child(c, ns, "KodFormularza"), "kodSystemowy");
        break;
      case "Podmiot1":
        seller = _party(c, ns);
        break;
      case "Podmiot2":
        buyer = _party(c, ns);
        break;
      case "Fa":
        fa ??= c;
        break;
      case "Stopka":
        for (const info of c.children) {
          if (info.ns === ns && info.local === "Informacje") {
            const footer = childText(info, ns, "StopkaFaktury");
            if (footer !== null) footers.push(footer);
          }
        }
        break;
    }
  }
  const inv: Invoice = {
    format, profile, type: "other", type_code: null, number: null, issue_date: null, sale_date: null,
    currency: null, seller, buyer, lines: [], vat_breakdown: [],
    totals: { net: null, tax: null, gross: null, payable: null },
    payment: null, corrected_invoices: [], correction_reason: null, notes: [],
  };
  if (fa !== null) _readFa(fa, ns, inv);
  for (const f of footers) inv.notes.push(f);
  return inv;
}

/** One pass over Fa's children: header fields, VAT summary, lines, payment, corrections. */
function _readFa(fa: XmlElement, ns: string, inv: Invoice): void {
  const sums = new Map<string, string>();
  for (const c of fa.children) {
    if (c.ns !== ns) continue;
    const local = c.local;
    switch (local) {
      case "KodWaluty":
        inv.currency = textOf(c);
        break;
      case "P_1":
        inv.issue_date = parseDate(textOf(c));
        break;
      case "P_2":
        inv.number = textOf(c);
        break;
      case "P_6":
        inv.sale_date = parseDate(textOf(c));
        break;
      case "P_15": {
        const gross = parseDecimal(textOf(c));
        inv.totals.gross = gross;
        inv.totals.payable = gross;
        break;
      }
      case "RodzajFaktury":
        inv.type_code = textOf(c);
        break;
      case "PrzyczynaKorekty":
        inv.correction_reason = textOf(c);
        break;
      case "DaneFaKorygowanej":
        inv.corrected_invoices.push(_corrected(c, ns));
        break;
      case "DodatkowyOpis": {
        const note = _description(c, ns);
        if (note !== null) inv.notes.push(note);
        break;
      }
      case "FaWiersz":
        inv.lines.push(_line(c, ns));
        break;
      case "Platnosc":
        inv.payment ??= _payment(c, ns);
        break;
      default:
        // P_13_x / P_14_x (but not the P_14_xW PLN amounts, which VAT_FIELDS never names).
        // An empty element counts as absent.
        if (local.startsWith("P_13_") || local.startsWith("P_14_")) {
          const value = textOf(c);
          if (value !== null && !sums.has(local)) sums.set(local, value);
        }
    }
  }
  inv.type = documentTypeFromKsef(inv.type_code);
  _readVatSummary(sums, inv);
}

/** Totals and the VAT breakdown from the P_13_x / P_14_x fields. */
function _readVatSummary(sums: ReadonlyMap<string, string>, inv: Invoice): void {
  const nets: Decimal[] = [];
  const taxes: Decimal[] = [];
  // A field that is present but not a number makes its total unknown, not smaller.
  let netUnknown = false;
  let taxUnknown = false;
  for (const f of VAT_FIELDS) {
    const netText = sums.get(f.net);
    const taxText = f.tax === null ? undefined : sums.get(f.tax);
    if (netText === undefined && taxText === undefined) continue;
    const net = netText === undefined ? null : parseDecimal(netText);
    const tax = taxText === undefined ? null : parseDecimal(taxText);
    if (netText !== undefined) {
      if (net === null) netUnknown = true;
      else nets.push(net);
    }
    if (taxText !== undefined) {
      if (tax === null) taxUnknown = true;
      else taxes.push(tax);
    }
    const rate = f.alt !== null && _linesUseOnly(inv.lines, f.alt, f.rate) ? f.alt : f.rate;
    const row: VatBreakdown = { rate, category: null, net, tax };
    inv.vat_breakdown.push(row);
  }
  inv.totals.net = netUnknown ? null : sumDecimals(nets);
  inv.totals.tax = taxUnknown ? null : sumDecimals(taxes);
}

/** True when some line has rate `alt` and none has `rate` (only asked for P_13_1, P_13_2, P_13_4). */
function _linesUseOnly(lines: readonly InvoiceLine[], alt: string, rate: string): boolean {
  let seen = false;
  for (const l of lines) {
    if (l.vat_rate === rate) return false;
    if (l.vat_rate === alt) seen = true;
  }
  return seen;
}

function _emptyParty(): Party {
  return { name: null, tax_id: null, tax_id_prefix: null, address: null, email: null };
}

/** Podmiot1 / Podmiot2: the id is NIP, KodUE + NrVatUE, KodKraju + NrID, or BrakID. */
function _party(el: XmlElement, ns: string): Party {
  const p = _emptyParty();
  for (const c of el.children) {
    if (c.ns !== ns) continue;
    switch (c.local) {
      case "PrefiksPodatnika":
        p.tax_id_prefix = textOf(c);
        break;
      case "DaneIdentyfikacyjne":
        for (const d of c.children) {
          if (d.ns !== ns) continue;
          switch (d.local) {
            case "NIP":
            case "NrVatUE":
            case "NrID":
              p.tax_id = textOf(d);
              break;
            case "KodUE":
            case "KodKraju":
              p.tax_id_prefix = textOf(d);
              break;
            case "Nazwa":
              p.name = textOf(d);
              break;
          }
        }
        break;
      case "Adres":
        p.address ??= _address(c, ns);
        break;
      case "DaneKontaktowe":
        p.email ??= childText(c, ns, "Email");
        break;
    }
  }
  return p;
}

function _address(el: XmlElement, ns: string): Address {
  return {
    lines: compact([childText(el, ns, "AdresL1"), childText(el, ns, "AdresL2")]),
    city: null,
    postal_code: null,
    country: childText(el, ns, "KodKraju"),
  };
}

function _corrected(el: XmlElement, ns: string): CorrectedInvoice {
  return {
    number: childText(el, ns, "NrFaKorygowanej"),
    issue_date: parseDate(childText(el, ns, "DataWystFaKorygowanej")),
    // NrKSeFN = 1 says the corrected invoice has no KSeF number: that stays null.
    ksef_number: childText(el, ns, "NrKSeFFaKorygowanej"),
  };
}

function _description(el: XmlElement, ns: string): string | null {
  const key = childText(el, ns, "Klucz");
  const value = childText(el, ns, "Wartosc");
  if (key === null) return value;
  return value === null ? key : `${key}: ${value}`;
}

/**
 * One FaWiersz. The amount decides whether the line is net or gross priced:
 * P_11 (net) pairs with P_9A, P_11A (gross) with P_9B; a line without either
 * amount follows its price.
 */
function _line(el: XmlElement, ns: string): InvoiceLine {
  let number: string | null = null;
  let name: string | null = null;
  let unit: string | null = null;
  let quantity: string | null = null;
  let netPrice: string | null = null;
  let grossPrice: string | null = null;
  let net: string | null = null;
  let gross: string | null = null;
  let rate: string | null = null;
  let ossRate: string | null = null;
  let vat: string | null = null;
  let before = false;
  for (const c of el.children) {
    if (c.ns !== ns) continue;
    switch (c.local) {
      case "NrWierszaFa": number = textOf(c); break;
      case "P_7": name = textOf(c); break;
      case "P_8A": unit = textOf(c); break;
      case "P_8B": quantity = textOf(c); break;
      case "P_9A": netPrice = textOf(c); break;
      case "P_9B": grossPrice = textOf(c); break;
      case "P_11": net = textOf(c); break;
      case "P_11A": gross = textOf(c); break;
      case "P_11Vat": vat = textOf(c); break;
      case "P_12": rate = textOf(c); break;
      case "P_12_XII": ossRate = textOf(c); break;
      case "StanPrzed": before = textOf(c) === "1"; break;
    }
  }
  const grossPriced = net === null && (gross !== null || (netPrice === null && grossPrice !== null));
  return {
    number,
    name,
    quantity: parseDecimal(quantity),
    unit,
    unit_price: parseDecimal(grossPriced ? grossPrice : netPrice),
    gross_priced: grossPriced,
    amount: parseDecimal(grossPriced ? gross : net),
    vat_rate: rate ?? ossRate,
    vat_category: null,
    vat_amount: parseDecimal(vat),
    before_correction: before,
  };
}

/** Platnosc: the first due date, the payment form, the first bank account. */
function _payment(el: XmlElement, ns: string): Payment | null {
  let due: string | null = null;
  let terms: string | null = null;
  let means: string | null = null;
  let account: string | null = null;
  let bank: string | null = null;
  let factorAccount: XmlElement | null = null;
  let accountSeen = false;
  for (const c of el.children) {
    if (c.ns !== ns) continue;
    switch (c.local) {
      case "TerminPlatnosci":
        due ??= parseDate(childText(c, ns, "Termin"));
        terms ??= _termDescription(child(c, ns, "TerminOpis"), ns);
        break;
      case "FormaPlatnosci":
        means ??= textOf(c);
        break;
      case "OpisPlatnosci":
        // PlatnoscInna = 1 with a free-text description instead of a FormaPlatnosci code.
        means ??= textOf(c);
        break;
      case "RachunekBankowy":
        if (!accountSeen) {
          accountSeen = true;
          account = childText(c, ns, "NrRB");
          bank = childText(c, ns, "NazwaBanku");
        }
        break;
      case "RachunekBankowyFaktora":
        factorAccount ??= c;
        break;
    }
  }
  // With factoring the buyer pays the factor: its account is the one to pay into.
  if (!accountSeen && factorAccount !== null) {
    account = childText(factorAccount, ns, "NrRB");
    bank = childText(factorAccount, ns, "NazwaBanku");
  }
  if (due === null && terms === null && means === null && account === null && bank === null) return null;
  return { due_date: due, means, account, bank_name: bank, terms };
}

/** TerminOpis: free text in FA(2); Ilosc + Jednostka + ZdarzeniePoczatkowe in FA(3). */
function _termDescription(el: XmlElement | null, ns: string): string | null {
  if (el === null) return null;
  const text = textOf(el);
  if (text !== null) return text;
  const parts = compact([
    childText(el, ns, "Ilosc"), childText(el, ns, "Jednostka"), childText(el, ns, "ZdarzeniePoczatkowe"),
  ]);
  return parts.length === 0 ? null : parts.join(" ");
}

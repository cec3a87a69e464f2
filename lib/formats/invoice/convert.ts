/**
 * Turns an invoice read from one format into the invoice object another format's writer expects (README "Creating
 * invoices", "Converting"): the same business content in the target's terms. It maps what the two formats say
 * differently, following EN 16931's semantics and the FA(3) schema's documentation: VAT rates (FA(3) `P_12` codes ↔
 * UNCL5305 categories with percentages, vat_rates.ts), the reverse-charge and exemption annotations, tax ids (NIP ↔
 * a `PL` VAT number), document kinds (RodzajFaktury ↔ UNTDID 1001), payment means (FormaPlatnosci ↔ UNCL4461) and
 * addresses. What has no equivalent is a loss, never dropped silently; what makes the target invalid (no Polish
 * seller NIP for FA(3), a rate FA(3) cannot say) is a refusal. Values the target syntax has no element for are the
 * writer's losses, not these.
 * @module
 */
import { addDecimals, divideDecimals, multiplyDecimals, roundDecimal, subtractDecimals, sumDecimals } from "./decimal.ts";
import { codeOf, KSEF_INVOICE_KINDS, KSEF_PAYMENT_FORMS, UNCL_4461, UNCL_5305, UNTDID_1001 } from "./code_lists.ts";
import type { Address, Invoice, Party, TaxId, VatBreakdown } from "./model.ts";
import { ksefRate, ksefRateOf } from "./vat_rates.ts";
import { unitCodeOf, unitNameOf } from "./units.ts";
import type { WrittenFormat } from "./compute.ts";

/** A value the target has no place for: its invoice-object path, the value, and why. */
export interface ConversionLoss {
  field: string;
  value: string;
  reason: string;
}

/** The converted invoice, what it lost, and why it cannot be valid (empty when it can). */
export interface Conversion {
  invoice: Invoice;
  losses: ConversionLoss[];
  refusals: { field: string; message: string }[];
}

/** EN 16931's specification identifier (BT-24) of a core invoice, written when the source names none of EN 16931. */
export const EN16931_PROFILE = "urn:cen.eu:en16931:2017";

/** FormaPlatnosci → UNCL4461, and back (the first UNCL code of each form is the one written). */
const _MEANS: readonly [ksef: string, uncl: readonly string[]][] = [
  ["1", ["10"]], ["2", ["48", "54", "55"]], ["4", ["20"]], ["6", ["30", "58", "31", "42"]], ["7", ["68"]],
];
/** The exemption reasons (BT-120) EN 16931's VAT-category rules ask for, where the source gives none. */
const _EXEMPTION_TEXT: Readonly<Record<string, string>> = {
  AE: "Reverse charge", K: "Intra-community supply", G: "Export outside the EU", O: "Not subject to VAT",
};

/** `source` as an invoice of `to`. */
export function convertInvoice(source: Invoice, to: WrittenFormat): Conversion {
  const invoice = structuredClone(source);
  const out: Conversion = { invoice, losses: [], refusals: [] };
  const fromKsef = source.format === "ksef-fa2" || source.format === "ksef-fa3";
  if (to === "ksef-fa3") {
    if (!fromKsef) _enToKsef(out);
    else _fa2ToFa3(out);
  } else if (fromKsef) _ksefToEn(out, to);
  else _enToEn(out, to);
  // FA(3)'s DataWytworzeniaFa is when its XML is made: the writer's now, not another file's date.
  if (to === "ksef-fa3" && source.format !== "ksef-fa3") invoice.created_at = null;
  invoice.format = to;
  return out;
}

/** FA(2) → FA(3): one schema's successor; FA(2)'s single 0 % rate becomes the domestic one (`0 KR`). */
function _fa2ToFa3(out: Conversion): void {
  const inv = out.invoice;
  inv.profile = null;
  for (const [i, l] of inv.lines.entries()) {
    if (l.vat_rate === "0") {
      l.vat_rate = "0 KR";
      out.losses.push({ field: `invoice.lines[${i}].vat_rate`, value: "0", reason: "FA(3) splits 0 % by kind of supply: written as 0 KR (domestic); use 0 WDT or 0 EX for intra-EU supplies and exports" });
    }
  }
  for (const r of inv.vat_breakdown) if (r.rate === "0") { r.rate = "0 KR"; r.ksef_field = "P_13_6_1"; }
}

/** UBL ↔ CII: one semantic model in two syntaxes; the tax-id scheme is each syntax's own word for a VAT number. */
function _enToEn(out: Conversion, to: "ubl" | "cii"): void {
  for (const p of _parties(out.invoice)) {
    for (const id of [p.tax_id, ...p.other_tax_ids]) if (id !== null) id.scheme = _enScheme(id.scheme, to);
  }
}

/** FA(2)/FA(3) → UBL or CII. */
function _ksefToEn(out: Conversion, to: "ubl" | "cii"): void {
  const inv = out.invoice;
  inv.profile = EN16931_PROFILE;
  const kind = inv.kind?.code ?? "VAT";
  // KSeF's corrections carry signed differences, which EN 16931's corrected invoice (384) takes as they are.
  const code = kind === "ZAL" ? "386" : kind.startsWith("KOR") ? "384" : "380";
  if (kind === "ROZ" || kind === "KOR_ZAL" || kind === "KOR_ROZ") out.losses.push({ field: "invoice.kind", value: kind, reason: `UNTDID 1001 has no ${KSEF_INVOICE_KINDS[kind as keyof typeof KSEF_INVOICE_KINDS]?.toLowerCase() ?? kind}: written as ${code}` });
  inv.kind = codeOf(UNTDID_1001, code);
  inv.type = code === "384" ? "correction" : "invoice";
  for (const p of _parties(inv)) {
    if (p.tax_id?.scheme === "NIP") p.tax_id = { value: `PL${p.tax_id.value}`, country: "PL", scheme: _enScheme("VAT", to) };
    else if (p.tax_id?.scheme === "VAT") p.tax_id.scheme = _enScheme("VAT", to);
    else if (p.tax_id?.scheme === "NrID") {
      // A tax number from outside the EU (KodKraju + NrID) is no VAT identifier (BR-CO-09 wants its country prefix):
      // it is the party's identifier.
      p.identifiers.unshift({ value: p.tax_id.value, scheme: null });
      p.tax_id = null;
    }
    if (p.address !== null) _addressToEn(p.address);
  }
  inv.lines.forEach((l, i) => {
    _unitToEn(l, `invoice.lines[${i}].unit`, out);
    // PKWiU, CN and PKOB are Polish (and EU) classifications that UNTDID 7143 (BT-158-1, BR-CL-13) has no code for.
    l.classifications = l.classifications.filter((c, j) => {
      const foreign = c.scheme === "PKWiU" || c.scheme === "CN" || c.scheme === "PKOB";
      if (foreign) out.losses.push({ field: `invoice.lines[${i}].classifications[${j}]`, value: `${c.scheme} ${c.value}`, reason: "UNTDID 7143 has no code for this classification" });
      return !foreign;
    });
  });
  inv.attachments.forEach((a, i) => {
    out.losses.push({ field: `invoice.attachments[${i}]`, value: a.description ?? a.id ?? a.filename ?? "Zalacznik", reason: "EN 16931 refers to supporting documents (BG-24); the content of FA(3)'s Zalacznik is not carried" });
  });
  inv.attachments = [];
  const ann = inv.annotations;
  const reasons = (category: string): string | null =>
    category === "E" ? (ann?.exemption.act ?? ann?.exemption.directive ?? ann?.exemption.other ?? "Exempt") : (_EXEMPTION_TEXT[category] ?? null);
  _grossLinesToNet(inv);
  for (const [i, l] of inv.lines.entries()) {
    const r = l.vat_rate === null ? undefined : ksefRate(l.vat_rate);
    if (r !== undefined) {
      l.vat_category = codeOf(UNCL_5305, r.category);
      l.vat_rate = r.percent;
      l.vat_rate_text = null;
    }
    if (l.before_correction) {
      // A correction's row "before" (StanPrzed) is written as a negative line, so the lines add up to the difference.
      l.quantity = _neg(l.quantity);
      l.net_amount = _neg(l.net_amount);
      l.before_correction = false;
      out.losses.push({ field: `invoice.lines[${i}].before_correction`, value: "true", reason: "EN 16931 has no row before the correction: written as a negative line" });
    }
  }
  const rows: VatBreakdown[] = [];
  for (const row of inv.vat_breakdown) {
    const r = row.rate === null ? undefined : ksefRate(row.rate);
    if (r === undefined) continue;
    rows.push({
      ...row, category: codeOf(UNCL_5305, r.category), rate: r.percent, tax_amount: row.tax_amount ?? "0.00", ksef_field: null, tax_scheme: "VAT",
      exemption_reason: row.exemption_reason ?? (r.category === "S" || r.category === "Z" ? null : reasons(r.category)),
    });
  }
  inv.vat_breakdown = rows;
  // EN 16931 totals: the lines' sum, and the amount due (BT-115) is the gross unless KSeF's settlement says otherwise.
  const means = inv.payment?.means?.code;
  if (inv.payment !== null && means !== undefined) {
    const uncl = _MEANS.find(([k]) => k === means)?.[1][0];
    if (uncl === undefined) out.losses.push({ field: "invoice.payment.means", value: means, reason: `UNCL4461 has no ${KSEF_PAYMENT_FORMS[means as keyof typeof KSEF_PAYMENT_FORMS] ?? means}: written as 1 (instrument not defined)` });
    inv.payment.means = codeOf(UNCL_4461, uncl ?? "1");
  }
  if (inv.currency !== null && inv.currency !== "PLN" && inv.totals.tax_in_tax_currency !== null) {
    inv.tax_currency = "PLN";
    inv.totals.tax_in_tax_currency = roundDecimal(inv.totals.tax_in_tax_currency, 2); // BR-DEC-15: two decimals
  }
  // An intra-community supply (K, FA(3)'s 0 WDT) goes to the buyer's country unless said otherwise (BR-IC-12 asks).
  if (inv.vat_breakdown.some((r) => r.category?.code === "K") && inv.buyer.address?.country_code) {
    const d = inv.delivery ??= { date: null, period: null, party_name: null, location_id: null, address: null };
    d.address ??= { lines: [], city: null, postal_code: null, subdivision: null, country_code: inv.buyer.address.country_code, gln: null };
  }
  // WarunkiTransakcji's first contract and order are EN 16931's contract (BT-12) and purchase order (BT-13).
  const terms = inv.transaction_terms;
  if (terms !== null) {
    const contract = terms.contracts.shift();
    const order = terms.orders.shift();
    if (contract?.number) inv.references.contract ??= contract.number;
    if (order?.number) inv.references.order ??= order.number;
    for (const [what, x] of [["contracts", contract], ["orders", order]] as const) {
      if (x?.date) out.losses.push({ field: `invoice.transaction_terms.${what}[0].date`, value: x.date, reason: `EN 16931 has no date of a ${what === "contracts" ? "contract (BT-12)" : "purchase order (BT-13)"}` });
    }
    if (terms.contracts.length + terms.orders.length + terms.batch_numbers.length + terms.transports.length === 0 && terms.delivery_terms === null && terms.contract_rate === null && !terms.intermediary) {
      inv.transaction_terms = null;
    }
  }
  inv.annotations = null;
  if (ann !== null) _annotationLosses(ann, out);
}

/** UBL or CII → FA(3): a Polish seller's invoice for KSeF. */
function _enToKsef(out: Conversion): void {
  const inv = out.invoice;
  inv.profile = null;
  inv.business_process = null;
  const nip = _polishNip(inv.seller.tax_id) ?? inv.seller.other_tax_ids.map(_polishNip).find((x) => x !== null) ?? null;
  if (nip === null) out.refusals.push({ field: "invoice.seller.tax_id", message: "FA(3) is for Polish sellers: the seller needs a Polish NIP (a VAT number PL and 10 digits)" });
  else inv.seller.tax_id = { value: nip, country: "PL", scheme: "NIP" };
  const buyerNip = _polishNip(inv.buyer.tax_id);
  if (buyerNip !== null) inv.buyer.tax_id = { value: buyerNip, country: "PL", scheme: "NIP" };
  else if (inv.buyer.tax_id !== null) inv.buyer.tax_id.scheme = "VAT";
  else if (inv.buyer.identifiers.length > 0 && inv.buyer.address?.country_code) {
    // A buyer known by another identifier (BT-46) is FA(3)'s KodKraju + NrID.
    const id = inv.buyer.identifiers.shift()!;
    inv.buyer.tax_id = { value: id.value, country: inv.buyer.address.country_code, scheme: "NrID" };
  } else inv.buyer.no_tax_id = true; // FA(3)'s BrakID: a buyer without any tax number
  // FA(3)'s third parties have its own roles (Podmiot3/Rola 1–11); others (an invoicee, Peppol's parties) are lost.
  inv.third_parties = inv.third_parties.filter((t, i) => {
    const kept = t.role !== null && /^(?:[1-9]|1[01])$/.test(t.role.code);
    if (!kept) out.losses.push({ field: `invoice.third_parties[${i}]`, value: t.name ?? t.role?.code ?? "", reason: "FA(3) has no third-party role for this party" });
    return kept;
  });
  // NrWierszaFa is a number: line ids that are not (BT-126 "SZ300540", "1.1") are numbered anew and lost.
  if (inv.lines.some((l) => l.number !== null && !/^[1-9]\d{0,13}$/.test(l.number))) {
    inv.lines.forEach((l, i) => {
      if (l.number !== null && l.number !== String(i + 1)) out.losses.push({ field: `invoice.lines[${i}].number`, value: l.number, reason: `FA(3) numbers its lines: written as ${i + 1}` });
      l.number = String(i + 1);
    });
  }
  for (const l of inv.lines) if (l.vat_amount !== null) l.vat_amount = roundDecimal(l.vat_amount, 2); // P_11Vat: two decimals
  for (const p of _parties(inv)) if (p.address !== null) _addressToKsef(p.address);
  inv.lines.forEach((l, i) => _unitToKsef(l, `invoice.lines[${i}].unit`, out));
  const code = inv.kind?.code ?? "380";
  const corrective = code === "381" || code === "384" || inv.type === "credit_note" || inv.type === "correction";
  inv.kind = codeOf(KSEF_INVOICE_KINDS, code === "386" ? "ZAL" : corrective ? "KOR" : "VAT");
  inv.type = corrective ? "correction" : "invoice";
  if (code === "381") _negate(inv); // a credit note's positive amounts are a correction's negative differences
  if (corrective && inv.references.preceding_invoices.length === 0) {
    out.refusals.push({ field: "invoice.references.preceding_invoices", message: "An FA(3) correction (KOR) names the invoice it corrects: give the preceding invoice's number and date (BG-3)" });
  }
  inv.references.preceding_invoices.forEach((r, i) => {
    if (corrective && r.issue_date === null) out.refusals.push({ field: `invoice.references.preceding_invoices[${i}].issue_date`, message: "FA(3) needs the corrected invoice's issue date (BT-26, DataWystFaKorygowanej)" });
  });
  if (corrective && inv.correction === null) {
    inv.correction = { reason: null, type: null, corrected_number: null, period: null, seller_before: null, buyers_before: [], amount_before: null, exchange_rate_before: null };
  }
  let reverse = false;
  let exemption: string | null = null;
  inv.lines.forEach((l, i) => {
    const cat = l.vat_category?.code ?? null;
    if (cat === null) return;
    const rate = ksefRateOf(cat, l.vat_rate);
    if (rate === null) {
      out.refusals.push({ field: `invoice.lines[${i}].vat_rate`, message: `FA(3) has no rate for VAT category ${cat}${l.vat_rate === null ? "" : ` at ${l.vat_rate} %`}` });
      return;
    }
    if (cat === "AE") reverse = true;
    if (cat === "E") exemption ??= l.vat_exemption_reason;
    l.vat_rate = rate;
  });
  const rows: VatBreakdown[] = [];
  for (const row of inv.vat_breakdown) {
    const cat = row.category?.code ?? null;
    const rate = cat === null ? null : ksefRateOf(cat, row.rate);
    if (rate === null) continue; // refused with its lines
    if (cat === "E") exemption ??= row.exemption_reason ?? row.exemption_reason_code;
    const k = ksefRate(rate)!;
    rows.push({
      ...row, rate, ksef_field: k.net, tax_scheme: null, exemption_reason: null, exemption_reason_code: null,
      tax_amount: k.tax === null ? null : row.tax_amount,
      tax_amount_tax_currency: k.tax !== null && inv.tax_currency === "PLN" ? row.tax_amount_tax_currency : null,
    });
  }
  inv.vat_breakdown = rows;
  // FA(3)'s annotations say what EN 16931 says by category: reverse charge (P_18) and the exemption's basis (P_19).
  inv.annotations = {
    cash_accounting: false, self_billing: inv.kind?.code === "389", reverse_charge: reverse, split_payment: false,
    exemption: { applies: exemption !== null, act: null, directive: null, other: exemption },
    new_transport: { applies: false, art_42_5: false, vehicles: [] }, triangular: false, margin: { applies: false, scheme: null },
  };
  const means = inv.payment?.means?.code;
  if (inv.payment !== null && means !== undefined) {
    const form = _MEANS.find(([, uncl]) => uncl.includes(means))?.[0];
    if (form === undefined) {
      // FA(3) PlatnoscInna with OpisPlatnosci: other means, said in words.
      inv.payment.means_text ??= inv.payment.means?.text ?? `UNCL4461 ${means}`;
      inv.payment.means = null;
    } else inv.payment.means = codeOf(KSEF_PAYMENT_FORMS, form);
  }
  // The contract (BT-12) and purchase order (BT-13) are FA(3)'s WarunkiTransakcji Umowy and Zamowienia.
  const r = inv.references;
  if (r.contract !== null || r.order !== null) {
    inv.transaction_terms ??= { contracts: [], orders: [], batch_numbers: [], delivery_terms: null, contract_rate: null, contract_currency: null, transports: [], intermediary: false };
    if (r.contract !== null) inv.transaction_terms.contracts.push({ date: null, number: r.contract });
    if (r.order !== null) inv.transaction_terms.orders.push({ date: null, number: r.order });
    r.contract = null;
    r.order = null;
  }
}

/** A KSeF unit ("szt.") as its UN/ECE code; one not on the table is written as C62 ("one") and lost as a word. */
function _unitToEn(l: { unit: string | null }, field: string, out: Conversion): void {
  if (l.unit === null) return;
  const code = unitCodeOf(l.unit);
  if (code === null) out.losses.push({ field, value: l.unit, reason: "UN/ECE Recommendation 20 has no code for this unit: written as C62 (one)" });
  l.unit = code ?? "C62";
}

/** A UN/ECE unit code as the Polish unit FA(3) invoices write; a code not on the table stays as written. */
function _unitToKsef(l: { unit: string | null }, field: string, out: Conversion): void {
  if (l.unit === null) return;
  const name = unitNameOf(l.unit);
  if (name === null) out.losses.push({ field, value: l.unit, reason: "No Polish name for this UN/ECE unit code: written as the code" });
  else l.unit = name;
}

/** `x` negated as written; zero stays unsigned. */
function _neg(x: string | null): string | null {
  if (x === null || /^-?0(\.0+)?$/.test(x)) return x;
  return x.startsWith("-") ? x.slice(1) : `-${x}`;
}

/**
 * Net amounts for a KSeF invoice's gross-priced lines (P_9B, P_11A; VAT act art. 106e ust. 7–8), which EN 16931's
 * lines need (BT-131): each line's gross less its VAT, the last line of each rate taking what rounding leaves, so
 * that the lines add up to the invoice's own P_13_x.
 */
function _grossLinesToNet(inv: Invoice): void {
  const last = new Map<string, number>();
  inv.lines.forEach((l, i) => {
    const r = l.vat_rate === null ? undefined : ksefRate(l.vat_rate);
    if (l.net_amount !== null || l.amount_with_vat === null || r === undefined) return;
    const percent = r.percent ?? "0";
    l.net_amount = roundDecimal(divideDecimals(multiplyDecimals(l.amount_with_vat, "100"), addDecimals("100", percent), 4), 2);
    if (l.price_with_vat !== null) l.net_price = roundDecimal(divideDecimals(multiplyDecimals(l.price_with_vat, "100"), addDecimals("100", percent), 6), 2);
    last.set(l.vat_rate!, i);
  });
  for (const [rate, i] of last) {
    const row = inv.vat_breakdown.find((b) => b.rate === rate);
    if (row?.taxable_amount == null) continue;
    const sum = sumDecimals(inv.lines.filter((l) => l.vat_rate === rate && l.net_amount !== null).map((l) => (l.before_correction ? _neg(l.net_amount)! : l.net_amount!))) ?? "0";
    const line = inv.lines[i]!;
    line.net_amount = addDecimals(line.net_amount!, subtractDecimals(row.taxable_amount, sum));
  }
}

/** Amounts of a credit note as a correction's differences: every line, breakdown row and total negated. */
function _negate(inv: Invoice): void {
  for (const l of inv.lines) {
    l.net_amount = _neg(l.net_amount);
    l.quantity = _neg(l.quantity);
  }
  for (const r of inv.vat_breakdown) {
    r.taxable_amount = _neg(r.taxable_amount);
    r.tax_amount = _neg(r.tax_amount);
    r.tax_amount_tax_currency = _neg(r.tax_amount_tax_currency);
  }
  const t = inv.totals;
  for (const k of ["line_net", "net", "tax", "tax_in_tax_currency", "gross", "payable"] as const) t[k] = _neg(t[k]);
}

/** The annotations of a KSeF invoice that EN 16931 has no term for, as losses (their categories say the rest). */
function _annotationLosses(a: NonNullable<Invoice["annotations"]>, out: Conversion): void {
  const said: [keyof typeof a, string][] = [
    ["cash_accounting", "cash accounting (metoda kasowa, P_16)"], ["self_billing", "self-billing (P_17)"],
    ["split_payment", "the split payment mechanism (P_18A)"], ["triangular", "the simplified triangular procedure (P_23)"],
  ];
  for (const [key, what] of said) {
    if (a[key] === true) out.losses.push({ field: `invoice.annotations.${key}`, value: "true", reason: `EN 16931 has no term for ${what}` });
  }
  if (a.margin.applies) out.losses.push({ field: "invoice.annotations.margin", value: a.margin.scheme?.code ?? "true", reason: "EN 16931 has no term for a margin scheme (PMarzy)" });
  if (a.new_transport.applies) out.losses.push({ field: "invoice.annotations.new_transport", value: "true", reason: "EN 16931 has no term for new means of transport (P_22)" });
}

/** The ten digits of a Polish NIP: a NIP, or a VAT number `PL` + 10 digits. */
function _polishNip(id: TaxId | null): string | null {
  if (id === null) return null;
  const v = id.value.replace(/[\s-]/g, "");
  if (/^\d{10}$/.test(v) && (id.scheme === "NIP" || id.country === "PL")) return v;
  const m = /^PL(\d{10})$/.exec(v);
  return m ? m[1]! : null;
}

/** UBL calls a VAT number's scheme `VAT` (TaxScheme/ID), CII `VA` (schemeID). */
function _enScheme(scheme: string | null, to: "ubl" | "cii"): string | null {
  if (scheme === "VAT" || scheme === "VA") return to === "ubl" ? "VAT" : "VA";
  return scheme;
}

/** KSeF addresses are two free lines: the postal code and city, when given apart, join the last one. */
function _addressToKsef(a: Address): void {
  const cityLine = [a.postal_code, a.city].filter((x) => x !== null && x !== "").join(" ");
  const lines = [...a.lines];
  if (cityLine !== "") lines.push(cityLine);
  a.lines = lines.length <= 2 ? lines : [lines.slice(0, -1).join(", "), lines[lines.length - 1]!];
  a.postal_code = null;
  a.city = null;
  a.subdivision = null;
}

/** A KSeF address line "00-001 Warszawa" (Polish postal code, then the city) read apart, as EN 16931 has them. */
function _addressToEn(a: Address): void {
  if (a.city !== null || a.lines.length === 0) return;
  const last = a.lines[a.lines.length - 1]!;
  const m = /^(\d{2}-\d{3})\s+(.+)$/.exec(last.trim());
  if (m === null) return;
  a.postal_code = m[1]!;
  a.city = m[2]!;
  a.lines = a.lines.slice(0, -1);
}

function _parties(inv: Invoice): Party[] {
  return [inv.seller, inv.buyer, inv.payee, inv.tax_representative, ...inv.third_parties].filter((p): p is Party => p !== null);
}

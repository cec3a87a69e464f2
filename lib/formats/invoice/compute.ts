/**
 * Computes the values of an invoice that follow from others (README "Creating invoices"), in exact decimals:
 * line net amounts (quantity × net price ÷ base quantity, less the line's allowances, plus its charges, rounded
 * half up to 2 decimals, EN 16931 BT-131), the VAT breakdown per category and rate (BG-23; FA(3) `P_13_x`,
 * `P_14_x`, `P_14_xW` in PLN at the invoice's exchange rate), and the document totals (BT-106…BT-115; FA(3)
 * `P_15`). A value that is absent is filled in; one that is given is checked, and a difference is a finding that
 * names both. Lines without a number are numbered from 1. VAT is computed per rate on the sum of the net amounts, as the VAT act's art. 106e allows and both
 * formats' rules check. It does not decide what a format requires beyond that: the writer and the validator do.
 * @module
 */
import {
  addDecimals, compareDecimals, divideDecimals, isDecimal, multiplyDecimals, negateDecimal, roundDecimal, subtractDecimals, sumDecimals,
} from "./decimal.ts";
import { codeOf, UNCL_5305, UNTDID_1001, KSEF_INVOICE_KINDS } from "./code_lists.ts";
import type { AllowanceCharge, Code, Decimal, Invoice, InvoiceLine, VatBreakdown } from "./model.ts";
import { ksefRate, ksefRateOf } from "./vat_rates.ts";

/** The formats an invoice is written in (README "Creating invoices"). */
export type WrittenFormat = "ksef-fa3" | "ubl" | "cii";

/** A value that disagrees with the others, or one that is needed and missing: `field` is its JSON path. */
export interface ComputeFinding {
  /** `INVOICE-LINE-NET`, `INVOICE-VAT-RATE`, `INVOICE-VAT-BREAKDOWN` or `INVOICE-TOTALS`. */
  rule: string;
  field: string;
  message: string;
}

const _ROOT = "invoice";

/** Fills in what follows from the other values of `inv` (in place) and returns what disagrees. */
export function completeInvoice(inv: Invoice, format: WrittenFormat): ComputeFinding[] {
  const findings: ComputeFinding[] = [];
  _kind(inv, format);
  inv.lines.forEach((line, i) => {
    line.number ??= String(i + 1); // BT-126, FA(3) NrWierszaFa: both formats number their lines
    _line(line, `${_ROOT}.lines[${i}]`, format, findings);
  });
  inv.allowances_charges.forEach((ac, i) => _allowanceCharge(ac, `${_ROOT}.allowances_charges[${i}]`, null, format, findings));
  const computed = _breakdown(inv, format);
  // FA(3)'s advance, settlement and correction invoices sum what was paid or changed, not their lines: their
  // breakdown and totals are filled in when absent, never checked against the lines.
  const checked = format !== "ksef-fa3" || inv.kind === null || inv.kind.code === "VAT" || inv.kind.code === "UPR";
  const sink = checked ? findings : [];
  _mergeBreakdown(inv, computed, sink);
  _totals(inv, format, sink);
  return findings;
}

/** The document kind and type when absent: FA(3) `VAT` (`KOR` with a correction), UNTDID 1001 380 or 381. */
function _kind(inv: Invoice, format: WrittenFormat): void {
  if (format === "ksef-fa3") {
    inv.kind ??= codeOf(KSEF_INVOICE_KINDS, inv.correction !== null ? "KOR" : "VAT");
    if (inv.type === "other" || (inv.type as string | null) === null) inv.type = inv.kind?.code?.startsWith("KOR") ? "correction" : "invoice";
    return;
  }
  inv.kind ??= codeOf(UNTDID_1001, inv.type === "credit_note" ? "381" : "380");
  if ((inv.type as string | null) === null || inv.type === "other") inv.type = inv.kind?.code === "381" ? "credit_note" : "invoice";
}

/** A line's category and rate made to agree with each other and the format, then its net amount. */
function _line(line: InvoiceLine, path: string, format: WrittenFormat, findings: ComputeFinding[]): void {
  _rate(line, path, format, findings);
  line.allowances_charges.forEach((ac, j) => _allowanceCharge(ac, `${path}.allowances_charges[${j}]`, line, format, findings));
  if (line.price_with_vat !== null && line.net_price === null) {
    // A gross-priced KSeF line (P_9B, P_11A; VAT act art. 106e ust. 7–8): its VAT comes out of the gross sum per rate.
    if (line.quantity !== null) {
      _check(line, "amount_with_vat", roundDecimal(multiplyDecimals(line.quantity, line.price_with_vat), 2), `${path}.amount_with_vat`, "quantity × price_with_vat", "INVOICE-LINE-NET", findings);
    }
    return;
  }
  if (line.quantity === null || line.net_price === null) {
    if (line.net_amount === null) {
      findings.push({ rule: "INVOICE-LINE-NET", field: `${path}.net_amount`, message: `${path} needs quantity and net_price, or net_amount` });
    }
    return;
  }
  let net = divideDecimals(multiplyDecimals(line.quantity, line.net_price), line.price_base_quantity ?? "1", 2);
  if (line.discount !== null) net = subtractDecimals(net, line.discount);
  for (const ac of line.allowances_charges) {
    if (ac.amount !== null) net = ac.charge ? addDecimals(net, ac.amount) : subtractDecimals(net, ac.amount);
  }
  net = roundDecimal(net, 2);
  _check(line, "net_amount", net, `${path}.net_amount`, "quantity × net_price", "INVOICE-LINE-NET", findings);
}

/** An allowance's or charge's amount from its base and percentage, and its category from its line's. */
function _allowanceCharge(ac: AllowanceCharge, path: string, line: InvoiceLine | null, format: WrittenFormat, findings: ComputeFinding[]): void {
  if (ac.base_amount !== null && ac.percentage !== null) {
    const amount = roundDecimal(divideDecimals(multiplyDecimals(ac.base_amount, ac.percentage), "100", 4), 2);
    _check(ac, "amount", amount, `${path}.amount`, "base_amount × percentage", "INVOICE-TOTALS", findings);
  }
  if (line === null) _rate(ac, path, format, findings); // a line's allowances carry no category of their own (BG-27, BG-28)
}

/**
 * The category and rate of a line or a document allowance or charge, completed from each other in the format's
 * terms (FA(3) `P_12` codes, or percentages).
 */
function _rate(x: { vat_category: Code | null; vat_rate: string | null }, path: string, format: WrittenFormat, findings: ComputeFinding[]): void {
  if (x.vat_category === null && x.vat_rate === null) {
    findings.push({ rule: "INVOICE-VAT-RATE", field: `${path}.vat_rate`, message: `${path} needs a VAT rate or category` });
    return;
  }
  const r = _resolveRate(x.vat_category?.code ?? null, x.vat_rate, format);
  if (r === null) {
    findings.push({ rule: "INVOICE-VAT-RATE", field: `${path}.vat_rate`, message: `${path}: ${_rateText(x.vat_category?.code ?? null, x.vat_rate)} is not a VAT rate ${_formatName(format)} can express` });
    return;
  }
  x.vat_category = codeOf(UNCL_5305, r.category);
  x.vat_rate = r.rate;
}

/**
 * A category and rate as the format writes them: for FA(3) the `P_12` code, for UBL and CII the percentage
 * (a KSeF code given for them is read as its category and percentage). Null when they disagree or are unknown.
 */
function _resolveRate(category: string | null, rate: string | null, format: WrittenFormat): { category: string; rate: string | null } | null {
  const ksef = rate === null ? undefined : ksefRate(rate);
  if (ksef !== undefined) {
    if (category !== null && category !== ksef.category) return null;
    return format === "ksef-fa3" ? { category: ksef.category, rate: ksef.code } : { category: ksef.category, rate: ksef.percent };
  }
  if (rate !== null && !isDecimal(rate)) return null;
  const cat = category ?? (rate === null ? null : compareDecimals(rate, "0") > 0 ? "S" : "Z");
  if (cat === null || !Object.hasOwn(UNCL_5305, cat)) return null;
  if (format === "ksef-fa3") {
    const code = ksefRateOf(cat, rate);
    return code === null ? null : { category: cat, rate: code };
  }
  if (cat === "S" && rate === null) return null;
  return { category: cat, rate: cat === "O" ? null : (rate ?? "0") };
}

/** The breakdown rows the lines and document allowances and charges add up to, in the order first met. */
function _breakdown(inv: Invoice, format: WrittenFormat): VatBreakdown[] {
  const rows = new Map<string, { category: string; rate: string | null; net: Decimal; gross: Decimal }>();
  const add = (category: string | undefined, rate: string | null, net: Decimal | null, gross: Decimal | null, negative: boolean) => {
    if (category === undefined || (net === null && gross === null)) return;
    const key = `${category}|${rate ?? ""}`;
    const row = rows.get(key) ?? { category, rate, net: "0", gross: "0" };
    rows.set(key, row);
    const signed = (x: Decimal) => (negative ? negateDecimal(x) : x);
    if (net !== null) row.net = addDecimals(row.net, signed(net));
    else if (gross !== null) row.gross = addDecimals(row.gross, signed(gross));
  };
  // A correction's rows before it (KSeF StanPrzed) count negatively: FA(3)'s P_13_x hold the difference.
  for (const l of inv.lines) add(l.vat_category?.code, l.vat_rate, l.net_amount, l.amount_with_vat, l.before_correction);
  for (const ac of inv.allowances_charges) add(ac.vat_category?.code, ac.vat_rate, ac.amount, null, !ac.charge);
  const rate = _invoiceExchangeRate(inv);
  const out: VatBreakdown[] = [];
  for (const r of rows.values()) {
    const ksef = format === "ksef-fa3" && r.rate !== null ? ksefRate(r.rate) : undefined;
    if (format === "ksef-fa3" && ksef === undefined) continue; // a rate FA(3) cannot say: its line's finding names it
    const percent = format === "ksef-fa3" ? (ksef?.percent ?? null) : r.rate;
    const taxed = format === "ksef-fa3" ? ksef?.tax !== null && ksef?.tax !== undefined : true;
    // VAT on the net sum (× rate / 100), and out of the gross sum (× rate / (100 + rate)) for gross-priced lines.
    const onNet = percent === null ? "0.00" : roundDecimal(divideDecimals(multiplyDecimals(r.net, percent), "100", 4), 2);
    const inGross = percent === null ? "0.00" : roundDecimal(divideDecimals(multiplyDecimals(r.gross, percent), addDecimals("100", percent), 4), 2);
    const taxable = roundDecimal(addDecimals(r.net, subtractDecimals(r.gross, inGross)), 2);
    const tax = !taxed ? null : roundDecimal(addDecimals(onNet, inGross), 2);
    out.push({
      category: codeOf(UNCL_5305, r.category), rate: r.rate, taxable_amount: taxable, tax_amount: tax,
      tax_amount_tax_currency: format === "ksef-fa3" && tax !== null && rate !== null ? roundDecimal(multiplyDecimals(tax, rate), 2) : null,
      exemption_reason: null, exemption_reason_code: null, tax_scheme: format === "ksef-fa3" ? null : "VAT",
      line_total_basis_amount: null, allowance_charge_basis_amount: null, ksef_field: ksef?.net ?? null,
    });
  }
  return out;
}

/** The rate to PLN of an FA(3) invoice in another currency (KSeF KursWaluty for the whole invoice), or null. */
function _invoiceExchangeRate(inv: Invoice): Decimal | null {
  if (inv.currency === null || inv.currency === "PLN") return null;
  return inv.exchange_rates.find((r) => r.applies_to === "invoice")?.rate ?? null;
}

/** The computed rows become the breakdown; given rows are checked against them and keep what they add (exemption reasons). */
function _mergeBreakdown(inv: Invoice, computed: VatBreakdown[], findings: ComputeFinding[]): void {
  if (inv.vat_breakdown.length === 0) {
    inv.vat_breakdown = computed;
    return;
  }
  const byKey = new Map(computed.map((r) => [_rowKey(r), r]));
  inv.vat_breakdown.forEach((given, j) => {
    const path = `${_ROOT}.vat_breakdown[${j}]`;
    const row = byKey.get(_rowKey(given));
    if (row === undefined) {
      // A correction's row of a rate it leaves unchanged is written with zero amounts: nothing to disagree with.
      if ([given.taxable_amount, given.tax_amount].every((x) => x === null || (isDecimal(x) && compareDecimals(x, "0") === 0))) return;
      findings.push({ rule: "INVOICE-VAT-BREAKDOWN", field: path, message: `${path}: no line or allowance has ${_rateText(given.category?.code ?? null, given.rate)}` });
      return;
    }
    byKey.delete(_rowKey(given));
    _check(given, "taxable_amount", row.taxable_amount as Decimal, `${path}.taxable_amount`, "the lines", "INVOICE-VAT-BREAKDOWN", findings);
    if (row.tax_amount !== null) _check(given, "tax_amount", row.tax_amount, `${path}.tax_amount`, "taxable_amount × rate", "INVOICE-VAT-BREAKDOWN", findings);
    if (row.tax_amount_tax_currency !== null) {
      _check(given, "tax_amount_tax_currency", row.tax_amount_tax_currency, `${path}.tax_amount_tax_currency`, "tax_amount × the exchange rate", "INVOICE-VAT-BREAKDOWN", findings);
    }
    given.category ??= row.category;
    given.ksef_field ??= row.ksef_field;
    given.tax_scheme ??= row.tax_scheme;
  });
  for (const missing of byKey.values()) {
    findings.push({
      rule: "INVOICE-VAT-BREAKDOWN", field: `${_ROOT}.vat_breakdown`,
      message: `${_ROOT}.vat_breakdown has no row for ${_rateText(missing.category?.code ?? null, missing.rate)}, which the lines use`,
    });
  }
}

function _rowKey(r: VatBreakdown): string {
  return `${r.category?.code ?? ""}|${r.rate ?? ""}`;
}

/** BT-106…BT-115 (UBL, CII) or the sums of `P_13_x`, `P_14_x`, `P_14_xW` and `P_15` (FA(3)). */
function _totals(inv: Invoice, format: WrittenFormat, findings: ComputeFinding[]): void {
  const t = inv.totals;
  const path = `${_ROOT}.totals`;
  const check = (name: keyof typeof t, value: Decimal, from: string) => _check(t, name, value, `${path}.${name}`, from, "INVOICE-TOTALS", findings);
  const taxable = inv.vat_breakdown.map((r) => r.taxable_amount).filter((x): x is Decimal => x !== null);
  const taxes = inv.vat_breakdown.map((r) => r.tax_amount).filter((x): x is Decimal => x !== null);
  const tax = roundDecimal(sumDecimals(taxes) ?? "0", 2);
  let net: Decimal;
  if (format === "ksef-fa3") {
    net = roundDecimal(sumDecimals(taxable) ?? "0", 2);
    check("net", net, "the VAT breakdown's taxable amounts");
    const pln = inv.vat_breakdown.map((r) => r.tax_amount_tax_currency).filter((x): x is Decimal => x !== null);
    if (pln.length > 0) check("tax_in_tax_currency", roundDecimal(sumDecimals(pln) ?? "0", 2), "the VAT breakdown's PLN amounts");
  } else {
    const lineNet = roundDecimal(sumDecimals(inv.lines.map((l) => l.net_amount).filter((x): x is Decimal => x !== null)) ?? "0", 2);
    check("line_net", lineNet, "the lines' net amounts");
    const docAc = (charge: boolean) => inv.allowances_charges.filter((a) => a.charge === charge && a.amount !== null).map((a) => a.amount as Decimal);
    const allowances = sumDecimals(docAc(false));
    const charges = sumDecimals(docAc(true));
    if (allowances !== null) check("allowances", roundDecimal(allowances, 2), "the document allowances");
    if (charges !== null) check("charges", roundDecimal(charges, 2), "the document charges");
    net = roundDecimal(addDecimals(subtractDecimals(lineNet, allowances ?? "0"), charges ?? "0"), 2);
    check("net", net, "line_net - allowances + charges");
  }
  check("tax", tax, "the VAT breakdown");
  const gross = addDecimals(net, tax);
  check("gross", gross, "net + tax");
  const payable = addDecimals(subtractDecimals(gross, t.prepaid ?? "0"), t.rounding ?? "0");
  check("payable", payable, "gross - prepaid + rounding");
}

/** Sets `record[name]` to `value` when absent; a given value that differs is a finding naming both. */
function _check<T extends object>(record: T, name: keyof T & string, value: Decimal, path: string, from: string, rule: string, findings: ComputeFinding[]): void {
  const given = record[name] as unknown as Decimal | null;
  if (given === null || given === undefined) {
    (record as Record<string, unknown>)[name] = value;
    return;
  }
  if (!isDecimal(given)) return; // the input's own check names a value that is not a number
  if (compareDecimals(given, value) !== 0) {
    findings.push({ rule, field: path, message: `${path} is ${given}, but ${from} gives ${value}` });
  }
}

function _rateText(category: string | null, rate: string | null): string {
  if (category !== null && rate !== null) return `category ${category} at ${rate}`;
  return category !== null ? `category ${category}` : `rate ${rate}`;
}

function _formatName(format: WrittenFormat): string {
  return format === "ksef-fa3" ? "FA(3)" : format === "ubl" ? "UBL" : "CII";
}

/**
 * EN 16931 document-total rules: BR-12..BR-15, the sums BR-CO-10..BR-CO-17,
 * BR-53 and the two-decimal rules BR-DEC-09..BR-DEC-20, computed in exact decimals
 * with the CEN/TC 434 artefacts' rounding (`round(x * 100) div 100`, halves up) and
 * tolerances. Where the UBL and CII artefacts compute differently (BR-CO-13,
 * BR-CO-15, BR-CO-16, BR-CO-17, BR-53, BR-DEC-13/15) each syntax gets its own.
 * @module
 */
import type { Report } from "./semantic_report.ts";
import { abs, add, dec, eq, mul, percentOf, round, round2, sub, ZERO, type Dec } from "./semantic_decimal.ts";
import { type Breakdown, type Field, kept, type SemanticView } from "./semantic_view.ts";

/** The field's value as xs:decimal; null when absent or not a decimal. */
export function num(f: Field | null | undefined): Dec | null {
  if (!f) return null;
  if (f.value === undefined) f.value = dec(f.text);
  return f.value;
}

/** BR-DEC: at most two digits after the first "." of the text as written (absent passes). */
export function twoDecimals(f: Field | null | undefined): boolean {
  if (!f) return true;
  const i = f.text.indexOf(".");
  return i < 0 || f.text.length - i - 1 <= 2;
}

function _eq(a: Dec | null, b: Dec | null): boolean {
  return a !== null && b !== null && eq(a, b);
}

/**
 * The exact sum of the decimals `pick` finds in `items`; an absent field or one that is not a decimal adds nothing.
 * Added as it goes, without an array of the values: arrays made by optimised and by interpreted code can differ in
 * their elements kind, and a loop over them then throws its optimised code away.
 */
export function sumOf<T>(items: readonly T[], pick: (item: T) => Field | null): Dec {
  let acc = ZERO;
  for (let i = 0; i < items.length; i++) {
    const value = num(pick(items[i]!));
    if (value !== null) acc = add(acc, value);
  }
  return acc;
}

/** BG-22 totals: presence, the sums of lines, allowances and charges, and the amount due. */
export function checkTotals(v: SemanticView, r: Report): void {
  const t = v.totals;
  if (t === null) return;
  r.check(t.lineNet !== null, "BR-12", t.el, "The invoice has no sum of invoice line net amounts (BT-106)");
  r.check(t.taxExclusive !== null, "BR-13", t.el, "The invoice has no total amount without VAT (BT-109)");
  r.check(t.taxInclusive !== null, "BR-14", t.el, "The invoice has no total amount with VAT (BT-112)");
  r.check(t.payable !== null, "BR-15", t.el, "The invoice has no amount due for payment (BT-115)");

  const lineSum = round2(sumOf(v.lines, (l) => l.net));
  r.check(_eq(num(t.lineNet), lineSum), "BR-CO-10", t.el, () => `The sum of line net amounts (BT-106) must equal the lines' net amounts added up (${_show(lineSum)})`);

  const allowances = kept(v.allowances, (x) => x.charge === false);
  const charges = kept(v.allowances, (x) => x.charge === true);
  const allowanceSum = round2(sumOf(allowances, (x) => x.amount));
  r.check(
    _eq(num(t.allowances), allowanceSum) || (t.allowances === null && allowances.length === 0),
    "BR-CO-11", t.el, () => `The sum of document-level allowances (BT-107) must equal the allowance amounts added up (${_show(allowanceSum)})`);
  const chargeSum = round2(sumOf(charges, (x) => x.amount));
  r.check(
    _eq(num(t.charges), chargeSum) || (t.charges === null && charges.length === 0),
    "BR-CO-12", t.el, () => `The sum of document-level charges (BT-108) must equal the charge amounts added up (${_show(chargeSum)})`);

  r.check(_taxExclusiveOk(v), "BR-CO-13", t.el, "The total without VAT (BT-109) must equal the line net sum (BT-106) minus allowances (BT-107) plus charges (BT-108)");
  r.check(_payableOk(v), "BR-CO-16", t.el, "The amount due (BT-115) must equal the total with VAT (BT-112) minus the paid amount (BT-113) plus the rounding amount (BT-114)");

  const decimals: [Field | null, string, string][] = [
    [t.lineNet, "BR-DEC-09", "sum of line net amounts (BT-106)"],
    [t.allowances, "BR-DEC-10", "sum of allowances (BT-107)"],
    [t.charges, "BR-DEC-11", "sum of charges (BT-108)"],
    [t.taxExclusive, "BR-DEC-12", "total without VAT (BT-109)"],
    [t.taxInclusive, "BR-DEC-14", "total with VAT (BT-112)"],
    [t.prepaid, "BR-DEC-16", "paid amount (BT-113)"],
    [t.rounding, "BR-DEC-17", "rounding amount (BT-114)"],
    [t.payable, "BR-DEC-18", "amount due (BT-115)"],
  ];
  for (const [f, rule, what] of decimals) if (!twoDecimals(f)) r.add(rule, t.el, `The ${what} has more than two decimals`);
  if (v.syntax === "cii") _ciiTaxTotalRules(v, r);
}

function _taxExclusiveOk(v: SemanticView): boolean {
  const t = v.totals;
  if (t === null) return true;
  const te = num(t.taxExclusive);
  const ln = num(t.lineNet);
  const ch = num(t.charges);
  const al = num(t.allowances);
  if (te === null || ln === null) return false;
  const hasC = t.charges !== null;
  const hasA = t.allowances !== null;
  if (hasC && hasA) return ch !== null && al !== null && eq(te, round2(sub(add(ln, ch), al)));
  if (hasA) return al !== null && eq(te, round2(sub(ln, al)));
  if (hasC) return ch !== null && eq(te, round2(add(ln, ch)));
  // UBL compares BT-109 with BT-106 as written, CII with BT-106 rounded to two decimals.
  return eq(te, v.syntax === "ubl" ? ln : round2(ln));
}

function _payableOk(v: SemanticView): boolean {
  const t = v.totals;
  if (t === null) return true;
  const pay = num(t.payable);
  const ti = num(t.taxInclusive);
  const pp = num(t.prepaid);
  const ro = num(t.rounding);
  if (pay === null || ti === null) return false;
  const hasP = t.prepaid !== null;
  const hasR = t.rounding !== null;
  if (hasP && pp === null) return false;
  if (hasR && ro === null) return false;
  const due = hasP ? sub(ti, pp as Dec) : ti;
  if (v.syntax === "cii") return eq(pay, hasR ? add(due, ro as Dec) : due);
  // UBL rounds each side to two decimals before comparing.
  const left = hasR ? round2(sub(pay, ro as Dec)) : pay;
  return eq(left, hasP ? round2(due) : due);
}

/** BR-CO-14, BR-CO-15, BR-CO-17, BR-53 and the VAT-total decimals. */
export function checkVatTotals(v: SemanticView, r: Report): void {
  const currency = v.currency?.text ?? null;
  if (v.syntax === "ubl") {
    for (const tt of v.taxTotals) {
      const subs = v.breakdownsByTotal.get(tt.el) ?? [];
      if (subs.length === 0) continue;
      const s = round2(sumOf(subs, (b) => b.tax));
      r.check(_eq(num(tt.amount), s), "BR-CO-14", tt.el, () => `The invoice total VAT amount (BT-110) must equal the VAT category tax amounts added up (${_show(s)})`);
    }
    if (currency !== null) {
      const inCurrency = kept(v.taxTotals, (tt) => tt.amount !== null && tt.currency === currency);
      const te = num(v.totals?.taxExclusive);
      const ti = num(v.totals?.taxInclusive);
      const tax = inCurrency.length === 1 ? num(inCurrency[0]?.amount) : null;
      const ok = inCurrency.length === 1 && te !== null && ti !== null && tax !== null && eq(ti, round2(add(te, tax)));
      r.check(ok, "BR-CO-15", v.root, "The total with VAT (BT-112) must equal the total without VAT (BT-109) plus one total VAT amount (BT-110) in the invoice currency");
    }
    const taxCurrency = v.taxCurrency?.text;
    if (v.taxCurrency !== null) {
      r.check(v.taxTotals.some((tt) => tt.currency === taxCurrency), "BR-53", v.root, "With a VAT accounting currency (BT-6), the total VAT amount in that currency (BT-111) must be given");
    }
    // BR-DEC-13 and BR-DEC-15 as the UBL artefacts write them select nothing (the currency
    // code is looked for under cbc:TaxAmount), so they never fail there.
    r.check(v.breakdowns.length > 0, "BR-CO-18", v.root, "The invoice must have at least one VAT breakdown (BG-23)");
  } else {
    const grand = num(v.totals?.taxInclusive);
    const basis = num(v.totals?.taxExclusive);
    if (currency !== null) {
      const inCurrency = kept(v.taxTotals, (tt) => tt.currency === currency);
      const tax = num(inCurrency[0]?.amount);
      const ok =
        (inCurrency.length === 1 && grand !== null && basis !== null && tax !== null && eq(grand, round2(add(basis, tax)))) ||
        _eq(grand, basis);
      r.check(ok, "BR-CO-15", v.root, "The total with VAT (BT-112) must equal the total without VAT (BT-109) plus one total VAT amount (BT-110) in the invoice currency");
    }
    const s = round2(sumOf(v.breakdowns, (b) => b.tax));
    for (const tt of v.taxTotals) {
      if (currency === null || tt.currency !== currency) continue;
      r.check(_eq(num(tt.amount), s), "BR-CO-14", tt.el, () => `The invoice total VAT amount (BT-110) must equal the VAT category tax amounts added up (${_show(s)})`);
    }
    if (v.breakdowns.length === 0) {
      for (const line of v.lines) r.add("BR-CO-18", line.el, "The invoice must have at least one VAT breakdown (BG-23)");
    }
  }
  for (const b of v.breakdowns) _checkBreakdown(v, b, r);
}

function _ciiTaxTotalRules(v: SemanticView, r: Report): void {
  const t = v.totals;
  if (t === null) return;
  const currency = v.currency?.text;
  const taxCurrency = v.taxCurrency?.text;
  if (v.taxCurrency !== null) {
    const ok = v.taxTotals.some((tt) => tt.currency === taxCurrency) && taxCurrency !== currency;
    r.check(ok, "BR-53", t.el, "With a VAT accounting currency (BT-6) different from the invoice currency, the total VAT amount in it (BT-111) must be given");
  }
  if (v.taxTotals.length > 0) {
    const isTwo = (f: Field | null) => {
      const d = num(f);
      return d !== null && eq(d, round2(d));
    };
    r.check(
      v.taxTotals.some((tt) => tt.currency !== currency || isTwo(tt.amount)),
      "BR-DEC-13", t.el, "The invoice total VAT amount (BT-110) has more than two decimals");
    r.check(
      v.taxTotals.some((tt) => v.taxCurrency === null || (tt.currency === taxCurrency && isTwo(tt.amount))),
      "BR-DEC-15", t.el, "The total VAT amount in accounting currency (BT-111) has more than two decimals");
  }
}

/** BR-45..BR-48, BR-CO-17, BR-DEC-19/20 on one VAT breakdown; BR-CO-03 where CII puts it. */
function _checkBreakdown(v: SemanticView, b: Breakdown, r: Report): void {
  const vat = b.categories.find((c) => c.vat) ?? null;
  r.check(b.taxable !== null, "BR-45", b.el, "A VAT breakdown has no VAT category taxable amount (BT-116)");
  r.check(b.tax !== null, "BR-46", b.el, "A VAT breakdown has no VAT category tax amount (BT-117)");
  r.check(vat !== null && vat.code !== null, "BR-47", b.el, "A VAT breakdown has no VAT category code (BT-118)");
  const code = v.syntax === "ubl" ? (vat?.code ? vat.code.text.trim() : null) : vat?.code?.text;
  r.check(vat !== null && (vat.percent !== null || code === "O"), "BR-48", b.el, "A VAT breakdown has no VAT category rate (BT-119), and its category is not \"Not subject to VAT\"");
  r.check(_rateOk(v, b), "BR-CO-17", b.el, "The VAT category tax amount (BT-117) must equal the taxable amount (BT-116) times the rate (BT-119), rounded to two decimals, within 1");
  r.check(twoDecimals(b.taxable), "BR-DEC-19", b.el, "The VAT category taxable amount (BT-116) has more than two decimals");
  r.check(twoDecimals(b.tax), "BR-DEC-20", b.el, "The VAT category tax amount (BT-117) has more than two decimals");
  if (v.syntax === "cii") {
    r.check(!(v.hasTaxPointDate && v.hasDateCode), "BR-CO-03", b.el, "The VAT point date (BT-7) and the VAT point date code (BT-8) are mutually exclusive");
  }
}

function _rateOk(v: SemanticView, b: Breakdown): boolean {
  const vat = b.categories.find((c) => c.vat) ?? null;
  const p = num(vat?.percent);
  const tax = num(b.tax);
  if (tax === null) return false;
  if (p === null) return eq(round(tax), ZERO);
  if (eq(round(p), ZERO)) return eq(round(tax), ZERO);
  const base = num(b.taxable);
  if (base === null) return false;
  return within(abs(tax), round2(mul(abs(base), percentOf(p))), v.syntax === "ubl");
}

/** |x - target| < 1 (strict) or ≤ 1: the artefacts' ±1 tolerance. */
export function within(x: Dec, target: Dec, strict: boolean): boolean {
  const low = sub(x, { units: 1n, scale: 0 });
  const high = add(x, { units: 1n, scale: 0 });
  const a = _cmp(low, target);
  const c = _cmp(high, target);
  return strict ? a < 0 && c > 0 : a <= 0 && c >= 0;
}

function _cmp(a: Dec, b: Dec): number {
  const d = sub(a, b).units;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

function _show(d: Dec): string {
  const neg = d.units < 0n;
  let s = (neg ? -d.units : d.units).toString();
  if (d.scale > 0) {
    s = s.padStart(d.scale + 1, "0");
    s = `${s.slice(0, s.length - d.scale)}.${s.slice(s.length - d.scale)}`;
  }
  return neg ? `-${s}` : s;
}

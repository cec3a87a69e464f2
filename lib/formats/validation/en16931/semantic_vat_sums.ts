/**
 * The arithmetic of the VAT-category rules -08 (a breakdown's taxable amount is
 * its lines' net amounts plus its charges minus its allowances) and -09 (its tax
 * amount), in exact decimals. The artefacts differ by syntax and category:
 * UBL compares exactly, or within ±1 grouped by rate for S, L and M; CII rounds
 * each sum to two decimals and compares within ±1 (AE, E, G, K, Z), exactly (O),
 * or exactly grouped by rate (S, L, M); the CII rules skip -09 for L and M.
 * @module
 */
import { abs, add, eq, mul, percentOf, round2, sub, type Dec } from "./semantic_decimal.ts";
import { num, sumOf, within } from "./semantic_totals.ts";
import { codeOf, kept, type AllowanceCharge, type Breakdown, type Line, type SemanticView, type VatCategory } from "./semantic_view.ts";

const BY_RATE = new Set(["S", "L", "M"]);

function _inCategory(v: SemanticView, cats: VatCategory[], code: string, rate: Dec | null): boolean {
  if (!cats.some((c) => codeOf(v, c) === code)) return false;
  if (rate === null) return true;
  return cats.some((c) => {
    const p = num(c.percent);
    return p !== null && eq(p, rate);
  });
}

interface _Parts {
  lines: Line[];
  charges: AllowanceCharge[];
  allowances: AllowanceCharge[];
}

function _parts(v: SemanticView, code: string, rate: Dec | null): _Parts {
  const acs = kept(v.allowances, (a) => _inCategory(v, a.categories, code, rate));
  return {
    lines: kept(v.lines, (l) => _inCategory(v, l.categories, code, rate)),
    charges: kept(acs, (a) => a.charge === true),
    allowances: kept(acs, (a) => a.charge === false),
  };
}

/** Lines + charges − allowances; CII rounds each of the three sums to two decimals first. */
function _expected(v: SemanticView, p: _Parts): Dec {
  const lines = sumOf(p.lines, (l) => l.net);
  const charges = sumOf(p.charges, (a) => a.amount);
  const allowances = sumOf(p.allowances, (a) => a.amount);
  if (v.syntax === "ubl") return sub(add(lines, charges), allowances);
  return sub(add(round2(lines), round2(charges)), round2(allowances));
}

/** Rule -08 for one breakdown `b` whose category `c` has `code`. */
export function breakdownTaxableOk(v: SemanticView, code: string, b: Breakdown, c: VatCategory): boolean {
  const taxable = num(b.taxable);
  if (BY_RATE.has(code)) {
    // "every $rate in xs:decimal(Percent)": a breakdown without a rate passes.
    if (c.percent === null) return true;
    const rate = num(c.percent);
    if (rate === null || taxable === null) return false;
    const parts = _parts(v, code, rate);
    const expected = _expected(v, parts);
    if (v.syntax === "cii") return eq(taxable, expected);
    if (v.lines.length === 0) return false;
    // UBL S also asks that a line or an allowance or charge has this rate.
    if (code === "S" && parts.lines.length === 0 && !v.allowances.some((a) => _inCategory(v, a.categories, code, rate))) return false;
    return within(taxable, expected, true);
  }
  if (taxable === null) return false;
  const expected = _expected(v, _parts(v, code, null));
  if (v.syntax === "ubl") return v.lines.length > 0 && eq(taxable, expected);
  if (code === "O") return eq(taxable, expected);
  return within(taxable, expected, true);
}

/** Rule -09 for one breakdown: zero tax, or taxable × rate within ±1. */
export function breakdownTaxOk(v: SemanticView, code: string, b: Breakdown, c: VatCategory): boolean {
  const tax = num(b.tax);
  if (!BY_RATE.has(code)) return tax !== null && eq(tax, { units: 0n, scale: 0 });
  if (v.syntax === "cii" && code !== "S") return true;
  const taxable = num(b.taxable);
  const rate = num(c.percent);
  if (tax === null || taxable === null || rate === null) return false;
  return within(abs(tax), round2(mul(abs(taxable), percentOf(rate))), true);
}

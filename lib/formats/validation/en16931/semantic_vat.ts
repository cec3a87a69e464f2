/**
 * The EN 16931 VAT-category rules: for each category code (S, Z, E, AE, K, G, O,
 * L, M) the rule families -01 (a breakdown exists when the category is used),
 * -02..-04 (the VAT identifiers the category needs), -05..-07 (the rate on lines,
 * allowances and charges), -08 (the breakdown's taxable amount), -09 (its tax
 * amount), -10 (exemption reasons), plus BR-IC-11/12, BR-O-11..14 and BR-B-01/02,
 * as the CEN/TC 434 artefacts 1.3.16 state them. The UBL and CII artefacts differ
 * in tolerances and in where a rule is checked; semantic_vat_sums.ts has the sums.
 * @module
 */
import type { Report } from "./semantic_report.ts";
import { cmp, ZERO } from "./semantic_decimal.ts";
import { num } from "./semantic_totals.ts";
import { breakdownTaxableOk, breakdownTaxOk } from "./semantic_vat_sums.ts";
import { codeOf, type Field, type SemanticView, type VatCategory } from "./semantic_view.ts";

/** How a category's rate must look on lines, allowances and charges (rules -05, -06, -07). */
type RateRule = "zero" | "positive" | "non-negative" | "absent";

/** Which VAT identifiers a category needs (rules -02, -03, -04). */
type PartyRule = "seller-tax" | "seller-vat" | "seller-tax-buyer" | "seller-vat-buyer-vat" | "no-vat";

interface CategoryRules {
  code: string;
  prefix: string;
  name: string;
  party: { ubl: PartyRule; cii: PartyRule };
  rate: { ubl: RateRule; cii: RateRule };
  exemption: "required" | "forbidden";
}

/** The nine VAT categories of EN 16931 (code list UNCL5305 as restricted by the standard). */
export const VAT_CATEGORIES: readonly CategoryRules[] = [
  { code: "S", prefix: "BR-S", name: "Standard rated", party: { ubl: "seller-tax", cii: "seller-tax" }, rate: { ubl: "positive", cii: "positive" }, exemption: "forbidden" },
  { code: "Z", prefix: "BR-Z", name: "Zero rated", party: { ubl: "seller-tax", cii: "seller-tax" }, rate: { ubl: "zero", cii: "zero" }, exemption: "forbidden" },
  { code: "E", prefix: "BR-E", name: "Exempt from VAT", party: { ubl: "seller-tax", cii: "seller-tax" }, rate: { ubl: "zero", cii: "zero" }, exemption: "required" },
  { code: "AE", prefix: "BR-AE", name: "Reverse charge", party: { ubl: "seller-tax-buyer", cii: "seller-tax-buyer" }, rate: { ubl: "zero", cii: "zero" }, exemption: "required" },
  { code: "K", prefix: "BR-IC", name: "Intra-community supply", party: { ubl: "seller-vat-buyer-vat", cii: "seller-vat-buyer-vat" }, rate: { ubl: "zero", cii: "zero" }, exemption: "required" },
  { code: "G", prefix: "BR-G", name: "Export outside the EU", party: { ubl: "seller-vat", cii: "seller-vat" }, rate: { ubl: "zero", cii: "zero" }, exemption: "required" },
  { code: "O", prefix: "BR-O", name: "Not subject to VAT", party: { ubl: "no-vat", cii: "no-vat" }, rate: { ubl: "absent", cii: "absent" }, exemption: "required" },
  // The UBL artefacts allow an IGIC rate of 0 on lines, allowances and charges; the CII ones do not.
  { code: "L", prefix: "BR-AF", name: "IGIC (Canary Islands)", party: { ubl: "seller-tax", cii: "seller-tax" }, rate: { ubl: "non-negative", cii: "positive" }, exemption: "forbidden" },
  { code: "M", prefix: "BR-AG", name: "IPSI (Ceuta and Melilla)", party: { ubl: "seller-tax", cii: "seller-tax" }, rate: { ubl: "non-negative", cii: "non-negative" }, exemption: "forbidden" },
];

/** Every VAT-category rule. */
export function checkVatCategories(v: SemanticView, r: Report): void {
  // Group the categories by code once: a category that appears nowhere breaks none of its rules.
  const groups = new Map<string, VatCategory[]>();
  for (const c of v.categories) {
    const code = codeOf(v, c);
    const g = groups.get(code);
    if (g === undefined) groups.set(code, [c]);
    else g.push(c);
  }
  for (const cat of VAT_CATEGORIES) {
    const cats = groups.get(cat.code);
    if (cats === undefined) continue;
    _presence(v, cat, cats, r);
    _parties(v, cat, cats, r);
    _rates(v, cat, cats, r);
    _breakdowns(v, cat, r);
  }
  if (groups.has("O")) _notSubjectAlone(v, r);
  _split(v, r);
}

function _count(cats: VatCategory[], kind1: VatCategory["kind"], kind2: VatCategory["kind"] | null, vatOnly: boolean): number {
  let n = 0;
  for (const c of cats) if ((c.kind === kind1 || c.kind === kind2) && (!vatOnly || c.vat)) n++;
  return n;
}

/** Rule -01: a category used on a line, allowance or charge has its VAT breakdown (and only one, for most). */
function _presence(v: SemanticView, cat: CategoryRules, cats: VatCategory[], r: Report): void {
  const byRate = cat.code === "S" || cat.code === "L" || cat.code === "M";
  let ok: boolean;
  if (v.syntax === "ubl") {
    if (byRate) {
      const vat = cat.code !== "S";
      const used = _count(cats, "line", null, vat) + _count(cats, "allowance", "charge", vat);
      const breakdowns = _count(cats, "breakdown", null, vat);
      ok = (used > 0 && breakdowns > 0) || (used === 0 && breakdowns === 0);
    } else {
      ok = !cats.some((c) => c.vat) || _count(cats, "breakdown", null, true) === 1;
    }
  } else {
    const header = _count(cats, "breakdown", null, false);
    const lines = _count(cats, "line", null, false);
    const allowances = _count(cats, "allowance", "charge", false);
    if (byRate) ok = (lines + header >= 2 || lines === 0) && (allowances + header >= 2 || allowances === 0);
    else if (cat.code === "O") ok = header === 0 || (header === 1 && (lines > 0 || allowances > 0));
    else ok = (header === 0 && lines === 0 && allowances === 0) || (header === 1 && (lines > 0 || allowances > 0));
  }
  if (!ok) {
    r.add(`${cat.prefix}-01`, v.root,
      `An invoice using VAT category "${cat.name}" (${cat.code}) must have ${byRate ? "at least one" : "exactly one"} VAT breakdown (BG-23) for it, and a breakdown only for a category in use`);
  }
}

function _has(ids: Field[] | undefined): boolean {
  return ids !== undefined && ids.length > 0;
}

/** Whether the parties carry the identifiers the rule asks for. */
function _partiesOk(v: SemanticView, rule: PartyRule): boolean {
  const seller = v.seller;
  const rep = v.taxRepresentative;
  const buyer = v.buyer;
  const repVat = _has(rep?.vatIds);
  switch (rule) {
    case "seller-tax":
      return _has(seller?.taxIds) || repVat;
    case "seller-vat":
      return _has(seller?.vatIds) || repVat;
    case "seller-tax-buyer":
      return (_has(seller?.taxIds) || repVat) && (_has(buyer?.vatIds) || (buyer?.legalIds.length ?? 0) > 0);
    case "seller-vat-buyer-vat":
      return (_has(seller?.vatIds) || repVat) && _has(buyer?.vatIds);
    case "no-vat":
      return !_has(seller?.vatIds) && !repVat && !_has(buyer?.vatIds);
  }
}

function _partyMessage(rule: PartyRule, cat: CategoryRules, where: string): string {
  const subject = `An invoice with ${where} in VAT category "${cat.name}" (${cat.code})`;
  switch (rule) {
    case "seller-tax":
      return `${subject} needs the seller VAT identifier (BT-31), the seller tax registration identifier (BT-32) or the tax representative VAT identifier (BT-63)`;
    case "seller-vat":
      return `${subject} needs the seller VAT identifier (BT-31) or the tax representative VAT identifier (BT-63)`;
    case "seller-tax-buyer":
      return `${subject} needs a seller VAT identifier (BT-31), tax registration identifier (BT-32) or tax representative VAT identifier (BT-63), and a buyer VAT identifier (BT-48) or legal registration identifier (BT-47)`;
    case "seller-vat-buyer-vat":
      return `${subject} needs the seller VAT identifier (BT-31) or tax representative VAT identifier (BT-63), and the buyer VAT identifier (BT-48)`;
    case "no-vat":
      return `${subject} must not carry the seller VAT identifier (BT-31), the tax representative VAT identifier (BT-63) or the buyer VAT identifier (BT-48)`;
  }
}

/** Rules -02, -03, -04: UBL checks them once on the invoice, CII on each category. */
function _parties(v: SemanticView, cat: CategoryRules, cats: VatCategory[], r: Report): void {
  const rule = v.syntax === "ubl" ? cat.party.ubl : cat.party.cii;
  if (_partiesOk(v, rule)) return;
  const kinds: [VatCategory["kind"], string, string][] = [
    ["line", "-02", "a line"],
    ["allowance", "-03", "a document-level allowance"],
    ["charge", "-04", "a document-level charge"],
  ];
  for (const [kind, suffix, where] of kinds) {
    const used = cats.filter((c) => c.kind === kind && c.vat);
    if (used.length === 0) continue;
    const msg = _partyMessage(rule, cat, where);
    if (v.syntax === "ubl") r.add(`${cat.prefix}${suffix}`, v.root, msg);
    else for (const c of used) r.add(`${cat.prefix}${suffix}`, c.el, msg);
  }
}

function _rateOk(rule: RateRule, percent: Field | null): boolean {
  if (rule === "absent") return percent === null;
  const p = num(percent);
  if (p === null) return false;
  const sign = cmp(p, ZERO);
  return rule === "zero" ? sign === 0 : rule === "positive" ? sign > 0 : sign >= 0;
}

const _RATE_WORDS: Record<RateRule, string> = {
  zero: "must be 0",
  positive: "must be greater than 0",
  "non-negative": "must be 0 or more",
  absent: "must not be given",
};

const _RATE_TERMS: Partial<Record<VatCategory["kind"], [string, string]>> = {
  line: ["-05", "invoiced item VAT rate (BT-152)"],
  allowance: ["-06", "document-level allowance VAT rate (BT-96)"],
  charge: ["-07", "document-level charge VAT rate (BT-103)"],
};

/** Rules -05, -06, -07 on each line, allowance and charge in the category. */
function _rates(v: SemanticView, cat: CategoryRules, cats: VatCategory[], r: Report): void {
  const rule = v.syntax === "ubl" ? cat.rate.ubl : cat.rate.cii;
  for (const c of cats) {
    const term = _RATE_TERMS[c.kind];
    if (term === undefined || !c.vat || _rateOk(rule, c.percent)) continue;
    r.add(`${cat.prefix}${term[0]}`, c.el, `In VAT category "${cat.name}" (${cat.code}) the ${term[1]} ${_RATE_WORDS[rule]}`);
  }
}

/** Rules -08, -09, -10 (and BR-IC-11/12 for K) on each breakdown of the category. */
function _breakdowns(v: SemanticView, cat: CategoryRules, r: Report): void {
  // The CII artefacts select S and Z breakdowns by category code alone, the others also by VAT type.
  const needVat = !(v.syntax === "cii" && (cat.code === "S" || cat.code === "Z"));
  let anyK = false;
  for (const b of v.breakdowns) {
    const c = b.categories.find((x) => codeOf(v, x) === cat.code && (!needVat || x.vat));
    if (c === undefined) continue;
    const at = v.syntax === "ubl" ? c.el : (c.code?.el ?? c.el);
    r.check(breakdownTaxableOk(v, cat.code, b, c), `${cat.prefix}-08`, at,
      () => `The taxable amount (BT-116) of the "${cat.name}" VAT breakdown must equal its lines' net amounts plus its charges minus its allowances`);
    r.check(breakdownTaxOk(v, cat.code, b, c), `${cat.prefix}-09`, at, () =>
      cat.code === "S" || cat.code === "L" || cat.code === "M"
        ? `The tax amount (BT-117) of the "${cat.name}" VAT breakdown must equal its taxable amount times its rate, within 1`
        : `The tax amount (BT-117) of the "${cat.name}" VAT breakdown must be 0`);
    const hasReason = c.exemptionReason !== null || c.exemptionCode !== null;
    r.check(cat.exemption === "required" ? hasReason : !hasReason, `${cat.prefix}-10`, at, () =>
      cat.exemption === "required"
        ? `The "${cat.name}" VAT breakdown needs an exemption reason (BT-120) or exemption reason code (BT-121)`
        : `The "${cat.name}" VAT breakdown must not have an exemption reason (BT-120) or exemption reason code (BT-121)`);
    if (cat.code === "K") {
      anyK = true;
      if (v.syntax === "cii") _intraCommunity(v, at, r);
    }
  }
  if (anyK && v.syntax === "ubl") _intraCommunity(v, v.root, r);
}

function _intraCommunity(v: SemanticView, at: VatCategory["el"], r: Report): void {
  r.check(v.hasDeliveryDateOrPeriod, "BR-IC-11", at, "An intra-community supply needs the actual delivery date (BT-72) or the invoicing period (BG-14)");
  const country = v.deliveryCountry;
  const ok = v.syntax === "ubl" ? (country?.length ?? 0) > 1 : country !== null;
  r.check(ok, "BR-IC-12", at, "An intra-community supply needs the deliver-to country code (BT-80)");
}

/** BR-O-11..14: an invoice with a "Not subject to VAT" breakdown uses no other category. */
function _notSubjectAlone(v: SemanticView, r: Report): void {
  const isO = (c: VatCategory) => codeOf(v, c) === "O";
  const oBreakdowns = v.categories.filter((c) => c.kind === "breakdown" && c.vat && isO(c));
  if (oBreakdowns.length === 0) return;
  const msg = (what: string) => `An invoice with a "Not subject to VAT" breakdown must not have ${what} in another VAT category`;
  if (v.syntax === "ubl") {
    const other = (kind: VatCategory["kind"]) => v.categories.some((c) => c.kind === kind && c.vat && !isO(c));
    r.check(!other("breakdown"), "BR-O-11", v.root, msg("a VAT breakdown"));
    r.check(!other("line"), "BR-O-12", v.root, msg("a line"));
    r.check(!other("allowance"), "BR-O-13", v.root, msg("a document-level allowance"));
    r.check(!other("charge"), "BR-O-14", v.root, msg("a document-level charge"));
    return;
  }
  // CII: any tax (line or breakdown) and any allowance or charge category with a code other than O.
  const otherTax = v.categories.some((c) => (c.kind === "line" || c.kind === "breakdown" || c.kind === "other") && c.code !== null && c.code.text !== "O");
  const otherAc = v.categories.some((c) => (c.kind === "allowance" || c.kind === "charge") && c.code !== null && c.code.text !== "O");
  for (const c of oBreakdowns) {
    r.check(!otherTax, "BR-O-11", c.el, msg("a VAT breakdown"));
    r.check(!otherTax, "BR-O-12", c.el, msg("a line"));
    r.check(!otherAc, "BR-O-13", c.el, msg("a document-level allowance"));
    r.check(!otherAc, "BR-O-14", c.el, msg("a document-level charge"));
  }
}

/** BR-B-01/02: "split payment" (B) is Italian only and never mixed with standard rate. */
function _split(v: SemanticView, r: Report): void {
  const raw = (c: VatCategory) => c.code?.text ?? null;
  const cats = v.syntax === "ubl" ? v.categories.filter((c) => c.kind !== "other") : v.categories;
  const hasB = v.categories.some((c) => raw(c) === "B");
  if (!hasB) return;
  r.check(v.countryCodes.every((c) => c === "IT"), "BR-B-01", v.root, "Split payment (VAT category B) is for domestic Italian invoices only: every country code must be IT");
  if (cats.some((c) => raw(c) === "B")) {
    r.check(!cats.some((c) => raw(c) === "S"), "BR-B-02", v.root, "An invoice with split payment (VAT category B) must not also use the standard rate (S)");
  }
}


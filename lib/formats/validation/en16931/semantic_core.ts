/**
 * EN 16931 rules on the invoice's mandatory and conditional business terms:
 * BR-01..BR-65 (except the totals, in semantic_totals.ts), BR-CO-03/04/09/19..26
 * and the line and allowance two-decimal rules, as the CEN/TC 434 artefacts
 * 1.3.16 state them for UBL and CII. Where the two bindings test differently
 * (which element is the context, exists versus non-empty), the syntax decides.
 * @module
 */

import type { Report } from "./semantic_report.ts";
import { cmp, ZERO } from "./semantic_decimal.ts";
import { num, twoDecimals } from "./semantic_totals.ts";
import { COUNTRY_PREFIXES_CII, COUNTRY_PREFIXES_UBL } from "./semantic_countries.ts";
import { hasText, norm, type AllowanceCharge, type Field, type Party, type Period, type SemanticView } from "./semantic_view.ts";

/** normalize-space(x) != '' */
function _filled(f: Field | null | undefined): boolean {
  return hasText(f?.text);
}

/** BR-01..BR-11, BR-16 and the other document-level mandatory terms. */
export function checkHeader(v: SemanticView, r: Report): void {
  const root = v.root;
  const ubl = v.syntax === "ubl";
  r.check(_filled(v.specId), "BR-01", root, "The invoice has no specification identifier (BT-24)");
  r.check(_filled(v.number), "BR-02", root, "The invoice has no invoice number (BT-1)");
  r.check(_filled(v.issueDate), "BR-03", root, "The invoice has no issue date (BT-2)");
  r.check(_filled(v.typeCode), "BR-04", root, "The invoice has no invoice type code (BT-3)");
  r.check(_filled(v.currency), "BR-05", root, "The invoice has no invoice currency code (BT-5)");
  r.check(_filled(v.seller?.legalName), "BR-06", root, "The invoice has no seller name (BT-27)");
  r.check(_filled(v.buyer?.legalName), "BR-07", root, "The invoice has no buyer name (BT-44)");
  r.check(!!v.seller?.postal, "BR-08", root, "The invoice has no seller postal address (BG-5)");
  r.check(!!v.buyer?.postal, "BR-10", root, "The invoice has no buyer postal address (BG-8)");
  r.check(v.lines.length > 0, "BR-16", root, "The invoice has no invoice line (BG-25)");
  // UBL checks the country inside an address that exists; CII checks it from the root.
  if (!ubl || v.seller?.postal) r.check(_filled(v.seller?.country), "BR-09", v.seller?.postal ?? root, "The seller postal address has no country code (BT-40)");
  if (!ubl || v.buyer?.postal) r.check(_filled(v.buyer?.country), "BR-11", v.buyer?.postal ?? root, "The buyer postal address has no country code (BT-55)");
  _endpoint(v, v.seller, "BR-62", "The seller electronic address (BT-34) has no scheme identifier", r);
  _endpoint(v, v.buyer, "BR-63", "The buyer electronic address (BT-49) has no scheme identifier", r);
  if (ubl) {
    r.check(!(v.hasTaxPointDate && v.hasDateCode), "BR-CO-03", root, "The VAT point date (BT-7) and the VAT point date code (BT-8) are mutually exclusive");
  }
  if (v.sellerContext !== null && v.seller !== null) {
    const s = v.seller;
    const ok = ubl
      ? s.vatIds.length > 0 || s.ids.some((i) => i.scheme !== "SEPA") || s.legalIds.length > 0
      : s.ids.length > 0 || s.globalIds.length > 0 || s.legalIds.length > 0 || s.vatIds.length > 0;
    r.check(ok, "BR-CO-26", v.sellerContext, "The seller needs an identifier (BT-29), a legal registration identifier (BT-30) or a VAT identifier (BT-31)");
  }
  for (const id of v.vatIdentifiers) {
    const prefix = id.text.slice(0, 2);
    const ok = ubl ? COUNTRY_PREFIXES_UBL.includes(prefix) : COUNTRY_PREFIXES_CII.includes(` ${prefix} `);
    r.check(ok, "BR-CO-09", id.el, `The VAT identifier "${id.text.slice(0, 40)}" does not start with a country code prefix (ISO 3166-1 alpha-2, or EL for Greece)`);
  }
  _parties(v, r);
  _references(v, r);
}

function _endpoint(v: SemanticView, p: Party | null, rule: string, message: string, r: Report): void {
  if (p === null || p.endpoint === null) return;
  if (v.syntax === "ubl") r.check(p.endpoint.scheme !== null, rule, p.endpoint.el, message);
  else r.check(hasText(p.endpoint.scheme), rule, v.root, message);
}

/** BR-17 payee, BR-18..BR-20 and BR-56 tax representative. */
function _parties(v: SemanticView, r: Report): void {
  const ubl = v.syntax === "ubl";
  const payee = v.payee;
  const seller = v.seller;
  if (payee !== null) {
    const sellerNames = new Set(seller?.names.map((n) => n.text) ?? []);
    const sellerIds = new Set(seller?.ids.map((i) => i.text) ?? []);
    const sellerLegal = new Set(seller?.legalIds ?? []);
    const ok =
      payee.names.length > 0 &&
      !payee.names.some((n) => sellerNames.has(n.text)) &&
      !payee.ids.some((i) => sellerIds.has(i.text)) &&
      (ubl || !payee.legalIds.some((i) => sellerLegal.has(i)));
    r.check(ok, "BR-17", payee.el, "A payee (BG-10) different from the seller must have a payee name (BT-59)");
  }
  const rep = v.taxRepresentative;
  if (rep !== null) {
    r.check(_filled(rep.names[0]), "BR-18", rep.el, "The seller tax representative (BG-11) has no name (BT-62)");
    r.check(rep.postal !== null, "BR-19", rep.el, "The seller tax representative (BG-11) has no postal address (BG-12)");
    if (!ubl || rep.postal !== null) r.check(_filled(rep.country), "BR-20", rep.postal ?? rep.el, "The seller tax representative postal address has no country code (BT-69)");
    r.check(rep.vatIds.some((id) => ubl || _filled(id)), "BR-56", rep.el, "The seller tax representative (BG-11) has no VAT identifier (BT-63)");
  }
  for (const d of v.deliveryAddresses) {
    r.check(ubl ? d.country !== null : _filled(d.country), "BR-57", d.el, "The deliver-to address (BG-15) has no country code (BT-80)");
  }
}

/** BR-49..BR-52, BR-54, BR-55, BR-61, BR-64, BR-65. */
function _references(v: SemanticView, r: Report): void {
  const ubl = v.syntax === "ubl";
  for (const d of v.additionalDocuments) r.check(_filled(d.id), "BR-52", d.el, "An additional supporting document (BG-24) has no reference (BT-122)");
  for (const p of v.itemAttributes) r.check(p.hasName && p.hasValue, "BR-54", p.el, "An item attribute (BG-32) needs both a name (BT-160) and a value (BT-161)");
  for (const c of v.classifications) {
    r.check(ubl ? c.listId !== null : hasText(c.listId), "BR-65", c.el, "An item classification identifier (BT-158) has no scheme identifier");
  }
  for (const s of v.standardIds) {
    r.check(ubl ? s.scheme !== null : hasText(s.scheme), "BR-64", s.el, "An item standard identifier (BT-157) has no scheme identifier");
  }
  for (const p of v.precedingInvoices) {
    r.check(ubl ? p.id !== null : _filled(p.id), "BR-55", p.el, "A preceding invoice reference (BG-3) has no preceding invoice number (BT-25)");
  }
  for (const pm of v.paymentMeans) {
    r.check(pm.code !== null, "BR-49", pm.el, "A payment instruction (BG-16) has no payment means type code (BT-81)");
    const transfer = pm.code !== null && (pm.code.text === "30" || pm.code.text === "58");
    if (transfer) {
      for (const acc of pm.accounts) {
        r.check(acc.ids.some(_filled), "BR-50", acc.el, "A credit transfer (BG-17) has no payment account identifier (BT-84)");
        if (!ubl) r.check(acc.ids.length > 0, "BR-61", acc.el, "A credit transfer (payment means 30 or 58) needs the payment account identifier (BT-84)");
      }
    }
    const code = norm(pm.code?.text);
    if (ubl && (code === "30" || code === "58")) {
      r.check(pm.accounts.some((acc) => acc.ids.length > 0), "BR-61", pm.el, "A credit transfer (payment means 30 or 58) needs the payment account identifier (BT-84)");
    }
  }
  for (const pan of v.cardNumbers) {
    r.check(norm(pan.text).length <= 10, "BR-51", pan.el, "A card number (BT-87) should show at most its first 6 and last 4 digits, never the full number", "warning");
  }
}

/** BR-21..BR-30, BR-41..BR-44, BR-CO-04/07/08/20/23/24, BR-DEC-23..28; BR-29, BR-CO-19 on the invoice period. */
export function checkLines(v: SemanticView, r: Report): void {
  for (const line of v.lines) {
    const el = line.el;
    r.check(_filled(line.id), "BR-21", el, "An invoice line has no line identifier (BT-126)");
    r.check(line.quantity !== null, "BR-22", el, "An invoice line has no invoiced quantity (BT-129)");
    r.check(line.hasUnitCode, "BR-23", el, "An invoice line has no unit of measure code (BT-130)");
    r.check(line.net !== null, "BR-24", el, "An invoice line has no line net amount (BT-131)");
    r.check(_filled(line.name), "BR-25", el, "An invoice line has no item name (BT-153)");
    r.check(line.netPrice !== null, "BR-26", el, "An invoice line has no item net price (BT-146)");
    r.check(_notNegative(line.netPrice, false), "BR-27", el, "The item net price (BT-146) must not be negative");
    r.check(_notNegative(line.grossPrice, true), "BR-28", el, "The item gross price (BT-148) must not be negative");
    r.check(line.categories.some((c) => c.vat && c.code !== null), "BR-CO-04", el, "An invoice line has no invoiced item VAT category code (BT-151)");
    r.check(twoDecimals(line.net), "BR-DEC-23", el, "The line net amount (BT-131) has more than two decimals");
    for (const ac of line.allowances) _allowanceCharge(ac, LINE_ALLOWANCE, LINE_CHARGE, r);
    if (line.period !== null) {
      _periodOrder(v, line.period, "BR-30", "The line period end date (BT-135) must not be before its start date (BT-134)", r);
      r.check(line.period.start !== null || line.period.end !== null, "BR-CO-20", line.period.el, "A line period (BG-26) needs a start date (BT-134) or an end date (BT-135)");
    }
  }
  for (const p of v.periods) {
    _periodOrder(v, p, "BR-29", "The invoicing period end date (BT-74) must not be before its start date (BT-73)", r);
    r.check(p.start !== null || p.end !== null || p.descriptionCode !== null, "BR-CO-19", p.el, "An invoicing period (BG-14) needs a start date (BT-73) or an end date (BT-74)");
  }
}

/** `x >= 0` on a price; an absent price passes only where the artefacts allow it. */
function _notNegative(f: Field | null, absentOk: boolean): boolean {
  if (f === null) return absentOk;
  const d = num(f);
  return d === null || cmp(d, ZERO) >= 0;
}

function _periodOrder(v: SemanticView, p: Period, rule: string, message: string, r: Report): void {
  if (p.start === null || p.end === null) return;
  if (v.syntax === "ubl") {
    const s = _isoDate(p.startValue);
    const e = _isoDate(p.endValue);
    if (s !== null && e !== null) r.check(e >= s, rule, p.el, message);
    return;
  }
  // CII compares the format-102 strings; a date in another format makes the test fail.
  r.check(p.startValue !== null && p.endValue !== null && p.endValue >= p.startValue, rule, p.el, message);
}

/** YYYY-MM-DD (optionally with a zone, ignored) as a comparable string, or null. */
function _isoDate(text: string | null): string | null {
  const m = text === null ? null : /^\s*(\d{4}-\d{2}-\d{2})(?:Z|[+-]\d{2}:\d{2})?\s*$/.exec(text);
  return m ? (m[1] as string) : null;
}

/**
 * The rules one kind of allowance or charge is held to, and its messages: EN 16931-1 BG-20 and BG-21 (document
 * level, which also need a VAT category code), BG-27 and BG-28 (line level).
 */
interface AllowanceRules {
  amount: Rule;
  vat: Rule | null;
  reason: Rule;
  either: Rule;
  amountDecimals: Rule;
  baseDecimals: Rule;
}

/** A rule id and the message it reports. */
type Rule = readonly [id: string, message: string];

function _allowanceRules(
  name: string, group: string, terms: { amount: string; base: string; vat?: string; reason: string; reasonCode: string },
  rules: { amount: string; vat?: string; reason: string; either: string; amountDecimals: string; baseDecimals: string },
): AllowanceRules {
  const a = `A ${name} (${group})`;
  return {
    amount: [rules.amount, `${a} has no amount (${terms.amount})`],
    vat: rules.vat && terms.vat ? [rules.vat, `${a} has no VAT category code (${terms.vat})`] : null,
    reason: [rules.reason, `${a} has no reason (${terms.reason}) or reason code (${terms.reasonCode})`],
    either: [rules.either, `${a} needs a reason (${terms.reason}), a reason code (${terms.reasonCode}) or both`],
    amountDecimals: [rules.amountDecimals, `The ${name} amount (${terms.amount}) has more than two decimals`],
    baseDecimals: [rules.baseDecimals, `The ${name} base amount (${terms.base}) has more than two decimals`],
  };
}

const DOCUMENT_ALLOWANCE = _allowanceRules(
  "document-level allowance", "BG-20", { amount: "BT-92", base: "BT-93", vat: "BT-95", reason: "BT-97", reasonCode: "BT-98" },
  { amount: "BR-31", vat: "BR-32", reason: "BR-33", either: "BR-CO-21", amountDecimals: "BR-DEC-01", baseDecimals: "BR-DEC-02" },
);
const DOCUMENT_CHARGE = _allowanceRules(
  "document-level charge", "BG-21", { amount: "BT-99", base: "BT-100", vat: "BT-102", reason: "BT-104", reasonCode: "BT-105" },
  { amount: "BR-36", vat: "BR-37", reason: "BR-38", either: "BR-CO-22", amountDecimals: "BR-DEC-05", baseDecimals: "BR-DEC-06" },
);
const LINE_ALLOWANCE = _allowanceRules(
  "line allowance", "BG-27", { amount: "BT-136", base: "BT-137", reason: "BT-139", reasonCode: "BT-140" },
  { amount: "BR-41", reason: "BR-42", either: "BR-CO-23", amountDecimals: "BR-DEC-24", baseDecimals: "BR-DEC-25" },
);
const LINE_CHARGE = _allowanceRules(
  "line charge", "BG-28", { amount: "BT-141", base: "BT-142", reason: "BT-144", reasonCode: "BT-145" },
  { amount: "BR-43", reason: "BR-44", either: "BR-CO-24", amountDecimals: "BR-DEC-27", baseDecimals: "BR-DEC-28" },
);

/** BR-31..BR-38, BR-CO-21/22, BR-DEC-01/02/05/06 on document-level allowances and charges. */
export function checkDocumentAllowances(v: SemanticView, r: Report): void {
  for (const ac of v.allowances) _allowanceCharge(ac, DOCUMENT_ALLOWANCE, DOCUMENT_CHARGE, r);
}

/** One allowance or charge (an indicator that is neither is left to the syntax rules) against its kind's rules. */
function _allowanceCharge(ac: AllowanceCharge, allowance: AllowanceRules, charge: AllowanceRules, r: Report): void {
  if (ac.charge === null) return;
  const k = ac.charge ? charge : allowance;
  const reason = ac.reason !== null || ac.reasonCode !== null;
  r.check(ac.amount !== null, k.amount[0], ac.el, k.amount[1]);
  if (k.vat) r.check(ac.categories.some((c) => c.vat && c.code !== null), k.vat[0], ac.el, k.vat[1]);
  r.check(reason, k.reason[0], ac.el, k.reason[1]);
  r.check(reason, k.either[0], ac.el, k.either[1]);
  r.check(twoDecimals(ac.amount), k.amountDecimals[0], ac.el, k.amountDecimals[1]);
  r.check(twoDecimals(ac.base), k.baseDecimals[0], ac.el, k.baseDecimals[1]);
}



/**
 * The EN 16931 groups that UBL and CII write with the same parts under other
 * element names: an allowance or charge (BG-20/21, BG-27/28), a VAT breakdown row
 * (BG-23), the document totals (BG-22) and an item classification (BT-158). Read
 * once here; each syntax passes a table of its names (EN 16931-3-2 UBL and
 * EN 16931-3-3 CII syntax bindings).
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { codeOf, UNCL_5189, UNCL_5305 } from "./code_lists.ts";
import { parseDecimal } from "./decimal.ts";
import type { AllowanceCharge, Classification, Totals, VatBreakdown } from "./model.ts";
import { attr, childText, textOf } from "./query.ts";

/** Where one syntax writes the parts of an allowance or charge, all in namespace `ns`. */
export interface AllowanceChargeNames {
  ns: string;
  /** Children of the allowance or charge. */
  amount: string;
  base: string;
  percent: string;
  reason: string;
  reasonCode: string;
  /** Children of its tax category element. */
  category: string;
  rate: string;
}

/** An allowance or charge read from `el` and its tax category element `tax`, named as `names` says. */
export function readAllowanceCharge(el: XmlElement, charge: boolean, tax: XmlElement | null, names: AllowanceChargeNames): AllowanceCharge {
  const ns = names.ns;
  return {
    charge,
    amount: parseDecimal(childText(el, ns, names.amount)),
    base_amount: parseDecimal(childText(el, ns, names.base)),
    percentage: parseDecimal(childText(el, ns, names.percent)),
    vat_category: codeOf(UNCL_5305, childText(tax, ns, names.category)),
    vat_rate: parseDecimal(childText(tax, ns, names.rate)),
    reason: childText(el, ns, names.reason),
    // Charges use UNCL7161, which is not mapped here: their code keeps text null.
    reason_code: codeOf(charge ? {} : UNCL_5189, childText(el, ns, names.reasonCode)),
  };
}

/** Where one syntax writes the parts of a VAT breakdown row, all in namespace `ns`. */
export interface VatBreakdownNames {
  ns: string;
  /** Children of the amounts element (BT-116, BT-117; CII also the basis amounts, null where the syntax has none). */
  taxable: string;
  tax: string;
  lineBasis: string | null;
  allowanceChargeBasis: string | null;
  /** Children of the category element (BT-118, BT-119, BT-120, BT-121). */
  category: string;
  rate: string;
  exemption: string;
  exemptionCode: string;
}

/** A VAT breakdown row from its amounts and category elements (one element in CII, two in UBL) and its tax scheme. */
export function readVatBreakdown(
  amounts: XmlElement,
  category: XmlElement | null,
  taxScheme: string | null,
  names: VatBreakdownNames,
): VatBreakdown {
  const ns = names.ns;
  return {
    category: codeOf(UNCL_5305, childText(category, ns, names.category)),
    rate: childText(category, ns, names.rate),
    taxable_amount: parseDecimal(childText(amounts, ns, names.taxable)),
    tax_amount: parseDecimal(childText(amounts, ns, names.tax)),
    tax_amount_tax_currency: null,
    exemption_reason: childText(category, ns, names.exemption),
    exemption_reason_code: childText(category, ns, names.exemptionCode),
    tax_scheme: taxScheme,
    line_total_basis_amount: names.lineBasis === null ? null : parseDecimal(childText(amounts, ns, names.lineBasis)),
    allowance_charge_basis_amount: names.allowanceChargeBasis === null ? null : parseDecimal(childText(amounts, ns, names.allowanceChargeBasis)),
    ksef_field: null,
  };
}

/** Where one syntax writes the document totals (BG-22): the child element of each, in the totals' namespace. */
export type TotalsNames = Readonly<Record<"line_net" | "allowances" | "charges" | "net" | "gross" | "prepaid" | "rounding" | "payable", string>>;

/** Sets the totals named in `names` from the children of `el` in namespace `ns`, as written. */
export function readTotals(el: XmlElement, ns: string, names: TotalsNames, totals: Totals): void {
  for (const key of Object.keys(names) as (keyof TotalsNames)[]) totals[key] = parseDecimal(childText(el, ns, names[key]));
}

/** An item classification code element (BT-158 with its list id and version), or null when it has no text. */
export function classificationOf(code: XmlElement | null): Classification | null {
  const value = textOf(code);
  return value === null ? null : { value, scheme: attr(code, "listID"), version: attr(code, "listVersionID") };
}

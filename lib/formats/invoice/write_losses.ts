/**
 * Collects the values of an invoice object that a writer found no place for (README "Creating invoices"): each as
 * its invoice-object path (`invoice.lines[2].gtu`), its value as text and why, so that a conversion can list what it
 * did not carry over instead of dropping it silently. A writer names the values it leaves out (lose, loseFields,
 * percentOrLose) or, for a format that writes a known list of fields, has every set value outside that list found
 * (coveredFields, collectLosses). It does not decide what a format can carry: the writers do.
 * @module
 */

import type { WriteLoss } from "./write_result.ts";

/** Records `value` at `field` as not written, unless it is empty (null, false, "", []); a list item by item. */
export function lose(out: WriteLoss[], field: string, value: unknown, reason: string): void {
  if (value === null || value === undefined || value === false || value === "") return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) lose(out, `${field}[${i}]`, value[i], reason);
    return;
  }
  out.push({ field, value: typeof value === "string" ? value : JSON.stringify(value), reason });
}

/** Records every non-empty value of `record` under `keys` as not written. */
export function loseFields<T extends object>(out: WriteLoss[], record: T, keys: readonly (keyof T & string)[], prefix: string, reason: string): void {
  for (const key of keys) {
    const v = record[key];
    // The common case, nothing to report, builds no path.
    if (v === null || v === false || (Array.isArray(v) && v.length === 0)) continue;
    lose(out, `${prefix}.${key}`, v, reason);
  }
}

/** The lexical form of xs:decimal (XML Schema 1.1 Part 2, decimal): no exponent, no grouping. */
const _XSD_DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * A VAT rate that an EN 16931 syntax can write as a percentage, or null with a loss: KSeF's rate codes that are
 * not numbers ("zw", "np I") have no place in UBL's cbc:Percent or CII's ram:RateApplicablePercent.
 */
export function percentOrLose(out: WriteLoss[], field: string, rate: string | null): string | null {
  if (rate === null || _XSD_DECIMAL.test(rate)) return rate;
  out.push({ field, value: rate, reason: "A VAT rate that is not a number has no place in EN 16931's percentage" });
  return null;
}

/** Covered field patterns, compiled: each field name leads to the names under it, or to true when all of it is covered. */
export type CoveredFields = ReadonlyMap<string, CoveredFields | true>;

/**
 * Compiles field patterns for collectLosses: paths below the part it walks, lists as `[]` (`lines[].net_price`), a
 * pattern covering its whole subtree (`attachments`). Compiled once, so a write walks the object without building paths.
 */
export function coveredFields(patterns: Iterable<string>): CoveredFields {
  const root = new Map<string, Map<string, unknown> | true>();
  for (const pattern of patterns) {
    const names = pattern.replaceAll("[]", "").split(".");
    let node = root;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const last = i === names.length - 1;
      const next = node.get(name);
      if (next === true) break;
      if (last) node.set(name, true);
      else {
        const sub = next ?? new Map();
        node.set(name, sub);
        node = sub as typeof root;
      }
    }
  }
  return root as CoveredFields;
}

/** No field covered: every set value of the part is a loss. */
const _NOTHING: CoveredFields = new Map();

/**
 * Appends to `out` a loss for every set value (a non-empty string, a number, a true flag) of `value`, the part of
 * the invoice at `path` (`invoice`, `invoice.third_parties[3]`), outside `covered`, each with `reason`.
 */
export function collectLosses(value: object, covered: CoveredFields, reason: string, out: WriteLoss[], path: string): void {
  _object(value as Record<string, unknown>, covered, [path], reason, out);
}

function _object(obj: Record<string, unknown>, covered: CoveredFields, at: string[], reason: string, out: WriteLoss[]): void {
  for (const key in obj) {
    const sub = obj[key];
    if (sub === null || sub === false || sub === "" || sub === undefined) continue;
    const node = covered.get(key);
    if (node === true) continue;
    at.push(`.${key}`);
    _value(sub, node ?? _NOTHING, at, reason, out);
    at.pop();
  }
}

function _value(value: unknown, covered: CoveredFields, at: string[], reason: string, out: WriteLoss[]): void {
  if (value === null || value === false || value === "" || value === undefined) return;
  if (typeof value === "string" || typeof value === "number" || value === true) {
    out.push({ field: at.join(""), value: String(value), reason });
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      at.push(`[${i}]`);
      _value(value[i], covered, at, reason, out);
      at.pop();
    }
  } else if (typeof value === "object") _object(value as Record<string, unknown>, covered, at, reason, out);
}

/**
 * Finds the values of an invoice object that a writer has no place for (README "Creating invoices"): every set
 * value (a non-empty string, a number, a true flag) whose field is not on the writer's list of fields it writes or
 * re-derives on reading. Lists appear in field patterns as `[]` (`lines[].gtu`); a pattern covers its whole
 * subtree. The writers add the losses only they can see (a fourth address line where CII has three) themselves.
 * The patterns are compiled once into a tree of field names, so a write walks the object without building paths.
 * @module
 */

import type { WriteLoss } from "./write_result.ts";

/** Covered field patterns, compiled: each field name leads to the names under it, or to true when all of it is covered. */
export type CoveredFields = ReadonlyMap<string, CoveredFields | true>;

/** Compiles field patterns (`lines[].net_price`, `attachments`) for collectLosses. */
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
 * Appends to `out` a loss for every set value of `value` (the invoice, or a part of it at `path`) outside
 * `covered`, each with `reason`; the patterns are relative to `value`.
 */
export function collectLosses(value: object, covered: CoveredFields, reason: string, out: WriteLoss[], path = ""): void {
  _object(value as Record<string, unknown>, covered, path === "" ? [] : [path], reason, out);
}

function _object(obj: Record<string, unknown>, covered: CoveredFields, at: string[], reason: string, out: WriteLoss[]): void {
  for (const key in obj) {
    const sub = obj[key];
    if (sub === null || sub === false || sub === "" || sub === undefined) continue;
    const node = covered.get(key);
    if (node === true) continue;
    at.push(at.length === 0 ? key : `.${key}`);
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

/** A loss for one value the caller knows it could not place, when that value is set. */
export function lose(out: WriteLoss[], field: string, value: string | null | undefined, reason: string): void {
  if (value !== null && value !== undefined && value !== "") out.push({ field, value, reason });
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

/**
 * Collects the values of an invoice object that a writer found no place for (README "Creating invoices"): each as
 * its invoice-object path, its value as text and why. A writer calls these where it leaves a value out, so that a
 * conversion can list what it did not carry over instead of dropping it silently.
 * @module
 */

import type { WriteLoss } from "./write_result.ts";

/** Records `value` at `field` as not written, unless it is empty (null, false, "", []). */
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

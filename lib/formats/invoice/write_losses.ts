/**
 * Finds the values of an invoice object that a writer has no place for (README "Creating invoices"): every set
 * value (a string, a number, a true flag) whose field is not on the writer's list of fields it writes or re-derives
 * on reading. Lists appear in field patterns as `[]` (`lines[].gtu`); a pattern covers its whole subtree. The
 * writers add the losses only they can see (a fourth address line where CII has three) themselves.
 * @module
 */

import type { WriteLoss } from "./write_result.ts";

/**
 * Appends to `out` a loss for every set value of `value` (the invoice, or a part of it at `path`) outside
 * `covered`, each with `reason`; patterns are relative to `value`.
 */
export function collectLosses(value: object, covered: ReadonlySet<string>, reason: string, out: WriteLoss[], path = ""): void {
  _walk(value, path, "", covered, reason, out);
}

function _walk(value: unknown, path: string, pattern: string, covered: ReadonlySet<string>, reason: string, out: WriteLoss[]): void {
  if (value === null || value === undefined || value === false) return;
  if (pattern !== "" && covered.has(pattern)) return;
  const sep = path === "" ? "" : ".";
  if (typeof value === "string" || typeof value === "number" || value === true) {
    out.push({ field: path, value: String(value), reason });
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) _walk(value[i], `${path}[${i}]`, `${pattern}[]`, covered, reason, out);
    return;
  }
  if (typeof value === "object") {
    for (const key in value) {
      const sub = (value as Record<string, unknown>)[key];
      if (sub === null || sub === false) continue;
      _walk(sub, `${path}${sep}${key}`, pattern === "" ? key : `${pattern}.${key}`, covered, reason, out);
    }
  }
}

/** A loss for one value the caller knows it could not place, when that value is set. */
export function lose(out: WriteLoss[], field: string, value: string | null | undefined, reason: string): void {
  if (value !== null && value !== undefined && value !== "") out.push({ field, value, reason });
}

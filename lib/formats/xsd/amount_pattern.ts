/**
 * The pattern the KSeF schemas give their amounts and quantities (FA(2), FA(3), FA_RR: TKwotowy, TKwotowy2,
 * TIlosci), `-?([1-9]\d{0,N}|0)(\.\d{1,M})?`, decided from the layout DecimalScan records of a literal instead of
 * by a regular expression. A literal the scan accepted holds only ASCII digits, which `\d` (`\p{Nd}`) matches, so
 * the pattern asks only for its sign, its digit counts as written and no leading zero.
 * @module
 */

import type { DecimalScan } from "./decimal_scan.ts";

const _AMOUNT = /^(-\?)?\(\[1-9\]\\d\{0,(\d+)\}\|0\)(\(\\\.\\d\{1,(\d+)\}\)\?)?$/;
const _MINUS = 45;

/** Whether the literal last read by a scan matches the pattern `source`, when it is of that shape; null otherwise. */
export function amountPattern(source: string): ((scan: DecimalScan) => boolean) | null {
  const m = _AMOUNT.exec(source);
  if (m === null) return null;
  const signed = m[1] !== undefined;
  const maxInt = Number(m[2]) + 1;
  const maxFrac = m[3] === undefined ? -1 : Number(m[4]);
  return (s) =>
    (s.sign === 0 || (signed && s.sign === _MINUS)) &&
    s.writtenInt >= 1 && s.writtenInt <= maxInt && (s.writtenInt === 1 || s.writtenInt === s.int) &&
    (s.writtenFrac === -1 || (s.writtenFrac >= 1 && s.writtenFrac <= maxFrac));
}

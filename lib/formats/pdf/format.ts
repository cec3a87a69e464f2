/**
 * Number and rate formatting for the printed invoice: exact decimal strings in, localized
 * strings out ("1 230,00" in Polish, "1,230.00" in English), never through floating point.
 * Sums (net + VAT per rate) are the invoice model's exact decimals. Dates are printed as written (YYYY-MM-DD).
 * @module
 */
import { addDecimals as addExact, parseDecimal } from "../invoice/decimal.ts";

/** Languages the PDF is printed in. */
export type Lang = "pl" | "en";

const _DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;
/** Polish groups thousands with a no-break space (PN-ISO 80000-1), so amounts never wrap. */
const _GROUP: Record<Lang, string> = { pl: "\u00a0", en: "," };
const _POINT: Record<Lang, string> = { pl: ",", en: "." };

/**
 * A decimal string localized, with trailing fractional zeros trimmed down to `minFraction`
 * digits ("2.000" → "2", "12.5" → "12,50" with 2); text that is not a decimal comes back as is.
 */
export function formatDecimal(value: string, lang: Lang, minFraction: number): string {
  const m = _DECIMAL.exec(value.trim());
  if (m === null || (m[2] === "" && (m[3] ?? "") === "")) return value;
  let int = (m[2] ?? "").replace(/^0+(?=\d)/, "") || "0";
  let frac = m[3] ?? "";
  let end = frac.length;
  while (end > minFraction && frac.charCodeAt(end - 1) === 48) end--;
  frac = frac.slice(0, end).padEnd(minFraction, "0");
  if (int.length > 3) {
    const groups: string[] = [];
    for (let i = int.length; i > 0; i -= 3) groups.unshift(int.slice(Math.max(0, i - 3), i));
    int = groups.join(_GROUP[lang]);
  }
  const sign = m[1] === "-" && /[1-9]/.test(int + frac) ? "-" : "";
  return sign + int + (frac === "" ? "" : _POINT[lang] + frac);
}

/** A money amount: at least two decimals. */
export function formatAmount(value: string | null, lang: Lang): string {
  return value === null ? "" : formatDecimal(value, lang, 2);
}

/** A money amount followed by the currency code, or "" when there is no amount. */
export function formatMoney(value: string | null, currency: string | null, lang: Lang): string {
  if (value === null) return "";
  return currency === null ? formatAmount(value, lang) : `${formatAmount(value, lang)} ${currency}`;
}

/**
 * A VAT rate: "23" → "23%", "19.00" → "19%"; KSeF codes that are not a number ("0 KR", "zw",
 * "np I") as written; followed by the UNCL5305 category when one is given ("19% S", "0% AE").
 */
export function formatRate(rate: string | null, category: string | null, lang: Lang): string {
  let out = "";
  if (rate !== null) out = /^\d+(?:\.\d+)?$/.test(rate.trim()) ? `${formatDecimal(rate.trim(), lang, 0)}%` : rate.trim();
  if (category !== null && !out.split(" ").includes(category)) out = out === "" ? category : `${out} ${category}`;
  return out;
}

/** Exact sum of two decimal strings, or null when either is missing or not a decimal. */
export function addDecimals(a: string | null, b: string | null): string | null {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  return x === null || y === null ? null : addExact(x, y);
}

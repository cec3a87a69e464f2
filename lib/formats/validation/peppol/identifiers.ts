/**
 * The check-digit and format tests of OpenPeppol's schematron functions (`u:gln`, `u:mod11`,
 * `u:mod97-0208`, `u:checkCodiceIPA`, `u:checkCF`, `u:checkPIVAseIT`, `u:abn`, `u:checkSEOrgnr`),
 * ported as written, and the PEPPOL-COMMON rules that apply them by identifier scheme (ISO 6523 ICD).
 * @module
 */

const _digit = (s: string, i: number): number => s.charCodeAt(i) - 48;

/** GS1 GLN check digit (u:gln), over a string of digits. */
export function isGln(v: string): boolean {
  if (!/^[0-9]+$/.test(v)) return false;
  const n = v.length - 1;
  let weighted = 0;
  for (let i = 0; i < n; i++) weighted += _digit(v, n - 1 - i) * (1 + (((i + 1) % 2) * 2));
  return (10 - (weighted % 10)) % 10 === _digit(v, n);
}

/** Modulus 11 with weights 2..7 (u:mod11: Norwegian organisation numbers). */
export function isMod11(v: string): boolean {
  if (!/^[0-9]+$/.test(v) || Number(v) <= 0) return false;
  const n = v.length - 1;
  let weighted = 0;
  for (let i = 0; i < n; i++) weighted += _digit(v, n - 1 - i) * ((i % 6) + 2);
  return (11 - (weighted % 11)) % 11 === _digit(v, n);
}

/** Belgian enterprise number (u:mod97-0208): 97 - (first 8 digits mod 97) equals the last two. */
export function isMod97Be(v: string): boolean {
  return 97 - (Number(v.slice(0, 8)) % 97) === Number(v.slice(8, 10));
}

/** Codice IPA (u:checkCodiceIPA): six letters or digits. */
export function isCodiceIpa(v: string): boolean {
  return /^[A-Za-z0-9]{6}$/.test(v);
}

/** Codice fiscale (u:checkCF): 16 characters of the personal shape, or 11 digits. */
export function isCodiceFiscale(v: string): boolean {
  if (v.length === 11) return /^[+-]?[0-9]+$/.test(v.trim()) && v.trim() === v;
  if (v.length !== 16) return false;
  const letters = /^[A-Za-z]*$/;
  const int = (s: string) => /^[+-]?[0-9]+$/.test(s);
  return letters.test(v.slice(0, 6)) && int(v.slice(6, 8)) && letters.test(v.slice(8, 9)) && int(v.slice(9, 11)) && int(v.slice(14, 15)) && letters.test(v.slice(15, 16));
}

/** Partita IVA (u:checkPIVAseIT): for an IT prefix, 11 digits whose Luhn-like sum is a multiple of 10. */
export function isPartitaIvaIfItalian(v: string): boolean {
  const country = v.slice(0, 2);
  if (country !== "IT" && country !== "it") return true;
  const code = v.slice(2);
  if (code.length !== 11 || !/^[0-9]+$/.test(code)) return false;
  let total = 0;
  for (let i = 0; i < code.length; i++) total += i % 2 === 1 ? Number("0246813579"[_digit(code, i)]) : _digit(code, i);
  return total % 10 === 0;
}

/** Australian Business Number (u:abn): the weighted sum mod 89, the first digit less one. */
export function isAbn(v: string): boolean {
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  let total = (_digit(v, 0) - 1) * 10;
  for (let i = 1; i < 11; i++) total += _digit(v, i) * (weights[i] as number);
  return total % 89 === 0;
}

/** Swedish organisation number (u:checkSEOrgnr): digits, Luhn over the first nine. */
export function isSeOrgnr(v: string): boolean {
  if (!/^[0-9]+$/.test(v)) return false;
  const main = v.slice(0, 9);
  let total = 0;
  for (let pos = 1; pos <= main.length; pos++) {
    const d = _digit(main, main.length - pos);
    total += pos % 2 === 1 ? ((d * 2) % 10) + Math.floor((d * 2) / 10) : d;
  }
  return (10 - (total % 10)) % 10 === Number(v.slice(9, 10) || "NaN");
}

/** One PEPPOL-COMMON rule: the scheme it applies to, its id, severity and test over normalize-space of the value. */
export interface SchemeRule {
  scheme: string;
  rule: string;
  severity: "error" | "warning";
  test: (value: string, raw: string) => boolean;
  message: string;
}

/** PEPPOL-COMMON-R040..R057 by ICD scheme, for EndpointID, PartyIdentification/ID and CompanyID. */
export const SCHEME_RULES: readonly SchemeRule[] = [
  { scheme: "0088", rule: "PEPPOL-COMMON-R040", severity: "error", test: (v) => /^[0-9]+$/.test(v) && isGln(v), message: "GLN must have a valid format according to GS1 rules" },
  { scheme: "0192", rule: "PEPPOL-COMMON-R041", severity: "error", test: (v) => /^[0-9]{9}$/.test(v) && isMod11(v), message: "Norwegian organization number MUST be stated in the correct format" },
  { scheme: "0184", rule: "PEPPOL-COMMON-R042", severity: "error", test: (_v, raw) => /^DK[0-9]{8}$/.test(raw) || /^[0-9]{8}$/.test(raw), message: "Danish organization number (CVR) MUST be stated in the correct format" },
  { scheme: "0096", rule: "PEPPOL-COMMON-R052", severity: "error", test: (_v, raw) => /^[0-9]{10}$/.test(raw), message: "Danish chamber of commerce number (P) MUST be stated in the correct format" },
  { scheme: "0198", rule: "PEPPOL-COMMON-R053", severity: "error", test: (_v, raw) => /^DK[0-9]{8}$/.test(raw), message: "Danish ERSTORG number (SE) MUST be stated in the correct format" },
  { scheme: "0208", rule: "PEPPOL-COMMON-R043", severity: "error", test: (v) => /^[0-9]{10}$/.test(v) && isMod97Be(v), message: "Belgian enterprise number MUST be stated in the correct format" },
  { scheme: "0201", rule: "PEPPOL-COMMON-R044", severity: "warning", test: isCodiceIpa, message: "IPA Code (Codice Univoco Unità Organizzativa) must be stated in the correct format" },
  { scheme: "0210", rule: "PEPPOL-COMMON-R045", severity: "warning", test: isCodiceFiscale, message: "Tax Code (Codice Fiscale) must be stated in the correct format" },
  { scheme: "0211", rule: "PEPPOL-COMMON-R047", severity: "warning", test: isPartitaIvaIfItalian, message: "Italian VAT Code (Partita Iva) must be stated in the correct format" },
  { scheme: "0007", rule: "PEPPOL-COMMON-R049", severity: "error", test: (v) => v.length === 10 && /^[0-9]+$/.test(v) && isSeOrgnr(v), message: "Swedish organization number MUST be stated in the correct format" },
  { scheme: "0151", rule: "PEPPOL-COMMON-R050", severity: "error", test: (v) => /^[0-9]{11}$/.test(v) && isAbn(v), message: "Australian Business Number (ABN) MUST be stated in the correct format" },
  { scheme: "0106", rule: "PEPPOL-COMMON-R054", severity: "warning", test: (v) => /^[0-9]{8}$/.test(v), message: "Dutch Chamber of Commerce (KVK) numbers (0106) MUST be stated in the correct format (12345678)" },
  { scheme: "0190", rule: "PEPPOL-COMMON-R055", severity: "warning", test: (v) => /^[0-9]{20}$/.test(v), message: "Dutch organization identification numbers (0190) MUST be stated in the correct format" },
  { scheme: "9944", rule: "PEPPOL-COMMON-R056-1", severity: "warning", test: (v) => /^NL[0-9]{9}B[0-9]{2}$/.test(v), message: "Dutch VAT numbers (9944) MUST be stated in the correct format (NL123456789B12)" },
  { scheme: "0217", rule: "PEPPOL-COMMON-R057", severity: "warning", test: (v) => /^[0-9]{12}$/.test(v), message: "Dutch Chamber of Commerce Establishment numbers (0217) MUST be stated in the correct format (123456789012)" },
];

/** R046 (Codice Fiscale) applies to EndpointID with scheme 9907 only. */
export const ENDPOINT_9907: SchemeRule = { scheme: "9907", rule: "PEPPOL-COMMON-R046", severity: "warning", test: isCodiceFiscale, message: "Tax Code (Codice Fiscale) must be stated in the correct format" };

/** OpenPeppol's CII schematron (release 3.0.13) states some of the same rules older and looser. */
export const SCHEME_RULES_CII: readonly SchemeRule[] = [
  ...SCHEME_RULES.filter((x) => ["0088", "0192", "0208", "0201", "0210", "0211"].includes(x.scheme)),
  { scheme: "0184", rule: "PEPPOL-COMMON-R042", severity: "error", test: (_v, raw) => /^DK[0-9]{8}$/.test(raw), message: "Danish organization number (CVR) MUST be stated in the correct format" },
  { scheme: "0007", rule: "PEPPOL-COMMON-R049", severity: "warning", test: (v) => v.length === 10 && /^[0-9]+$/.test(v), message: "Swedish organization number MUST be stated in the correct format" },
  { scheme: "0151", rule: "PEPPOL-COMMON-R050", severity: "warning", test: (v) => /^[0-9]{11}$/.test(v) && isAbn(v), message: "Australian Business Number (ABN) MUST be stated in the correct format" },
  { scheme: "9906", rule: "PEPPOL-COMMON-R048", severity: "warning", test: isPartitaIvaIfItalian, message: "Italian VAT Code (Partita Iva) must be stated in the correct format" },
];

/**
 * The constants KoSIT's XRechnung schematron 2.5.0 declares once for all its rules (common.sch):
 * the specification identifiers of XRechnung 3.0, its extension and its CVD profile, the Skonto,
 * e-mail, telephone and URL patterns, and the code lists the extension rules widen (XR01..XR03).
 * @module
 */

/** XRechnung's major and minor version ($XR-MAJOR-MINOR-VERSION) and the CVD profile's. */
export const XR_VERSION = "3.0";
const _CVD_VERSION = "0.9";

/** BT-24 of an XRechnung 3.0 invoice ($XR-CIUS-ID). */
export const XR_CIUS_ID = `urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_${XR_VERSION}`;
/** BT-24 of an invoice of the XRechnung extension ($XR-EXTENSION-ID). */
export const XR_EXTENSION_ID = `${XR_CIUS_ID}#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_${XR_VERSION}`;
/** BT-24 of an XRechnung CVD invoice, the Clean Vehicles Directive profile ($XR-CVD-ID). */
export const XR_CVD_ID = `${XR_CIUS_ID}#compliant#urn:xeinkauf.de:kosit:xrechnung:cvd_${_CVD_VERSION}`;

/** $XR-SKONTO-REGEX, matched against each normalised Skonto line. */
export const SKONTO = /(^|\r?\n)#(SKONTO)#TAGE=([0-9]+#PROZENT=[0-9]+\.[0-9]{2})(#BASISBETRAG=-?[0-9]+\.[0-9]{2})?#$/;
/** $XR-EMAIL-REGEX (XPath's \s is space, tab, CR and LF). */
export const EMAIL = /^[^@ \t\r\n]+@([^@. \t\r\n]+\.)+[^@. \t\r\n]+$/;
/**
 * $XR-TELEPHONE-REGEX `.*([0-9].*){3,}.*` on a normalised value (no line breaks left): three digits at least. Counted,
 * not matched: that pattern backtracks cubically on a long value with two digits (6,000 characters take 0.1 s).
 */
export function hasThreeDigits(value: string): boolean {
  let digits = 0;
  for (let i = 0; i < value.length && digits < 3; i++) {
    const c = value.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
  }
  return digits >= 3;
}
/** $XR-URL-REGEX: an absolute URL with a scheme. */
export const URL_WITH_SCHEME = /^([a-zA-Z])([a-zA-Z0-9+.-])+:.*/;

/** The invoice type codes BR-DE-17 accepts. */
export const TYPE_CODES: readonly string[] = ["326", "380", "384", "389", "381", "875", "876", "877"];
/** The VAT category codes that make BR-DE-16 ask for the seller's tax identifiers. */
export const TAXED_CATEGORIES: readonly string[] = ["S", "Z", "E", "AE", "K", "G", "L", "M"];
/** The MIME codes BR-DEX-01 allows an attachment of an extension invoice. */
export const EXTENSION_MIME_CODES: readonly string[] = [
  "application/pdf",
  "image/png",
  "image/jpeg",
  "text/csv",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.oasis.opendocument.spreadsheet",
  "application/xml",
];
/** $CVD-VEHICLE-CATEGORY and $CVA-CODES. */
export const CVD_VEHICLE_CATEGORIES: readonly string[] = ["M1", "M2", "M3", "N1", "N2", "N3"];
export const CVA_CODES: readonly string[] = ["clean", "zero-emission", "other"];

function _set(codes: string): ReadonlySet<string> {
  return new Set(codes.split(/\s+/).filter((c) => c !== ""));
}

/** $ISO-6523-ICD-EXT-CODES: ISO 6523 ICD with XR01, XR02, XR03 (the extension's own schemes). */
export const ICD_EXT = _set(`XR01 XR02 XR03
0002 0003 0004 0005 0006 0007 0008 0009 0010 0011 0012 0013 0014 0015 0016 0017 0018 0019 0020 0021 0022 0023
0024 0025 0026 0027 0028 0029 0030 0031 0032 0033 0034 0035 0036 0037 0038 0039 0040 0041 0042 0043 0044 0045
0046 0047 0048 0049 0050 0051 0052 0053 0054 0055 0056 0057 0058 0059 0060 0061 0062 0063 0064 0065 0066 0067
0068 0069 0070 0071 0072 0073 0074 0075 0076 0077 0078 0079 0080 0081 0082 0083 0084 0085 0086 0087 0088 0089
0090 0091 0093 0094 0095 0096 0097 0098 0099 0100 0101 0102 0104 0105 0106 0107 0108 0109 0110 0111 0112 0113
0114 0115 0116 0117 0118 0119 0120 0121 0122 0123 0124 0125 0126 0127 0128 0129 0130 0131 0132 0133 0134 0135
0136 0137 0138 0139 0140 0141 0142 0143 0144 0145 0146 0147 0148 0149 0150 0151 0152 0153 0154 0155 0156 0157
0158 0159 0160 0161 0162 0163 0164 0165 0166 0167 0168 0169 0170 0171 0172 0173 0174 0175 0176 0177 0178 0179
0180 0183 0184 0185 0186 0187 0188 0189 0190 0191 0192 0193 0194 0195 0196 0197 0198 0199 0200 0201 0202 0203
0204 0205 0206 0207 0208 0209 0210 0211 0212 0213 0214 0215 0216 0217 0218 0219 0220 0221 0222 0223 0224 0225
0226 0227 0228 0229 0230 0231 0232 0233 0234 0235 0236 0237 0238 0239 0240 0241 0242 0243 0244 0245 0246 0247
0248`);
/** $CEF-EAS-EXT-CODES: CEF EAS with XR01, XR02, XR03. */
export const EAS_EXT = _set(`XR01 XR02 XR03
0002 0007 0009 0037 0060 0088 0096 0097 0106 0130 0135 0142 0147 0151 0154 0158 0170 0177 0183 0184 0188 0190
0191 0192 0193 0194 0195 0196 0198 0199 0200 0201 0202 0203 0204 0205 0208 0209 0210 0211 0212 0213 0215 0216
0217 0218 0219 0220 0221 0225 0230 0235 0240 0244 0242 0245 0246 0248 9910 9913 9914 9915 9918 9919 9920 9922
9923 9924 9925 9926 9927 9928 9929 9930 9931 9932 9933 9934 9935 9936 9937 9938 9939 9940 9941 9942 9943 9944
9945 9946 9947 9948 9949 9950 9951 9952 9953 9957 9959 AN AQ AS AU EM`);
/** $UNTDID-7143-CVD-CODES: UNTDID 7143 with CVD. */
export const UNTDID_7143_CVD = _set(`CVD
AA AB AC AD AE AF AG AH AI AJ AK AL AM AN AO AP AQ AR AS AT AU AV AW AX AY AZ BA BB BC BD BE BF BG BH BI BJ BK
BL BM BN BO BP BQ BR BS BT BU BV BW BX BY BZ CC CG CL CR CV DR DW EC EF EMD EN FS GB GN GMN GS HS IB IN IS IT
IZ MA MF MN MP NB ON PD PL PO PPI PV QS RC RN RU RY SA SG SK SN SRS SRT SRU SRV SRW SRX SRY SRZ SS SSA SSB SSC
SSD SSE SSF SSG SSH SSI SSJ SSK SSL SSM SSN SSO SSP SSQ SSR SSS SST SSU SSV SSW SSX SSY SSZ ST STA STB STC STD
STE STF STG STH STI STJ STK STL STM STN STO STP STQ STR STS STT STU STV STW STX STY STZ SUA SUB SUC SUD SUE
SUF SUG SUH SUI SUJ SUK SUL SUM TG TSN TSO TSP TSQ TSR TSS TST TSU UA UP VN VP VS VX ZZZ`);

/** `contains($LIST, concat(' ', normalize-space(@x), ' '))` without a space inside: one code of the list. */
export function inList(list: ReadonlySet<string>, value: string | null): boolean {
  if (value === null) return false;
  const v = value.replace(/[ \t\r\n]+/g, " ").trim();
  return !v.includes(" ") && (v === "" ? false : list.has(v));
}

/**
 * BR-DE-19 and BR-DE-20: white space removed, the shape `^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{0,30}$` and the
 * ISO 13616 check (the country and check digits moved to the end, letters as their code point - 55, mod 97 = 1).
 */
export function isIban(raw: string): boolean {
  const iban = raw.replace(/[ \t\r\n]+/g, "");
  if (!/^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{0,30}$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 2).toUpperCase() + iban.slice(2, 4);
  let rest = 0;
  for (let i = 0; i < moved.length; i++) {
    const cp = moved.charCodeAt(i);
    const digits = cp > 64 ? String(cp - 55) : String(cp - 48);
    for (let j = 0; j < digits.length; j++) rest = (rest * 10 + (digits.charCodeAt(j) - 48)) % 97;
  }
  return rest === 1;
}

/**
 * The code lists OpenPeppol's PEPPOL-EN16931-UBL.sch (release 3.0.21) declares for its CL rules,
 * copied as the schematron states them, and the invoice type codes of the billing profiles.
 * @module
 */

function _set(codes: string): ReadonlySet<string> {
  return new Set(codes.split(/\s+/).filter((c) => c !== ""));
}

/** ISO 4217 currency codes (CL007). */
export const ISO_4217 = _set(`
AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF CHE
CHF CHW CLF CLP CNY COP COU CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF
GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR
LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN
PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS
TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD
XCD XDR XOF XPD XPF XPT XSU XTS XUA YER ZAR ZMW ZWG XXX CNH XCG
`);

/** the IANA MIME codes attachments may have (CL001). */
export const MIME_CODES = _set(`
application/pdf image/png image/jpeg text/csv application/vnd.openxmlformats-
officedocument.spreadsheetml.sheet application/vnd.oasis.opendocument.spreadsheet
`);

/** UNCL 2005 invoice period description codes (CL006). */
export const UNCL_2005 = _set(`
3 35 432
`);

/** UNCL 5189 allowance reason codes (CL002). */
export const UNCL_5189 = _set(`
41 42 60 62 63 64 65 66 67 68 70 71 88 95 100 102 103 104 105
`);

/** UNCL 7161 charge reason codes (CL003). */
export const UNCL_7161 = _set(`
AA AAA AAC AAD AAE AAF AAH AAI AAS AAT AAV AAY AAZ ABA ABB ABC ABD ABF ABK ABL ABN ABR ABS ABT ABU ACF ACG ACH
ACI ACJ ACK ACL ACM ACS ADC ADE ADJ ADK ADL ADM ADN ADO ADP ADQ ADR ADT ADW ADY ADZ AEA AEB AEC AED AEF AEH
AEI AEJ AEK AEL AEM AEN AEO AEP AES AET AEU AEV AEW AEX AEY AEZ AJ AU CA CAB CAD CAE CAF CAI CAJ CAK CAL CAM
CAN CAO CAP CAQ CAR CAS CAT CAU CAV CAW CAX CAY CAZ CD CG CS CT DAB DAC DAD DAF DAG DAH DAI DAJ DAK DAL DAM
DAN DAO DAP DAQ DL EG EP ER FAA FAB FAC FC FH FI GAA HAA HD HH IAA IAB ID IF IR IS KO L1 LA LAA LAB LF MAE MI
ML NAA OA PA PAA PC PL PRV RAB RAC RAD RAF RE RF RH RV SA SAA SAD SAE SAI SG SH SM SU TAB TAC TT TV V1 V2 WH
XAA YY ZZZ
`);

/** the Electronic Address Scheme codes (CL008). */
export const EAS = _set(`
0002 0007 0009 0060 0088 0096 0097 0106 0130 0135 0142 0151 0183 0184 0188 0190 0191 0192 0195 0196 0198 0199
0200 0201 0204 0208 0209 0210 0211 0216 0218 0221 0225 0230 0235 0240 0242 0244 0245 0246 0248 9910 9913 9914
9915 9918 9919 9920 9922 9923 9924 9925 9926 9927 9928 9929 9930 9931 9932 9933 9934 9935 9936 9937 9938 9939
9940 9941 9942 9943 9944 9945 9946 9947 9948 9949 9950 9951 9952 9953 9957 9959
`);

/** The invoice type codes profiles 01 and 02 allow (P0100). */
export const INVOICE_TYPE_CODES = _set("71 80 82 84 102 218 219 326 331 380 382 383 384 386 388 393 395 553 575 623 780 817 870 875 876 877");
/** The credit note type codes profiles 01 and 02 allow (P0101). */
export const CREDIT_NOTE_TYPE_CODES = _set("381 396 81 83 532");
/** The business process identifiers (BT-23) of profile 01 and 02 ($profile). */
export const PROFILE_01: readonly string[] = ["urn:fdc:peppol.eu:2017:poacc:billing:01:1.0", "urn:peppol:france:billing:regulated", "urn:peppol:france:billing:non-regulated"];
export const PROFILE_02 = "urn:peppol:bis:billing_with_response";

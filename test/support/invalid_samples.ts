/**
 * The samples (test/fixtures/samples) that fail their official XML Schema, checked against
 * `xmllint --schema` as well: an upload refuses them with 422. Each with the reason.
 */
export const INVALID_SAMPLES: Record<string, string> = {
  "ksef-fa2/FA_2_Przyklad_14_ROZ.xml": "FakturaZaliczkowa repeats NrKSeFFaZaliczkowej; FA(2) allows one per FakturaZaliczkowa (line 107)",
  "ksef-fa3/FA_3_Przyklad_1_KOR.xml": "TerminOpis holds text; in FA(3) it is element-only (Ilosc, Jednostka, ZdarzeniePoczatkowe) (line 138)",
  "ksef-fa3/FA_3_Przyklad_3_KOR_EUR.xml": "NrKSeFFaKorygowanej '210415750-20250310-FF4861C9CC3F-BA' does not match TNumerKSeF (line 63)",
  "ksef-fa3/cirfmf-csharp_multiple-Subject3.xml": "a template: NIP placeholders such as '#nip_podmiot1#', and IDWew where FA(3) expects Nazwa (lines 12-63)",
  "cii/mustang_Extended_fremdwaehrung_GBP.xml": "URIUniversalCommunication repeats URIID, which CII D16B allows once (line 234)",
};

/**
 * The samples that pass their schema but break EN 16931 business rules (README "Validation"), checked by hand
 * against the CEN/TC 434 artefacts' Schematron: an upload refuses them with 422. Each with the rules it breaks.
 */
export const RULE_FAILING_SAMPLES: Record<string, { reason: string; rules: string[] }> = {
  "cii/mustang_factur-x-extended.xml": {
    reason: "a freight charge in an EXTENDED-only element leaves ChargeTotalAmount 15.00 without a charge, the VAT basis is 403.55 where the lines give 388.55, and a delivery note reference carries an issue date",
    rules: ["BR-CO-12", "BR-S-08", "CII-DT-027"],
  },
  "cii/mustang_UC11_F202600022_EXTENDED_FX_BOM.xml": {
    reason: "EXTENDED group lines without quantity, unit, net price or VAT category, and exemption reasons on standard-rated VAT",
    rules: ["BR-22", "BR-23", "BR-26", "BR-27", "BR-CO-04", "BR-CO-10", "BR-S-10", "CII-SR-439"],
  },
};

/**
 * The samples that claim a CIUS (Peppol BIS Billing 3.0) and break its rule pack (README "EU formats"), though they pass
 * their schema and EN 16931: an upload refuses them with 422. Each with the pack rules it breaks.
 */
export const PACK_FAILING_SAMPLES: Record<string, string[]> = {
  // Its Swedish organisation numbers (0007) 1234567890 and 1234512345 fail the Luhn check digit.
  "ubl/en16931_issue116_SEK.xml": ["PEPPOL-COMMON-R049"],
  // Mustang writes no electronic addresses and a line period starting before the invoice period; seller and buyer
  // are German, so Peppol's German rules ask for payment instructions, a buyer reference and the seller's contact.
  "ubl/mustang_testout-ZF2PushEdge_CHF.ubl.xml": ["DE-R-001", "DE-R-002", "DE-R-015", "PEPPOL-EN16931-R010", "PEPPOL-EN16931-R020", "PEPPOL-EN16931-R110"],
};

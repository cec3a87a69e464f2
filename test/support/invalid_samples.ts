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

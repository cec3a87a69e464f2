import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { toApiError } from "../../../lib/api/errors.ts";
import { ApiError } from "../../../lib/http/errors.ts";
import type { DocumentType, InvoiceFormat } from "../../../lib/formats/invoice/model.ts";
import { partyTaxId, readInvoice, requireSubmissionFields } from "../../../lib/formats/invoice/read.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";

const SAMPLES = join(import.meta.dirname, "..", "..", "fixtures", "samples");
const FORMAT_DIRS = ["ksef-fa2", "ksef-fa3", "ubl", "cii"] as const;

interface Expected {
  format: InvoiceFormat;
  type: DocumentType;
  type_code: string | null;
  number: string;
  issue_date: string;
  seller: [name: string | null, tax_id: string | null];
  buyer: [name: string | null, tax_id: string | null];
  currency: string;
  /** [net, tax, gross] */
  totals: [string | null, string | null, string | null];
  /** When it differs from gross (prepaid amounts). */
  payable?: string;
  lines: number;
}

/**
 * Written by reading each XML file by hand (FIELDS.md paths), not by printing
 * what the readers return. KSeF net and tax are the sums of the P_13_* and
 * P_14_* fields, added up here by hand.
 */
const EXPECTED: Record<string, Expected> = {
  // KSeF FA(2)
  "ksef-fa2/cirfmf-csharp_faktura-online.xml": {
    format: "ksef-fa2", type: "invoice", type_code: "VAT", number: "FA/KUDYO-5316371561/05/2025",
    issue_date: "2025-06-16", seller: ["Baranowski, Kucharski and Krupa", "5265877635"],
    buyer: ["Cichy LLC", "7352765225"], currency: "PLN", totals: ["35260.63", "8109.94", "43370.57"], lines: 12,
  },
  "ksef-fa2/FA_2_Przyklad_4_EUR.xml": {
    format: "ksef-fa2", type: "invoice", type_code: "VAT", number: "15/2024", issue_date: "2024-10-21",
    seller: ["Codeque Karol Bryzgiel", "5451824119"], buyer: ["itrust", "4660430720"], currency: "EUR",
    totals: ["100", "23", "123"], lines: 2,
  },
  "ksef-fa2/FA_2_Przyklad_9.xml": {
    format: "ksef-fa2", type: "invoice", type_code: "VAT", number: "FV2022/02/150", issue_date: "2022-02-15",
    seller: ["ABC Leasing S.A.", "9999999999"], buyer: ["Gmina Bzdziszewo", "1111111111"], currency: "PLN",
    // P_13_1 2000 + P_13_7 300
    totals: ["2300", "460", "2760"], lines: 2,
  },
  "ksef-fa2/FA_2_Przyklad_20.xml": {
    format: "ksef-fa2", type: "invoice", type_code: "VAT", number: "2/11/2023", issue_date: "2023-11-30",
    seller: ["ABC Developex S.A.", "5451824119"], buyer: ["F.H.U. Jan Kowalski", "1111111111"], currency: "PLN",
    totals: ["13915", "3200.45", "17115.45"], lines: 2,
  },
  "ksef-fa2/FA_2_Przyklad_2_KOR.xml": {
    format: "ksef-fa2", type: "correction", type_code: "KOR", number: "FK2022/03/200", issue_date: "2022-03-15",
    seller: ["ABC AGD sp. z o. o.", "9999999999"], buyer: ["F.H.U. Jan Kowalski", "1111111111"], currency: "PLN",
    totals: ["-162.60", "-37.40", "-200"], lines: 2,
  },
  "ksef-fa2/FA_2_Przyklad_6_KOR_no_lines.xml": {
    format: "ksef-fa2", type: "correction", type_code: "KOR", number: "FK2022/07/243", issue_date: "2022-07-15",
    seller: ["ABC AGD sp. z o. o.", "9999999999"], buyer: ["CeDeE s.c.", "1111111111"], currency: "PLN",
    totals: ["-40650.41", "-9349.59", "-50000"], lines: 0,
  },
  "ksef-fa2/fa2_KOR_collective_EUR_EU-buyer.xml": {
    format: "ksef-fa2", type: "correction", type_code: "KOR", number: "CN070424AFP", issue_date: "2024-04-30",
    seller: ["Test Company", "1234567890"], buyer: ["Test Company 2", "ATU12305736"], currency: "EUR",
    // P_13_1..P_13_5 are 0.00, P_13_6_2 -565.80; P_14_1..P_14_4 are 0.00
    totals: ["-565.80", "0.00", "-565.80"], lines: 0,
  },
  "ksef-fa2/FA_2_Przyklad_10_ZAL.xml": {
    format: "ksef-fa2", type: "invoice", type_code: "ZAL", number: "FZ2022/02/150", issue_date: "2022-02-15",
    seller: ["ABC Developex sp. z o. o.", "9999999999"], buyer: ["F.H.U. Jan Kowalski", "1111111111"],
    currency: "PLN", totals: ["16260.16", "3739.84", "20000"], lines: 0,
  },
  "ksef-fa2/FA_2_Przyklad_11_KOR_ZAL.xml": {
    format: "ksef-fa2", type: "correction", type_code: "KOR_ZAL", number: "FK2022/03/5", issue_date: "2022-03-15",
    seller: ["ABC Developex sp. z o. o.", "9999999999"], buyer: ["F.H.U. Jan Kowalski", "1111111111"],
    // net -15993.6 + 18214.94; tax -3678.53 + 1457.19
    currency: "PLN", totals: ["2221.34", "-2221.34", "0"], lines: 0,
  },
  "ksef-fa2/FA_2_Przyklad_14_ROZ.xml": {
    format: "ksef-fa2", type: "invoice", type_code: "ROZ", number: "FV2022/08/12", issue_date: "2022-08-17",
    seller: ["ABC Developex S.A.", "9999999999"], buyer: ["F.H.U. Jan Kowalski", "1111111111"], currency: "PLN",
    // net 4100.16 + 280177.59; tax 943.04 + 22414.21
    totals: ["284277.75", "23357.25", "307635"], lines: 2,
  },
  "ksef-fa2/FA_2_Przyklad_18_KOR_ROZ.xml": {
    format: "ksef-fa2", type: "correction", type_code: "KOR_ROZ", number: "FK2022/09/1", issue_date: "2022-08-17",
    seller: ["ABC Developex S.A.", "9999999999"], buyer: ["F.H.U. Jan Kowalski", "1111111111"], currency: "PLN",
    // net 101.76 + 6953.54; tax 23.41 + 556.29
    totals: ["7055.30", "579.70", "7635"], lines: 4,
  },
  "ksef-fa2/FA_2_Przyklad_15_UPR.xml": {
    format: "ksef-fa2", type: "invoice", type_code: "UPR", number: "FV2022/02/150", issue_date: "2022-02-15",
    seller: ["ABC AGD sp. z o. o.", "9999999999"], buyer: [null, "1111111111"], currency: "PLN",
    totals: ["365.85", "84.15", "450"], lines: 1,
  },
  // KSeF FA(3)
  "ksef-fa3/cirfmf-pdf-generator_invoice.xml": {
    format: "ksef-fa3", type: "invoice", type_code: "VAT", number: "FA/YUCFO-4342344706/03/2026",
    issue_date: "2025-10-31", seller: ["Bartkowiak, Dróżdż and Górecki", "5265877635"],
    buyer: ["Strzelczyk LLC", "6808208874"], currency: "PLN", totals: ["27292.28", "6277.22", "33569.50"], lines: 13,
  },
  "ksef-fa3/cirfmf-csharp_multiple-Subject3.xml": {
    format: "ksef-fa3", type: "invoice", type_code: "VAT", number: "FV2026/02/150", issue_date: "2025-10-10",
    // The template placeholders are read as written.
    seller: ["Elektrownia S.A.", "#nip_podmiot1#"], buyer: ["Szkoła Testowa", "#nip_podmiot2#"], currency: "PLN",
    // Rozliczenie/DoZaplaty is the amount due.
    totals: ["52260.10", "12019.82", "64279.92"], lines: 3, payable: "63279.92",
  },
  "ksef-fa3/FA_3_complex.xml": {
    format: "ksef-fa3", type: "invoice", type_code: "VAT", number: "FA/2025/12/001", issue_date: "2026-01-15",
    seller: ["ABC Spółka z ograniczoną odpowiedzialnością", "5451824119"], buyer: ["XYZ Spółka Cywilna", "3935777054"],
    // net: all thirteen P_13_* fields; tax 230.00 + 40.00 + 100.00 + 12.00 (the sample's P_15 does not add up)
    currency: "PLN", totals: ["5950.00", "382.00", "5962.00"], lines: 6,
  },
  "ksef-fa3/FA_3_Przyklad_4_EUR.xml": {
    format: "ksef-fa3", type: "invoice", type_code: "VAT", number: "15/2024", issue_date: "2025-12-04",
    seller: ["test", "5451824119"], buyer: ["eestest", "1111111111"], currency: "EUR",
    totals: ["100", "23", "123"], lines: 1,
  },
  "ksef-fa3/FA_3_Przyklad_3_brutto.xml": {
    format: "ksef-fa3", type: "invoice", type_code: "VAT", number: "test/123/test", issue_date: "2025-12-02",
    seller: ["test", "5451824119"], buyer: ["eestest", "1111111111"], currency: "PLN",
    totals: ["813.01", "186.99", "1000"], lines: 2,
  },
  "ksef-fa3/FA_3_Przyklad_23_USD.xml": {
    format: "ksef-fa3", type: "invoice", type_code: "VAT", number: "FV2026/02/150", issue_date: "2026-06-15",
    seller: ["ABC AGD sp. z o. o.", "9999999999"], buyer: ["EFG Ltd.", "999999999"], currency: "USD",
    // Only P_13_6_3 (export): no P_14_* field, so no tax total.
    totals: ["8000", null, "8000"], lines: 1,
  },
  "ksef-fa3/FA_3_Przyklad_1_KOR.xml": {
    format: "ksef-fa3", type: "correction", type_code: "KOR", number: "29903413", issue_date: "2023-10-23",
    seller: ["TEST SP z.o.o.", "1234567890"], buyer: ["Nazwa po zmianie sp. z o.o", "PL1234560670"], currency: "PLN",
    totals: ["0.00", "0.00", "0.00"], lines: 2,
  },
  "ksef-fa3/FA_3_Przyklad_3_KOR_EUR.xml": {
    format: "ksef-fa3", type: "correction", type_code: "KOR", number: "001/01/26/K", issue_date: "2026-02-25",
    seller: ["TEST SP z.o.o.", "1234567890"], buyer: ["TEST 2 SP z.o.o.", "1234567890"], currency: "EUR",
    totals: ["0", "0", "0"], lines: 2,
  },
  "ksef-fa3/FA_3_Przyklad_4_KOR_EUR_no_lines.xml": {
    format: "ksef-fa3", type: "correction", type_code: "KOR", number: "ABC1234345", issue_date: "2026-02-28",
    seller: ["TEST SP z.o.o.", "1234567890"], buyer: ["Nazwa po zmianie sp. z o.o", "PL1234560670"], currency: "EUR",
    totals: ["-2415.89", "0.00", "-2415.89"], lines: 0,
  },
  "ksef-fa3/FA_3_Przyklad_2_ZAL.xml": {
    format: "ksef-fa3", type: "invoice", type_code: "ZAL", number: "10203040", issue_date: "2026-03-11",
    seller: ["FIRMA TESTOWA sp. z o.o.", "5451824119"], buyer: ["KOWALSKI JAN", "2222222222"], currency: "PLN",
    totals: ["2699.95", "620.99", "3320.94"], lines: 1,
  },
  "ksef-fa3/FA_3_Przyklad_1_ROZ.xml": {
    format: "ksef-fa3", type: "invoice", type_code: "ROZ", number: "abc/test/1234", issue_date: "2025-12-02",
    seller: ["adres 123", "5451824119"], buyer: ["abc abc", "1111111111"], currency: "PLN",
    // No P_13_* and no P_14_* at all.
    totals: [null, null, "0"], lines: 1,
  },
  "ksef-fa3/FA_3_Zalacznik_Przyklad_1.xml": {
    format: "ksef-fa3", type: "invoice", type_code: "VAT", number: "FA/001/2026/F", issue_date: "2026-02-04",
    seller: ["Sprzedawca Sp. z o.o.", "1234567890"], buyer: ["Nabywca Sp. z o.o.", "9876543210"], currency: "PLN",
    totals: ["12948.01", "2978.04", "15926.05"], lines: 4,
  },
  "ksef-fa3/FA_3_Zalacznik_Przyklad_2_prefixed_mojibake.xml": {
    format: "ksef-fa3", type: "invoice", type_code: "VAT", number: "FA/002/2026", issue_date: "2026-02-04",
    seller: ["Sprzedawca S.A.", "1234567890"], buyer: ["NABYWCA SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ", "9876543210"],
    currency: "PLN", totals: ["14425.53", "3317.87", "17743.4"], lines: 14,
  },
  // UBL 2.1
  "ubl/en16931_ubl-tc434-example1.xml": {
    format: "ubl", type: "invoice", type_code: "380", number: "12115118", issue_date: "2015-01-09",
    seller: ["De Koksmaat", "NL8200.98.395.B.01"], buyer: ["ODIN 59", null], currency: "EUR",
    totals: ["229.60", "20.73", "250.33"], lines: 20,
  },
  "ubl/en16931_ubl-tc434-example2_NOK.xml": {
    format: "ubl", type: "invoice", type_code: "380", number: "TOSL108", issue_date: "2013-06-30",
    seller: ["Salescompany ltd.", "NO123456789MVA"], buyer: ["The Buyercompany", "NO987654321MVA"], currency: "NOK",
    totals: ["1436.50", "365.28", "1801.78"], payable: "801.78", lines: 5,
  },
  "ubl/en16931_ubl-tc434-example8.xml": {
    format: "ubl", type: "invoice", type_code: "380", number: "1100512149", issue_date: "2014-11-10",
    // RegistrationName wins over PartyName "Enexis".
    seller: ["Enexis B.V.", "NL809561074B01"], buyer: ["Klant", null], currency: "EUR",
    totals: ["908.91", "190.87", "1099.78"], lines: 10,
  },
  "ubl/en16931_ubl-tc434-creditnote1.xml": {
    format: "ubl", type: "credit_note", type_code: "381", number: "018304 / 28865", issue_date: "2019-09-23",
    seller: ["My Supplier Company", "BE0000000196"], buyer: ["My Customer Company", "BE0000000295"], currency: "EUR",
    totals: ["100.11", "0.00", "100.11"], lines: 1,
  },
  "ubl/en16931_BIS3_Invoice_positive_DKK.xml": {
    format: "ubl", type: "invoice", type_code: "380", number: "12345", issue_date: "2019-01-25",
    seller: ["Company A", "DK12345678"], buyer: ["Company B", "DK87654321"], currency: "DKK",
    totals: ["625743.54", "156435.89", "782179.43"], lines: 1,
  },
  "ubl/en16931_issue116_SEK.xml": {
    format: "ubl", type: "invoice", type_code: "380", number: "2018210", issue_date: "2018-02-08",
    seller: ["SÄLJARNAMNET", "SE123456789001"], buyer: ["Project services AB", "SE123451234501"], currency: "SEK",
    totals: ["700", "130", "830"], lines: 4,
  },
  "ubl/peppol-bis3_base-example.xml": {
    format: "ubl", type: "invoice", type_code: "380", number: "Snippet1", issue_date: "2017-11-13",
    seller: ["SupplierOfficialName Ltd", "GB1232434"], buyer: ["Buyer Official Name", "SE4598375937"], currency: "EUR",
    totals: ["1325", "331.25", "1656.25"], lines: 2,
  },
  "ubl/peppol-bis3_base-creditnote-correction.xml": {
    format: "ubl", type: "credit_note", type_code: "381", number: "Snippet1", issue_date: "2017-11-13",
    seller: ["SupplierOfficialName Ltd", "GB1232434"], buyer: ["Buyer Official Name", "SE4598375937"], currency: "EUR",
    totals: ["1325", "331.25", "1656.25"], lines: 2,
  },
  "ubl/peppol-bis3_vat-category-E_GBP.xml": {
    format: "ubl", type: "invoice", type_code: "380", number: "Vat-Z", issue_date: "2018-08-30",
    seller: ["The Sellercompany Incorporated", "GB928741974"], buyer: ["The Buyercompany", null], currency: "GBP",
    totals: ["1200.00", "0.00", "1200.00"], lines: 1,
  },
  "ubl/xrechnung_01.02a-INVOICE_ubl.xml": {
    format: "ubl", type: "invoice", type_code: "380", number: "123456", issue_date: "2016-06-21",
    seller: ["[Seller name]", "DE123456789"], buyer: ["[Buyer name]", null], currency: "EUR",
    totals: ["11.78", "0.82", "12.6"], lines: 1,
  },
  "ubl/xrechnung_01.18a-INVOICE_ubl_384.xml": {
    format: "ubl", type: "correction", type_code: "384", number: "PRG1502112", issue_date: "2015-04-24",
    seller: ["[Seller name]", "DE123456789"], buyer: ["[Buyer name]", null], currency: "EUR",
    totals: ["8870", "1685.3", "10555.3"], lines: 4,
  },
  "ubl/xrechnung_03.01a-INVOICE_ubl_negative.xml": {
    format: "ubl", type: "invoice", type_code: "380", number: "123456789", issue_date: "2019-02-28",
    seller: ["[Seller name]", "ATU123456789"], buyer: ["[Buyer name]", null], currency: "EUR",
    totals: ["687.28", "117.58", "804.86"], payable: "-225.14", lines: 14,
  },
  "ubl/xrechnung_03.04a-INVOICE_ubl.xml": {
    format: "ubl", type: "invoice", type_code: "380", number: "123456789", issue_date: "2018-06-05",
    seller: ["[Seller name]", "ATU123456789"], buyer: ["[Buyer name]", null], currency: "EUR",
    totals: ["35156.82", "6679.8", "41836.62"], payable: "1997.62", lines: 9,
  },
  "ubl/mustang_testout-ZF2PushEdge_CHF.ubl.xml": {
    format: "ubl", type: "invoice", type_code: "380", number: "123", issue_date: "2023-09-09",
    // VAT scheme DE0815 wins over the FC scheme 9990815.
    seller: ["Test company", "DE0815"], buyer: ["Franz Müller", "DE4711"], currency: "CHF",
    totals: ["1.28", "0.2", "1.48"], lines: 1,
  },
  "ubl/mustang_UBL-CreditNote-2.1-Example_BOM.ubl.xml": {
    format: "ubl", type: "credit_note", type_code: null, number: "TOSL108", issue_date: "2009-12-15",
    seller: ["The Sellercompany Incorporated", "DK12345"], buyer: ["The buyercompany inc.", "BE54321"],
    currency: "EUR", totals: ["1436.5", "292.20", "1729"], payable: "729", lines: 5,
  },
  // UN/CEFACT CII D16B
  "cii/xrechnung_01.01a-INVOICE_uncefact.xml": {
    format: "cii", type: "invoice", type_code: "380", number: "123456XX", issue_date: "2016-04-04",
    seller: ["[Seller name]", "DE 123456789"], buyer: ["[Buyer name]", null], currency: "EUR",
    totals: ["314.86", "22.04", "336.9"], lines: 2,
  },
  "cii/xrechnung_01.02a-INVOICE_uncefact.xml": {
    format: "cii", type: "invoice", type_code: "380", number: "123456", issue_date: "2016-06-21",
    seller: ["[Seller name]", "DE123456789"], buyer: ["[Buyer name]", null], currency: "EUR",
    totals: ["11.78", "0.82", "12.6"], lines: 1,
  },
  "cii/xrechnung_01.18a-INVOICE_uncefact_384.xml": {
    format: "cii", type: "correction", type_code: "384", number: "PRG1502112", issue_date: "2015-04-24",
    seller: ["[Seller name]", "DE123456789"], buyer: ["[Buyer name]", null], currency: "EUR",
    totals: ["8870", "1685.3", "10555.3"], lines: 4,
  },
  "cii/xrechnung_03.01a-INVOICE_uncefact_negative.xml": {
    format: "cii", type: "invoice", type_code: "380", number: "123456789", issue_date: "2019-02-28",
    seller: ["[Seller name]", "ATU123456789"], buyer: ["[Buyer name]", null], currency: "EUR",
    totals: ["687.28", "117.58", "804.86"], payable: "-225.14", lines: 14,
  },
  "cii/en16931_CII_example1.xml": {
    format: "cii", type: "invoice", type_code: "380", number: "12115118", issue_date: "2015-01-09",
    seller: ["De Koksmaat", "NL8200.98.395.B.01"], buyer: ["ODIN 59", null], currency: "EUR",
    totals: ["229.6", "20.73", "250.33"], lines: 20,
  },
  "cii/en16931_CII_business_example_01_NOK.xml": {
    format: "cii", type: "invoice", type_code: "380", number: "TOSL108", issue_date: "2013-06-30",
    seller: ["Salescompany ltd.", "NO123456789MVA"], buyer: ["The Buyercompany", "NO987654321MVA"], currency: "NOK",
    totals: ["1436.5", "365.28", "1801.78"], payable: "801.78", lines: 5,
  },
  "cii/en16931_huf_example_cii.xml": {
    format: "cii", type: "invoice", type_code: "380", number: "21/001003559/996", issue_date: "2021-10-05",
    seller: ["DKV Euro Service GmbH + Co. KG", "HU30048650"],
    buyer: ["HIL Heeresinstandsetzungslogistik GmbH", "DE242688168"], currency: "HUF",
    totals: ["69180.00", "18679.00", "87859.00"], lines: 3,
  },
  "cii/mustang_factur-x.xml": {
    format: "cii", type: "invoice", type_code: "380", number: "RE-20201121/508", issue_date: "2020-11-21",
    seller: ["Bei Spiel GmbH", "DE136695976"], buyer: ["Theodor Est", null], currency: "EUR",
    totals: ["496.00", "75.04", "571.04"], lines: 3,
  },
  "cii/mustang_factur-x-extended.xml": {
    format: "cii", type: "invoice", type_code: "380", number: "KR87654321012", issue_date: "2024-11-15",
    // Only a local tax number (schemeID FC).
    seller: ["MUSTERLIEFERANT GMBH", "201/113/40209"], buyer: ["MUSTER-KUNDE GMBH", null], currency: "EUR",
    totals: ["403.55", "76.67", "480.22"], lines: 5,
  },
  "cii/mustang_Extended_fremdwaehrung_GBP.xml": {
    format: "cii", type: "invoice", type_code: "380", number: "47110815", issue_date: "2024-11-15",
    seller: ["Rohstoff AG Salzgitter", "DE123456789"], buyer: ["Metallbau Leipzig GmbH & Co. KG", null],
    // TaxTotalAmount in GBP (163.16), not the EUR one (183.14).
    currency: "GBP", totals: ["858.75", "163.16", "1021.91"], payable: "521.91", lines: 1,
  },
  "cii/mustang_Factur-X_basic.xml": {
    format: "cii", type: "invoice", type_code: "380", number: "471102", issue_date: "2024-11-15",
    seller: ["Lieferant GmbH", "DE123456789"], buyer: ["Kunden AG Mitte", null], currency: "EUR",
    totals: ["198.00", "37.62", "235.62"], lines: 1,
  },
  "cii/mustang_facturFrMinimum.xml": {
    format: "cii", type: "invoice", type_code: "380", number: "FA-2017-0010", issue_date: "2017-11-13",
    seller: ["Au bon moulin", "FR11999999998"], buyer: ["Ma jolie boutique", "FR19787878784"], currency: "EUR",
    totals: ["624.90", "46.25", "671.15"], payable: "470.15", lines: 0,
  },
  "cii/mustang_UC11_F202600022_EXTENDED_FX_BOM.xml": {
    format: "cii", type: "invoice", type_code: "380", number: "F202600022", issue_date: "2025-01-05",
    // Header totals; SOURCES.md's 95.95 is the first line's own GrandTotalAmount.
    seller: ["LE VENDEUR", "FR88100000009"], buyer: ["LE CLIENT", "FR37200000008"], currency: "EUR",
    totals: ["212.90", "17.20", "230.10"], lines: 7,
  },
  "cii/gobl-cii_en16931_credit-note_381.xml": {
    format: "cii", type: "credit_note", type_code: "381", number: "CN-002", issue_date: "2024-02-14",
    seller: ["Provide One GmbH", "DE111111125"], buyer: ["Sample Consumer", "DE282741168"], currency: "EUR",
    totals: ["1800.00", "342.00", "2142.00"], lines: 1,
  },
  "cii/gobl-cii_peppol-france-facturx_credit-note_381.xml": {
    format: "cii", type: "credit_note", type_code: "381", number: "AVR-2024-001", issue_date: "2024-06-13",
    seller: ["Supplier SARL", "FR39356000000"], buyer: ["Customer SAS", "FR44732829320"], currency: "EUR",
    totals: ["1000.00", "200.00", "1200.00"], lines: 1,
  },
};

function readSample(file: string) {
  return readInvoice(parseXml(readFileSync(join(SAMPLES, file))));
}

describe("readInvoice() on the sample invoices", () => {
  test("the expected-value table covers every sample invoice and nothing else", () => {
    const files = FORMAT_DIRS.flatMap((dir) =>
      readdirSync(join(SAMPLES, dir)).filter((f) => f.endsWith(".xml")).map((f) => `${dir}/${f}`));
    assert.deepEqual(files.sort(), Object.keys(EXPECTED).sort());
  });

  for (const [file, expected] of Object.entries(EXPECTED)) {
    test(`readInvoice() reads ${file}`, () => {
      const inv = readSample(file);
      const got: Expected = {
        format: inv.format, type: inv.type, type_code: inv.kind?.code ?? null,
        number: inv.number ?? "(null)", issue_date: inv.issue_date ?? "(null)",
        seller: [inv.seller.name, partyTaxId(inv.seller)], buyer: [inv.buyer.name, partyTaxId(inv.buyer)],
        currency: inv.currency ?? "(null)", totals: [inv.totals.net, inv.totals.tax, inv.totals.gross],
        lines: inv.lines.length,
      };
      if (expected.payable !== undefined) got.payable = inv.totals.payable ?? "(null)";
      else assert.equal(inv.totals.payable, inv.totals.gross, "payable equals gross");
      assert.deepEqual(got, expected);
      // Every sample carries what a submission needs.
      requireSubmissionFields(inv);
    });
  }

  test("readInvoice() gives the same invoice for bytes and for the decoded string", () => {
    const file = "ksef-fa3/FA_3_complex.xml";
    const bytes = readFileSync(join(SAMPLES, file));
    assert.deepEqual(readInvoice(parseXml(bytes.toString("utf8"))), readInvoice(parseXml(bytes)));
  });
});

describe("readInvoice() on documents that are not invoices", () => {
  for (const file of readdirSync(join(SAMPLES, "ksef-upo")).filter((f) => f.endsWith(".xml"))) {
    test(`readInvoice() refuses the KSeF UPO ${file} with 422 naming the root`, () => {
      const doc = parseXml(readFileSync(join(SAMPLES, "ksef-upo", file)));
      assert.throws(() => readInvoice(doc), (raw: unknown) => {
        const err = toApiError(raw);
        assert.ok(err instanceof ApiError);
        assert.equal(err.status, 422);
        assert.equal(err.code, "VALIDATION_ERROR");
        assert.equal(err.details.field, "xml");
        assert.equal(err.details.issue, `unsupported root element {${doc.root.ns}}${doc.root.local}`);
        assert.match(String(err.details.issue), /^unsupported root element \{http.+\}Potwierdzenie$/);
        return true;
      });
    });
  }
});

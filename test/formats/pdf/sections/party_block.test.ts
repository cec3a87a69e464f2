import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { blankParty } from "../../../../lib/formats/invoice/blank.ts";
import { pdfInvoice } from "../../../fixtures/pdf_invoice.ts";
import { renderText } from "../../../support/pdf_text.ts";

describe("party block", () => {
  test("partyLines() labels a NIP without its prefix, an EU VAT number as such, and prints every identifier", () => {
    const base = pdfInvoice(0);
    const inv = pdfInvoice(1, {
      buyer: {
        ...base.buyer, identifiers: [{ value: "K-77", scheme: "IDWew" }, { value: "PL123456789012345", scheme: "EORI" }],
        correspondence_address: { lines: ["ul. Listowa 1"], city: "Kraków", postal_code: "30-001", subdivision: null, country_code: "PL", gln: null },
        contacts: [{ name: null, phone: "+48 12 345 67 89", email: "zakupy@example.cz", fax: null, department: null }],
        customer_number: "C-9",
      },
      third_parties: [{ ...blankParty(), name: "Faktor S.A.", tax_id: { value: "1112223344", country: "PL", scheme: "NIP" }, role: { code: "1", text: "Factor" }, role_description: null, share: null }],
    });
    const text = renderText(inv).join(" ");
    for (const s of [
      "NIP: 5260250274", "Prefiks VAT UE: PL", "Nr VAT UE: CZ12345678", "Identyfikator wewnętrzny: K-77", "Nr EORI: PL123456789012345",
      "Adres korespondencyjny: ul. Listowa 1, 30-001 Kraków, PL", "Tel.: +48 12 345 67 89", "Numer klienta: C-9",
      "Podmiot trzeci: Faktor (1) Faktor S.A.",
    ]) assert.ok(text.includes(s), `missing ${s} in ${text}`);
    assert.ok(!text.includes("NIP: PL5260250274") && !text.includes("NIP: CZ"));
  });
});

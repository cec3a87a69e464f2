/**
 * The minimal invoice object that yields a valid FA(3) (README "Creating invoices"), as the JSON of a creation:
 * shared by the tests of the JSON endpoint, the console's upload, the convert command and sending to KSeF.
 */
export const MINIMAL_FA3 = {
  format: "ksef-fa3",
  invoice: {
    number: "FV/2026/12/001", issue_date: "2026-12-04", currency: "PLN",
    seller: { name: "Przykładowa Sp. z o.o.", tax_id: { value: "5260250274", country: "PL", scheme: "NIP" }, address: { lines: ["ul. Prosta 1", "00-001 Warszawa"], country_code: "PL" } },
    buyer: { name: "Kowalski i Syn", tax_id: { value: "1234563218", country: "PL", scheme: "NIP" }, address: { lines: ["ul. Krzywa 2", "30-001 Kraków"], country_code: "PL" } },
    lines: [
      { name: "Usługa programistyczna", quantity: "10", unit: "h", net_price: "150.00", vat_rate: "23" },
      { name: "Książka", quantity: "3", unit: "szt.", net_price: "33.33", vat_rate: "5" },
    ],
  },
};

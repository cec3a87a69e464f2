import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Annotations } from "../../../../lib/formats/invoice/model.ts";
import { pdfInvoice } from "../../../fixtures/pdf_invoice.ts";
import { renderText } from "../../../support/pdf_text.ts";

const none: Annotations = {
  cash_accounting: false, self_billing: false, reverse_charge: false, split_payment: false,
  exemption: { applies: false, act: null, directive: null, other: null },
  new_transport: { applies: false, art_42_5: false, vehicles: [] }, triangular: false, margin: { applies: false, scheme: null },
};

describe("annotations", () => {
  test("drawAnnotations() prints the legal wording of each annotation that applies", () => {
    const inv = pdfInvoice(1, {
      annotations: {
        ...none, cash_accounting: true, self_billing: true, reverse_charge: true, split_payment: true, triangular: true,
        exemption: { applies: true, act: "art. 43 ust. 1 pkt 37 ustawy o VAT", directive: null, other: null },
        margin: { applies: true, scheme: { code: "P_PMarzy_3_1", text: "Second-hand goods" } },
      },
    });
    const text = renderText(inv).join(" ");
    for (const s of [
      "Adnotacje Metoda kasowa Samofakturowanie Odwrotne obciążenie Mechanizm podzielonej płatności",
      "Dostawa towarów lub świadczenie usług zwolnionych od podatku",
      "Przepis ustawy albo aktu wydanego na podstawie ustawy: art. 43 ust. 1 pkt 37 ustawy o VAT",
      "Procedura uproszczona", "Procedura marży: Procedura marży – towary używane (P_PMarzy_3_1)",
    ]) assert.ok(text.includes(s), `missing ${s} in ${text}`);
    const en = renderText(inv, { lang: "en" }).join(" ");
    assert.ok(en.includes("Split payment mechanism (mechanizm podzielonej płatności)"));
  });

  test("drawAnnotations() prints nothing when no annotation applies", () => {
    assert.ok(!renderText(pdfInvoice(1, { annotations: none })).join(" ").includes("Adnotacje"));
  });
});

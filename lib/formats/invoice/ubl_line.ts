/**
 * Reads UBL 2.1 InvoiceLine / CreditNoteLine (BG-25 with BG-26, BG-27/28, BG-29,
 * BG-30, BG-31, BG-32) and cac:AllowanceCharge (BG-20/21) into the model.
 * Amounts are copied as written; the unit price is per cbc:BaseQuantity.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { blankLine } from "./blank.ts";
import { type AllowanceChargeNames, classificationOf, readAllowanceCharge } from "./binding.ts";
import { codeOf, UNCL_5305 } from "./code_lists.ts";
import { parseDecimal } from "./decimal.ts";
import type { AllowanceCharge, InvoiceLine, Period } from "./model.ts";
import { attr, child, childText, identifierOf, parseDate, textOf } from "./query.ts";
import { CAC, CBC } from "./ubl_party.ts";

/** cac:AllowanceCharge's parts, all cbc: (the tax category's under cac:TaxCategory). */
const ALLOWANCE_CHARGE_NAMES: AllowanceChargeNames = {
  ns: CBC, amount: "Amount", base: "BaseAmount", percent: "MultiplierFactorNumeric",
  reason: "AllowanceChargeReason", reasonCode: "AllowanceChargeReasonCode", category: "ID", rate: "Percent",
};

/** cac:InvoiceLine or cac:CreditNoteLine. */
export function readUblLine(el: XmlElement): InvoiceLine {
  const l = blankLine();
  for (const c of el.children) {
    if (c.ns === CBC) {
      const v = textOf(c);
      switch (c.local) {
        case "ID": l.number = v; break;
        case "Note": if (v !== null) l.notes.push(v); break;
        case "InvoicedQuantity":
        case "CreditedQuantity":
          l.quantity = parseDecimal(v);
          l.unit = attr(c, "unitCode");
          break;
        case "LineExtensionAmount": l.net_amount = parseDecimal(v); break;
        case "AccountingCost": l.accounting_reference = v; break;
      }
    } else if (c.ns === CAC) {
      switch (c.local) {
        case "InvoicePeriod": l.period = readUblPeriod(c); break;
        case "OrderLineReference": l.order_line_reference = childText(c, CBC, "LineID"); break;
        case "DocumentReference": l.object_id = identifierOf(child(c, CBC, "ID")); break;
        case "AllowanceCharge": l.allowances_charges.push(readUblAllowanceCharge(c)); break;
        // UBL 2.1 allows a line TaxTotal (Peppol forbids it); read it when present.
        case "TaxTotal": l.vat_amount = parseDecimal(childText(c, CBC, "TaxAmount")); break;
        case "Item": _item(c, l); break;
        case "Price": _price(c, l); break;
      }
    }
  }
  return l;
}

/** cac:Item (BG-31, BG-30, BG-32). */
function _item(el: XmlElement, l: InvoiceLine): void {
  for (const c of el.children) {
    if (c.ns === CBC) {
      if (c.local === "Name") l.name = textOf(c);
      else if (c.local === "Description") l.description = textOf(c);
      continue;
    }
    if (c.ns !== CAC) continue;
    switch (c.local) {
      case "BuyersItemIdentification": l.buyer_item_id = childText(c, CBC, "ID"); break;
      case "SellersItemIdentification": l.seller_item_id = childText(c, CBC, "ID"); break;
      case "StandardItemIdentification": l.standard_item_id = identifierOf(child(c, CBC, "ID")); break;
      case "OriginCountry": l.origin_country = childText(c, CBC, "IdentificationCode"); break;
      case "CommodityClassification": {
        const classification = classificationOf(child(c, CBC, "ItemClassificationCode"));
        if (classification !== null) l.classifications.push(classification);
        break;
      }
      case "ClassifiedTaxCategory":
        l.vat_category = codeOf(UNCL_5305, childText(c, CBC, "ID"));
        l.vat_rate = childText(c, CBC, "Percent");
        break;
      case "AdditionalItemProperty":
        l.attributes.push({ name: childText(c, CBC, "Name"), value: childText(c, CBC, "Value") });
        break;
    }
  }
}

/** cac:Price: BT-146 net price, BT-149/150 base quantity, BT-147 discount and BT-148 gross price. */
function _price(el: XmlElement, l: InvoiceLine): void {
  l.net_price = parseDecimal(childText(el, CBC, "PriceAmount"));
  const base = child(el, CBC, "BaseQuantity");
  l.price_base_quantity = parseDecimal(textOf(base));
  l.price_base_unit = attr(base, "unitCode");
  const ac = child(el, CAC, "AllowanceCharge");
  if (ac !== null) {
    l.price_discount = parseDecimal(childText(ac, CBC, "Amount"));
    l.list_price = parseDecimal(childText(ac, CBC, "BaseAmount"));
  }
}

/** cac:InvoicePeriod (BG-14, BG-26). */
export function readUblPeriod(el: XmlElement): Period {
  return {
    start: parseDate(childText(el, CBC, "StartDate")),
    end: parseDate(childText(el, CBC, "EndDate")),
    description: childText(el, CBC, "DescriptionCode"),
  };
}

/** cac:AllowanceCharge (BG-20, BG-21, BG-27, BG-28). */
export function readUblAllowanceCharge(el: XmlElement): AllowanceCharge {
  const charge = childText(el, CBC, "ChargeIndicator") === "true";
  return readAllowanceCharge(el, charge, child(el, CAC, "TaxCategory"), ALLOWANCE_CHARGE_NAMES);
}

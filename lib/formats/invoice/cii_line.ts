/**
 * Reads a CII ram:IncludedSupplyChainTradeLineItem (BG-25 with BG-26, BG-27/28,
 * BG-29, BG-30, BG-31, BG-32, and the Factur-X Extended line fields) into the
 * model's InvoiceLine. Amounts are copied as written. Nothing here throws.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { classificationOf } from "./binding.ts";
import { blankLine } from "./blank.ts";
import { RAM, readCiiAllowanceCharge, readCiiParty, readCiiPeriod } from "./cii_party.ts";
import { codeOf, UNCL_5305 } from "./code_lists.ts";
import { parseDecimal } from "./decimal.ts";
import type { InvoiceLine } from "./model.ts";
import { attr, child, childText, identifierOf, textOf } from "./query.ts";

/** UNTDID 1001 code 130 "Invoicing data sheet": a line document reference that is BT-128. */
const OBJECT_CODE = "130";

/** One IncludedSupplyChainTradeLineItem. */
export function readCiiLine(el: XmlElement): InvoiceLine {
  const l = blankLine();
  for (const c of el.children) {
    if (c.ns !== RAM) continue;
    switch (c.local) {
      case "AssociatedDocumentLineDocument":
        l.number = childText(c, RAM, "LineID");
        l.parent_number = childText(c, RAM, "ParentLineID");
        l.status_reason = childText(c, RAM, "LineStatusReasonCode");
        for (const n of c.children) {
          const t = n.local === "IncludedNote" ? childText(n, RAM, "Content") : null;
          if (t !== null) l.notes.push(t);
        }
        break;
      case "SpecifiedTradeProduct": _product(c, l); break;
      case "SpecifiedLineTradeAgreement": _agreement(c, l); break;
      case "SpecifiedLineTradeDelivery": {
        const q = child(c, RAM, "BilledQuantity");
        l.quantity = parseDecimal(textOf(q));
        l.unit = attr(q, "unitCode");
        break;
      }
      case "SpecifiedLineTradeSettlement": _settlement(c, l); break;
    }
  }
  return l;
}

/** ram:SpecifiedTradeProduct (BG-31, BG-32). */
function _product(el: XmlElement, l: InvoiceLine): void {
  for (const c of el.children) {
    if (c.ns !== RAM) continue;
    switch (c.local) {
      case "GlobalID": l.standard_item_id = identifierOf(c); break;
      case "SellerAssignedID": l.seller_item_id = textOf(c); break;
      case "BuyerAssignedID": l.buyer_item_id = textOf(c); break;
      case "Name": l.name = textOf(c); break;
      case "Description": l.description = textOf(c); break;
      case "ApplicableProductCharacteristic":
        l.attributes.push({ name: childText(c, RAM, "Description"), value: childText(c, RAM, "Value") });
        break;
      case "DesignatedProductClassification": {
        const classification = classificationOf(child(c, RAM, "ClassCode"));
        if (classification !== null) l.classifications.push(classification);
        break;
      }
      case "OriginTradeCountry": l.origin_country = childText(c, RAM, "ID"); break;
    }
  }
}

/** ram:SpecifiedLineTradeAgreement: order line (BT-132), prices (BG-29), item seller (Extended). */
function _agreement(el: XmlElement, l: InvoiceLine): void {
  for (const c of el.children) {
    if (c.ns !== RAM) continue;
    switch (c.local) {
      case "BuyerOrderReferencedDocument":
        l.order_line_reference = childText(c, RAM, "LineID") ?? childText(c, RAM, "IssuerAssignedID");
        break;
      case "GrossPriceProductTradePrice": {
        l.list_price = parseDecimal(childText(c, RAM, "ChargeAmount"));
        const ac = child(c, RAM, "AppliedTradeAllowanceCharge");
        if (ac !== null) l.price_discount = parseDecimal(childText(ac, RAM, "ActualAmount"));
        _basis(c, l);
        break;
      }
      case "NetPriceProductTradePrice":
        l.net_price = parseDecimal(childText(c, RAM, "ChargeAmount"));
        _basis(c, l);
        break;
      case "ItemSellerTradeParty": l.item_seller = readCiiParty(c); break;
    }
  }
}

/** BT-149/BT-150 from a price's BasisQuantity (net price preferred, gross price otherwise). */
function _basis(price: XmlElement, l: InvoiceLine): void {
  const q = child(price, RAM, "BasisQuantity");
  if (q === null) return;
  l.price_base_quantity = parseDecimal(textOf(q));
  l.price_base_unit = attr(q, "unitCode");
}

/** ram:SpecifiedLineTradeSettlement: VAT (BG-30), period (BG-26), allowances (BG-27/28), amounts. */
function _settlement(el: XmlElement, l: InvoiceLine): void {
  for (const c of el.children) {
    if (c.ns !== RAM) continue;
    switch (c.local) {
      case "ApplicableTradeTax":
        l.vat_category = codeOf(UNCL_5305, childText(c, RAM, "CategoryCode"));
        l.vat_rate = childText(c, RAM, "RateApplicablePercent");
        l.vat_exemption_reason = childText(c, RAM, "ExemptionReason");
        break;
      case "BillingSpecifiedPeriod": l.period = readCiiPeriod(c); break;
      case "SpecifiedTradeAllowanceCharge": l.allowances_charges.push(readCiiAllowanceCharge(c)); break;
      case "SpecifiedTradeSettlementLineMonetarySummation":
        l.net_amount = parseDecimal(childText(c, RAM, "LineTotalAmount"));
        l.vat_amount = parseDecimal(childText(c, RAM, "TaxTotalAmount"));
        l.amount_with_vat = parseDecimal(childText(c, RAM, "GrandTotalAmount"));
        break;
      case "AdditionalReferencedDocument":
        if (childText(c, RAM, "TypeCode") === OBJECT_CODE) {
          const value = childText(c, RAM, "IssuerAssignedID");
          l.object_id = value === null ? null : { value, scheme: childText(c, RAM, "ReferenceTypeCode") };
        }
        break;
      case "ReceivableSpecifiedTradeAccountingAccount": l.accounting_reference = childText(c, RAM, "ID"); break;
    }
  }
}

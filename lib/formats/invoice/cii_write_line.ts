/**
 * Writes an invoice line (BG-25 with BG-26…BG-32 and the Factur-X Extended line fields) as a CII D16B
 * ram:IncludedSupplyChainTradeLineItem, in the order of the CII D16B schema; the inverse of cii_line.ts.
 * Amounts as given.
 * @module
 */

import { writeCiiAllowanceCharge, writeCiiParty, writeCiiPeriod } from "./cii_write_party.ts";
import type { InvoiceLine } from "./model.ts";
import { lose, percentOrLose } from "./write_losses.ts";
import type { WriteLoss } from "./write_result.ts";
import type { TracedWriter } from "./write_trace.ts";

/** UNTDID 1001 130 "Invoicing data sheet": the type code of a line object identifier (BT-128). */
const OBJECT_CODE = "130";
/** The tax type code of EN 16931's VAT. */
const VAT = "VAT";

/** Writes line `index` of the invoice. */
export function writeCiiLine(w: TracedWriter, l: InvoiceLine, index: number, losses: WriteLoss[]): void {
  const f = `invoice.lines[${index}]`;
  w.open("ram:IncludedSupplyChainTradeLineItem", f);
  w.open("ram:AssociatedDocumentLineDocument");
  // ram:LineID is what EN 16931 requires (BT-126); a line without a number gets its position.
  w.leaf("ram:LineID", l.number ?? String(index + 1), ".number");
  w.leaf("ram:ParentLineID", l.parent_number, ".parent_number");
  w.leaf("ram:LineStatusReasonCode", l.status_reason, ".status_reason");
  for (let i = 0; i < l.notes.length; i++) w.open("ram:IncludedNote").leaf("ram:Content", l.notes[i], `.notes[${i}]`).close();
  w.close();
  _product(w, l);
  _agreement(w, l, f, losses);
  if (l.quantity !== null) {
    w.open("ram:SpecifiedLineTradeDelivery").leaf("ram:BilledQuantity", l.quantity, ".quantity", { unitCode: l.unit }).close();
  }
  _settlement(w, l, f, losses);
  w.close();
}

/** ram:SpecifiedTradeProduct (BG-31, BG-32). */
function _product(w: TracedWriter, l: InvoiceLine): void {
  w.open("ram:SpecifiedTradeProduct");
  const std = l.standard_item_id;
  if (std !== null) w.leaf("ram:GlobalID", std.value, ".standard_item_id", { schemeID: std.scheme });
  w.leaf("ram:SellerAssignedID", l.seller_item_id, ".seller_item_id");
  w.leaf("ram:BuyerAssignedID", l.buyer_item_id, ".buyer_item_id");
  w.leaf("ram:Name", l.name, ".name");
  w.leaf("ram:Description", l.description, ".description");
  for (let i = 0; i < l.attributes.length; i++) {
    const a = l.attributes[i]!;
    w.open("ram:ApplicableProductCharacteristic");
    w.leaf("ram:Description", a.name, `.attributes[${i}].name`);
    w.leaf("ram:Value", a.value, `.attributes[${i}].value`);
    w.close();
  }
  for (let i = 0; i < l.classifications.length; i++) {
    const c = l.classifications[i]!;
    w.open("ram:DesignatedProductClassification");
    w.leaf("ram:ClassCode", c.value, `.classifications[${i}]`, { listID: c.scheme, listVersionID: c.version });
    w.close();
  }
  if (l.origin_country !== null) w.open("ram:OriginTradeCountry").leaf("ram:ID", l.origin_country, ".origin_country").close();
  w.close();
}

/** ram:SpecifiedLineTradeAgreement: order line (BT-132), gross price (BT-148, BT-147), net price (BT-146, BT-149/150). */
function _agreement(w: TracedWriter, l: InvoiceLine, f: string, losses: WriteLoss[]): void {
  const gross = l.list_price !== null;
  if (l.price_discount !== null && !gross) lose(losses, `${f}.price_discount`, l.price_discount, "CII gives a price discount (BT-147) only with the gross price (BT-148)");
  if (l.order_line_reference === null && !gross && l.net_price === null && l.item_seller === null) return;
  w.open("ram:SpecifiedLineTradeAgreement");
  if (l.order_line_reference !== null) w.open("ram:BuyerOrderReferencedDocument").leaf("ram:LineID", l.order_line_reference, ".order_line_reference").close();
  if (gross) {
    w.open("ram:GrossPriceProductTradePrice").leaf("ram:ChargeAmount", l.list_price, ".list_price");
    if (l.price_discount !== null) {
      w.open("ram:AppliedTradeAllowanceCharge");
      w.open("ram:ChargeIndicator").leaf("udt:Indicator", "false", null).close();
      w.leaf("ram:ActualAmount", l.price_discount, ".price_discount").close();
    }
    w.close();
  }
  if (l.net_price !== null) {
    w.open("ram:NetPriceProductTradePrice").leaf("ram:ChargeAmount", l.net_price, ".net_price");
    w.leaf("ram:BasisQuantity", l.price_base_quantity, ".price_base_quantity", { unitCode: l.price_base_unit }).close();
  }
  if (l.item_seller !== null) writeCiiParty(w, "ram:ItemSellerTradeParty", l.item_seller, `${f}.item_seller`, losses);
  w.close();
}

/** ram:SpecifiedLineTradeSettlement: VAT (BG-30), period (BG-26), allowances (BG-27/28), amounts, object id, account. */
function _settlement(w: TracedWriter, l: InvoiceLine, f: string, losses: WriteLoss[]): void {
  w.open("ram:SpecifiedLineTradeSettlement");
  // Written also without a category: EN 16931's CII rules want exactly one per line (CII-SR-454).
  w.open("ram:ApplicableTradeTax").leaf("ram:TypeCode", VAT, null);
  w.leaf("ram:ExemptionReason", l.vat_exemption_reason, ".vat_exemption_reason");
  w.leaf("ram:CategoryCode", l.vat_category?.code, ".vat_category");
  w.leaf("ram:RateApplicablePercent", percentOrLose(losses, `${f}.vat_rate`, l.vat_rate), ".vat_rate");
  w.close();
  if (l.period !== null) writeCiiPeriod(w, l.period, ".period");
  for (let i = 0; i < l.allowances_charges.length; i++) writeCiiAllowanceCharge(w, l.allowances_charges[i]!, `.allowances_charges[${i}]`);
  if (l.net_amount !== null || l.vat_amount !== null || l.amount_with_vat !== null) {
    w.open("ram:SpecifiedTradeSettlementLineMonetarySummation");
    w.leaf("ram:LineTotalAmount", l.net_amount, ".net_amount");
    w.leaf("ram:TaxTotalAmount", l.vat_amount, ".vat_amount");
    w.leaf("ram:GrandTotalAmount", l.amount_with_vat, ".amount_with_vat");
    w.close();
  }
  if (l.object_id !== null) {
    w.open("ram:AdditionalReferencedDocument").leaf("ram:IssuerAssignedID", l.object_id.value, ".object_id");
    w.leaf("ram:TypeCode", OBJECT_CODE, null).leaf("ram:ReferenceTypeCode", l.object_id.scheme, ".object_id").close();
  }
  if (l.accounting_reference !== null) {
    w.open("ram:ReceivableSpecifiedTradeAccountingAccount").leaf("ram:ID", l.accounting_reference, ".accounting_reference").close();
  }
  w.close();
}

/**
 * Writes an invoice line (BG-25 with BG-26…BG-32) as UBL 2.1 cac:InvoiceLine or cac:CreditNoteLine, an
 * allowance or charge (BG-20/21, BG-27/28) as cac:AllowanceCharge and a period (BG-14, BG-26) as
 * cac:InvoicePeriod, in the order of the UBL 2.1 schemas; the inverse of ubl_line.ts. Amounts as given.
 * @module
 */

import type { AllowanceCharge, InvoiceLine, Period } from "./model.ts";
import { percentOrLose } from "./write_losses.ts";
import type { WriteLoss } from "./write_result.ts";
import type { TracedWriter } from "./write_trace.ts";

/** UNTDID 1001 130 "Invoicing data sheet": the type code of a line object identifier (BT-128). */
const OBJECT_CODE = "130";
/** The tax scheme of every EN 16931 tax category. */
const VAT = "VAT";

/** Writes line `index` of the invoice; `currency` is BT-5, the currencyID of its amounts. */
export function writeUblLine(w: TracedWriter, l: InvoiceLine, index: number, creditNote: boolean, currency: string | null, losses: WriteLoss[]): void {
  const f = `invoice.lines[${index}]`;
  const money = { currencyID: currency };
  w.open(creditNote ? "cac:CreditNoteLine" : "cac:InvoiceLine", f);
  // cbc:ID is required by the schema; a line without a number gets its position.
  w.leaf("cbc:ID", l.number ?? String(index + 1), ".number");
  for (let i = 0; i < l.notes.length; i++) w.leaf("cbc:Note", l.notes[i], `.notes[${i}]`);
  w.leaf(creditNote ? "cbc:CreditedQuantity" : "cbc:InvoicedQuantity", l.quantity, ".quantity", { unitCode: l.unit });
  w.leaf("cbc:LineExtensionAmount", l.net_amount, ".net_amount", money);
  w.leaf("cbc:AccountingCost", l.accounting_reference, ".accounting_reference");
  if (l.period !== null) writeUblPeriod(w, l.period, ".period");
  if (l.order_line_reference !== null) w.open("cac:OrderLineReference").leaf("cbc:LineID", l.order_line_reference, ".order_line_reference").close();
  if (l.object_id !== null) {
    w.open("cac:DocumentReference").leaf("cbc:ID", l.object_id.value, ".object_id", { schemeID: l.object_id.scheme });
    w.leaf("cbc:DocumentTypeCode", OBJECT_CODE, null).close();
  }
  // A credit note line has its TaxTotal before its allowances and charges, an invoice line after them.
  if (creditNote) _lineTax(w, l, money);
  for (let i = 0; i < l.allowances_charges.length; i++) writeUblAllowanceCharge(w, l.allowances_charges[i]!, currency, `.allowances_charges[${i}]`);
  if (!creditNote) _lineTax(w, l, money);
  _item(w, l, f, losses);
  _price(w, l, money);
  w.close();
}

function _lineTax(w: TracedWriter, l: InvoiceLine, money: { currencyID: string | null }): void {
  if (l.vat_amount !== null) w.open("cac:TaxTotal").leaf("cbc:TaxAmount", l.vat_amount, ".vat_amount", money).close();
}

/** cac:Item (BG-31, BG-30, BG-32) of the line at `f` (`invoice.lines[2]`). */
function _item(w: TracedWriter, l: InvoiceLine, f: string, losses: WriteLoss[]): void {
  w.open("cac:Item");
  w.leaf("cbc:Description", l.description, ".description");
  w.leaf("cbc:Name", l.name, ".name");
  if (l.buyer_item_id !== null) w.open("cac:BuyersItemIdentification").leaf("cbc:ID", l.buyer_item_id, ".buyer_item_id").close();
  if (l.seller_item_id !== null) w.open("cac:SellersItemIdentification").leaf("cbc:ID", l.seller_item_id, ".seller_item_id").close();
  const std = l.standard_item_id;
  if (std !== null) w.open("cac:StandardItemIdentification").leaf("cbc:ID", std.value, ".standard_item_id", { schemeID: std.scheme }).close();
  if (l.origin_country !== null) w.open("cac:OriginCountry").leaf("cbc:IdentificationCode", l.origin_country, ".origin_country").close();
  for (let i = 0; i < l.classifications.length; i++) {
    const c = l.classifications[i]!;
    w.open("cac:CommodityClassification");
    w.leaf("cbc:ItemClassificationCode", c.value, `.classifications[${i}]`, { listID: c.scheme, listVersionID: c.version });
    w.close();
  }
  if (l.vat_category !== null || l.vat_rate !== null) {
    w.open("cac:ClassifiedTaxCategory");
    w.leaf("cbc:ID", l.vat_category?.code, ".vat_category");
    w.leaf("cbc:Percent", percentOrLose(losses, `${f}.vat_rate`, l.vat_rate), ".vat_rate");
    w.open("cac:TaxScheme").leaf("cbc:ID", VAT, null).close();
    w.close();
  }
  for (let i = 0; i < l.attributes.length; i++) {
    const a = l.attributes[i]!;
    // cbc:Name is required in cac:AdditionalItemProperty; an empty one reads back as no name.
    w.open("cac:AdditionalItemProperty").leaf("cbc:Name", a.name ?? "", `.attributes[${i}].name`);
    w.leaf("cbc:Value", a.value, `.attributes[${i}].value`).close();
  }
  w.close();
}

/** cac:Price: BT-146 net price per BT-149/150 base quantity, BT-147 discount on BT-148 gross price. */
function _price(w: TracedWriter, l: InvoiceLine, money: { currencyID: string | null }): void {
  const discount = l.price_discount !== null || l.list_price !== null;
  if (l.net_price === null && l.price_base_quantity === null && !discount) return;
  w.open("cac:Price");
  w.leaf("cbc:PriceAmount", l.net_price, ".net_price", money);
  w.leaf("cbc:BaseQuantity", l.price_base_quantity, ".price_base_quantity", { unitCode: l.price_base_unit });
  if (discount) {
    w.open("cac:AllowanceCharge").leaf("cbc:ChargeIndicator", "false", null);
    // cbc:Amount is required beside the gross price; a gross price without a discount (CII allows one) has 0.
    w.leaf("cbc:Amount", l.price_discount ?? "0", ".price_discount", money);
    w.leaf("cbc:BaseAmount", l.list_price, ".list_price", money);
    w.close();
  }
  w.close();
}

/** cac:InvoicePeriod (BG-14, BG-26) from `field`, the period's path (`invoice.delivery.period`, or `.period` in a line). */
export function writeUblPeriod(w: TracedWriter, p: Period, field: string): void {
  w.open("cac:InvoicePeriod", field);
  w.leaf("cbc:StartDate", p.start, ".start");
  w.leaf("cbc:EndDate", p.end, ".end");
  w.leaf("cbc:DescriptionCode", p.description, ".description");
  w.close();
}

/** cac:AllowanceCharge (BG-20, BG-21, BG-27, BG-28) from `field`, its path (absolute, or relative in a line). */
export function writeUblAllowanceCharge(w: TracedWriter, a: AllowanceCharge, currency: string | null, field: string): void {
  const money = { currencyID: currency };
  w.open("cac:AllowanceCharge", field);
  w.leaf("cbc:ChargeIndicator", a.charge ? "true" : "false", ".charge");
  w.leaf("cbc:AllowanceChargeReasonCode", a.reason_code?.code, ".reason_code");
  w.leaf("cbc:AllowanceChargeReason", a.reason, ".reason");
  w.leaf("cbc:MultiplierFactorNumeric", a.percentage, ".percentage");
  w.leaf("cbc:Amount", a.amount, ".amount", money);
  w.leaf("cbc:BaseAmount", a.base_amount, ".base_amount", money);
  if (a.vat_category !== null || a.vat_rate !== null) {
    w.open("cac:TaxCategory");
    w.leaf("cbc:ID", a.vat_category?.code, ".vat_category");
    w.leaf("cbc:Percent", a.vat_rate, ".vat_rate");
    w.open("cac:TaxScheme").leaf("cbc:ID", VAT, null).close();
    w.close();
  }
  w.close();
}

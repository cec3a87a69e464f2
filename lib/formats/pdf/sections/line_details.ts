/**
 * What a line carries beyond the table's columns, printed in small type under its row: the
 * item description, item ids (seller, buyer, GTIN), classifications (PKWiU, CN, PKOB, UNTDID
 * 7143 lists), GTU and procedure, origin, attributes, the line's period or date of supply,
 * references, KSeF flags (annex 15, OSS rate, excise, exchange rate), price details, line
 * allowances and charges, the item seller, line notes and KSeF DodatkowyOpis tied to the line.
 * @module
 */

import type { AllowanceCharge, InvoiceLine } from "../../invoice/model.ts";
import { clean, paragraphs, type RenderContext, type StyledLine } from "../blocks.ts";
import { isKsef } from "../code_words.ts";
import { formatAmount, formatDecimal } from "../format.ts";
import { wrapText } from "../layout.ts";

/** Text size and grey of the detail lines. */
const _SIZE = 7;
const _GRAY = 0.25;
/** Separator between fields on one detail line. */
const _SEP = " · ";

/** The detail lines of one line, `width` wide; none when it has nothing beyond its columns. */
export function lineDetails(ctx: RenderContext, line: InvoiceLine, withNotes: boolean, width: number): StyledLine[] {
  const { labels: L, lang } = ctx;
  const parts: string[] = [];
  const add = (label: string, value: string | null) => {
    if (value !== null && value.trim() !== "") parts.push(`${label}: ${value.replace(/\s+/g, " ").trim()}`);
  };
  add(L.sellerItemId, line.seller_item_id);
  add(L.buyerItemId, line.buyer_item_id);
  const sid = line.standard_item_id;
  if (sid !== null) add(sid.scheme === "0160" || sid.scheme === "GTIN" ? "GTIN" : L.standardItemId, sid.scheme === null || sid.scheme === "GTIN" ? sid.value : `${sid.value} (${sid.scheme})`);
  // KSeF schemes (PKWiU, CN, PKOB) are names a reader knows; UNTDID 7143 list ids ("STI", "HS") get the word.
  for (const c of line.classifications) {
    const label = c.scheme === null ? L.classification : isKsef(ctx.invoice) ? c.scheme : `${L.classification} ${c.scheme}`;
    add(label, c.version === null ? c.value : `${c.value} (${c.version})`);
  }
  add(L.gtu, line.gtu);
  add(L.procedure, line.procedure);
  add(L.qualityClass, line.quality_class);
  add(L.origin, line.origin_country);
  for (const a of line.attributes) if (a.name !== null || a.value !== null) parts.push(a.name === null ? a.value ?? "" : `${a.name}: ${a.value ?? ""}`);
  if (line.period !== null) add(L.period, [line.period.start, line.period.end].filter((s) => s !== null).join(" – "));
  add(L.lineDate, line.delivery_date);
  add(L.objectId, line.object_id === null ? null : line.object_id.scheme === null ? line.object_id.value : `${line.object_id.value} (${line.object_id.scheme})`);
  add(L.orderLine, line.order_line_reference);
  add(L.accountingRef, line.accounting_reference);
  add(L.uuId, line.uu_id);
  add(L.exchangeRate, line.exchange_rate === null ? null : formatDecimal(line.exchange_rate, lang, 0));
  add(L.excise, line.excise_amount === null ? null : formatAmount(line.excise_amount, lang));
  if (line.annex_15) add(L.annex15, L.yes);
  add(L.ossRate, line.vat_rate_oss === null ? null : `${formatDecimal(line.vat_rate_oss, lang, 0)}%`);
  // The model's text of a KSeF rate code is English; the Polish page has the code ("zw", "0 KR") in its column.
  if (lang === "en") add(L.vatRate, line.vat_rate_text);
  add(L.exemptionReason, line.vat_exemption_reason);
  if (line.price_base_quantity !== null) add(L.priceBase, `${formatDecimal(line.price_base_quantity, lang, 0)}${line.price_base_unit === null ? "" : ` ${line.price_base_unit}`}`);
  add(L.listPrice, line.list_price === null ? null : formatAmount(line.list_price, lang));
  add(L.priceDiscount, line.price_discount === null ? null : formatAmount(line.price_discount, lang));
  for (const ac of line.allowances_charges) parts.push(allowanceText(ctx, ac));
  add(L.parentLine, line.parent_number);
  add(L.lineStatus, line.status_reason);
  if (line.item_seller !== null) {
    const s = line.item_seller;
    add(L.itemSeller, [s.name, s.tax_id?.value ?? null, ...s.identifiers.map((i) => i.value)].filter((x) => x !== null).join(", "));
  }
  const paras: string[] = [...paragraphs(ctx, line.description)];
  if (parts.length > 0) paras.push(clean(ctx, parts.join(_SEP)));
  for (const n of line.notes) for (const p of paragraphs(ctx, n)) paras.push(`${clean(ctx, L.note)}: ${p}`);
  if (withNotes && line.number !== null) {
    for (const a of ctx.invoice.additional_info) {
      if (a.line_number !== line.number) continue;
      paras.push(clean(ctx, a.key === null ? a.value ?? "" : `${a.key}: ${a.value ?? ""}`));
    }
  }
  const out: StyledLine[] = [];
  for (const p of paras) for (const s of wrapText(ctx.fonts, p, width, _SIZE)) out.push({ s, size: _SIZE, bold: false, gray: _GRAY, lead: _SIZE * 1.25 });
  return out;
}

/** An allowance or charge in one line of text: kind, amount, percentage of base, reason, VAT. */
export function allowanceText(ctx: RenderContext, ac: AllowanceCharge): string {
  const { labels: L, lang } = ctx;
  const bits: string[] = [`${ac.charge ? L.charge : L.allowance}: ${formatAmount(ac.amount, lang)}`];
  if (ac.percentage !== null) bits.push(`${formatDecimal(ac.percentage, lang, 0)}%`);
  if (ac.base_amount !== null) bits.push(`${L.baseAmount} ${formatAmount(ac.base_amount, lang)}`);
  const reason = [ac.reason, ac.reason_code === null ? null : `(${ac.reason_code.code})`].filter((s) => s !== null).join(" ");
  if (reason !== "") bits.push(reason);
  if (ac.vat_category !== null || ac.vat_rate !== null) bits.push(`${L.vat} ${[ac.vat_category?.code ?? null, ac.vat_rate === null ? null : `${formatDecimal(ac.vat_rate, lang, 0)}%`].filter((s) => s !== null).join(" ")}`);
  return clean(ctx, bits.join(", "));
}

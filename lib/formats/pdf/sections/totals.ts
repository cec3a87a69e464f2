/**
 * Amounts of the invoice: document allowances and charges (BG-20, BG-21), the VAT summary per
 * category and rate (with VAT in PLN or the tax currency where given), the totals of BG-22
 * (line net, allowances, charges, net, VAT, gross, prepaid, rounding) beside the payment
 * details, and the amount due: "paid" for a paid invoice, "to refund" for a negative balance.
 * KSeF Rozliczenie (charges, deductions, amount to pay or settle) follows.
 * @module
 */

import { blockHeight, clean, drawBlock, flowBlock, flowHeading, type RenderContext, space } from "../blocks.ts";
import { isKsef } from "../code_words.ts";
import { flowFields, type Field } from "../fields.ts";
import { addDecimals, formatAmount, formatDecimal, formatMoney, formatRate } from "../format.ts";
import { BOTTOM, type Column, CONTENT_WIDTH, LEFT, MARGIN, RIGHT } from "../layout.ts";
import { paymentLines } from "./payment.ts";
import { fitColumns, flowTable, type TableRow } from "../table.ts";

/** Width of the totals column on the right; the payment details take the rest. */
const _TOTALS_W = 260;
const _TOTAL_LEAD = 12.5;
const _DUE_H = 22;

/** Draws allowances and charges, the VAT summary, and the totals beside the payment details. */
export function drawAmounts(ctx: RenderContext): void {
  _allowancesCharges(ctx);
  _vatSummary(ctx);
  _totalsAndPayment(ctx);
  _settlement(ctx);
}

function _allowancesCharges(ctx: RenderContext): void {
  const { invoice: inv, labels: L, lang } = ctx;
  if (inv.allowances_charges.length === 0) return;
  const cols: Column[] = fitColumns([
    { width: 70, align: "left" }, { width: 0, align: "left" }, { width: 70, align: "right" }, { width: 50, align: "right" },
    { width: 60, align: "right" }, { width: 74, align: "right" },
  ]);
  const rows: TableRow[] = inv.allowances_charges.map((ac) => ({
    cells: [
      ac.charge ? L.charge : L.allowance,
      clean(ctx, [ac.reason, ac.reason_code === null ? null : `(${ac.reason_code.code})`].filter((s) => s !== null).join(" ")),
      formatAmount(ac.base_amount, lang), ac.percentage === null ? "" : `${formatDecimal(ac.percentage, lang, 0)}%`,
      clean(ctx, [ac.vat_category?.code ?? null, ac.vat_rate === null ? null : `${formatDecimal(ac.vat_rate, lang, 0)}%`].filter((s) => s !== null).join(" ")),
      formatAmount(ac.amount, lang),
    ],
  }));
  flowHeading(ctx, L.allowancesCharges, 30);
  flowTable(ctx, { columns: cols, head: ["", L.reason, L.baseAmount, L.percentage, L.vat, L.amount], rows });
}

function _vatSummary(ctx: RenderContext): void {
  const { invoice: inv, labels: L, lang } = ctx;
  const vb = inv.vat_breakdown;
  if (vb.length === 0) return;
  const inTax = vb.some((v) => v.tax_amount_tax_currency !== null);
  const taxCur = inv.tax_currency ?? (isKsef(inv) ? "PLN" : null);
  // The category's English name only where it was given as a code (UBL, CII) and the page is in English.
  const named = !isKsef(inv) && lang === "en";
  const reasons = vb.some((v) => v.exemption_reason !== null || v.exemption_reason_code !== null || (named && v.category?.text !== null));
  const cols: Column[] = [{ width: 74, align: "left" }];
  const head = [L.vatRate];
  if (reasons) cols.push({ width: 0, align: "left" }), head.push(named ? L.categoryOrReason : L.exemptionReason);
  cols.push({ width: 80, align: "right" }, { width: 72, align: "right" });
  head.push(L.net, L.vat);
  if (inTax) cols.push({ width: 80, align: "right" }), head.push(`${L.vat} ${taxCur ?? ""}`.trim());
  cols.push({ width: 80, align: "right" });
  head.push(L.gross);
  const rows: TableRow[] = vb.map((v) => {
    const cells = [clean(ctx, formatRate(v.rate, isKsef(inv) ? null : v.category?.code ?? null, lang))];
    if (reasons) {
      const why = [v.exemption_reason, v.exemption_reason_code, named && v.exemption_reason === null ? v.category?.text ?? null : null].filter((s) => s !== null);
      cells.push(clean(ctx, why.join(" · ")));
    }
    cells.push(formatAmount(v.taxable_amount, lang), formatAmount(v.tax_amount, lang));
    if (inTax) cells.push(formatAmount(v.tax_amount_tax_currency, lang));
    // No tax amount (zw, np, 0%): the gross is the net.
    cells.push(formatAmount(addDecimals(v.taxable_amount, v.tax_amount ?? "0"), lang));
    return { cells };
  });
  flowHeading(ctx, inv.currency === null ? L.vatSummary : `${L.vatSummary} (${clean(ctx, inv.currency)})`, 30);
  // Without a reason column the rate column takes the spare width, so the amounts sit at the right edge.
  flowTable(ctx, { columns: fitColumns(reasons ? cols : [{ width: 0, align: "left" }, ...cols.slice(1)]), head, rows });
}

/** The totals rows: label, amount, bold. */
function _totals(ctx: RenderContext): [string, string, boolean][] {
  const { invoice: inv, labels: L, lang } = ctx;
  const t = inv.totals;
  const cur = inv.currency;
  const rows: [string, string, boolean][] = [];
  const add = (label: string, v: string | null, bold = false, currency = cur) => {
    if (v !== null) rows.push([label, formatMoney(v, currency, lang), bold]);
  };
  if (t.line_net !== null && t.line_net !== t.net) add(L.lineNet, t.line_net);
  add(L.allowancesTotal, t.allowances);
  add(L.chargesTotal, t.charges);
  const taxCur = inv.tax_currency ?? "PLN";
  add(L.totalNet, t.net);
  if (t.net_in_tax_currency !== null) add(`${L.totalNet} (${taxCur})`, t.net_in_tax_currency, false, taxCur);
  add(L.totalTax, t.tax);
  if (t.tax_in_tax_currency !== null) add(`${L.totalTax} (${taxCur})`, t.tax_in_tax_currency, false, taxCur);
  add(L.totalGross, t.gross, true);
  if (t.gross_in_tax_currency !== null) add(`${L.totalGross} (${taxCur})`, t.gross_in_tax_currency, false, taxCur);
  add(L.prepaid, t.prepaid);
  add(L.rounding, t.rounding);
  return rows;
}

/** The amount-due bar: label and amount, or null when there is nothing to say. */
function _due(ctx: RenderContext): [string, string] | null {
  const { invoice: inv, labels: L, lang } = ctx;
  const p = inv.payment;
  if (p?.paid === true) {
    const amount = inv.totals.gross ?? inv.totals.payable;
    const date = p.paid_date === null ? "" : `, ${p.paid_date}`;
    return [L.paidInFull, `${formatMoney(amount, inv.currency, lang)}${date}`];
  }
  const due = inv.totals.payable;
  if (due === null) return null;
  if (due.trim().startsWith("-") && /[1-9]/.test(due)) return [L.refund, formatMoney(due.trim().slice(1), inv.currency, lang)];
  return [L.payable, formatMoney(due, inv.currency, lang)];
}

function _totalsHeight(ctx: RenderContext): number {
  return _totals(ctx).length * _TOTAL_LEAD + (_due(ctx) === null ? 0 : _DUE_H + 6);
}

function _totalsAndPayment(ctx: RenderContext): void {
  const { flow } = ctx;
  const leftW = CONTENT_WIDTH - _TOTALS_W - 24;
  const pay = paymentLines(ctx, leftW);
  const rightH = _totalsHeight(ctx);
  const h = Math.max(rightH, blockHeight(pay));
  if (h <= BOTTOM - MARGIN) {
    flow.ensure(h);
    const top = flow.y;
    drawBlock(flow.page, LEFT, top, pay);
    _drawTotals(ctx, top);
    flow.y = top + h;
    space(ctx, 12);
    return;
  }
  // Payment details longer than a page: totals first, then the payment details flowing over pages.
  flow.ensure(rightH);
  _drawTotals(ctx, flow.y);
  flow.y += rightH;
  space(ctx, 12);
  flowBlock(ctx, LEFT, pay);
  space(ctx, 10);
}

function _drawTotals(ctx: RenderContext, top: number): void {
  const page = ctx.flow.page;
  const x = RIGHT - _TOTALS_W;
  let y = top;
  for (const [label, value, bold] of _totals(ctx)) {
    y += _TOTAL_LEAD;
    const v = clean(ctx, value);
    page.textRight(RIGHT - Math.max(100, ctx.fonts.textWidth(v, bold, 9) + 8), y - 3, clean(ctx, `${label}:`), 8.5, bold, 0.25);
    page.textRight(RIGHT, y - 3, v, 9, bold);
  }
  const due = _due(ctx);
  if (due !== null) {
    y += 6;
    page.rect(x, y, _TOTALS_W, _DUE_H, 0.9);
    page.text(x + 5, y + 15, clean(ctx, `${due[0]}:`), 10, true);
    page.textRight(RIGHT - 5, y + 15, clean(ctx, due[1]), 11.5, true);
  }
}

function _settlement(ctx: RenderContext): void {
  const { invoice: inv, labels: L, lang } = ctx;
  const s = inv.settlement;
  if (s === null) return;
  const money = (v: string | null) => (v === null ? null : formatMoney(v, inv.currency, lang));
  const fields: Field[] = [];
  for (const c of s.charges) fields.push([L.charge, [money(c.amount), c.reason].filter((x) => x !== null).join(" – ")]);
  fields.push([L.chargesTotal, money(s.charges_total)]);
  for (const d of s.deductions) fields.push([L.deductions, [money(d.amount), d.reason].filter((x) => x !== null).join(" – ")]);
  fields.push([L.deductionsTotal, money(s.deductions_total)], [L.payable, money(s.to_pay)], [L.toSettle, money(s.to_settle)]);
  flowHeading(ctx, L.settlement, 14);
  flowFields(ctx, fields);
  space(ctx, 8);
}


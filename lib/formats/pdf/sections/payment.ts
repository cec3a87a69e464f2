/**
 * Payment details as a block of fields (placed beside the totals): due dates with their terms,
 * payment means, every bank account with bank, SWIFT and KSeF account flags, remittance
 * information, card and direct debit (BG-18, BG-19), paid status and date, partial payments,
 * advances received, cash discount (Skonto), the payment link and KSeF payment id.
 * @module
 */

import type { DueDate, PartialPayment } from "../../invoice/model.ts";
import { clean, styled, type RenderContext, type StyledLine } from "../blocks.ts";
import { codeWords, paymentMeansName } from "../code_words.ts";
import { fieldBlock, type Field } from "../fields.ts";
import { formatDecimal, formatMoney } from "../format.ts";

/** The payment block `width` wide under its heading; none when the invoice says nothing about payment. */
export function paymentLines(ctx: RenderContext, width: number): StyledLine[] {
  const { invoice: inv, labels: L, lang } = ctx;
  const p = inv.payment;
  // FA_RR's P_12_2, the amount in words, belongs with the money due: it opens the block.
  const fields: Field[] = [[L.grossInWords, inv.totals.gross_in_words]];
  if (p !== null) {
    for (const d of p.due_dates) fields.push([L.dueDate, _dueDate(ctx, d)]);
    if (p.means !== null) fields.push([L.means, p.means.text !== null && paymentMeansName(inv, p.means.code, lang) === p.means.code ? `${p.means.text} (${p.means.code})` : paymentMeansName(inv, p.means.code, lang)]);
    fields.push([L.meansText, p.means_text]);
    for (const a of p.accounts) {
      const label = a.factor ? L.factorAccount : a.held_by === "seller" ? L.farmerAccount : a.held_by === "buyer" ? L.buyerAccount : L.account;
      fields.push([label, a.number], [L.accountName, a.name], [L.bank, a.bank_name], [L.bic, a.bic],
        [L.accountDesc, a.description], [L.ownAccount, codeWords(a.bank_own_account, lang, "ownAccount")]);
    }
    fields.push([L.terms, p.terms], [L.remittance, p.remittance_info]);
    if (p.card !== null) fields.push([L.card, [p.card.pan, p.card.holder === null ? null : `${L.cardHolder}: ${p.card.holder}`].filter((s) => s !== null).join(", ")]);
    const dd = p.direct_debit;
    if (dd !== null) fields.push([L.mandate, dd.mandate], [L.creditorId, dd.creditor_id], [L.debitedAccount, dd.debited_account]);
    fields.push([L.paidOn, p.paid_date], [L.partialStatus, codeWords(p.partial_status, lang, "partial")]);
    for (const pp of p.partial_payments) fields.push([L.partialPayments, _partial(ctx, pp)]);
    if (p.discount !== null) fields.push([L.cashDiscount, [p.discount.conditions, p.discount.amount].filter((s) => s !== null).join(" – ")]);
    fields.push([L.paymentLink, p.link], [L.ksefPaymentId, p.ksef_payment_id]);
    for (const d of p.proof_documents) fields.push([L.proofOfPayment, [d.number, d.date].filter((s) => s !== null).join(", ")]);
  }
  for (const a of inv.advance_payments) fields.push([L.advancePayments, _partial(ctx, a)]);
  const body = fieldBlock(ctx, fields, width, 8.5);
  if (body.length === 0) return [];
  return [...styled(ctx, clean(ctx, L.payment), width, 9, true, 0.25), ...body.map((l, i) => (i === 0 ? { ...l, lead: l.lead + 4 } : l))];
}

function _dueDate(ctx: RenderContext, d: DueDate): string {
  const term = [d.quantity, d.unit, d.start_event === null ? null : `${ctx.labels.from} ${d.start_event}`].filter((s) => s !== null).join(" ");
  const text = [d.description, term === "" ? null : term].filter((s) => s !== null).join(", ");
  return d.date === null ? text : text === "" ? d.date : `${d.date} (${text})`;
}

function _partial(ctx: RenderContext, pp: PartialPayment): string {
  const { invoice: inv, labels: L, lang } = ctx;
  return [
    pp.amount === null ? null : formatMoney(pp.amount, inv.currency, lang), pp.date,
    pp.means === null ? null : paymentMeansName(inv, pp.means.code, lang),
    pp.exchange_rate === null ? null : `${L.exchangeRate} ${formatDecimal(pp.exchange_rate, lang, 0)}`,
  ].filter((s) => s !== null).join(", ");
}

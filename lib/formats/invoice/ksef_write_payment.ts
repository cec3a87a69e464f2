/**
 * Writes the money-side sections of KSeF FA(3) Fa, the inverse of ksef_payment.ts: Rozliczenie, Platnosc and
 * WarunkiTransakcji, in the sequences of schemat_FA(3)_v1-0E.xsd. Payment means are written as FormaPlatnosci when
 * they are KSeF's codes (1–7), else as PlatnoscInna with the means' text; the EN 16931 payment groups FA(3) has no
 * element for (card, direct debit, remittance information, terms text) are reported as losses.
 * @module
 */

import type { Code, PartialPayment, Payment, PaymentAccount, Settlement, TransactionTerms, Transport } from "./model.ts";
import { KSEF_PAYMENT_FORMS } from "./code_lists.ts";
import { NO_FA3_PLACE, writeKsefAddress, writeKsefParty } from "./ksef_write_party.ts";
import { lose, loseFields } from "./write_losses.ts";
import type { WriteLoss } from "./write_result.ts";
import type { TracedWriter } from "./write_trace.ts";

/** Rozliczenie: charges, their sum, deductions, their sum, then DoZaplaty or DoRozliczenia. */
export function writeKsefSettlement(w: TracedWriter, s: Settlement, losses: WriteLoss[]): void {
  const f = "invoice.settlement";
  w.open("Rozliczenie", f);
  for (let i = 0; i < s.charges.length; i++) _reasoned(w, "Obciazenia", s.charges[i]!, `${f}.charges[${i}]`);
  w.leaf("SumaObciazen", s.charges_total, `${f}.charges_total`);
  for (let i = 0; i < s.deductions.length; i++) _reasoned(w, "Odliczenia", s.deductions[i]!, `${f}.deductions[${i}]`);
  w.leaf("SumaOdliczen", s.deductions_total, `${f}.deductions_total`);
  if (s.to_pay !== null) {
    w.leaf("DoZaplaty", s.to_pay, `${f}.to_pay`);
    lose(losses, `${f}.to_settle`, s.to_settle, "FA(3) takes either DoZaplaty or DoRozliczenia");
  } else w.leaf("DoRozliczenia", s.to_settle, `${f}.to_settle`);
  w.close();
}

function _reasoned(w: TracedWriter, name: string, x: { amount: string | null; reason: string | null }, f: string): void {
  w.open(name, f).leaf("Kwota", x.amount, `${f}.amount`).leaf("Powod", x.reason, `${f}.reason`).close();
}

/** FormaPlatnosci for a KSeF code, else PlatnoscInna + OpisPlatnosci with the means' text. */
function _means(w: TracedWriter, means: Code | null, text: string | null, f: string, textField: string, losses: WriteLoss[]): void {
  if (means !== null && Object.hasOwn(KSEF_PAYMENT_FORMS, means.code)) {
    w.leaf("FormaPlatnosci", means.code, f);
    lose(losses, textField, text, "FA(3) takes a description only for a payment means outside its list");
  } else {
    const description = text ?? means?.text ?? means?.code ?? null;
    if (description === null) return;
    w.leaf("PlatnoscInna", "1", f);
    w.leaf("OpisPlatnosci", description, text !== null ? textField : f);
    lose(losses, f, means, "FA(3) has no code for this payment means: written as PlatnoscInna with its description");
  }
}

/** Platnosc: paid status or partial payments, due dates, means, accounts, discount, link, IPKSeF. */
export function writeKsefPayment(w: TracedWriter, p: Payment, losses: WriteLoss[]): void {
  const f = "invoice.payment";
  w.open("Platnosc", f);
  loseFields(losses, p, ["remittance_info", "terms", "card", "direct_debit", "proof_documents"], f, NO_FA3_PLACE);
  if (p.paid) {
    w.leaf("Zaplacono", "1", `${f}.paid`);
    w.leaf("DataZaplaty", p.paid_date, `${f}.paid_date`);
    if (p.partial_status !== null || p.partial_payments.length > 0) {
      loseFields(losses, p, ["partial_status", "partial_payments"], f, "FA(3) takes either the paid date or partial payments");
    }
  } else {
    lose(losses, `${f}.paid_date`, p.paid_date, "FA(3) takes a paid date only with Zaplacono");
    if (p.partial_status !== null || p.partial_payments.length > 0) {
      w.leaf("ZnacznikZaplatyCzesciowej", p.partial_status?.code, `${f}.partial_status`);
      for (let i = 0; i < p.partial_payments.length; i++) _partial(w, p.partial_payments[i]!, `${f}.partial_payments[${i}]`, losses);
    }
  }
  for (let i = 0; i < p.due_dates.length; i++) {
    const d = p.due_dates[i]!;
    const df = `${f}.due_dates[${i}]`;
    w.open("TerminPlatnosci", df);
    w.leaf("Termin", d.date, `${df}.date`);
    if (d.quantity !== null || d.unit !== null || d.start_event !== null) {
      w.open("TerminOpis", df).leaf("Ilosc", d.quantity, `${df}.quantity`).leaf("Jednostka", d.unit, `${df}.unit`)
        .leaf("ZdarzeniePoczatkowe", d.start_event, `${df}.start_event`).close();
    }
    // FA(2)'s free-text TerminOpis became structured in FA(3).
    lose(losses, `${df}.description`, d.description, "FA(3) describes a due date by quantity, unit and start event only");
    w.close();
  }
  _means(w, p.means, p.means_text, `${f}.means`, `${f}.means_text`, losses);
  // The seller's accounts, then the factor's (the schema's order; the reader keeps it).
  for (const factor of [false, true]) {
    for (let i = 0; i < p.accounts.length; i++) {
      const a = p.accounts[i]!;
      if (a.factor === factor) _account(w, factor ? "RachunekBankowyFaktora" : "RachunekBankowy", a, `${f}.accounts[${i}]`, losses);
    }
  }
  if (p.discount !== null) {
    w.open("Skonto", `${f}.discount`).leaf("WarunkiSkonta", p.discount.conditions, `${f}.discount.conditions`)
      .leaf("WysokoscSkonta", p.discount.amount, `${f}.discount.amount`).close();
  }
  w.leaf("LinkDoPlatnosci", p.link, `${f}.link`);
  w.leaf("IPKSeF", p.ksef_payment_id, `${f}.ksef_payment_id`);
  w.close();
}

/** ZaplataCzesciowa: amount, date, and its means (KSeF code, or "other" with a description). */
function _partial(w: TracedWriter, x: PartialPayment, f: string, losses: WriteLoss[]): void {
  w.open("ZaplataCzesciowa", f);
  w.leaf("KwotaZaplatyCzesciowej", x.amount, `${f}.amount`);
  w.leaf("DataZaplatyCzesciowej", x.date, `${f}.date`);
  // The reader gives a PlatnoscInna its description as the code's text with code "other".
  if (x.means?.code === "other") {
    w.leaf("PlatnoscInna", "1", `${f}.means`);
    w.leaf("OpisPlatnosci", x.means.text, `${f}.means`);
  } else _means(w, x.means, null, `${f}.means`, `${f}.means`, losses);
  lose(losses, `${f}.exchange_rate`, x.exchange_rate, NO_FA3_PLACE);
  w.close();
}

/** A TRachunekBankowy: NrRB, SWIFT, RachunekWlasnyBanku, NazwaBanku, OpisRachunku. */
function _account(w: TracedWriter, name: string, a: PaymentAccount, f: string, losses: WriteLoss[]): void {
  w.open(name, f);
  w.leaf("NrRB", a.number, `${f}.number`);
  w.leaf("SWIFT", a.bic, `${f}.bic`);
  w.leaf("RachunekWlasnyBanku", a.bank_own_account?.code, `${f}.bank_own_account`);
  w.leaf("NazwaBanku", a.bank_name, `${f}.bank_name`);
  w.leaf("OpisRachunku", a.description, `${f}.description`);
  loseFields(losses, a, ["name", "held_by"], f, NO_FA3_PLACE);
  w.close();
}

/** WarunkiTransakcji: contracts, orders, batch numbers, delivery terms, the contract rate, transports, intermediary. */
export function writeKsefTransactionTerms(w: TracedWriter, t: TransactionTerms, losses: WriteLoss[]): void {
  const f = "invoice.transaction_terms";
  w.open("WarunkiTransakcji", f);
  for (let i = 0; i < t.contracts.length; i++) {
    const c = t.contracts[i]!;
    w.open("Umowy", `${f}.contracts[${i}]`).leaf("DataUmowy", c.date, `${f}.contracts[${i}].date`)
      .leaf("NrUmowy", c.number, `${f}.contracts[${i}].number`).close();
  }
  for (let i = 0; i < t.orders.length; i++) {
    const c = t.orders[i]!;
    w.open("Zamowienia", `${f}.orders[${i}]`).leaf("DataZamowienia", c.date, `${f}.orders[${i}].date`)
      .leaf("NrZamowienia", c.number, `${f}.orders[${i}].number`).close();
  }
  for (let i = 0; i < t.batch_numbers.length; i++) w.leaf("NrPartiiTowaru", t.batch_numbers[i], `${f}.batch_numbers[${i}]`);
  w.leaf("WarunkiDostawy", t.delivery_terms, `${f}.delivery_terms`);
  if (t.contract_rate !== null) {
    w.leaf("KursUmowny", t.contract_rate, `${f}.contract_rate`);
    w.leaf("WalutaUmowna", t.contract_currency, `${f}.contract_currency`);
  } else lose(losses, `${f}.contract_currency`, t.contract_currency, "FA(3) takes the contract currency only with its rate");
  for (let i = 0; i < t.transports.length; i++) _transport(w, t.transports[i]!, `${f}.transports[${i}]`, losses);
  if (t.intermediary) w.leaf("PodmiotPosredniczacy", "1", `${f}.intermediary`);
  w.close();
}

function _transport(w: TracedWriter, t: Transport, f: string, losses: WriteLoss[]): void {
  w.open("Transport", f);
  if (t.kind !== null) w.leaf("RodzajTransportu", t.kind.code, `${f}.kind`);
  else if (t.kind_description !== null) w.leaf("TransportInny", "1", `${f}.kind_description`);
  w.leaf("OpisInnegoTransportu", t.kind === null ? t.kind_description : null, `${f}.kind_description`);
  if (t.kind !== null) lose(losses, `${f}.kind_description`, t.kind_description, "FA(3) describes only a transport outside its list");
  if (t.carrier !== null) writeKsefParty(w, "Przewoznik", t.carrier, `${f}.carrier`, losses);
  w.leaf("NrZleceniaTransportu", t.order_number, `${f}.order_number`);
  if (t.cargo !== null) w.leaf("OpisLadunku", t.cargo.code, `${f}.cargo`);
  else if (t.cargo_description !== null) w.leaf("LadunekInny", "1", `${f}.cargo_description`);
  w.leaf("OpisInnegoLadunku", t.cargo === null ? t.cargo_description : null, `${f}.cargo_description`);
  if (t.cargo !== null) lose(losses, `${f}.cargo_description`, t.cargo_description, "FA(3) describes only a cargo outside its list");
  w.leaf("JednostkaOpakowania", t.packaging, `${f}.packaging`);
  w.leaf("DataGodzRozpTransportu", t.start, `${f}.start`);
  w.leaf("DataGodzZakTransportu", t.end, `${f}.end`);
  if (t.from !== null) writeKsefAddress(w, "WysylkaZ", t.from, `${f}.from`, losses);
  for (let i = 0; i < t.via.length; i++) writeKsefAddress(w, "WysylkaPrzez", t.via[i]!, `${f}.via[${i}]`, losses);
  if (t.to !== null) writeKsefAddress(w, "WysylkaDo", t.to, `${f}.to`, losses);
  w.close();
}

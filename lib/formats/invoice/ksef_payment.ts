/**
 * Reads the money-side sections of KSeF Fa: Platnosc (paid status, partial
 * payments, due dates, means, bank accounts, discount, link), Rozliczenie
 * (charges and deductions) and WarunkiTransakcji (contracts, orders, Incoterms,
 * contract rate, transport). FA(2) and FA(3); nothing here throws.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { blankPayment } from "./blank.ts";
import {
  codeOf, KSEF_BANK_OWN_ACCOUNTS, KSEF_CARGO_KINDS, KSEF_PARTIAL_PAYMENT_MARKS, KSEF_PAYMENT_FORMS,
  KSEF_TRANSPORT_KINDS,
} from "./code_lists.ts";
import { parseDecimal } from "./decimal.ts";
import { readKsefAddress, readKsefParty } from "./ksef_party.ts";
import type { DueDate, Payment, PaymentAccount, Settlement, TransactionTerms, Transport } from "./model.ts";
import { field, fieldsOf, parseDate, textOf } from "./query.ts";

/** Platnosc. */
export function readKsefPayment(el: XmlElement, ns: string): Payment {
  const p = blankPayment();
  for (const c of el.children) {
    if (c.ns !== ns) continue;
    const v = textOf(c);
    switch (c.local) {
      case "Zaplacono": p.paid = v === "1"; break;
      case "DataZaplaty": p.paid_date = parseDate(v); break;
      case "ZnacznikZaplatyCzesciowej": p.partial_status = codeOf(KSEF_PARTIAL_PAYMENT_MARKS, v); break;
      case "ZaplataCzesciowa": {
        const f = fieldsOf(c, ns);
        p.partial_payments.push({
          amount: parseDecimal(field(f, "KwotaZaplatyCzesciowej")),
          date: parseDate(field(f, "DataZaplatyCzesciowej")),
          means: codeOf(KSEF_PAYMENT_FORMS, field(f, "FormaPlatnosci")) ??
            (field(f, "OpisPlatnosci") === null ? null : { code: "other", text: field(f, "OpisPlatnosci") }),
          exchange_rate: null,
        });
        break;
      }
      case "TerminPlatnosci": p.due_dates.push(_dueDate(c, ns)); break;
      case "FormaPlatnosci": p.means = codeOf(KSEF_PAYMENT_FORMS, v); break;
      case "OpisPlatnosci": p.means_text = v; break;
      case "RachunekBankowy": p.accounts.push(readKsefAccount(c, ns, false)); break;
      case "RachunekBankowyFaktora": p.accounts.push(readKsefAccount(c, ns, true)); break;
      case "Skonto": {
        const f = fieldsOf(c, ns);
        p.discount = { conditions: field(f, "WarunkiSkonta"), amount: field(f, "WysokoscSkonta") };
        break;
      }
      case "LinkDoPlatnosci": p.link = v; break;
      case "IPKSeF": p.ksef_payment_id = v; break;
    }
  }
  return p;
}

/** TerminPlatnosci: Termin and TerminOpis (text in FA(2); Ilosc, Jednostka, ZdarzeniePoczatkowe in FA(3)). */
function _dueDate(el: XmlElement, ns: string): DueDate {
  const f = fieldsOf(el, ns);
  const opis = f.get("TerminOpis") ?? null;
  const o = fieldsOf(opis, ns);
  return {
    date: parseDate(field(f, "Termin")),
    description: textOf(opis),
    quantity: field(o, "Ilosc"),
    unit: field(o, "Jednostka"),
    start_event: field(o, "ZdarzeniePoczatkowe"),
  };
}

/** A KSeF TRachunekBankowy (RachunekBankowy, RachunekBankowyFaktora; FA_RR RachunekBankowy1/2). */
export function readKsefAccount(el: XmlElement, ns: string, factor: boolean): PaymentAccount {
  const f = fieldsOf(el, ns);
  return {
    number: field(f, "NrRB"),
    name: null,
    bic: field(f, "SWIFT"),
    bank_name: field(f, "NazwaBanku"),
    description: field(f, "OpisRachunku"),
    bank_own_account: codeOf(KSEF_BANK_OWN_ACCOUNTS, field(f, "RachunekWlasnyBanku")),
    factor,
    held_by: null,
  };
}

/** Rozliczenie. */
export function readKsefSettlement(el: XmlElement, ns: string): Settlement {
  const s: Settlement = {
    charges: [], charges_total: null, deductions: [], deductions_total: null, to_pay: null, to_settle: null,
  };
  for (const c of el.children) {
    if (c.ns !== ns) continue;
    switch (c.local) {
      case "Obciazenia":
      case "Odliczenia": {
        const f = fieldsOf(c, ns);
        const row = { amount: parseDecimal(field(f, "Kwota")), reason: field(f, "Powod") };
        (c.local === "Obciazenia" ? s.charges : s.deductions).push(row);
        break;
      }
      case "SumaObciazen": s.charges_total = parseDecimal(textOf(c)); break;
      case "SumaOdliczen": s.deductions_total = parseDecimal(textOf(c)); break;
      case "DoZaplaty": s.to_pay = parseDecimal(textOf(c)); break;
      case "DoRozliczenia": s.to_settle = parseDecimal(textOf(c)); break;
    }
  }
  return s;
}

/** WarunkiTransakcji. */
export function readKsefTransactionTerms(el: XmlElement, ns: string): TransactionTerms {
  const t: TransactionTerms = {
    contracts: [], orders: [], batch_numbers: [], delivery_terms: null, contract_rate: null,
    contract_currency: null, transports: [], intermediary: false,
  };
  for (const c of el.children) {
    if (c.ns !== ns) continue;
    const v = textOf(c);
    switch (c.local) {
      case "Umowy": {
        const f = fieldsOf(c, ns);
        t.contracts.push({ date: parseDate(field(f, "DataUmowy")), number: field(f, "NrUmowy") });
        break;
      }
      case "Zamowienia": {
        const f = fieldsOf(c, ns);
        t.orders.push({ date: parseDate(field(f, "DataZamowienia")), number: field(f, "NrZamowienia") });
        break;
      }
      case "NrPartiiTowaru": if (v !== null) t.batch_numbers.push(v); break;
      case "WarunkiDostawy": t.delivery_terms = v; break;
      case "KursUmowny": t.contract_rate = parseDecimal(v); break;
      case "WalutaUmowna": t.contract_currency = v; break;
      case "Transport": t.transports.push(_transport(c, ns)); break;
      case "PodmiotPosredniczacy": t.intermediary = v === "1"; break;
    }
  }
  return t;
}

function _transport(el: XmlElement, ns: string): Transport {
  const t: Transport = {
    kind: null, kind_description: null, carrier: null, order_number: null, cargo: null,
    cargo_description: null, packaging: null, start: null, end: null, from: null, via: [], to: null,
  };
  for (const c of el.children) {
    if (c.ns !== ns) continue;
    const v = textOf(c);
    switch (c.local) {
      case "RodzajTransportu": t.kind = codeOf(KSEF_TRANSPORT_KINDS, v); break;
      case "OpisInnegoTransportu": t.kind_description = v; break;
      case "Przewoznik": t.carrier = readKsefParty(c, ns); break;
      case "NrZleceniaTransportu": t.order_number = v; break;
      case "OpisLadunku": t.cargo = codeOf(KSEF_CARGO_KINDS, v); break;
      case "OpisInnegoLadunku": t.cargo_description = v; break;
      case "JednostkaOpakowania": t.packaging = v; break;
      case "DataGodzRozpTransportu": t.start = v; break;
      case "DataGodzZakTransportu": t.end = v; break;
      case "WysylkaZ": t.from = readKsefAddress(c, ns); break;
      case "WysylkaPrzez": t.via.push(readKsefAddress(c, ns)); break;
      case "WysylkaDo": t.to = readKsefAddress(c, ns); break;
    }
  }
  return t;
}

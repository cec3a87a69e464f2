/**
 * Reads the KSeF sections that carry wording rather than money: Adnotacje
 * (annotations with their legal meaning), Zalacznik (attachment blocks with
 * tables, FA(3)) and Stopka (footer texts and registers). Nothing here throws.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { KSEF_MARGIN_SCHEMES } from "./code_lists.ts";
import type { Annotations, Attachment, AttachmentTable, NewVehicle, Registers } from "./model.ts";
import { children, field, fieldsOf, flag, parseDate, textOf } from "./query.ts";

/** The usage fields of a new means of transport (mileage, hours of use of a vessel or an aircraft). */
const VEHICLE_USAGE = [
  "P_22B", "P_22B1", "P_22B2", "P_22B3", "P_22B4", "P_22BT", "P_22C", "P_22C1", "P_22D", "P_22D1",
] as const;

/** Adnotacje. */
export function readKsefAnnotations(el: XmlElement, ns: string): Annotations {
  const f = fieldsOf(el, ns);
  const ex = fieldsOf(f.get("Zwolnienie") ?? null, ns);
  const nst = f.get("NoweSrodkiTransportu") ?? null;
  const n = fieldsOf(nst, ns);
  const m = fieldsOf(f.get("PMarzy") ?? null, ns);
  let scheme: Annotations["margin"]["scheme"] = null;
  for (const [name, text] of Object.entries(KSEF_MARGIN_SCHEMES)) {
    if (flag(m, name)) scheme = { code: name, text };
  }
  return {
    cash_accounting: flag(f, "P_16"),
    self_billing: flag(f, "P_17"),
    reverse_charge: flag(f, "P_18"),
    split_payment: flag(f, "P_18A"),
    exemption: {
      applies: flag(ex, "P_19"),
      act: field(ex, "P_19A"),
      directive: field(ex, "P_19B"),
      other: field(ex, "P_19C"),
    },
    new_transport: {
      applies: flag(n, "P_22"),
      art_42_5: flag(n, "P_42_5"),
      vehicles: children(nst, ns, "NowySrodekTransportu").map((v) => _vehicle(v, ns)),
    },
    triangular: flag(f, "P_23"),
    margin: { applies: flag(m, "P_PMarzy"), scheme },
  };
}

function _vehicle(el: XmlElement, ns: string): NewVehicle {
  const f = fieldsOf(el, ns);
  const usage: NewVehicle["usage"] = [];
  for (const name of VEHICLE_USAGE) {
    const value = field(f, name);
    if (value !== null) usage.push({ field: name, value });
  }
  return {
    first_use_date: parseDate(field(f, "P_22A")),
    line_number: field(f, "P_NrWierszaNST"),
    make: field(f, "P_22BMK"),
    model: field(f, "P_22BMD"),
    colour: field(f, "P_22BK"),
    registration: field(f, "P_22BNR"),
    year: field(f, "P_22BRP"),
    usage,
  };
}

/** Zalacznik: one Attachment per BlokDanych. */
export function readKsefAttachments(el: XmlElement, ns: string): Attachment[] {
  return children(el, ns, "BlokDanych").map((b) => {
    const a: Attachment = {
      id: null, description: null, url: null, filename: null, mime_code: null, meta: [], paragraphs: [], tables: [],
    };
    for (const c of b.children) {
      if (c.ns !== ns) continue;
      switch (c.local) {
        case "ZNaglowek": a.description = textOf(c); break;
        case "MetaDane": a.meta.push(_pair(c, ns, "ZKlucz", "ZWartosc")); break;
        case "Tekst":
          for (const p of children(c, ns, "Akapit")) {
            const t = textOf(p);
            if (t !== null) a.paragraphs.push(t);
          }
          break;
        case "Tabela": a.tables.push(_table(c, ns)); break;
      }
    }
    return a;
  });
}

function _pair(el: XmlElement, ns: string, k: string, v: string): { key: string | null; value: string | null } {
  const f = fieldsOf(el, ns);
  return { key: field(f, k), value: field(f, v) };
}

function _table(el: XmlElement, ns: string): AttachmentTable {
  const t: AttachmentTable = { meta: [], description: null, columns: [], rows: [], summary: [] };
  for (const c of el.children) {
    if (c.ns !== ns) continue;
    switch (c.local) {
      case "TMetaDane": t.meta.push(_pair(c, ns, "TKlucz", "TWartosc")); break;
      case "Opis": t.description = textOf(c); break;
      case "TNaglowek":
        for (const k of children(c, ns, "Kol")) {
          let type: string | null = null;
          for (const a of k.attrs) if (a.local === "Typ" && a.ns === "") type = a.value;
          t.columns.push({ type, name: textOf(children(k, ns, "NKom")[0] ?? null) });
        }
        break;
      case "Wiersz": t.rows.push(children(c, ns, "WKom").map((w) => textOf(w) ?? "")); break;
      case "Suma": t.summary = children(c, ns, "SKom").map((w) => textOf(w) ?? ""); break;
    }
  }
  return t;
}

/** Stopka: footer texts (Informacje/StopkaFaktury) and registers (Rejestry). */
export function readKsefFooter(el: XmlElement, ns: string): { footer: string[]; registers: Registers[] } {
  const footer: string[] = [];
  const registers: Registers[] = [];
  for (const c of el.children) {
    if (c.ns !== ns) continue;
    if (c.local === "Informacje") {
      const t = field(fieldsOf(c, ns), "StopkaFaktury");
      if (t !== null) footer.push(t);
    } else if (c.local === "Rejestry") {
      const f = fieldsOf(c, ns);
      registers.push({
        full_name: field(f, "PelnaNazwa"), krs: field(f, "KRS"), regon: field(f, "REGON"), bdo: field(f, "BDO"),
      });
    }
  }
  return { footer, registers };
}

/**
 * Writes the KSeF FA(3) sections that carry wording rather than money, the inverse of ksef_annex.ts: Adnotacje,
 * Stopka and Zalacznik, in the sequences of schemat_FA(3)_v1-0E.xsd. Adnotacje is required: an object without
 * annotations (or without one of them) gets the "no" value the schema documents for each (P_16, P_17, P_18, P_18A,
 * P_23 = 2; Zwolnienie/P_19N, NoweSrodkiTransportu/P_22N, PMarzy/P_PMarzyN = 1).
 * @module
 */

import type { Annotations, Attachment, AttachmentTable, Invoice, NewVehicle } from "./model.ts";
import { lose } from "./write_losses.ts";
import type { WriteLoss } from "./write_result.ts";
import type { TracedWriter } from "./write_trace.ts";

const _yes12 = (v: boolean | undefined): string => (v === true ? "1" : "2");

/** Adnotacje, from `inv.annotations` or, where it is null, the "no" values. */
export function writeKsefAnnotations(w: TracedWriter, a: Annotations | null, losses: WriteLoss[]): void {
  const f = "invoice.annotations";
  w.open("Adnotacje", f);
  w.leaf("P_16", _yes12(a?.cash_accounting), `${f}.cash_accounting`);
  w.leaf("P_17", _yes12(a?.self_billing), `${f}.self_billing`);
  w.leaf("P_18", _yes12(a?.reverse_charge), `${f}.reverse_charge`);
  w.leaf("P_18A", _yes12(a?.split_payment), `${f}.split_payment`);
  const ex = a?.exemption;
  w.open("Zwolnienie", `${f}.exemption`);
  if (ex?.applies === true) {
    w.leaf("P_19", "1", `${f}.exemption.applies`);
    // One basis only (a choice): the act, else the directive, else another basis.
    const basis = ex.act !== null ? "P_19A" : ex.directive !== null ? "P_19B" : "P_19C";
    w.leaf(basis, ex.act ?? ex.directive ?? ex.other, `${f}.exemption.${basis === "P_19A" ? "act" : basis === "P_19B" ? "directive" : "other"}`);
    if (basis === "P_19A") lose(losses, `${f}.exemption.directive`, ex.directive, "FA(3) takes one exemption basis");
    if (basis !== "P_19C") lose(losses, `${f}.exemption.other`, ex.other, "FA(3) takes one exemption basis");
  } else {
    w.leaf("P_19N", "1", `${f}.exemption.applies`);
    if (ex) for (const k of ["act", "directive", "other"] as const) lose(losses, `${f}.exemption.${k}`, ex[k], "FA(3) takes an exemption basis only when the exemption applies");
  }
  w.close();
  const nt = a?.new_transport;
  w.open("NoweSrodkiTransportu", `${f}.new_transport`);
  if (nt?.applies === true) {
    w.leaf("P_22", "1", `${f}.new_transport.applies`);
    w.leaf("P_42_5", _yes12(nt.art_42_5), `${f}.new_transport.art_42_5`);
    for (let i = 0; i < nt.vehicles.length; i++) _vehicle(w, nt.vehicles[i]!, `${f}.new_transport.vehicles[${i}]`);
  } else {
    w.leaf("P_22N", "1", `${f}.new_transport.applies`);
    if (nt) lose(losses, `${f}.new_transport.vehicles`, nt.vehicles, "FA(3) lists new means of transport only when P_22 applies");
  }
  w.close();
  w.leaf("P_23", _yes12(a?.triangular), `${f}.triangular`);
  w.open("PMarzy", `${f}.margin`);
  if (a?.margin.applies === true) {
    w.leaf("P_PMarzy", "1", `${f}.margin.applies`);
    w.leaf(a.margin.scheme?.code ?? "", a.margin.scheme === null ? null : "1", `${f}.margin.scheme`);
  } else {
    w.leaf("P_PMarzyN", "1", `${f}.margin.applies`);
  }
  w.close();
  w.close();
}

/** NowySrodekTransportu: P_22A, P_NrWierszaNST, make, model, colour, registration, year, then the usage fields. */
function _vehicle(w: TracedWriter, v: NewVehicle, f: string): void {
  w.open("NowySrodekTransportu", f);
  w.leaf("P_22A", v.first_use_date, `${f}.first_use_date`);
  w.leaf("P_NrWierszaNST", v.line_number, `${f}.line_number`);
  w.leaf("P_22BMK", v.make, `${f}.make`);
  w.leaf("P_22BMD", v.model, `${f}.model`);
  w.leaf("P_22BK", v.colour, `${f}.colour`);
  w.leaf("P_22BNR", v.registration, `${f}.registration`);
  w.leaf("P_22BRP", v.year, `${f}.year`);
  // The reader keeps them in the schema's order (P_22B, P_22B1…4, P_22BT, P_22C, P_22C1, P_22D, P_22D1).
  for (let i = 0; i < v.usage.length; i++) w.leaf(v.usage[i]!.field, v.usage[i]!.value, `${f}.usage[${i}]`);
  w.close();
}

/** Stopka: up to three Informacje/StopkaFaktury, then Rejestry; nothing when both are empty. */
export function writeKsefFooter(w: TracedWriter, inv: Invoice, losses: WriteLoss[]): void {
  if (inv.footer.length === 0 && inv.registers.length === 0) return;
  w.open("Stopka");
  for (let i = 0; i < inv.footer.length; i++) {
    if (i >= 3) {
      lose(losses, `invoice.footer[${i}]`, inv.footer[i], "FA(3) takes at most three footer texts");
      continue;
    }
    w.open("Informacje", `invoice.footer[${i}]`).leaf("StopkaFaktury", inv.footer[i], `invoice.footer[${i}]`).close();
  }
  for (let i = 0; i < inv.registers.length; i++) {
    const r = inv.registers[i]!;
    const f = `invoice.registers[${i}]`;
    w.open("Rejestry", f);
    w.leaf("PelnaNazwa", r.full_name, `${f}.full_name`);
    w.leaf("KRS", r.krs, `${f}.krs`);
    w.leaf("REGON", r.regon, `${f}.regon`);
    w.leaf("BDO", r.bdo, `${f}.bdo`);
    w.close();
  }
  w.close();
}

/** Zalacznik: one BlokDanych per attachment that has KSeF content; EN 16931 document references are losses. */
export function writeKsefAttachments(w: TracedWriter, attachments: readonly Attachment[], losses: WriteLoss[]): void {
  let open = false;
  for (let i = 0; i < attachments.length; i++) {
    const a = attachments[i]!;
    const f = `invoice.attachments[${i}]`;
    if (a.meta.length === 0) {
      // MetaDane is required in a BlokDanych: an EN 16931 supporting document (no KSeF metadata) has no FA(3) form.
      lose(losses, f, a, "FA(3) attachments are blocks of KSeF data (MetaDane), not supporting documents");
      continue;
    }
    for (const k of ["id", "url", "filename", "mime_code"] as const) lose(losses, `${f}.${k}`, a[k], "FA(3) attachments carry no document reference");
    if (!open) w.open("Zalacznik");
    open = true;
    w.open("BlokDanych", f);
    w.leaf("ZNaglowek", a.description, `${f}.description`);
    for (let j = 0; j < a.meta.length; j++) {
      const m = a.meta[j]!;
      w.open("MetaDane", `${f}.meta[${j}]`).leaf("ZKlucz", m.key, `${f}.meta[${j}].key`).leaf("ZWartosc", m.value, `${f}.meta[${j}].value`).close();
    }
    if (a.paragraphs.length > 0) {
      w.open("Tekst", `${f}.paragraphs`);
      for (let j = 0; j < a.paragraphs.length; j++) w.leaf("Akapit", a.paragraphs[j], `${f}.paragraphs[${j}]`);
      w.close();
    }
    for (let j = 0; j < a.tables.length; j++) _table(w, a.tables[j]!, `${f}.tables[${j}]`);
    w.close();
  }
  if (open) w.close();
}

function _table(w: TracedWriter, t: AttachmentTable, f: string): void {
  w.open("Tabela", f);
  for (let i = 0; i < t.meta.length; i++) {
    const m = t.meta[i]!;
    w.open("TMetaDane", `${f}.meta[${i}]`).leaf("TKlucz", m.key, `${f}.meta[${i}].key`).leaf("TWartosc", m.value, `${f}.meta[${i}].value`).close();
  }
  w.leaf("Opis", t.description, `${f}.description`);
  w.open("TNaglowek", `${f}.columns`);
  for (let i = 0; i < t.columns.length; i++) {
    const c = t.columns[i]!;
    w.open("Kol", `${f}.columns[${i}]`, { Typ: c.type }).leaf("NKom", c.name ?? "", `${f}.columns[${i}].name`).close();
  }
  w.close();
  for (let i = 0; i < t.rows.length; i++) {
    w.open("Wiersz", `${f}.rows[${i}]`);
    for (let j = 0; j < t.rows[i]!.length; j++) w.leaf("WKom", t.rows[i]![j], `${f}.rows[${i}][${j}]`);
    w.close();
  }
  if (t.summary.length > 0) {
    w.open("Suma", `${f}.summary`);
    for (let j = 0; j < t.summary.length; j++) w.leaf("SKom", t.summary[j], `${f}.summary[${j}]`);
    w.close();
  }
  w.close();
}

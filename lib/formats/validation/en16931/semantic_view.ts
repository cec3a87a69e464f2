/**
 * The neutral view the EN 16931 semantic rules read: the business terms (BT-*)
 * and groups (BG-*) of an invoice, taken from UBL or CII by
 * semantic_view_ubl.ts / semantic_view_cii.ts, each kept with the element it came
 * from so a violation can point at it. Presence is kept as written (a field is null
 * when its element is absent) because the rules test presence, which the invoice
 * model does not keep.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import type { Dec } from "./semantic_decimal.ts";

/** The syntaxes the view is read from. */
export type SemanticSyntax = "ubl" | "cii";

/** An element that is present, with its own text as written. */
export interface Field {
  el: XmlElement;
  text: string;
  /** The text read as xs:decimal, once (semantic_totals.ts `num`); null when it is not one. */
  value?: Dec | null;
}

/** A VAT category as written: UBL cac:TaxCategory / cac:ClassifiedTaxCategory, CII ram:ApplicableTradeTax / ram:CategoryTradeTax. */
export interface VatCategory {
  el: XmlElement;
  /** Where the category sits, for the rules that look at all of them (`//`). */
  kind: "line" | "allowance" | "charge" | "breakdown" | "other";
  /** The category code element (UBL cbc:ID, CII ram:CategoryCode). */
  code: Field | null;
  /** The code as the rules compare it: UBL normalises spaces, CII takes the text as written; "" when absent. */
  key: string;
  /** Its tax scheme is VAT (UBL cac:TaxScheme/cbc:ID, CII ram:TypeCode). */
  vat: boolean;
  percent: Field | null;
  exemptionReason: Field | null;
  exemptionCode: Field | null;
}

/** BG-20/BG-21 (document) or BG-27/BG-28 (line): an allowance or a charge. */
export interface AllowanceCharge {
  el: XmlElement;
  /** The ChargeIndicator read as xs:boolean; null when it is neither true nor false. */
  charge: boolean | null;
  amount: Field | null;
  base: Field | null;
  reason: Field | null;
  reasonCode: Field | null;
  categories: VatCategory[];
}

/** BG-14 / BG-26: an invoicing period. */
export interface Period {
  el: XmlElement;
  start: Field | null;
  end: Field | null;
  /** The date values compared by BR-29/BR-30 (CII: the format-102 string), null when absent. */
  startValue: string | null;
  endValue: string | null;
  /** BT-8 (UBL only: cac:InvoicePeriod/cbc:DescriptionCode). */
  descriptionCode: Field | null;
}

/** BG-25: an invoice line. */
export interface Line {
  el: XmlElement;
  id: Field | null;
  quantity: Field | null;
  hasUnitCode: boolean;
  net: Field | null;
  name: Field | null;
  netPrice: Field | null;
  grossPrice: Field | null;
  categories: VatCategory[];
  allowances: AllowanceCharge[];
  period: Period | null;
}

/** BG-23: a VAT breakdown (UBL cac:TaxSubtotal, CII header ram:ApplicableTradeTax). */
export interface Breakdown {
  el: XmlElement;
  taxable: Field | null;
  tax: Field | null;
  categories: VatCategory[];
}

/** UBL cac:TaxTotal, CII ram:TaxTotalAmount (BT-110/BT-111). */
export interface TaxTotal {
  el: XmlElement;
  amount: Field | null;
  currency: string | null;
}

/** BG-22: document totals. */
export interface Totals {
  el: XmlElement;
  lineNet: Field | null;
  allowances: Field | null;
  charges: Field | null;
  taxExclusive: Field | null;
  taxInclusive: Field | null;
  prepaid: Field | null;
  rounding: Field | null;
  payable: Field | null;
}

/** A seller, buyer, payee or tax representative. */
export interface Party {
  el: XmlElement;
  /** BT-27/BT-44 legal name (UBL RegistrationName, CII Name). */
  legalName: Field | null;
  /** Trading or payee name (UBL cac:PartyName/cbc:Name, CII ram:Name). */
  names: Field[];
  postal: XmlElement | null;
  country: Field | null;
  /** The electronic address (BT-34/BT-49) and its scheme attribute as written. */
  endpoint: { el: XmlElement; scheme: string | null } | null;
  /** Party identifiers (BT-29, BT-46, BT-60) with their scheme attribute (UBL PartyIdentification/ID, CII ram:ID). */
  ids: { text: string; scheme: string | null }[];
  /** CII ram:GlobalID identifiers (BT-29 with a scheme); none in UBL. */
  globalIds: string[];
  /** Legal registration identifiers (BT-30, BT-47). */
  legalIds: string[];
  /** VAT identifiers (UBL PartyTaxScheme with scheme VAT, CII tax registration `VA`). */
  vatIds: Field[];
  /** Any tax identifier (UBL any PartyTaxScheme/CompanyID, CII `VA` or `FC`). */
  taxIds: Field[];
}

/** BG-16: a payment instruction. */
export interface PaymentMeans {
  el: XmlElement;
  code: Field | null;
  /** BG-17 credit transfer accounts: their identifiers as written (UBL cbc:ID, CII IBANID and ProprietaryID). */
  accounts: { el: XmlElement; ids: Field[] }[];
}

/** Everything the rules read, per document. */
export interface SemanticView {
  syntax: SemanticSyntax;
  root: XmlElement;
  specId: Field | null;
  number: Field | null;
  issueDate: Field | null;
  typeCode: Field | null;
  currency: Field | null;
  taxCurrency: Field | null;
  seller: Party | null;
  /** UBL cac:AccountingSupplierParty (BR-CO-26 is checked on it), CII the seller itself. */
  sellerContext: XmlElement | null;
  buyer: Party | null;
  payee: Party | null;
  taxRepresentative: Party | null;
  totals: Totals | null;
  taxTotals: TaxTotal[];
  /** UBL: the breakdowns under each cac:TaxTotal, in order; CII: every header ApplicableTradeTax. */
  breakdownsByTotal: Map<XmlElement, Breakdown[]>;
  breakdowns: Breakdown[];
  allowances: AllowanceCharge[];
  lines: Line[];
  periods: Period[];
  /** BT-7 present; BT-8 present (UBL InvoicePeriod/DescriptionCode, CII DueDateTypeCode). */
  hasTaxPointDate: boolean;
  hasDateCode: boolean;
  /** BG-15 deliver-to addresses and their country code. */
  deliveryAddresses: { el: XmlElement; country: Field | null }[];
  /** BT-72 actual delivery date or an invoicing period present (BR-IC-11). */
  hasDeliveryDateOrPeriod: boolean;
  /** BT-80 deliver-to country code as written (BR-IC-12). */
  deliveryCountry: string | null;
  additionalDocuments: { el: XmlElement; id: Field | null }[];
  itemAttributes: { el: XmlElement; hasName: boolean; hasValue: boolean }[];
  classifications: { el: XmlElement; listId: string | null }[];
  standardIds: { el: XmlElement; scheme: string | null }[];
  precedingInvoices: { el: XmlElement; id: Field | null }[];
  paymentMeans: PaymentMeans[];
  cardNumbers: Field[];
  /** Every VAT identifier in the document that BR-CO-09 checks. */
  vatIdentifiers: Field[];
  /** Every VAT category anywhere in the document. */
  categories: VatCategory[];
  /** Every country code anywhere in the document, as written (BR-B-01). */
  countryCodes: string[];
}

/** What a walk reads from an element into the view; `parent` is the element it sits in. */
export type WalkRead = (el: XmlElement, parent: XmlElement | null, v: SemanticView) => void;

/** A syntax's walk: for each element name it acts on, the namespace the element must be in and what it reads. */
export type WalkTable = ReadonlyMap<string, { ns: string; read: WalkRead }>;

/** A walk table from the readers of each namespace, `{ [namespace]: { [local name]: read } }`. */
export function walkTable(byNamespace: Record<string, Record<string, WalkRead>>): WalkTable {
  const table = new Map<string, { ns: string; read: WalkRead }>();
  for (const [ns, readers] of Object.entries(byNamespace)) {
    for (const [local, read] of Object.entries(readers)) {
      if (table.has(local)) throw new TypeError(`Cannot walk ${local} in two namespaces`);
      table.set(local, { ns, read });
    }
  }
  return table;
}

/**
 * Visits `el` and every element below it in document order, applying the table's reader to each element it names
 * (in its namespace): what the rules' contexts match anywhere (`//`). A Map lookup by name skips the rest cheaply.
 */
export function walkView(el: XmlElement, parent: XmlElement | null, v: SemanticView, table: WalkTable): void {
  const entry = table.get(el.local);
  if (entry !== undefined && el.ns === entry.ns) entry.read(el, parent, v);
  for (const c of el.children) walkView(c, el, v, table);
}

/**
 * `items` mapped by `f` (with `kept` below: how the view and the rules make the arrays they hand on). Arrays made by
 * Array.prototype.map and filter change their elements kind once V8 has optimised the code making them; the loops
 * reading them then throw their optimised code away and are compiled again (Node 20: hundreds of requests later, at
 * the cost of milliseconds of compiling). Built by push, every array has one kind from the start.
 */
export function mapped<T, U>(items: readonly T[], f: (item: T) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < items.length; i++) out.push(f(items[i]!));
  return out;
}

/** The items `keep` holds for, in order (see mapped). */
export function kept<T>(items: readonly T[], keep: (item: T) => boolean): T[] {
  const out: T[] = [];
  for (let i = 0; i < items.length; i++) if (keep(items[i]!)) out.push(items[i]!);
  return out;
}

/** The first child element with this namespace and local name. */
export function child(el: XmlElement | null | undefined, ns: string, local: string): XmlElement | null {
  if (!el) return null;
  for (const c of el.children) if (c.local === local && c.ns === ns) return c;
  return null;
}

/** Every child element with this namespace and local name. */
export function children(el: XmlElement | null | undefined, ns: string, local: string): XmlElement[] {
  if (!el) return [];
  const out: XmlElement[] = [];
  for (const c of el.children) if (c.local === local && c.ns === ns) out.push(c);
  return out;
}

/** The element as a field, or null. */
export function field(el: XmlElement | null): Field | null {
  return el === null ? null : { el, text: el.text };
}

/** An unprefixed attribute's value, or null. */
export function attr(el: XmlElement | null, local: string): string | null {
  if (!el) return null;
  for (const a of el.attrs) if (a.local === local && a.ns === "") return a.value;
  return null;
}

/** XPath normalize-space. */
export function norm(text: string | null | undefined): string {
  if (!text) return "";
  const n = text.length;
  if (text.charCodeAt(0) > 32 && text.charCodeAt(n - 1) > 32) {
    // Nothing to trim: only a tab, a line break or two spaces in a row need the rewrite.
    let previousSpace = false;
    let clean = true;
    for (let i = 1; i < n - 1; i++) {
      const c = text.charCodeAt(i);
      if (c === 32) {
        if (previousSpace) {
          clean = false;
          break;
        }
        previousSpace = true;
      } else if (c === 9 || c === 10 || c === 13) {
        clean = false;
        break;
      } else previousSpace = false;
    }
    if (clean) return text;
  }
  return text.replace(/[ \t\r\n]+/g, " ").trim();
}

/** normalize-space(text) != '': some character other than XML white space. */
export function hasText(text: string | null | undefined): boolean {
  if (!text) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return true;
  }
  return false;
}

/** An xs:boolean as written ("true", "1", "false", "0"); null otherwise. */
export function xsBoolean(text: string | null | undefined): boolean | null {
  const t = norm(text);
  if (t === "true" || t === "1") return true;
  if (t === "false" || t === "0") return false;
  return null;
}

/** A category's code as the rules compare it: UBL normalises spaces, CII compares the text as written. */
export function codeOf(_v: SemanticView, c: VatCategory): string {
  return c.key;
}


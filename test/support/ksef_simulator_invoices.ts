/**
 * The invoices the KSeF simulator holds and how they leave it: InvoiceMetadata
 * as open-api.json describes it (amounts as numbers, `vatAmount` in PLN,
 * "Łączna kwota VAT wyrażona w PLN"), the selection of an export or metadata
 * query by subject type and PermanentStorage date, and an export package:
 * `{ksefNumber}.xml` files and `_metadata.json` in a ZIP, split into parts
 * encrypted with AES-256-CBC (GET /invoices/exports/{referenceNumber}). An
 * invoice whose XML is "not yet available" is in the metadata but not in the
 * package, as KSeF's 21165 describes for single downloads. Its invoices may be of any form KSeF carries: FA(2),
 * FA(3), FA_RR(1) and PEF(3)/PEF_KOR(3), each with its formCode and invoiceType in the metadata.
 */
import { createCipheriv, createHash, randomBytes } from "node:crypto";
import { formatOf } from "../../lib/formats/validation/invoice_validation.ts";
import { parseXml } from "../../lib/formats/xml/parse.ts";
import { writeZip } from "../../lib/formats/zip/write.ts";

/** An invoice stored in the simulator. */
export interface SimInvoice {
  ksefNumber: string;
  seller: string;
  buyer: string;
  third: string | null;
  xml: Uint8Array;
  invoiceNumber: string;
  permanentStorageDate: string;
  currency: string;
  /** Net and gross in the invoice's currency, VAT in PLN (open-api.json InvoiceMetadata). */
  netAmount: number;
  grossAmount: number;
  vatAmount: number;
  /** True while KSeF cannot deliver its XML yet (21165); the metadata is there. */
  xmlPending: boolean;
}

/** The filters of an export or query (open-api.json InvoiceQueryFilters, the fields the simulator reads). */
export interface SimFilters {
  subjectType?: string;
  dateRange?: { dateType?: string; from?: string; to?: string | null; restrictToPermanentStorageHwmDate?: boolean | null };
}

/** KSeF writes times with 7 fraction digits and an offset. */
export function iso7(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$10000+00:00");
}

/** Date.parse of a KSeF time (more than 3 fraction digits cut). */
export function parseTime(s: string | null | undefined): number {
  return typeof s === "string" ? Date.parse(s.replace(/(\.\d{3})\d+/, "$1")) : NaN;
}

function _roleOf(i: SimInvoice, subject: string, nip: string): boolean {
  return subject === "Subject1" ? i.seller === nip : subject === "Subject2" ? i.buyer === nip : subject === "Subject3" ? i.third === nip : false;
}

/** open-api.json InvoiceMetadata.formCode of each form and the invoiceType of its plain (not correcting) kind. */
const _FORMS = {
  "ksef-fa2": { formCode: { systemCode: "FA (2)", schemaVersion: "1-0E", value: "FA" }, invoiceType: "Vat" },
  "ksef-fa3": { formCode: { systemCode: "FA (3)", schemaVersion: "1-0E", value: "FA" }, invoiceType: "Vat" },
  "ksef-fa-rr1": { formCode: { systemCode: "FA_RR (1)", schemaVersion: "1-1E", value: "FA_RR" }, invoiceType: "VatRr" },
  "ksef-pef3": { formCode: { systemCode: "PEF (3)", schemaVersion: "2-1", value: "PEF" }, invoiceType: "VatPef" },
} as const;

/** The formCode and invoiceType of an invoice's XML (FA (2) for what is not one of KSeF's forms, as before). */
function _formOf(xml: Uint8Array): { formCode: { systemCode: string; schemaVersion: string; value: string }; invoiceType: string } {
  let root: { local: string } | null = null;
  let format: string | null = null;
  try {
    const parsed = parseXml(xml).root;
    root = parsed;
    format = formatOf(parsed);
  } catch {
    // Tests store bytes that are not XML to see how a sync copes: they keep the default.
  }
  const f = format !== null && Object.hasOwn(_FORMS, format) ? _FORMS[format as keyof typeof _FORMS] : _FORMS["ksef-fa2"];
  // PEF_KOR(3) is a CreditNote: KorPef (open-api.json InvoiceType).
  return { formCode: f.formCode, invoiceType: format === "ksef-pef3" && root?.local === "CreditNote" ? "KorPef" : f.invoiceType };
}

/** open-api.json InvoiceMetadata of one invoice. */
export function metadataOf(i: SimInvoice): Record<string, unknown> {
  const form = _formOf(i.xml);
  return {
    ksefNumber: i.ksefNumber, invoiceNumber: i.invoiceNumber, issueDate: i.permanentStorageDate.slice(0, 10),
    invoicingDate: i.permanentStorageDate, acquisitionDate: i.permanentStorageDate, permanentStorageDate: i.permanentStorageDate,
    seller: { nip: i.seller, name: `Seller ${i.seller}` }, buyer: { identifier: { type: "Nip", value: i.buyer }, name: `Buyer ${i.buyer}` },
    netAmount: i.netAmount, grossAmount: i.grossAmount, vatAmount: i.vatAmount, currency: i.currency, invoicingMode: "Online",
    invoiceType: form.invoiceType, formCode: form.formCode, isSelfInvoicing: false, hasAttachment: false,
    invoiceHash: createHash("sha256").update(i.xml).digest("base64"),
    thirdSubjects: i.third ? [{ identifier: { type: "Nip", value: i.third }, name: `Third ${i.third}`, role: 0 }] : [],
  };
}

/** The invoices of `nip` in the filters' role and PermanentStorage range, up to `hwm`, oldest first. */
export function selectInvoices(invoices: readonly SimInvoice[], filters: SimFilters, nip: string, hwm: number, now: number): SimInvoice[] {
  const from = parseTime(filters.dateRange?.from);
  const to = Math.min(filters.dateRange?.to ? parseTime(filters.dateRange.to) : now, filters.dateRange?.restrictToPermanentStorageHwmDate ? hwm : Infinity);
  return invoices.filter((i) => _roleOf(i, filters.subjectType ?? "", nip) && parseTime(i.permanentStorageDate) >= from && parseTime(i.permanentStorageDate) <= to);
}

/** A built export package: the InvoicePackage answer and the encrypted part bytes by id. */
export interface BuiltPackage {
  pkg: Record<string, unknown>;
  parts: Map<string, Buffer>;
}

/** Packs `chosen` into encrypted parts (`key` null: a wrong key, for a damaged package) served at `partUrl(id)`. */
export function buildPackage(chosen: SimInvoice[], o: { truncated: boolean; hwm: number; key: Buffer | null; iv: Buffer; partSize: number; reference: string; partUrl: (id: string) => string }): BuiltPackage {
  const zip = writeZip([
    ...chosen.filter((i) => !i.xmlPending).map((i) => ({ name: `${i.ksefNumber}.xml`, bytes: i.xml })),
    { name: "_metadata.json", bytes: Buffer.from(JSON.stringify({ invoices: chosen.map(metadataOf) })) },
  ]);
  const parts = new Map<string, Buffer>();
  const list: Record<string, unknown>[] = [];
  for (let at = 0, n = 1; at < zip.length; at += o.partSize, n++) {
    const plain = zip.subarray(at, at + o.partSize);
    const cipher = createCipheriv("aes-256-cbc", o.key ?? randomBytes(32), o.iv);
    const bytes = Buffer.concat([cipher.update(plain), cipher.final()]);
    const id = `${o.reference}-${String(n).padStart(3, "0")}`;
    parts.set(id, bytes);
    list.push({
      ordinalNumber: n, partName: `${id}.zip.aes`, method: "GET", url: o.partUrl(id),
      partSize: plain.length, partHash: createHash("sha256").update(plain).digest("base64"),
      encryptedPartSize: bytes.length, encryptedPartHash: createHash("sha256").update(bytes).digest("base64"),
      expirationDate: iso7(Date.now() + 3_600_000),
    });
  }
  const last = chosen.at(-1);
  const pkg: Record<string, unknown> = {
    invoiceCount: chosen.length, size: zip.length, parts: list, isTruncated: o.truncated,
    // open-api.json InvoicePackage: lastPermanentStorageDate only when truncated on PermanentStorage dates.
    ...(o.truncated && last ? { lastPermanentStorageDate: last.permanentStorageDate } : {}),
    permanentStorageHwmDate: o.truncated && last ? last.permanentStorageDate : iso7(o.hwm),
  };
  return { pkg, parts };
}

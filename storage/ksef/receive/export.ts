/**
 * One export of KSeF 2.0 (pobieranie-faktur/przyrostowe-pobieranie-faktur.md):
 * POST /invoices/exports for one subject type over a PermanentStorage window
 * (windows.ts) with `restrictToPermanentStorageHwmDate`, polling its status, downloading
 * the parts, checking their hashes, decrypting them with the key this source
 * generated, and unpacking the ZIP (`{ksefNumber}.xml` files and
 * `_metadata.json`). It does not decide where the next window starts.
 * @module
 */
import { KEY_WITHDRAWN, type KsefClient, type StatusInfo } from "../connection/client.ts";
import { decryptPart, newPackageKey, pickCertificate, sha256Base64 } from "../connection/crypto.ts";
import { describeException, exceptionCodes, KSEF_ERROR, ksefError } from "../connection/errors.ts";
import { readZip, ZipError, type ZipEntry } from "../../../lib/formats/zip/read.ts";

/** The subject types of open-api.json InvoiceQuerySubjectType: seller, buyer, third party, authorized subject. */
export const SUBJECT_TYPES = ["Subject1", "Subject2", "Subject3", "SubjectAuthorized"] as const;
/** One subject type. */
export type SubjectType = (typeof SUBJECT_TYPES)[number];

/** open-api.json InvoiceMetadata, the fields this source reads. */
export interface InvoiceMetadata {
  ksefNumber: string;
  invoiceNumber?: string;
  issueDate?: string;
  acquisitionDate?: string;
  permanentStorageDate: string;
  seller?: { nip?: string; name?: string | null };
  buyer?: { identifier?: { type?: string; value?: string | null }; name?: string | null };
  netAmount?: number;
  vatAmount?: number;
  grossAmount?: number;
  currency?: string;
  /** open-api.json FormCode: which form the invoice is (FA, FA_RR, PEF), which sets a document's format before its XML. */
  formCode?: { systemCode?: string; schemaVersion?: string; value?: string };
  /** open-api.json InvoiceType (Vat, Kor, …, VatRr, KorVatRr, VatPef, KorPef). */
  invoiceType?: string;
}

/** open-api.json InvoicePackage. */
export interface InvoicePackage {
  invoiceCount: number;
  isTruncated: boolean;
  lastPermanentStorageDate?: string | null;
  permanentStorageHwmDate?: string | null;
  parts: { ordinalNumber: number; partName: string; url: string; encryptedPartHash?: string; partHash?: string }[];
}

/** What an export yielded. */
export type ExportResult =
  | { kind: "nothing" }
  | { kind: "package"; pkg: InvoicePackage; invoices: InvoiceMetadata[]; files: Map<string, ZipEntry> };

const METADATA_FILE = "_metadata.json"; // przyrostowe-pobieranie-faktur.md, "Plik _metadata.json"
const HWM_PAST = 21183; // open-api.json POST /invoices/query/metadata: dateRange.from later than PermanentStorageHwmDate
const EXPORTS_BUSY = 21182; // POST /invoices/exports: too many exports running in this context

/** Runs one export of `subject` from `from` to `to` (ISO; null: to the present) and returns its unpacked package. */
export async function runExport(client: KsefClient, subject: SubjectType, from: string, to: string | null, now: () => number, signal: AbortSignal): Promise<ExportResult> {
  let keyRetries = 0;
  for (;;) {
    const cert = pickCertificate(await client.certificates(signal), "SymmetricKeyEncryption", now());
    const key = newPackageKey(cert);
    const body = {
      encryption: { ...key.encryption, ...(cert.publicKeyId ? { publicKeyId: cert.publicKeyId } : {}) },
      // przyrostowe §"Inicjalizacja eksportu": PermanentStorage dates, HWM on; `to` only on a window in the past.
      filters: { subjectType: subject, dateRange: { dateType: "PermanentStorage", from, ...(to === null ? {} : { to }), restrictToPermanentStorageHwmDate: true } },
    };
    const started = await client.call("export", "POST", "/invoices/exports", body, signal, [400]);
    if (started.status === 400) {
      const err = await started.json().catch(() => null);
      const codes = exceptionCodes(err);
      if (codes.includes(HWM_PAST)) return { kind: "nothing" };
      // klucze-publiczne-do-szyfrowania.md §4.4: the key was withdrawn; fetch the certificates again and repeat, once.
      if (codes.includes(KEY_WITHDRAWN) && keyRetries++ === 0) {
        client.forgetCertificates();
        continue;
      }
      if (codes.includes(KEY_WITHDRAWN)) throw ksefError(KSEF_ERROR.certificateExpired, `KSeF refuses the key it publishes for SymmetricKeyEncryption even after fetching the certificates again (${describeException(err)}): KSeF is rotating its keys; retry the sync later`);
      if (codes.includes(EXPORTS_BUSY)) throw ksefError(KSEF_ERROR.unavailable, "KSeF is already running its maximum of exports for this NIP (21182): another client may be exporting; retry the sync later");
      throw ksefError(KSEF_ERROR.protocol, `KSeF refused the export (${describeException(err)})`);
    }
    const ref = ((await started.json()) as { referenceNumber?: string }).referenceNumber;
    if (typeof ref !== "string") throw ksefError(KSEF_ERROR.protocol, "KSeF started an export without a reference number");
    let answer: { status?: StatusInfo; package?: InvoicePackage | null } = {};
    const status = await client.poll(async () => {
      answer = (await (await client.call("exportStatus", "GET", `/invoices/exports/${encodeURIComponent(ref)}`, undefined, signal)).json()) as typeof answer;
      return answer.status;
    }, signal);
    // open-api.json InvoiceExportStatusResponse status codes.
    if (status.code === 420) return { kind: "nothing" }; // from is past the HWM: nothing new yet
    if (status.code === 210) continue; // expired before we downloaded it: export again
    if (status.code === 415) throw ksefError(KSEF_ERROR.packageUndecryptable, "KSeF could not decrypt the export key this source sent (415): KSeF's SymmetricKeyEncryption certificate may have been rotated; retry the sync");
    if (status.code === 500 || status.code === 550) throw ksefError(KSEF_ERROR.unavailable, `KSeF could not finish the export (${status.code}): retry the sync later`);
    if (status.code !== 200 || !answer.package || !Array.isArray(answer.package.parts)) throw ksefError(KSEF_ERROR.protocol, `KSeF ended the export with status ${status.code}`);
    return unpack(client, answer.package, key, signal);
  }
}

async function unpack(client: KsefClient, pkg: InvoicePackage, key: ReturnType<typeof newPackageKey>, signal: AbortSignal): Promise<ExportResult> {
  if (pkg.parts.length === 0) return { kind: "package", pkg, invoices: [], files: new Map() };
  const plain: Uint8Array[] = [];
  for (const part of [...pkg.parts].sort((a, b) => a.ordinalNumber - b.ordinalNumber)) {
    const bytes = await client.downloadPart(part.url, signal);
    if (part.encryptedPartHash && sha256Base64(bytes) !== part.encryptedPartHash) {
      throw ksefError(KSEF_ERROR.packageUndecryptable, `Package part ${part.partName} arrived damaged (its SHA-256 does not match): retry the sync`);
    }
    const decrypted = decryptPart(bytes, key, part.partName);
    if (part.partHash && sha256Base64(decrypted) !== part.partHash) {
      throw ksefError(KSEF_ERROR.packageUndecryptable, `Package part ${part.partName} decrypts to other bytes than KSeF announced: retry the sync`);
    }
    plain.push(decrypted);
  }
  // przyrostowe §"Pobieranie i przetwarzanie paczek": decrypted parts joined make one ZIP.
  try {
    const files = new Map(readZip(Buffer.concat(plain)).map((e) => [e.name, e]));
    const meta = files.get(METADATA_FILE);
    if (!meta) throw new ZipError(`no ${METADATA_FILE}`);
    const invoices = (JSON.parse(new TextDecoder().decode(meta.bytes())) as { invoices?: InvoiceMetadata[] }).invoices;
    if (!Array.isArray(invoices) || invoices.some((i) => typeof i?.ksefNumber !== "string" || typeof i.permanentStorageDate !== "string")) {
      throw new ZipError(`${METADATA_FILE} has no list of invoices`);
    }
    invoices.sort((a, b) => Date.parse(a.permanentStorageDate) - Date.parse(b.permanentStorageDate));
    return { kind: "package", pkg, invoices, files };
  } catch (e) {
    if (!(e instanceof ZipError || e instanceof SyntaxError)) throw e;
    throw ksefError(KSEF_ERROR.packageUndecryptable, `The export package is not a readable ZIP (${e.message}): retry the sync`);
  }
}

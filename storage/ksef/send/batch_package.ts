/**
 * A batch session's package (sesja-wsadowa.md §1–3): the invoices in one ZIP, each file named `<submission id>.xml`
 * so that KSeF's per-invoice answers (`invoiceFileName`, open-api.json SessionInvoiceStatusResponse) map back to
 * the submission, and its SHA-256 kept as the document recommends (`invoiceHash`). The ZIP is cut binary into parts
 * of at most 100 MB while it is written, each part encrypted with AES-256-CBC (PKCS#7) under the session's fresh
 * key and IV as its bytes come, and stored (so a part can be uploaded again after a crash) before the next is made:
 * memory holds one part's ciphertext (twice while it is stored), not the package. The IV travels in
 * `encryption.initializationVector` and the parts are the bare ciphertext, as open-api.json's EncryptionInfo (the
 * authority) and the official clients' examples have it.
 * @module
 */
import { createCipheriv, createHash } from "node:crypto";
import type { SubmissionRecord, TenantStore } from "../../../lib/contracts/storage.ts";
import { ZipWriter } from "../../../lib/formats/zip/write.ts";
import { newPackageKey, sha256Base64, type PublicKeyCertificate } from "../connection/crypto.ts";

/** sesja-wsadowa.md and open-api.json BatchFileInfo: a part is at most 100 MB before encryption. */
export const MAX_PART_BYTES = 100_000_000;
/** open-api.json BatchFileInfo.fileParts: at most 50 parts. */
export const MAX_PARTS = 50;

/** One invoice file of a package. */
export interface BatchFile {
  id: string;
  name: string;
  /** SHA-256 of the XML, Base64 (KSeF's `invoiceHash`). */
  hash: string;
}

/** One encrypted part, stored under `key`. */
export interface BatchPart {
  ordinalNumber: number;
  fileSize: number;
  fileHash: string;
  key: string;
}

/** A package ready for POST /sessions/batch. */
export interface BatchPackage {
  files: BatchFile[];
  fileSize: number;
  fileHash: string;
  parts: BatchPart[];
  encryption: { encryptedSymmetricKey: string; initializationVector: string; publicKeyId?: string };
}

/** The derived-blob key of a package's part. */
export function partKey(packageId: string, n: number): string {
  return `ksef-batch-pkg-${packageId}-${n}`;
}

/** Builds and stores the package of `subs` (their XML read one at a time); RangeError past 50 parts. */
export async function buildBatchPackage(o: { store: TenantStore; subs: readonly SubmissionRecord[]; cert: PublicKeyCertificate; id: string; partBytes?: number }): Promise<BatchPackage> {
  const partBytes = Math.min(o.partBytes ?? MAX_PART_BYTES, MAX_PART_BYTES);
  const key = newPackageKey(o.cert);
  // The fastest level: half the CPU of zlib's default on invoice XML, about 6% larger (parts are not counted).
  const zip = new ZipWriter({ level: 1 });
  const whole = createHash("sha256");
  const files: BatchFile[] = [];
  const parts: BatchPart[] = [];
  let zipBytes = 0;
  // The part being made: encrypted as its bytes come, so memory holds its ciphertext and, when stored, one copy.
  let cipher = createCipheriv("aes-256-cbc", key.key, key.iv); // PKCS#7 padding is node's default
  let encrypted: Buffer[] = [];
  let partPlain = 0;

  async function endPart(): Promise<void> {
    encrypted.push(cipher.final());
    const bytes = Buffer.concat(encrypted);
    const n = parts.length + 1;
    if (n > MAX_PARTS) throw new RangeError(`A batch package has at most ${MAX_PARTS} parts (open-api.json BatchFileInfo)`);
    await o.store.putDerived(partKey(o.id, n), bytes);
    parts.push({ ordinalNumber: n, fileSize: bytes.length, fileHash: sha256Base64(bytes), key: partKey(o.id, n) });
    cipher = createCipheriv("aes-256-cbc", key.key, key.iv);
    encrypted = [];
    partPlain = 0;
  }

  async function push(chunk: Uint8Array): Promise<void> {
    whole.update(chunk);
    zipBytes += chunk.length;
    for (let at = 0; at < chunk.length;) {
      const take = Math.min(partBytes - partPlain, chunk.length - at);
      encrypted.push(cipher.update(chunk.subarray(at, at + take)));
      partPlain += take;
      at += take;
      if (partPlain === partBytes) await endPart();
    }
  }

  for (const sub of o.subs) {
    const blob = await o.store.getBlob(sub.sha256);
    if (!blob) throw new Error(`The XML of submission ${sub.id} is missing`);
    const name = `${sub.id}.xml`;
    files.push({ id: sub.id, name, hash: Buffer.from(sub.sha256, "hex").toString("base64") });
    await push(zip.add(name, await blob.bytes()));
  }
  await push(zip.finish());
  if (partPlain > 0) await endPart();
  // klucze-publiczne-do-szyfrowania.md §4.2: name the key used, so that a withdrawn one is refused with 21470.
  const encryption = { ...key.encryption, ...(o.cert.publicKeyId ? { publicKeyId: o.cert.publicKeyId } : {}) };
  return { files, fileSize: zipBytes, fileHash: whole.digest("base64"), parts, encryption };
}

/**
 * Which file-system failures mean "storage unavailable, try again later"
 * rather than a bug: disk full, quota, read-only, I/O error, out of
 * descriptors (errno names of POSIX). The store's tenant stores and token
 * store are wrapped so that these reach the core as StorageUnavailableError.
 * @module
 */

const CODES = new Set(["ENOSPC", "EROFS", "EIO", "EDQUOT", "EMFILE", "ENFILE"]);

/** The errno name of a failure that means the disk cannot serve now (e.g. `ENOSPC`), else null. */
export function fileUnavailableCode(e: unknown): string | null {
  const code = e && typeof e === "object" ? (e as { code?: unknown }).code : undefined;
  return typeof code === "string" && CODES.has(code) ? code : null;
}

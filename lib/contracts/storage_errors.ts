/**
 * Which errors of a storage implementation mean "storage unavailable, try
 * again later" rather than a bug: file-system codes (disk full, read-only, I/O
 * error, out of descriptors), network codes of a database connection, and
 * PostgreSQL SQLSTATEs of class 08 (connection exception), 53 (insufficient
 * resources) and 57P01–57P03 (shutdown, starting up). API.md §2: 503.
 * @module
 */

const FILE_SYSTEM = ["ENOSPC", "EROFS", "EIO", "EDQUOT", "EMFILE", "ENFILE"];
const NETWORK = ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"];
/** PostgreSQL error codes (Appendix A of its manual) that say the server cannot serve now. */
const SQLSTATE = ["57P01", "57P02", "57P03", "53000", "53100", "53200", "53300", "53400"];
const CODES = new Set([...FILE_SYSTEM, ...NETWORK, ...SQLSTATE]);
// node-postgres reports a lost connection and a pool wait that timed out by message only.
const MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** The code of an unavailable-storage error (e.g. `ENOSPC`, `57P01`), or null when `e` is something else. */
export function storageUnavailableCode(e: unknown): string | null {
  if (!e || typeof e !== "object") return null;
  const code = (e as { code?: unknown }).code;
  if (typeof code === "string" && (CODES.has(code) || code.startsWith("08"))) return code;
  const message = (e as { message?: unknown }).message;
  return typeof message === "string" && MESSAGES.test(message) ? "CONNECTION_LOST" : null;
}

/**
 * KSeF's technical warnings: the `X-System-Warning` response header (KSeF API 2.6.0, `api-changelog.md`; open-api.json
 * `SystemWarning`), which KSeF adds to an answer whose result it does not change, e.g. when a request does something
 * that may be refused in the future. Its value is ASCII-folded text of the form `[code]: message | [code]: message`;
 * this reads it into warnings. A part that does not follow the form is kept whole as a message without a code.
 * Pure: where the warnings are logged and kept is the caller's (lib/contracts/upstream_warnings.ts).
 * @module
 */

/** The header's name, lower-case as HTTP libraries give it. */
export const SYSTEM_WARNING_HEADER = "x-system-warning";
/** The header's characters read: far above any notice, and a bound on what a broken answer costs. */
const MAX_HEADER_CHARS = 8192;
/** open-api.json SystemWarning: one warning is `\[(?<code>[^\]]+)\]: (?<message>[^|]+)`. */
const _WARNING = /^\[([^\]]+)\]:\s*(.+)$/s;

/** One warning of the header. */
export interface SystemWarning {
  code: string | null;
  message: string;
}

/** The warnings of an `X-System-Warning` value (none for null or blank), each once. */
export function parseSystemWarning(value: string | null): SystemWarning[] {
  if (value === null) return [];
  const out: SystemWarning[] = [];
  const seen = new Set<string>();
  for (const part of value.slice(0, MAX_HEADER_CHARS).split("|")) {
    const text = part.trim();
    if (text === "") continue;
    const m = _WARNING.exec(text);
    const w: SystemWarning = m ? { code: m[1]!.trim(), message: m[2]!.trim() } : { code: null, message: text };
    const key = `${w.code ?? ""}\u0000${w.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(w);
  }
  return out;
}

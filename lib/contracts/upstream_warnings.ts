/**
 * Warnings an upstream system gave beside a successful answer (KSeF's `X-System-Warning` header: README "KSeF"),
 * kept where they were heard: on the sync run that heard them, or on the submission whose request drew them. Each
 * distinct warning is kept once, with the first operation that drew it and when; a record keeps a bounded number,
 * each of bounded length, so a system that warns on every answer cannot make a record grow. It does not log:
 * the caller does, with its tenant.
 * @module
 */

/** At most this many distinct warnings on one record: the first ones heard are kept (every one is logged). */
export const MAX_UPSTREAM_WARNINGS = 10;
/** A message's characters kept; a longer one ends in "…". KSeF documents no length; a notice is a sentence or two. */
export const MAX_UPSTREAM_WARNING_CHARS = 500;
/** A code's characters kept (KSeF's codes are short identifiers). */
const MAX_CODE_CHARS = 100;

/** One warning as heard: its code (null when it came without one), its words, and the request that drew it. */
export interface UpstreamWarning {
  code: string | null;
  message: string;
  /** The request, e.g. `POST /sessions/online/{referenceNumber}/invoices` with the reference filled in. */
  operation: string;
}

/** A warning as a record keeps it: as heard, and when it was first heard (ISO time). */
export interface UpstreamWarningRecord extends UpstreamWarning {
  at: string;
}

/**
 * `kept` with the warnings of `heard` that it does not hold yet (same code and message), cut to the bounds; null
 * when nothing is new, so that the caller writes nothing.
 */
export function addUpstreamWarnings(kept: readonly UpstreamWarningRecord[], heard: readonly UpstreamWarning[], at: string): UpstreamWarningRecord[] | null {
  const out = [...kept];
  const seen = new Set(kept.map(_key));
  for (const w of heard) {
    if (out.length >= MAX_UPSTREAM_WARNINGS) break;
    const bounded: UpstreamWarningRecord = {
      code: w.code === null ? null : _cut(w.code, MAX_CODE_CHARS), message: _cut(w.message, MAX_UPSTREAM_WARNING_CHARS), operation: w.operation, at,
    };
    if (seen.has(_key(bounded))) continue;
    seen.add(_key(bounded));
    out.push(bounded);
  }
  return out.length === kept.length ? null : out;
}

function _key(w: { code: string | null; message: string }): string {
  return `${w.code ?? ""}\u0000${w.message}`;
}

function _cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/**
 * Opaque, URL-safe, typed identifiers (the conventions in /docs): a prefix such as `doc_`, then
 * 26 Crockford base32 characters: 48 bits of milliseconds (time-sortable), then
 * 80 random bits. Stores that address records by position may put that position
 * into the id (`encodeOrdinalId`) so that a lookup needs no id index in memory.
 * @module
 */

import { randomPool, takeRandom } from "./random_pool.ts";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** A digit's value by its character code (-1: not a digit). */
const _DIGIT_OF = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) _DIGIT_OF[ALPHABET.charCodeAt(i)] = i;

/** The id prefixes of the conventions in /docs */
export type IdPrefix = "doc" | "sub" | "whk" | "sync" | "evt" | "req";

function _base32(value: bigint, chars: number): string {
  let out = "";
  for (let i = chars - 1; i >= 0; i--) out += ALPHABET[Number((value >> BigInt(i * 5)) & 31n)];
  return out;
}

function _randomChars(n: number): string {
  const at = takeRandom(n);
  let out = "";
  for (let i = at; i < at + n; i++) out += ALPHABET[randomPool[i]! & 31];
  return out;
}

// The time's characters of the last millisecond asked for: a request id is made per request, many per millisecond.
let _timeMs = NaN;
let _timeText = "";

function _time(ms: number): string {
  if (ms === _timeMs) return _timeText;
  let out = "";
  for (let i = 9; i >= 0; i--) out += ALPHABET[Math.floor(ms / 2 ** (5 * i)) % 32];
  _timeMs = ms;
  return (_timeText = out);
}

// The last id made per prefix: ids made in the same millisecond (a batch of documents) count up from it, so a
// process's ids sort in the order it made them, as ULID's monotonic generation does.
const _last = new Map<IdPrefix, { ms: number; tail: string }>();

/** Adds one to a string of Crockford base32 digits (wrapping to zeros past the largest). */
function _increment(tail: string): string {
  const last = _DIGIT_OF[tail.charCodeAt(tail.length - 1)]!;
  if (last < 31) return tail.slice(0, -1) + ALPHABET[last + 1]!; // no carry: the common case
  const digits = [...tail];
  for (let i = digits.length - 1; i >= 0; i--) {
    const d = _DIGIT_OF[digits[i]!.charCodeAt(0)]!;
    if (d < 31) {
      digits[i] = ALPHABET[d + 1]!;
      return digits.join("");
    }
    digits[i] = "0";
  }
  return digits.join("");
}

/**
 * A new id: prefix, 10 characters of time, 16 random characters (80 random bits). Within one millisecond the
 * random part of the previous id of the prefix is counted up instead, so ids a process makes one after another in
 * that millisecond sort in that order.
 */
export function newId(prefix: IdPrefix, nowMs: number): string {
  let last = _last.get(prefix);
  if (!last) _last.set(prefix, (last = { ms: nowMs, tail: _randomChars(16) }));
  else if (nowMs === last.ms) last.tail = _increment(last.tail);
  else {
    last.ms = nowMs;
    last.tail = _randomChars(16);
  }
  return `${prefix}_${_time(last.ms)}${last.tail}`;
}

/** A new id whose random part starts with `ordinal` (35 bits), followed by 45 random bits. */
export function encodeOrdinalId(prefix: IdPrefix, nowMs: number, ordinal: number): string {
  if (!Number.isInteger(ordinal) || ordinal < 0 || ordinal >= 2 ** 35) throw new RangeError(`Ordinal out of range: ${ordinal}`);
  return `${prefix}_${_base32(BigInt(nowMs), 10)}${_base32(BigInt(ordinal), 7)}${_randomChars(9)}`;
}

/** The ordinal inside an id made by `encodeOrdinalId`, or -1 when the id is malformed. */
export function decodeOrdinalId(prefix: IdPrefix, id: string): number {
  if (id.length !== prefix.length + 27 || !id.startsWith(prefix) || id[prefix.length] !== "_") return -1;
  let ordinal = 0;
  for (let i = 0; i < 26; i++) {
    const c = id.charCodeAt(prefix.length + 1 + i);
    const d = c < 128 ? _DIGIT_OF[c]! : -1;
    if (d < 0) return -1;
    if (i >= 10 && i < 17) ordinal = ordinal * 32 + d;
  }
  return ordinal;
}

/** True when `id` has the prefix and 26 Crockford base32 characters. */
export function isWellFormedId(prefix: IdPrefix, id: string): boolean {
  return decodeOrdinalId(prefix, id) >= 0;
}

/** A deterministic id: the same time and seed give the same id (e.g. an event id that stays the same on every retry). */
export function deterministicId(prefix: IdPrefix, nowMs: number, seed: Uint8Array): string {
  let v = 0n;
  for (let i = 0; i < 10; i++) v = (v << 8n) | BigInt(seed[i] ?? 0);
  return `${prefix}_${_base32(BigInt(Math.max(0, Math.floor(nowMs))), 10)}${_base32(v, 16)}`;
}

const TENANT_RE = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** True when `id` is a valid tenant id: it names a directory of the file store and a key in every other. */
export function isValidTenantId(id: string): boolean {
  return TENANT_RE.test(id);
}

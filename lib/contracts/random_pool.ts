/**
 * Random bytes from the platform's cryptographic generator, drawn 4 KiB at a time: ids and correlation ids are made
 * per request (and per document of a sync run), and a getRandomValues call per id costs more than the id itself.
 * Each byte is handed out once.
 * @module
 */

/** The pool the offsets of takeRandom point into. */
export const randomPool = new Uint8Array(4096);
let _at = randomPool.length;

/** The offset in randomPool of `n` (at most its length) fresh random bytes, to be read before the next call. */
export function takeRandom(n: number): number {
  if (_at + n > randomPool.length) {
    crypto.getRandomValues(randomPool);
    _at = 0;
  }
  const at = _at;
  _at += n;
  return at;
}

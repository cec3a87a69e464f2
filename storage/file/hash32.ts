/**
 * The 32-bit hash of the slot columns (tax ids, KSeF numbers): FNV-1a, cheap
 * and never 0. Collisions are expected and resolved by comparing real values;
 * record checksums are CRC-32 (lib/formats/zip/crc32.ts).
 * @module
 */

/** FNV-1a 32-bit hash of a string, never 0 (0 marks "no value" in slot columns). */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0 || 1;
}

/**
 * CRC-32 (ISO 3309 / IEEE 802.3, the zlib polynomial; PKWARE APPNOTE §4.4.7),
 * the checksum of ZIP entries and of the file store's log records. Written out
 * rather than taken from node:zlib, whose `crc32` is missing on older Node 20
 * and on Deno.
 * @module
 */

const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

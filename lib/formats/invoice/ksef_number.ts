/**
 * The KSeF number: `NIP-YYYYMMDD-TTTTTTTTTTTT-CC`, 35 characters, the last two a
 * CRC-8 (polynomial 0x07, initial value 0x00, upper-case hex) of the first 32,
 * as KSeF's guide "Numer KSeF – struktura i walidacja" (numer-ksef.md) defines it.
 * It checks form and checksum only; whether KSeF issued the number is not knowable here.
 * @module
 */

const _SHAPE = /^\d{10}-\d{8}-[0-9A-F]{12}-[0-9A-F]{2}$/;

/** CRC-8 (poly 0x07, init 0x00, no reflection) of ASCII text, as two upper-case hex digits. */
export function ksefChecksum(data: string): string {
  let crc = 0;
  for (let i = 0; i < data.length; i++) {
    crc ^= data.charCodeAt(i) & 0xff;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc.toString(16).toUpperCase().padStart(2, "0");
}

/** True when `value` has the KSeF number's shape and its checksum matches. */
export function isKsefNumber(value: string): boolean {
  return value.length === 35 && _SHAPE.test(value) && ksefChecksum(value.slice(0, 32)) === value.slice(33);
}

/** Builds a KSeF number from its parts (seller NIP, `YYYYMMDD`, 12 hex digits), checksum added. */
export function formatKsefNumber(nip: string, day: string, technical: string): string {
  const data = `${nip}-${day}-${technical.toUpperCase()}`;
  return `${data}-${ksefChecksum(data)}`;
}

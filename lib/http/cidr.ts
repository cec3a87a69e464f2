/**
 * Address ranges in CIDR notation (RFC 4632 for IPv4, RFC 4291 §2.3 for IPv6) and whether an address falls in
 * one: the lists of OPS_ALLOW and TRUST_PROXY (README "Configuration"). Every address is held as 16 bytes, an IPv4
 * address as its IPv4-mapped IPv6 form (RFC 4291 §2.5.5.2), so `::ffff:127.0.0.1` (what node reports for an IPv4
 * client of a dual-stack socket) falls in `127.0.0.0/8`. IPv4 is strict dotted decimal only: no `127.1`, no octal.
 * @module
 */

/** One range: its first address (host bits cleared) and how many leading bits every member shares. */
export interface CidrBlock {
  readonly network: Uint8Array;
  /** Over the 128 bits of the IPv6 form: an IPv4 `/8` is 104. */
  readonly bits: number;
}

/** A parsed list of ranges; empty matches nothing. */
export type CidrList = readonly CidrBlock[];

const _V4_MAPPED_PREFIX = 96;
const DOT = 0x2e; // .
const COLON = 0x3a; // :
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const LOWER_A = 0x61;
const LOWER_F = 0x66;
const UPPER_A = 0x41;
const UPPER_F = 0x46;

/**
 * The 16 bytes of an IP address (IPv4 dotted decimal, or IPv6 with `::` and an optional trailing dotted IPv4; a
 * zone such as `%eth0` is dropped, since it only names the interface), or null when `text` is not one.
 */
export function parseAddress(text: string): Uint8Array | null {
  const bytes = new Uint8Array(16);
  if (text.indexOf(":") < 0) {
    bytes[10] = 0xff;
    bytes[11] = 0xff;
    return _readIpv4(text, 0, text.length, bytes, 12) ? bytes : null;
  }
  const percent = text.indexOf("%");
  if (percent === text.length - 1) return null; // a zone with no name
  return _readIpv6(text, percent < 0 ? text.length : percent, bytes) ? bytes : null;
}

/** One range, `10.0.0.0/8`, `fd00::/8`, or an address alone (all its bits); RangeError when it is neither. */
export function parseCidr(text: string): CidrBlock {
  const slash = text.indexOf("/");
  const addressText = slash < 0 ? text : text.slice(0, slash);
  if (addressText.includes("%")) throw new RangeError(`Cannot parse CIDR range: ${text}`); // a zone has no place in a range
  const address = parseAddress(addressText);
  if (!address) throw new RangeError(`Cannot parse CIDR range: ${text}`);
  const v4 = !addressText.includes(":");
  const max = v4 ? 32 : 128;
  const lengthText = slash < 0 ? String(max) : text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(lengthText) || Number(lengthText) > max) throw new RangeError(`Cannot parse CIDR range: ${text} (the prefix length is 0 to ${max})`);
  const bits = Number(lengthText) + (v4 ? _V4_MAPPED_PREFIX : 0);
  // Host bits are cleared rather than refused (192.168.1.10/24 is 192.168.1.0/24), as nginx and GitLab take them.
  const network = new Uint8Array(16);
  for (let i = 0; i < 16; i++) network[i] = address[i]! & _maskByte(bits, i);
  return { network, bits };
}

/**
 * A comma-separated list of ranges (spaces around entries allowed); `""` and `none` are the empty list. A bad entry
 * is a RangeError that names `setting`, the variable it came from.
 */
export function parseCidrList(text: string, setting: string): CidrBlock[] {
  const trimmed = text.trim();
  if (trimmed === "" || trimmed.toLowerCase() === "none") return [];
  return trimmed.split(",").map((entry) => {
    try {
      return parseCidr(entry.trim());
    } catch (e) {
      throw new RangeError(`${setting} must be addresses or CIDR ranges separated by commas, such as 10.0.0.0/8,fd00::/8: ${(e as Error).message}`);
    }
  });
}

/** Whether `address` (as a socket or X-Forwarded-For gives it) is in one of the ranges; false when it is no address. */
export function inCidrList(list: CidrList, address: string): boolean {
  if (list.length === 0) return false;
  const bytes = parseAddress(address);
  return bytes !== null && bytesInCidrList(list, bytes);
}

/** Whether the 16 bytes of an address (parseAddress) are in one of the ranges. */
export function bytesInCidrList(list: CidrList, bytes: Uint8Array): boolean {
  for (const block of list) if (inCidr(block, bytes)) return true;
  return false;
}

/** Whether the 16 bytes of an address (parseAddress) are in `block`. */
export function inCidr(block: CidrBlock, bytes: Uint8Array): boolean {
  for (let i = 0; i < 16; i++) {
    const mask = _maskByte(block.bits, i);
    if (mask === 0) return true;
    if ((bytes[i]! & mask) !== block.network[i]) return false;
  }
  return true;
}

// The mask of byte `i` for a prefix of `bits` bits.
function _maskByte(bits: number, i: number): number {
  const left = bits - 8 * i;
  return left >= 8 ? 0xff : left <= 0 ? 0 : (0xff << (8 - left)) & 0xff;
}

// Dotted decimal in text[start, end) into bytes[at, at + 4): four octets of 0 to 255, none with a leading zero
// (inet_aton would read "010" as octal 8).
function _readIpv4(text: string, start: number, end: number, bytes: Uint8Array, at: number): boolean {
  let octets = 0;
  let value = -1; // -1: no digit yet in this octet
  for (let i = start; i <= end; i++) {
    const c = i === end ? DOT : text.charCodeAt(i);
    if (c === DOT) {
      if (value < 0 || octets === 4) return false;
      bytes[at + octets++] = value;
      value = -1;
    } else if (c >= DIGIT_0 && c <= DIGIT_9) {
      if (value === 0) return false;
      value = value < 0 ? c - DIGIT_0 : value * 10 + c - DIGIT_0;
      if (value > 255) return false;
    } else {
      return false;
    }
  }
  return octets === 4;
}

// RFC 4291 §2.2 over text[0, end) into bytes: eight groups of 1 to 4 hex digits, one "::" standing for one or more
// zero groups, and the last two groups optionally written as dotted IPv4. Groups after "::" are moved to the end.
function _readIpv6(text: string, end: number, bytes: Uint8Array): boolean {
  let group = 0;
  let compress = -1; // the group where "::" stands
  let i = 0;
  if (text.charCodeAt(0) === COLON) {
    if (text.charCodeAt(1) !== COLON) return false;
    compress = 0;
    i = 2;
  }
  while (i < end) {
    if (group === 8) return false;
    const start = i;
    let value = 0;
    for (let d = _hexDigit(text.charCodeAt(i)); i < end && d >= 0 && i - start < 5; d = _hexDigit(text.charCodeAt(++i))) value = value * 16 + d;
    if (i < end && text.charCodeAt(i) === DOT) {
      if (group > 6 || !_readIpv4(text, start, end, bytes, 2 * group)) return false;
      group += 2;
      break;
    }
    if (i === start || i - start > 4) return false;
    bytes[2 * group] = value >>> 8;
    bytes[2 * group + 1] = value & 0xff;
    group++;
    if (i === end) break;
    if (text.charCodeAt(i) !== COLON || ++i === end) return false; // a group ends at a colon that is not the last character
    if (text.charCodeAt(i) === COLON) {
      if (compress >= 0) return false;
      compress = group;
      i++;
    }
  }
  if (compress < 0) return group === 8;
  if (group === 8) return false;
  // Back to front: each group lands past every group still to be moved.
  const after = group - compress;
  for (let k = after - 1; k >= 0; k--) {
    const from = 2 * (compress + k);
    const to = 2 * (8 - after + k);
    bytes[to] = bytes[from]!;
    bytes[to + 1] = bytes[from + 1]!;
    bytes[from] = 0;
    bytes[from + 1] = 0;
  }
  return true;
}

function _hexDigit(c: number): number {
  if (c >= DIGIT_0 && c <= DIGIT_9) return c - DIGIT_0;
  if (c >= LOWER_A && c <= LOWER_F) return c - LOWER_A + 10;
  if (c >= UPPER_A && c <= UPPER_F) return c - UPPER_A + 10;
  return -1;
}

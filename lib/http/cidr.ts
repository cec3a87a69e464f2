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
const _DECIMAL_OCTET = /^(?:0|[1-9]\d{0,2})$/;
const _HEX_GROUP = /^[0-9a-f]{1,4}$/i;

/**
 * The 16 bytes of an IP address (IPv4 dotted decimal, or IPv6 with `::` and an optional trailing dotted IPv4; a
 * zone such as `%eth0` is dropped, since it only names the interface), or null when `text` is not one.
 */
export function parseAddress(text: string): Uint8Array | null {
  if (text.includes(":")) return _parseIpv6(text.includes("%") ? text.slice(0, text.indexOf("%")) : text);
  const v4 = _parseIpv4(text);
  if (!v4) return null;
  const bytes = new Uint8Array(16);
  bytes[10] = 0xff;
  bytes[11] = 0xff;
  bytes.set(v4, 12);
  return bytes;
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
  return bytes !== null && list.some((block) => inCidr(block, bytes));
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

function _parseIpv4(text: string): Uint8Array | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => _DECIMAL_OCTET.test(p) && Number(p) <= 255)) return null;
  return new Uint8Array(parts.map(Number));
}

// RFC 4291 §2.2: eight groups of 1 to 4 hex digits, one "::" standing for one or more zero groups, and the last
// two groups optionally written as dotted IPv4.
function _parseIpv6(text: string): Uint8Array | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (half: string): number[] | null => {
    if (half === "") return [];
    const out: number[] = [];
    const parts = half.split(":");
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (i === parts.length - 1 && part.includes(".")) {
        const v4 = _parseIpv4(part);
        if (!v4) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (_HEX_GROUP.test(part)) out.push(parseInt(part, 16));
      else return null;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return null;
  // The dotted IPv4 may only end the address: in the head of "a.b.c.d::1" it is not the last group.
  if (halves.length === 2 && halves[0]!.includes(".")) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[2 * i] = g >>> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  return bytes;
}

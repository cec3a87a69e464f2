/**
 * SSRF guard for webhook targets: parses IP literals in every spelling that URL
 * parsers and OS resolvers accept (WHATWG URL host parsing, inet_aton, RFC 4291),
 * decides whether an address is public (IANA special-purpose registries, RFC 6890),
 * and validates webhook URLs. It does no DNS: the caller resolves the host at
 * delivery time and passes the address to `checkResolvedAddress` (DNS rebinding).
 * @module
 */

import { validationError } from "../../http/errors.ts";

/** Longest webhook URL accepted: 2048 characters, the common browser and CDN limit for URLs. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

const DOT = 0x2e; // .
const COLON = 0x3a; // :
const DIGIT_0 = 0x30;
const DIGIT_7 = 0x37;
const DIGIT_9 = 0x39;
const UPPER_A = 0x41;
const UPPER_F = 0x46;
const UPPER_X = 0x58;
const LOWER_A = 0x61;
const LOWER_F = 0x66;
const LOWER_X = 0x78;
const END = -1;

/**
 * The bytes of an IP literal (4 for IPv4, 16 for IPv6), or null when `host` is not one.
 * IPv4 follows inet_aton and WHATWG URL: 1 to 4 parts, each decimal, octal (`0` prefix)
 * or hex (`0x` prefix), the last part filling the remaining bytes (`127.1`, `2130706433`).
 * IPv6 follows the WHATWG IPv6 parser (compression, trailing dotted IPv4), with optional
 * brackets and a zone id (`fe80::1%eth0`) that is dropped.
 */
export function parseIpLiteral(host: string): Uint8Array | null {
  let text = host;
  if (text.startsWith("[")) {
    if (!text.endsWith("]")) return null;
    text = text.slice(1, -1);
    if (!text.includes(":")) return null;
  }
  if (text.includes(":")) {
    const percent = text.indexOf("%");
    // A zone id only scopes a link-local address to an interface; it never changes the address.
    if (percent !== -1) {
      if (percent === text.length - 1) return null;
      text = text.slice(0, percent);
    }
    return _parseIpv6(text);
  }
  return _parseIpv4(text);
}

// IANA IPv4 Special-Purpose Address Registry (RFC 6890 and updates), plus multicast and reserved.
const _IPV4_NOT_PUBLIC: readonly (readonly [number, number])[] = [
  [0x00000000, 8], // 0.0.0.0/8 "this network"; 0.0.0.0 reaches localhost on Linux
  [0x0a000000, 8], // 10/8 private (RFC 1918)
  [0x64400000, 10], // 100.64/10 carrier-grade NAT (RFC 6598)
  [0x7f000000, 8], // 127/8 loopback
  [0xa9fe0000, 16], // 169.254/16 link-local, including cloud metadata 169.254.169.254
  [0xac100000, 12], // 172.16/12 private
  [0xc0000000, 24], // 192.0.0/24 IETF protocol assignments
  [0xc0000200, 24], // 192.0.2/24 TEST-NET-1
  [0xc0586300, 24], // 192.88.99/24 6to4 relay anycast (deprecated)
  [0xc0a80000, 16], // 192.168/16 private
  [0xc6120000, 15], // 198.18/15 benchmarking
  [0xc6336400, 24], // 198.51.100/24 TEST-NET-2
  [0xcb007100, 24], // 203.0.113/24 TEST-NET-3
  [0xe0000000, 4], // 224/4 multicast
  [0xf0000000, 4], // 240/4 reserved, including 255.255.255.255 broadcast
];

// IPv6 ranges inside 2000::/3 that are not public (IANA IPv6 Special-Purpose Address Registry).
const _IPV6_NOT_PUBLIC: readonly (readonly [string, number])[] = [
  ["2001::", 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID
  ["2001:db8::", 32], // documentation (RFC 3849)
  ["3fff::", 20], // documentation (RFC 9637)
];
const _IPV6_NOT_PUBLIC_BYTES = _IPV6_NOT_PUBLIC.map(([text, bits]) => [_parseIpv6(text) as Uint8Array, bits] as const);
const _NAT64 = _parseIpv6("64:ff9b::") as Uint8Array;

/** Whether an address (4 or 16 bytes) is globally reachable unicast, safe to send webhooks to. */
export function isPublicAddress(bytes: Uint8Array): boolean {
  if (bytes.length === 4) {
    const value = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
    return !_IPV4_NOT_PUBLIC.some(([net, bits]) => _ipv4InRange(value, net, bits));
  }
  if (bytes.length !== 16) return false;
  // Addresses that carry an IPv4 address are only as public as the IPv4 address they reach.
  if (_isZero(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return isPublicAddress(bytes.subarray(12)); // ::ffff:0:0/96 mapped
  if (_inRange(bytes, _NAT64, 96)) return isPublicAddress(bytes.subarray(12)); // 64:ff9b::/96 NAT64 (RFC 6052)
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return isPublicAddress(bytes.subarray(2, 6)); // 2002::/16 6to4 (RFC 3056)
  // Only 2000::/3 is global unicast: this refuses ::, ::1, ::/96 compatible, 100::/64,
  // fc00::/7 ULA, fe80::/10 link-local, fec0::/10 site-local and ff00::/8 multicast.
  if ((bytes[0]! & 0xe0) !== 0x20) return false;
  return !_IPV6_NOT_PUBLIC_BYTES.some(([net, bits]) => _inRange(bytes, net, bits));
}

/** The setting that allows plain http and private targets (README “Configuration”), named in the messages that refuse them. */
const ALLOW_PRIVATE_SETTING = "WEBHOOK_ALLOW_PRIVATE";

/**
 * The webhook URL, parsed, or a 422 VALIDATION_ERROR on `url`: unparsable, not http(s),
 * with credentials, or (unless `allowPrivate`) plain http, a non-public IP literal or localhost.
 */
export function validateWebhookUrl(url: string, allowPrivate: boolean): URL {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) {
    throw validationError("url", "too_long", `Webhook URL must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  }
  let parsed: URL;
  try {
    // WHATWG parsing normalises IPv4 spellings (0x7f.1 -> 127.0.0.1), IDNA and case.
    parsed = new URL(url);
  } catch {
    throw validationError("url", "invalid_url", "Webhook URL is not a valid absolute URL");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw validationError("url", "unsupported_scheme", "Webhook URL must use https");
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw validationError("url", "credentials_not_allowed", "Webhook URL must not contain credentials");
  }
  // Port 0 is nobody's port: no connection to it can succeed.
  if (parsed.port === "0") throw validationError("url", "invalid_port", "Webhook URL must not use port 0");
  if (allowPrivate) return parsed;
  if (parsed.protocol !== "https:") {
    throw validationError("url", "not_https", `Webhook URL must use https (plain http and private addresses are allowed only when the server runs with ${ALLOW_PRIVATE_SETTING}=on, for development)`);
  }
  const host = parsed.hostname.endsWith(".") ? parsed.hostname.slice(0, -1) : parsed.hostname;
  const ip = parseIpLiteral(host);
  if ((ip !== null && !isPublicAddress(ip)) || host === "localhost" || host.endsWith(".localhost")) {
    throw validationError("url", "private_address", `Webhook URL must not point to a private, loopback or link-local address (allowed only with ${ALLOW_PRIVATE_SETTING}=on, for development)`);
  }
  return parsed;
}

/** Whether a resolved address may be connected to at delivery time (false when unparsable). */
export function checkResolvedAddress(address: string, allowPrivate: boolean): boolean {
  if (allowPrivate) return true;
  const ip = parseIpLiteral(address);
  return ip !== null && isPublicAddress(ip);
}

function _parseIpv4(input: string): Uint8Array | null {
  // WHATWG URL drops one trailing dot ("127.0.0.1." is 127.0.0.1).
  const text = input.length > 1 && input.charCodeAt(input.length - 1) === DOT ? input.slice(0, -1) : input;
  const parts = text.split(".");
  if (parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    const n = _parseIpv4Number(part);
    if (n === null) return null;
    numbers.push(n);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255)) return null;
  // The last part fills all remaining bytes: 127.1 is 127.0.0.1, 10.1.1 is 10.1.0.1.
  if (last >= 256 ** (4 - numbers.length)) return null;
  let value = last;
  numbers.forEach((n, i) => (value += n * 256 ** (3 - i)));
  return new Uint8Array([value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]);
}

function _parseIpv4Number(part: string): number | null {
  if (part === "") return null;
  let radix = 10;
  let start = 0;
  const c1 = part.charCodeAt(1);
  if (part.charCodeAt(0) === DIGIT_0 && (c1 === LOWER_X || c1 === UPPER_X)) {
    radix = 16;
    start = 2; // "0x" alone is 0, as in WHATWG URL and inet_aton
  } else if (part.length > 1 && part.charCodeAt(0) === DIGIT_0) {
    radix = 8;
    start = 1;
  }
  let value = 0;
  for (let i = start; i < part.length; i++) {
    const digit = _digitValue(part.charCodeAt(i), radix);
    if (digit === -1) return null;
    value = value * radix + digit;
    if (value > 0xffffffff) return null; // stop early: no part may exceed 32 bits
  }
  return value;
}

function _digitValue(c: number, radix: number): number {
  if (c >= DIGIT_0 && c <= (radix === 8 ? DIGIT_7 : DIGIT_9)) return c - DIGIT_0;
  if (radix !== 16) return -1;
  if (c >= LOWER_A && c <= LOWER_F) return c - LOWER_A + 10;
  if (c >= UPPER_A && c <= UPPER_F) return c - UPPER_A + 10;
  return -1;
}

/** The WHATWG URL IPv6 parser (url.spec.whatwg.org, "IPv6 parser"), as a state machine over char codes. */
function _parseIpv6(text: string): Uint8Array | null {
  const pieces = [0, 0, 0, 0, 0, 0, 0, 0];
  let pieceIndex = 0;
  let compress = -1;
  let p = 0;
  const at = (i: number): number => (i < text.length ? text.charCodeAt(i) : END);
  if (at(p) === COLON) {
    if (at(p + 1) !== COLON) return null;
    p += 2;
    compress = ++pieceIndex;
  }
  while (at(p) !== END) {
    if (pieceIndex === 8) return null;
    if (at(p) === COLON) {
      if (compress !== -1) return null;
      p++;
      compress = ++pieceIndex;
      continue;
    }
    let value = 0;
    let length = 0;
    while (length < 4 && _digitValue(at(p), 16) !== -1) {
      value = value * 16 + _digitValue(at(p), 16);
      p++;
      length++;
    }
    if (at(p) === DOT) {
      // A trailing dotted IPv4 (::ffff:127.0.0.1): strict decimal, no leading zeros.
      if (length === 0 || pieceIndex > 6) return null;
      p -= length;
      let numbersSeen = 0;
      while (at(p) !== END) {
        if (numbersSeen > 0) {
          if (at(p) !== DOT || numbersSeen >= 4) return null;
          p++;
        }
        if (_digitValue(at(p), 10) === -1) return null;
        let octet = -1;
        while (_digitValue(at(p), 10) !== -1) {
          const digit = at(p) - DIGIT_0;
          if (octet === 0) return null;
          octet = octet === -1 ? digit : octet * 10 + digit;
          if (octet > 255) return null;
          p++;
        }
        pieces[pieceIndex] = pieces[pieceIndex]! * 0x100 + octet;
        numbersSeen++;
        if (numbersSeen === 2 || numbersSeen === 4) pieceIndex++;
      }
      if (numbersSeen !== 4) return null;
      break;
    }
    if (at(p) === COLON) {
      p++;
      if (at(p) === END) return null;
    } else if (at(p) !== END) {
      return null;
    }
    pieces[pieceIndex++] = value;
  }
  if (compress !== -1) {
    // Move the pieces after "::" to the end; the gap stays zero.
    let swaps = pieceIndex - compress;
    pieceIndex = 7;
    while (pieceIndex !== 0 && swaps > 0) {
      const other = compress + swaps - 1;
      [pieces[pieceIndex], pieces[other]] = [pieces[other]!, pieces[pieceIndex]!];
      pieceIndex--;
      swaps--;
    }
  } else if (pieceIndex !== 8) {
    return null;
  }
  const bytes = new Uint8Array(16);
  pieces.forEach((piece, i) => {
    bytes[2 * i] = piece >>> 8;
    bytes[2 * i + 1] = piece & 0xff;
  });
  return bytes;
}

function _ipv4InRange(value: number, net: number, bits: number): boolean {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return ((value & mask) >>> 0) === net;
}

function _inRange(bytes: Uint8Array, net: Uint8Array, bits: number): boolean {
  const whole = bits >>> 3;
  for (let i = 0; i < whole; i++) if (bytes[i] !== net[i]) return false;
  const rest = bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (bytes[whole]! & mask) === (net[whole]! & mask);
}

function _isZero(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (bytes[i] !== 0) return false;
  return true;
}

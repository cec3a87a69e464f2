import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "../../../lib/http/errors.ts";
import {
  checkResolvedAddress,
  isPublicAddress,
  parseIpLiteral,
  validateWebhookUrl,
} from "../../../lib/jobs/webhooks/address_guard.ts";

/** Bytes as text: dotted quad, or eight full hex groups. */
function show(bytes: Uint8Array | null): string | null {
  if (bytes === null) return null;
  if (bytes.length === 4) return Array.from(bytes).join(".");
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(":");
}

// Every spelling of a non-public address that some URL parser or OS resolver accepts.
const REFUSED_V4 = [
  { what: "loopback, dotted decimal", input: "127.0.0.1", expected: "127.0.0.1" },
  { what: "loopback, short form a.b", input: "127.1", expected: "127.0.0.1" },
  { what: "loopback, short form a.b.c", input: "127.0.1", expected: "127.0.0.1" },
  { what: "loopback, one 32-bit integer", input: "2130706433", expected: "127.0.0.1" },
  { what: "loopback, octal first part", input: "0177.0.0.1", expected: "127.0.0.1" },
  { what: "loopback, octal short form", input: "0177.1", expected: "127.0.0.1" },
  { what: "loopback, octal integer", input: "017700000001", expected: "127.0.0.1" },
  { what: "loopback, hex first part", input: "0x7f.0.0.1", expected: "127.0.0.1" },
  { what: "loopback, hex integer", input: "0x7f000001", expected: "127.0.0.1" },
  { what: "loopback, upper-case hex short form", input: "0X7F.1", expected: "127.0.0.1" },
  { what: "loopback, hex every part", input: "0x7f.0x0.0x0.0x1", expected: "127.0.0.1" },
  { what: "loopback, mixed radixes", input: "0x7f.0.00.01", expected: "127.0.0.1" },
  { what: "loopback, trailing dot", input: "127.0.0.1.", expected: "127.0.0.1" },
  { what: "loopback, other host in 127/8", input: "127.255.255.254", expected: "127.255.255.254" },
  { what: "this network, single zero", input: "0", expected: "0.0.0.0" },
  { what: "this network, dotted", input: "0.0.0.0", expected: "0.0.0.0" },
  { what: "this network, bare 0x", input: "0x", expected: "0.0.0.0" },
  { what: "private 10/8, short form a.b.c", input: "10.1.1", expected: "10.1.0.1" },
  { what: "private 10/8, octal", input: "012.1", expected: "10.0.0.1" },
  { what: "private 10/8, integer", input: "167772161", expected: "10.0.0.1" },
  { what: "CGNAT 100.64/10", input: "100.64.0.1", expected: "100.64.0.1" },
  { what: "CGNAT upper end", input: "100.127.255.255", expected: "100.127.255.255" },
  { what: "metadata link-local", input: "169.254.169.254", expected: "169.254.169.254" },
  { what: "metadata link-local, hex", input: "0xa9fea9fe", expected: "169.254.169.254" },
  { what: "metadata link-local, integer", input: "2852039166", expected: "169.254.169.254" },
  { what: "metadata link-local, octal parts", input: "0251.0376.0251.0376", expected: "169.254.169.254" },
  { what: "private 172.16/12", input: "172.16.0.1", expected: "172.16.0.1" },
  { what: "private 172.16/12 upper end", input: "172.31.255.255", expected: "172.31.255.255" },
  { what: "private 192.168/16", input: "192.168.1.1", expected: "192.168.1.1" },
  { what: "private 192.168/16, integer", input: "3232235777", expected: "192.168.1.1" },
  { what: "IETF protocol assignments", input: "192.0.0.8", expected: "192.0.0.8" },
  { what: "TEST-NET-1", input: "192.0.2.1", expected: "192.0.2.1" },
  { what: "6to4 relay anycast", input: "192.88.99.1", expected: "192.88.99.1" },
  { what: "benchmarking", input: "198.18.0.1", expected: "198.18.0.1" },
  { what: "benchmarking upper end", input: "198.19.255.255", expected: "198.19.255.255" },
  { what: "TEST-NET-2", input: "198.51.100.1", expected: "198.51.100.1" },
  { what: "TEST-NET-3", input: "203.0.113.1", expected: "203.0.113.1" },
  { what: "multicast", input: "224.0.0.1", expected: "224.0.0.1" },
  { what: "multicast SSDP", input: "239.255.255.250", expected: "239.255.255.250" },
  { what: "reserved 240/4", input: "240.0.0.1", expected: "240.0.0.1" },
  { what: "broadcast", input: "255.255.255.255", expected: "255.255.255.255" },
  { what: "broadcast, integer", input: "4294967295", expected: "255.255.255.255" },
  { what: "broadcast, hex", input: "0xffffffff", expected: "255.255.255.255" },
];

const REFUSED_V6 = [
  { what: "unspecified", input: "::", expected: "0:0:0:0:0:0:0:0" },
  { what: "loopback", input: "::1", expected: "0:0:0:0:0:0:0:1" },
  { what: "loopback, uncompressed", input: "0:0:0:0:0:0:0:1", expected: "0:0:0:0:0:0:0:1" },
  { what: "loopback, zero-padded", input: "0000:0000:0000:0000:0000:0000:0000:0001", expected: "0:0:0:0:0:0:0:1" },
  { what: "loopback, partly compressed", input: "0:0::0:1", expected: "0:0:0:0:0:0:0:1" },
  { what: "mapped loopback, dotted", input: "::ffff:127.0.0.1", expected: "0:0:0:0:0:ffff:7f00:1" },
  { what: "mapped loopback, upper case", input: "::FFFF:127.0.0.1", expected: "0:0:0:0:0:ffff:7f00:1" },
  { what: "mapped loopback, hex", input: "::ffff:7f00:1", expected: "0:0:0:0:0:ffff:7f00:1" },
  { what: "mapped loopback, uncompressed", input: "0:0:0:0:0:ffff:7f00:1", expected: "0:0:0:0:0:ffff:7f00:1" },
  { what: "mapped private", input: "::ffff:10.0.0.1", expected: "0:0:0:0:0:ffff:a00:1" },
  { what: "mapped metadata, dotted", input: "::ffff:169.254.169.254", expected: "0:0:0:0:0:ffff:a9fe:a9fe" },
  { what: "mapped metadata, hex", input: "::ffff:a9fe:a9fe", expected: "0:0:0:0:0:ffff:a9fe:a9fe" },
  { what: "mapped this-network", input: "::ffff:0.0.0.0", expected: "0:0:0:0:0:ffff:0:0" },
  { what: "IPv4-compatible loopback, dotted", input: "::127.0.0.1", expected: "0:0:0:0:0:0:7f00:1" },
  { what: "IPv4-compatible loopback, hex", input: "::7f00:1", expected: "0:0:0:0:0:0:7f00:1" },
  { what: "IPv4-translated loopback", input: "::ffff:0:127.0.0.1", expected: "0:0:0:0:ffff:0:7f00:1" },
  { what: "NAT64 loopback, dotted", input: "64:ff9b::127.0.0.1", expected: "64:ff9b:0:0:0:0:7f00:1" },
  { what: "NAT64 loopback, hex", input: "64:ff9b::7f00:1", expected: "64:ff9b:0:0:0:0:7f00:1" },
  { what: "NAT64 private", input: "64:ff9b::10.0.0.1", expected: "64:ff9b:0:0:0:0:a00:1" },
  { what: "NAT64 metadata", input: "64:ff9b::a9fe:a9fe", expected: "64:ff9b:0:0:0:0:a9fe:a9fe" },
  { what: "local-use NAT64", input: "64:ff9b:1::8.8.8.8", expected: "64:ff9b:1:0:0:0:808:808" },
  { what: "discard-only", input: "100::1", expected: "100:0:0:0:0:0:0:1" },
  { what: "Teredo", input: "2001::1", expected: "2001:0:0:0:0:0:0:1" },
  { what: "benchmarking", input: "2001:2::1", expected: "2001:2:0:0:0:0:0:1" },
  { what: "ORCHID", input: "2001:10::1", expected: "2001:10:0:0:0:0:0:1" },
  { what: "end of 2001::/23", input: "2001:1ff:ffff::1", expected: "2001:1ff:ffff:0:0:0:0:1" },
  { what: "documentation 2001:db8::/32", input: "2001:db8::1", expected: "2001:db8:0:0:0:0:0:1" },
  { what: "documentation 3fff::/20", input: "3fff:fff::1", expected: "3fff:fff:0:0:0:0:0:1" },
  { what: "6to4 of loopback", input: "2002:7f00:1::", expected: "2002:7f00:1:0:0:0:0:0" },
  { what: "6to4 of a private address", input: "2002:a00:1::1", expected: "2002:a00:1:0:0:0:0:1" },
  { what: "unique local fc00::/7", input: "fc00::1", expected: "fc00:0:0:0:0:0:0:1" },
  { what: "unique local fd00::/8", input: "fd12:3456:789a::1", expected: "fd12:3456:789a:0:0:0:0:1" },
  { what: "link-local", input: "fe80::1", expected: "fe80:0:0:0:0:0:0:1" },
  { what: "link-local upper end", input: "febf::1", expected: "febf:0:0:0:0:0:0:1" },
  { what: "link-local with zone id", input: "fe80::1%eth0", expected: "fe80:0:0:0:0:0:0:1" },
  { what: "link-local with percent-encoded zone id", input: "fe80::1%25eth0", expected: "fe80:0:0:0:0:0:0:1" },
  { what: "site-local", input: "fec0::1", expected: "fec0:0:0:0:0:0:0:1" },
  { what: "multicast all nodes", input: "ff02::1", expected: "ff02:0:0:0:0:0:0:1" },
  { what: "multicast site", input: "ff05::1:3", expected: "ff05:0:0:0:0:0:1:3" },
  { what: "outside 2000::/3", input: "4000::1", expected: "4000:0:0:0:0:0:0:1" },
  { what: "bracketed loopback", input: "[::1]", expected: "0:0:0:0:0:0:0:1" },
  { what: "bracketed mapped loopback", input: "[::ffff:7f00:1]", expected: "0:0:0:0:0:ffff:7f00:1" },
  { what: "bracketed link-local with zone", input: "[fe80::1%25eth0]", expected: "fe80:0:0:0:0:0:0:1" },
];

const PUBLIC = [
  { what: "Google DNS", input: "8.8.8.8", expected: "8.8.8.8" },
  { what: "Cloudflare DNS", input: "1.1.1.1", expected: "1.1.1.1" },
  { what: "Google DNS as an integer", input: "134744072", expected: "8.8.8.8" },
  { what: "just below CGNAT", input: "100.63.255.255", expected: "100.63.255.255" },
  { what: "just above CGNAT", input: "100.128.0.0", expected: "100.128.0.0" },
  { what: "just below 172.16/12", input: "172.15.255.255", expected: "172.15.255.255" },
  { what: "just above 172.16/12", input: "172.32.0.0", expected: "172.32.0.0" },
  { what: "just above 192.168/16", input: "192.169.0.1", expected: "192.169.0.1" },
  { what: "just below benchmarking", input: "198.17.255.255", expected: "198.17.255.255" },
  { what: "just above benchmarking", input: "198.20.0.0", expected: "198.20.0.0" },
  { what: "top of unicast", input: "223.255.255.255", expected: "223.255.255.255" },
  { what: "Cloudflare IPv6", input: "2606:4700::1111", expected: "2606:4700:0:0:0:0:0:1111" },
  { what: "bracketed Cloudflare IPv6", input: "[2606:4700::1111]", expected: "2606:4700:0:0:0:0:0:1111" },
  { what: "Google IPv6", input: "2a00:1450:4001:80b::200e", expected: "2a00:1450:4001:80b:0:0:0:200e" },
  { what: "just above 2001::/23", input: "2001:200::1", expected: "2001:200:0:0:0:0:0:1" },
  { what: "just above documentation", input: "2001:db9::1", expected: "2001:db9:0:0:0:0:0:1" },
  { what: "mapped public IPv4", input: "::ffff:8.8.8.8", expected: "0:0:0:0:0:ffff:808:808" },
  { what: "NAT64 of a public IPv4", input: "64:ff9b::8.8.8.8", expected: "64:ff9b:0:0:0:0:808:808" },
  { what: "6to4 of a public IPv4", input: "2002:808:808::1", expected: "2002:808:808:0:0:0:0:1" },
];

const NOT_IP_LITERALS = [
  { what: "a host name", input: "example.com" },
  { what: "localhost (a name, checked separately)", input: "localhost" },
  { what: "empty", input: "" },
  { what: "a lone dot", input: "." },
  { what: "octet over 255", input: "256.0.0.1" },
  { what: "five parts", input: "1.2.3.4.5" },
  { what: "integer over 32 bits", input: "4294967296" },
  { what: "hex over 32 bits", input: "0x100000000" },
  { what: "short form overflowing its bytes", input: "127.16777216" },
  { what: "bad octal digit", input: "08.0.0.1" },
  { what: "negative part", input: "1.2.3.-1" },
  { what: "empty part", input: "1..2.3" },
  { what: "two trailing dots", input: "1.2.3.4.." },
  { what: "surrounding space", input: " 1.2.3.4" },
  { what: "trailing garbage", input: "1.2.3.4x" },
  { what: "embedded IPv4 with a leading zero", input: "::ffff:0127.0.0.1" },
  { what: "embedded IPv4 with three parts", input: "::ffff:1.2.3" },
  { what: "embedded IPv4 not last", input: "::1.2.3.4:1" },
  { what: "nine groups", input: "1:2:3:4:5:6:7:8:9" },
  { what: "seven groups, no compression", input: "1:2:3:4:5:6:7" },
  { what: "triple colon", input: ":::" },
  { what: "two compressions", input: "1::2::3" },
  { what: "five hex digits", input: "12345::" },
  { what: "trailing single colon", input: "1::2:" },
  { what: "leading single colon", input: ":1::2" },
  { what: "non-hex group", input: "g::1" },
  { what: "unclosed bracket", input: "[::1" },
  { what: "bracketed IPv4", input: "[127.0.0.1]" },
  { what: "empty zone id", input: "fe80::1%" },
];

test("parseIpLiteral() reads every spelling of non-public IPv4 addresses", () => {
  for (const { what, input, expected } of REFUSED_V4) assert.equal(show(parseIpLiteral(input)), expected, what);
});

test("parseIpLiteral() reads every spelling of non-public IPv6 addresses", () => {
  for (const { what, input, expected } of REFUSED_V6) assert.equal(show(parseIpLiteral(input)), expected, what);
});

test("parseIpLiteral() returns null for what is not an IP literal", () => {
  for (const { what, input } of NOT_IP_LITERALS) assert.equal(parseIpLiteral(input), null, what);
});

test("parseIpLiteral() agrees with WHATWG URL host parsing on every IPv4 spelling", () => {
  for (const { what, input } of [...REFUSED_V4, ...PUBLIC.filter((c) => !c.input.includes(":"))]) {
    assert.equal(new URL(`http://${input}/`).hostname, show(parseIpLiteral(input)), what);
  }
});

test("isPublicAddress() refuses every non-public address, however it is spelled", () => {
  for (const { what, input } of [...REFUSED_V4, ...REFUSED_V6]) {
    const bytes = parseIpLiteral(input);
    assert.ok(bytes, what);
    assert.equal(isPublicAddress(bytes), false, what);
  }
});

test("isPublicAddress() accepts public unicast addresses", () => {
  for (const { what, input, expected } of PUBLIC) {
    const bytes = parseIpLiteral(input);
    assert.equal(show(bytes), expected, what);
    assert.equal(isPublicAddress(bytes!), true, what);
  }
});

test("isPublicAddress() refuses byte arrays that are not 4 or 16 long", () => {
  assert.equal(isPublicAddress(new Uint8Array([8, 8, 8])), false);
  assert.equal(isPublicAddress(new Uint8Array(0)), false);
});

/** The issue of the 422 that validateWebhookUrl throws, or "accepted". */
function outcome(url: string, allowPrivate = false): string {
  try {
    validateWebhookUrl(url, allowPrivate);
    return "accepted";
  } catch (err) {
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 422);
    assert.equal(err.code, "VALIDATION_ERROR");
    assert.equal(err.details.field, "url");
    return String(err.details.issue);
  }
}

test("validateWebhookUrl() refuses every non-public IPv4 spelling in a URL", () => {
  for (const { what, input } of REFUSED_V4) assert.equal(outcome(`https://${input}/hook`), "private_address", what);
});

test("validateWebhookUrl() refuses every non-public IPv6 address in a URL", () => {
  for (const { what, input } of REFUSED_V6) {
    const host = input.startsWith("[") ? input : `[${input}]`;
    // WHATWG URL has no zone ids: those URLs are unparsable, which refuses them too.
    const expected = input.includes("%") ? "invalid_url" : "private_address";
    assert.equal(outcome(`https://${host}:8443/hook`), expected, what);
  }
});

test("validateWebhookUrl() refuses the hosts that WHATWG URL normalises to a private address", () => {
  const cases = [
    { what: "full-width digits", input: "https://１２７.０.０.１/", expected: "private_address" },
    { what: "ideographic full stops", input: "https://127。0。0。1/", expected: "private_address" },
    { what: "percent-encoded host", input: "https://%31%32%37.0.0.1/", expected: "private_address" },
    { what: "localhost", input: "https://localhost/hook", expected: "private_address" },
    { what: "localhost, upper case, trailing dot", input: "https://LOCALHOST./hook", expected: "private_address" },
    { what: "a .localhost subdomain", input: "https://api.localhost:8443/", expected: "private_address" },
    { what: "a .localhost subdomain with trailing dot", input: "https://a.b.localhost./", expected: "private_address" },
    { what: "enclosed alphanumerics for localhost", input: "https://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/", expected: "private_address" },
    { what: "host ending in a number out of range", input: "https://256.0.0.1/", expected: "invalid_url" },
    { what: "embedded IPv4 with leading zero", input: "https://[::ffff:0127.0.0.1]/", expected: "invalid_url" },
  ];
  for (const { what, input, expected } of cases) assert.equal(outcome(input), expected, what);
});

test("validateWebhookUrl() refuses bad schemes, credentials, plain http and unparsable input", () => {
  const cases = [
    { what: "plain http", input: "http://example.com/hook", expected: "not_https" },
    { what: "ftp", input: "ftp://example.com/", expected: "unsupported_scheme" },
    { what: "file", input: "file:///etc/passwd", expected: "unsupported_scheme" },
    { what: "javascript", input: "javascript:alert(1)", expected: "unsupported_scheme" },
    { what: "data", input: "data:text/plain,hi", expected: "unsupported_scheme" },
    { what: "gopher", input: "gopher://127.0.0.1:6379/_INFO", expected: "unsupported_scheme" },
    { what: "user and password", input: "https://user:pass@example.com/", expected: "credentials_not_allowed" },
    { what: "user only", input: "https://user@example.com/", expected: "credentials_not_allowed" },
    { what: "password only", input: "https://:pass@example.com/", expected: "credentials_not_allowed" },
    { what: "not a URL", input: "not a url", expected: "invalid_url" },
    { what: "relative", input: "/hooks/1", expected: "invalid_url" },
    { what: "no host", input: "https://", expected: "invalid_url" },
    { what: "empty", input: "", expected: "invalid_url" },
    { what: "too long", input: `https://example.com/${"a".repeat(2048)}`, expected: "too_long" },
  ];
  for (const { what, input, expected } of cases) assert.equal(outcome(input), expected, what);
});

test("validateWebhookUrl() accepts public https targets and returns the parsed URL", () => {
  const cases = [
    { what: "host name", input: "https://example.com/hook", expected: "example.com" },
    { what: "host name with port and query", input: "https://hooks.example.com:8443/a?b=c", expected: "hooks.example.com" },
    { what: "public IPv4", input: "https://8.8.8.8/", expected: "8.8.8.8" },
    { what: "public IPv6", input: "https://[2606:4700::1111]/x", expected: "[2606:4700::1111]" },
    { what: "name that merely contains localhost", input: "https://localhost.example.com/", expected: "localhost.example.com" },
  ];
  for (const { what, input, expected } of cases) assert.equal(validateWebhookUrl(input, false).hostname, expected, what);
});

test("validateWebhookUrl() allows http and private targets when configured, but never credentials or other schemes", () => {
  const cases = [
    { what: "http loopback", input: "http://127.0.0.1:3000/hook", expected: "accepted" },
    { what: "localhost", input: "http://localhost:3000/hook", expected: "accepted" },
    { what: "IPv6 loopback", input: "http://[::1]:3000/", expected: "accepted" },
    { what: "credentials", input: "http://u:p@127.0.0.1/", expected: "credentials_not_allowed" },
    { what: "ftp", input: "ftp://127.0.0.1/", expected: "unsupported_scheme" },
  ];
  for (const { what, input, expected } of cases) assert.equal(outcome(input, true), expected, what);
});

test("checkResolvedAddress() refuses non-public and unparsable resolver answers unless private targets are allowed", () => {
  const cases = [
    { what: "public IPv4", input: "93.184.215.14", expected: true },
    { what: "public IPv6", input: "2606:4700::1111", expected: true },
    { what: "loopback", input: "127.0.0.1", expected: false },
    { what: "mapped loopback", input: "::ffff:127.0.0.1", expected: false },
    { what: "link-local with zone", input: "fe80::1%eth0", expected: false },
    { what: "metadata", input: "169.254.169.254", expected: false },
    { what: "garbage", input: "not-an-address", expected: false },
  ];
  for (const { what, input, expected } of cases) {
    assert.equal(checkResolvedAddress(input, false), expected, what);
    assert.equal(checkResolvedAddress(input, true), true, what);
  }
});

test("validateWebhookUrl() names WEBHOOK_ALLOW_PRIVATE when it refuses http: or a private address", () => {
  for (const url of ["http://example.com/hook", "https://127.0.0.1/hook"]) {
    assert.throws(() => validateWebhookUrl(url, false), (err: unknown) => {
      assert.ok(err instanceof ApiError);
      assert.match(err.message, /WEBHOOK_ALLOW_PRIVATE=on/, url);
      return true;
    });
  }
});

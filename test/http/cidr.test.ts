/**
 * The CIDR ranges of OPS_ALLOW and TRUST_PROXY (README "Configuration"): IPv4, IPv6, IPv4-mapped IPv6 as node
 * reports it, and the entries that are refused at startup.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { isIP } from "node:net";
import { inCidrList, parseAddress, parseCidr, parseCidrList } from "../../lib/http/cidr.ts";

const list = (text: string) => parseCidrList(text, "TEST");

const REFUSED = ["", "localhost", "127.1", "2130706433", "0x7f.0.0.1", "010.0.0.1", "256.0.0.1", "1.2.3.4.5", "1.2.3.", " 127.0.0.1",
  ":::", "1::2::3", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "1::2:3:4:5:6:7:8", "12345::", "00000::", "::g", ":1", "1:", "1.2.3.4::", "::1.2.3",
  "::01.2.3.4", "1:2:3:4:5:6:7:1.2.3.4", "[::1]", "fe80::1%"];

describe("parseAddress()", () => {
  test("reads IPv4 and IPv6 into the same 16 bytes, IPv4 as its mapped form", () => {
    const cases = [
      { what: "IPv4", input: "127.0.0.1", expected: "00000000000000000000ffff7f000001" },
      { what: "IPv4-mapped IPv6, as node reports an IPv4 client of a dual-stack socket", input: "::ffff:127.0.0.1", expected: "00000000000000000000ffff7f000001" },
      { what: "IPv4-mapped IPv6 in hex", input: "::ffff:7f00:1", expected: "00000000000000000000ffff7f000001" },
      { what: "IPv6 loopback", input: "::1", expected: "00000000000000000000000000000001" },
      { what: "the unspecified address", input: "::", expected: "00000000000000000000000000000000" },
      { what: "IPv6 in full, upper case", input: "2001:DB8:0:0:0:0:0:7", expected: "20010db8000000000000000000000007" },
      { what: "IPv6 compressed in the middle", input: "2001:db8::7", expected: "20010db8000000000000000000000007" },
      { what: "IPv6 compressed at the end", input: "fe80::", expected: "fe800000000000000000000000000000" },
      { what: "a link-local address with its zone", input: "fe80::1%eth0", expected: "fe800000000000000000000000000001" },
      { what: "one group each side of ::", input: "1::8", expected: "00010000000000000000000000000008" },
      { what: ":: for one group", input: "1:2:3:4:5:6:7::", expected: "00010002000300040005000600070000" },
      { what: "six groups and dotted IPv4", input: "1:2:3:4:5:6:1.2.3.4", expected: "00010002000300040005000601020304" },
      { what: ":: before dotted IPv4", input: "1:2::1.2.3.4", expected: "00010002000000000000000001020304" },
    ];
    for (const { what, input, expected } of cases) assert.equal(Buffer.from(parseAddress(input) ?? []).toString("hex"), expected, what);
  });

  test("refuses what is not an address, and IPv4 spellings other than dotted decimal", () => {
    for (const input of REFUSED) assert.equal(parseAddress(input), null, JSON.stringify(input));
  });

  test("agrees with node:net on which strings are addresses", () => {
    const accepted = ["127.0.0.1", "::ffff:127.0.0.1", "::1", "::", "2001:DB8:0:0:0:0:0:7", "fe80::1%eth0", "1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6::1.2.3.4", "0000::"];
    for (const input of [...REFUSED, ...accepted]) assert.equal(parseAddress(input) !== null, isIP(input) !== 0, JSON.stringify(input));
  });
});

describe("inCidrList()", () => {
  test("matches addresses against IPv4 and IPv6 ranges, mapped IPv4 included", () => {
    const cases = [
      { what: "IPv4 in its /8", ranges: "127.0.0.0/8", address: "127.5.6.7", expected: true },
      { what: "IPv4 outside the /8", ranges: "127.0.0.0/8", address: "128.0.0.1", expected: false },
      { what: "mapped IPv4 in an IPv4 range", ranges: "127.0.0.0/8", address: "::ffff:127.0.0.1", expected: true },
      { what: "mapped IPv4 outside an IPv4 range", ranges: "10.0.0.0/8", address: "::ffff:127.0.0.1", expected: false },
      { what: "IPv6 loopback is not IPv4 loopback", ranges: "127.0.0.0/8", address: "::1", expected: false },
      { what: "IPv6 loopback by the default", ranges: "127.0.0.0/8,::1", address: "::1", expected: true },
      { what: "another IPv6 host is not ::1", ranges: "127.0.0.0/8,::1", address: "::2", expected: false },
      { what: "a /12 boundary, inside", ranges: "172.16.0.0/12", address: "172.31.255.255", expected: true },
      { what: "a /12 boundary, outside", ranges: "172.16.0.0/12", address: "172.32.0.0", expected: false },
      { what: "a single IPv4 address", ranges: "192.0.2.7", address: "192.0.2.7", expected: true },
      { what: "its neighbour", ranges: "192.0.2.7", address: "192.0.2.8", expected: false },
      { what: "an IPv6 /7 ULA", ranges: "fc00::/7", address: "fdab::1", expected: true },
      { what: "outside the ULA", ranges: "fc00::/7", address: "fe00::1", expected: false },
      { what: "an IPv6 /64 with a zone", ranges: "fe80::/64", address: "fe80::1%eth0", expected: true },
      { what: "host bits in the range are cleared", ranges: "192.168.1.10/24", address: "192.168.1.200", expected: true },
      { what: "/0 over IPv4 is every IPv4 address", ranges: "0.0.0.0/0", address: "203.0.113.9", expected: true },
      { what: "/0 over IPv4 is no IPv6 address", ranges: "0.0.0.0/0", address: "2001:db8::1", expected: false },
      { what: "::/0 is every address", ranges: "::/0", address: "203.0.113.9", expected: true },
      { what: "an empty list matches nothing", ranges: "", address: "127.0.0.1", expected: false },
      { what: "none matches nothing", ranges: "none", address: "127.0.0.1", expected: false },
      { what: "no address matches nothing", ranges: "::/0", address: "", expected: false },
      { what: "a name matches nothing", ranges: "::/0", address: "localhost", expected: false },
    ];
    for (const { what, ranges, address, expected } of cases) assert.equal(inCidrList(list(ranges), address), expected, what);
  });

  test("IPv4 prefixes count over the mapped form's 128 bits", () => {
    assert.equal(parseCidr("10.0.0.0/8").bits, 104);
    assert.equal(parseCidr("::1").bits, 128);
    assert.equal(parseCidr("10.1.2.3").bits, 128);
  });
});

describe("parseCidrList()", () => {
  test("reads entries separated by commas, with spaces around them", () => {
    assert.equal(list(" 10.0.0.0/8 , fd00::/8 ").length, 2);
  });

  test("a bad entry is a RangeError naming the setting and the entry", () => {
    const cases = ["10.0.0/8", "10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/8/8", "10.0.0.0/ 8", "fe80::1%eth0/64", "proxy.internal", "10.0.0.0/8,", ",10.0.0.0/8", "*"];
    for (const input of cases) {
      const named = (e: unknown) => e instanceof RangeError && e.message.startsWith("OPS_ALLOW ") && (input.includes(",") || e.message.includes(input));
      assert.throws(() => parseCidrList(input, "OPS_ALLOW"), named, input);
    }
  });
});

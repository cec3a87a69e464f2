/**
 * clientAddress(): the client behind trusted proxies (README "Security model"), X-Forwarded-For read right to left
 * and only from a peer in TRUST_PROXY.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseCidrList } from "../../lib/http/cidr.ts";
import { clientAddress } from "../../lib/pipeline/client_address.ts";

const TRUSTED = parseCidrList("127.0.0.1,::1,198.51.100.0/24", "TRUST_PROXY");

test("clientAddress() believes X-Forwarded-For only from a trusted proxy, up to the right-most untrusted address", () => {
  const cases = [
    { what: "no header", peer: "127.0.0.1", forwarded: null, expected: "127.0.0.1" },
    { what: "an empty header", peer: "127.0.0.1", forwarded: " ", expected: "127.0.0.1" },
    { what: "an untrusted peer", peer: "203.0.113.9", forwarded: "10.1.2.3", expected: "203.0.113.9" },
    { what: "no proxies trusted", peer: "127.0.0.1", forwarded: "10.1.2.3", expected: "127.0.0.1", trusted: [] },
    { what: "one hop", peer: "127.0.0.1", forwarded: "10.1.2.3", expected: "10.1.2.3" },
    { what: "a mapped trusted peer", peer: "::ffff:127.0.0.1", forwarded: "10.1.2.3", expected: "10.1.2.3" },
    { what: "an IPv6 trusted peer", peer: "::1", forwarded: "2001:db8::7", expected: "2001:db8::7" },
    { what: "a spoofed entry left of the real client", peer: "127.0.0.1", forwarded: "10.1.2.3, 203.0.113.9", expected: "203.0.113.9" },
    { what: "a second trusted hop", peer: "127.0.0.1", forwarded: "203.0.113.9,198.51.100.4", expected: "203.0.113.9" },
    { what: "every entry a trusted proxy: the left-most", peer: "127.0.0.1", forwarded: "198.51.100.5, 198.51.100.4", expected: "198.51.100.5" },
    { what: "an IPv4 entry with a port", peer: "127.0.0.1", forwarded: "203.0.113.9:41234", expected: "203.0.113.9" },
    { what: "a bracketed IPv6 entry with a port", peer: "127.0.0.1", forwarded: "[2001:db8::7]:41234", expected: "2001:db8::7" },
    { what: "an entry that is no address", peer: "127.0.0.1", forwarded: "10.1.2.3, unknown", expected: "" },
    { what: "an empty entry", peer: "127.0.0.1", forwarded: "10.1.2.3,,", expected: "" },
  ];
  for (const { what, peer, forwarded, expected, trusted } of cases) assert.equal(clientAddress(peer, forwarded, trusted ?? TRUSTED), expected, what);
});

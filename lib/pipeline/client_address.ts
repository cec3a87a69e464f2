/**
 * The client's address behind proxies (README "Security model"): `X-Forwarded-For` is believed only when the
 * connection comes from an address in TRUST_PROXY, and then only as far as the proxies in that list wrote it,
 * right to left, stopping at the first address that is not a trusted proxy (the right-most untrusted one; MDN
 * "X-Forwarded-For", "Selecting an IP address"). The RFC 7239 `Forwarded` header is not read.
 * @module
 */
import { bytesInCidrList, inCidrList, parseAddress, type CidrList } from "../http/cidr.ts";

/**
 * The address the request came from: the connection's peer, or, when the peer is a trusted proxy, the right-most
 * X-Forwarded-For entry that is not one (the left-most when all are). An entry that is no address ends the walk
 * with `""`, which matches no range: it was written past the proxies that could be believed.
 */
export function clientAddress(peer: string, forwardedFor: string | null, trusted: CidrList): string {
  if (forwardedFor === null || forwardedFor.trim() === "" || !inCidrList(trusted, peer)) return peer;
  const entries = forwardedFor.split(",");
  let client = peer;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!.trim();
    const address = _withoutPort(entry);
    const bytes = parseAddress(address);
    if (bytes === null) return "";
    client = address;
    if (!bytesInCidrList(trusted, bytes)) return address;
  }
  return client;
}

// Some proxies (Azure's among them) write the port too: "203.0.113.7:41234", "[2001:db8::7]:41234".
function _withoutPort(entry: string): string {
  if (entry.startsWith("[")) {
    const close = entry.indexOf("]");
    return close < 0 ? entry : entry.slice(1, close);
  }
  const colon = entry.indexOf(":");
  return colon > 0 && entry.indexOf(":", colon + 1) < 0 ? entry.slice(0, colon) : entry;
}

/**
 * The webhook transport over node:http/https: one POST, redirects not followed
 * (a 3xx is a failure), a 10 s limit on the whole attempt, and the SSRF check
 * made on the address actually connected to: DNS answers are checked inside
 * the socket's own lookup, so a name that resolves to a private address at
 * delivery time (DNS rebinding) is refused, not just at registration.
 * @module
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { checkResolvedAddress, parseIpLiteral } from "../../lib/jobs/webhooks/address_guard.ts";
import type { WebhookTransport } from "../../lib/contracts/webhook_transport.ts";

const MAX_RESPONSE_BYTES = 64 * 1024; // a receiver's body is read (and dropped) only this far

type _LookupCallback = (err: Error | null, address: string | LookupAddress[], family?: number) => void;

/** A name lookup as node:dns's `lookup(hostname, { all: true }, callback)` (injected by tests). */
export type LookupAll = (hostname: string, options: { all: true }, cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * What a failed lookup says, whether the name is unknown or resolves to a refused address: were they told
 * apart, a tenant could map the internal network's names through the delivery log.
 */
const UNRESOLVED = "does not resolve to an address that webhooks may reach";

/** A transport that refuses private targets unless `allowPrivate`. */
export function createHttpTransport(allowPrivate: boolean, lookupAll: LookupAll = dnsLookup as LookupAll): WebhookTransport {
  const guardedLookup = (hostname: string, options: { all?: boolean }, cb: _LookupCallback): void => {
    lookupAll(hostname, { all: true }, (err, list) => {
      if (err || list.length === 0 || !list.every((a) => checkResolvedAddress(a.address, allowPrivate))) {
        return cb(Object.assign(new Error(`${hostname} ${UNRESOLVED}`), { code: "EUNRESOLVED" }), "");
      }
      if (options.all) cb(null, list);
      else cb(null, list[0]!.address, list[0]!.family);
    });
  };

  return ({ url, headers, body, timeoutMs }) =>
    new Promise((resolve, reject) => {
      const u = new URL(url);
      const host = u.hostname.replace(/^\[|\]$/g, "");
      if (parseIpLiteral(host) && !checkResolvedAddress(host, allowPrivate)) return reject(new Error("Forbidden target address"));
      const send = u.protocol === "https:" ? httpsRequest : httpRequest;
      const req = send(u, {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)), "user-agent": "integrator-api-webhooks/1" },
        lookup: guardedLookup as never,
        agent: false,
      }, (res) => {
        let seen = 0;
        res.on("data", (d: Buffer) => {
          seen += d.length;
          if (seen > MAX_RESPONSE_BYTES) res.destroy();
        });
        res.on("error", () => {});
        const retryAfter = res.headers["retry-after"];
        resolve({ status: res.statusCode ?? 0, retryAfter: typeof retryAfter === "string" ? retryAfter : null });
        res.resume();
      });
      const timer = setTimeout(() => req.destroy(new Error("Timed out")), timeoutMs);
      req.on("close", () => clearTimeout(timer));
      req.on("error", reject);
      req.end(body);
    });
}

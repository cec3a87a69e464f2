/**
 * Who sees operator detail (README "Security model"), as GitLab's monitoring IP allow-list decides it: `/metrics` and
 * the `warnings` of `/readyz` name tenants, sources, key files and certificate serials, so they go only to a client
 * address in OPS_ALLOW or to a request carrying `Authorization: Bearer <OPS_TOKEN>` (RFC 6750 §2.1). It does not
 * decide who the client is (client_address.ts) nor what the others get (ops_routes.ts).
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash, timingSafeEqual } from "node:crypto";
import { inCidrList, type CidrList } from "../http/cidr.ts";
import type { ApiRequest } from "../http/types.ts";

/** Loopback, IPv4 and IPv6: an operator on the machine itself sees everything without a token. */
export const DEFAULT_OPS_ALLOW = "127.0.0.0/8,::1";

/**
 * Shortest OPS_TOKEN accepted: 16 characters. The operations routes have no rate limit, so the token must not be
 * guessable online; `openssl rand -hex 32` gives 64.
 */
export const MIN_OPS_TOKEN_LENGTH = 16;

// RFC 6750 §2.1 b64token: the characters a bearer credential may have.
const _B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const _BEARER = /^bearer +([^ ]+) *$/i;

/** Who may see operator detail: the client's addresses and the token that stands in for one. */
export interface OpsAccessOptions {
  allow: CidrList;
  /** The bearer token that sees the detail from anywhere; null: only the addresses do. */
  token: string | null;
}

/** Whether a request, from `client` (its address after TRUST_PROXY), may see operator detail. */
export type OpsAccess = (req: ApiRequest, client: string) => boolean;

/** The decision for `options`. */
export function createOpsAccess(options: OpsAccessOptions): OpsAccess {
  const digest = options.token === null ? null : _sha256(options.token);
  const allow = options.allow;
  return (req, client) => {
    if (digest !== null) {
      const presented = _BEARER.exec(req.header("authorization") ?? "")?.[1];
      // Digests of equal length compared in constant time: neither the token nor its length leaks by timing.
      if (presented !== undefined && timingSafeEqual(_sha256(presented), digest)) return true;
    }
    return inCidrList(allow, client);
  };
}

/** The OPS_TOKEN setting: null when empty; RangeError naming `setting` when it is short or not a bearer token's characters. */
export function parseOpsToken(text: string, setting: string): string | null {
  if (text === "") return null;
  if (text.length < MIN_OPS_TOKEN_LENGTH || !_B64TOKEN.test(text)) {
    throw new RangeError(`${setting} must be at least ${MIN_OPS_TOKEN_LENGTH} characters of letters, digits and -._~+/ (such as openssl rand -hex 32 prints)`);
  }
  return text;
}

function _sha256(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/**
 * The request limits of README “Security model” as one pipeline step: a valid token spends
 * its own bucket, a public route a per-address bucket of the same size, and
 * everything else (failed authentication included) a stricter per-address one,
 * so that tokens cannot be guessed at speed. Answers carry the draft-11 headers.
 * @module
 */
import type { TokenRecord } from "../auth/tokens.ts";
import { ApiError } from "../http/errors.ts";
import { createRateLimiter, rateLimitHeaders, type RateLimitConfig, type RateLimiter } from "./rate_limit.ts";

/** README “Security model”: 600 requests per minute per token, bursts of 100. */
export const DEFAULT_RATE_LIMIT: RateLimitConfig = { requests: 600, windowMs: 60_000, burst: 100 };
/**
 * Requests without a valid token (failed authentications), per client address: a client that probes every endpoint
 * is not refused, but guessing even a key id, let alone a 256-bit secret, runs at 5 attempts a second at most.
 */
export const DEFAULT_ANONYMOUS_LIMIT: RateLimitConfig = { requests: 300, windowMs: 60_000, burst: 100 };

/** The policies in force; null turns one off. */
export interface RequestLimitsOptions {
  token: RateLimitConfig | null;
  anonymous: RateLimitConfig | null;
  now: () => number;
}

/** Spends one request; returns the headers to answer with, or throws 429 RATE_LIMITED (with them). */
export type RequestLimits = (remoteAddress: string, token: TokenRecord | null, isPublic: boolean) => Record<string, string> | null;

/** The limits step. */
export function createRequestLimits(options: RequestLimitsOptions): RequestLimits {
  const tokenLimiter = options.token ? createRateLimiter<string>(options.token, { now: options.now }) : null;
  const anonLimiter = options.anonymous ? createRateLimiter<string>(options.anonymous, { now: options.now }) : null;
  return (remoteAddress, token, isPublic) => {
    const own = token !== null || isPublic;
    const limiter: RateLimiter<string> | null = own ? tokenLimiter : anonLimiter;
    const policy = own ? options.token : options.anonymous;
    if (!limiter || !policy) return null;
    const client = _clientKey(remoteAddress);
    const r = limiter.take(token ? token.key_id : isPublic ? `public:${client}` : client);
    const headers = rateLimitHeaders(policy, r, token ? "token" : "address");
    if (!r.allowed) {
      throw new ApiError("RATE_LIMITED", `Too many requests: retry in ${r.retryAfterSeconds} s`, { retry_after_seconds: r.retryAfterSeconds }, headers);
    }
    return headers;
  };
}

// IPv6 clients are limited per /64: one host usually owns the whole prefix. `::` is expanded first, or
// "2001:db8::5" and "2001:db8::6" would be two prefixes.
function _clientKey(address: string): string {
  if (!address.includes(":") || address.startsWith("::ffff:")) return address.replace(/^::ffff:/, "");
  const [head = "", tail] = address.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, "")).join(":");
}

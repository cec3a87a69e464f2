/**
 * Token-bucket rate limiting (README “Security model”): config strings like "600/min,burst=100", an
 * in-memory limiter keyed by anything (token id, client address) with an injected clock,
 * and the `RateLimit-Policy` / `RateLimit` fields of draft-ietf-httpapi-ratelimit-headers-11.
 * It keeps no timers and shares nothing between processes: each worker limits on its own.
 * @module
 */

/** A bucket of `burst` tokens refilled at `requests` per `windowMs`. */
export interface RateLimitConfig {
  requests: number;
  windowMs: number;
  burst: number;
}

/** The outcome of one `take`, with everything the response headers need. */
export interface RateLimitResult {
  allowed: boolean;
  /** Bucket size: the most requests that can be made at once. */
  limit: number;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket is full again (rounded up). */
  resetSeconds: number;
  /** Seconds until one token is available when refused (rounded up, at least 1); 0 when allowed. */
  retryAfterSeconds: number;
}

/** Injected dependencies and bounds of a limiter. */
export interface RateLimiterOptions {
  /** Current time in milliseconds (e.g. `Date.now`). */
  now: () => number;
  /** Most buckets kept at once; see `DEFAULT_MAX_KEYS`. */
  maxKeys?: number;
}

/** A limiter: `take` spends one token of `key`'s bucket if there is one. */
export interface RateLimiter<K> {
  take(key: K): RateLimitResult;
  /** Buckets currently held (full buckets are dropped, so this is the recently active keys). */
  size(): number;
}

/** Largest count or burst accepted: a million per window is beyond any per-client need and keeps the arithmetic exact. */
export const MAX_RATE_LIMIT_COUNT = 1_000_000;

/**
 * Buckets kept at most: 100,000 × ~100 bytes ≈ 10 MB. Past it the least recently allowed
 * keys are forgotten (they start again with a full bucket), so memory stays bounded even
 * when an attacker sprays client addresses.
 */
export const DEFAULT_MAX_KEYS = 100_000;

/** Fewest calls between two sweeps for full buckets; between sweeps the map can at most double. */
const _MIN_SWEEP_INTERVAL = 1024;

/** Fraction of `maxKeys` kept when the cap is hit. */
const _EVICT_TO = 0.9;

/** Float slack (ms) when comparing bucket times, so 60000/7 ms per token does not refuse the 7th request by 1e-12 ms. */
const _EPSILON_MS = 1e-6;

const _UNIT_MS: Record<string, number> = {
  s: 1_000, sec: 1_000, second: 1_000,
  m: 60_000, min: 60_000, minute: 60_000,
  h: 3_600_000, hour: 3_600_000,
  d: 86_400_000, day: 86_400_000,
};
const _RATE = /^([0-9]{1,7})\/([a-z]+)$/;
const _BURST = /^burst=([0-9]{1,7})$/;

/** The config of "600/min,burst=100" (burst defaults to the count), null for "off"; RangeError otherwise. */
export function parseRateLimit(text: string): RateLimitConfig | null {
  const parts = text.trim().toLowerCase().split(/\s*,\s*/);
  if (parts.length === 1 && parts[0] === "off") return null;
  const rate = _RATE.exec(parts[0] ?? "");
  const windowMs = rate === null ? undefined : _UNIT_MS[rate[2]!];
  if (rate === null || windowMs === undefined || parts.length > 2) {
    throw new RangeError(`Cannot parse rate limit "${text}": expected e.g. 600/min,burst=100 or off`);
  }
  const requests = Number(rate[1]);
  let burst = requests;
  if (parts.length === 2) {
    const b = _BURST.exec(parts[1]!);
    if (b === null) throw new RangeError(`Cannot parse rate limit "${text}": expected burst=<count> after the comma`);
    burst = Number(b[1]);
  }
  for (const [name, value] of [["count", requests], ["burst", burst]] as const) {
    if (value < 1 || value > MAX_RATE_LIMIT_COUNT) {
      throw new RangeError(`Cannot parse rate limit "${text}": ${name} must be 1 to ${MAX_RATE_LIMIT_COUNT}`);
    }
  }
  return { requests, windowMs, burst };
}

/**
 * The limit each of `workers` processes enforces so that a token's limit holds across them (WORKERS > 1):
 * its share of the requests and of the burst, at least 1 each.
 */
export function perWorkerRateLimit(limit: RateLimitConfig | null, workers: number): RateLimitConfig | null {
  if (!limit || workers <= 1) return limit;
  return { requests: Math.max(1, Math.floor(limit.requests / workers)), windowMs: limit.windowMs, burst: Math.max(1, Math.floor(limit.burst / workers)) };
}

/**
 * A token-bucket limiter for keys of any type. Each bucket is one number, the time at which
 * it is full again (GCRA, the "virtual scheduling" form of a token bucket), so a full bucket
 * is simply one whose time has passed: it carries no information and is dropped.
 */
export function createRateLimiter<K = string>(config: RateLimitConfig, options: RateLimiterOptions): RateLimiter<K> {
  const { now } = options;
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  for (const [name, value] of [["requests", config.requests], ["burst", config.burst], ["windowMs", config.windowMs], ["maxKeys", maxKeys]] as const) {
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`Cannot create rate limiter: ${name} must be a positive integer`);
  }
  const interval = config.windowMs / config.requests; // ms per token
  const capacity = config.burst * interval; // ms to refill an empty bucket
  const fullAt = new Map<K, number>();
  let untilSweep = _MIN_SWEEP_INTERVAL;

  const sweep = (t: number): void => {
    for (const [key, at] of fullAt) if (at <= t) fullAt.delete(key);
    untilSweep = Math.max(_MIN_SWEEP_INTERVAL, fullAt.size);
  };

  // At the cap: drop full buckets, then the least recently allowed keys down to 90 % of the cap,
  // so the next 10 % of new keys cost nothing and a spray of new keys stays O(1) amortised.
  const makeRoom = (t: number): void => {
    sweep(t);
    const target = Math.floor(maxKeys * _EVICT_TO);
    for (const key of fullAt.keys()) {
      if (fullAt.size <= target) break;
      fullAt.delete(key);
    }
  };

  const take = (key: K): RateLimitResult => {
    const t = now();
    if (--untilSweep <= 0) sweep(t);
    const previous = fullAt.get(key);
    const start = previous === undefined || previous < t ? t : previous;
    const next = start + interval;
    if (next - t > capacity + _EPSILON_MS) {
      // Refused: the bucket is unchanged; one token arrives when `next` is within capacity.
      return {
        allowed: false,
        limit: config.burst,
        remaining: 0,
        resetSeconds: Math.ceil((start - t) / 1000),
        retryAfterSeconds: Math.max(1, Math.ceil((next - t - capacity) / 1000)),
      };
    }
    if (previous === undefined && fullAt.size >= maxKeys) makeRoom(t);
    // Delete then set keeps the map in order of last allowed request, so eviction drops the idlest key.
    fullAt.delete(key);
    fullAt.set(key, next);
    return {
      allowed: true,
      limit: config.burst,
      remaining: Math.floor((capacity - (next - t)) / interval + _EPSILON_MS),
      resetSeconds: Math.ceil((next - t) / 1000),
      retryAfterSeconds: 0,
    };
  };

  return { take, size: () => fullAt.size };
}

/** `RateLimit-Policy` value: the bucket holds `q` requests and refills completely in `w` seconds. */
export function formatRateLimitPolicy(config: RateLimitConfig, name = "default"): string {
  // q/w is the sustained rate, and a client sending at most q requests per w seconds is never refused.
  const w = Math.max(1, Math.ceil((config.burst * config.windowMs) / config.requests / 1000));
  return `${_sfString(name)};q=${config.burst};w=${w}`;
}

/**
 * `RateLimit` value: `r` requests left and `t` seconds until the bucket is full again. On a
 * refusal `t` is the Retry-After, which the draft (§6) says must not be earlier than `t`.
 */
export function formatRateLimit(result: RateLimitResult, name = "default"): string {
  const t = result.allowed ? result.resetSeconds : result.retryAfterSeconds;
  return `${_sfString(name)};r=${result.remaining};t=${t}`;
}

/** Response headers for one result: `RateLimit-Policy`, `RateLimit`, and `Retry-After` when refused. */
export function rateLimitHeaders(config: RateLimitConfig, result: RateLimitResult, name = "default"): Record<string, string> {
  const headers: Record<string, string> = {
    "ratelimit-policy": formatRateLimitPolicy(config, name),
    ratelimit: formatRateLimit(result, name),
  };
  if (!result.allowed) headers["retry-after"] = String(result.retryAfterSeconds);
  return headers;
}

/** A Structured Field String (RFC 9651 §3.3.3): printable ASCII, with `"` and `\` escaped. */
function _sfString(value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new TypeError("Cannot format rate limit policy name: not printable ASCII");
  return `"${value.replace(/[\\"]/g, (c) => "\\" + c)}"`;
}

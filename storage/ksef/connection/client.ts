/**
 * HTTP to KSeF 2.0 for the `ksef` source: authentication (uwierzytelnianie.md §1–§5: challenge, the start that
 * the sign-in method makes — a KSeF token, token_signin.ts, or an XAdES-signed AuthTokenRequest, xades_signin.ts —
 * status polling, redeem, refresh before expiry, a fresh authentication when refresh fails: KSeF's refresh token
 * lives at most 7 days), pacing under the documented limits (pacing.ts), 429 waited out per
 * `Retry-After` (limity/limity-api.md §2), and 5xx, timeouts and network errors
 * retried with backoff, `21470` (a withdrawn encryption key: klucze-publiczne-do-szyfrowania.md §4.4) answered
 * by fetching the certificates again and repeating, error bodies read in both of open-api.json's formats, and
 * KSeF's technical warnings (`X-System-Warning`, lib/ksef/system_warning.ts) handed to the owner's hook. It
 * never logs and never puts a token or key into an error.
 * @module
 */
import { parseSystemWarning, SYSTEM_WARNING_HEADER, type SystemWarning } from "../../../lib/ksef/system_warning.ts";
import { challengeMillis, type PublicKeyCertificate } from "./crypto.ts";
import { describeException, KSEF_ERROR, ksefError } from "./errors.ts";
import type { EndpointGroup, Pacer } from "./pacing.ts";
import type { Challenge, SignInIo, SignInMethod, StatusInfo } from "./sign_in.ts";
import { KEY_WITHDRAWN, tokenSignIn } from "./token_signin.ts";

export type { StatusInfo } from "./sign_in.ts";
export { KEY_WITHDRAWN } from "./token_signin.ts";

/** The largest export package part read: a bound on the memory one part may take (the package is decrypted whole). */
const MAX_PART_BYTES = 128 * 1024 * 1024;

/** The client's knobs, with documented defaults in source.ts; tests shrink them. */
export interface KsefClientTuning {
  /** Delays before each retry of a 5xx, timeout or network error; their count is the number of retries. */
  retryDelays: readonly number[];
  /** Delays between polls of an asynchronous operation (authentication, export); the last one repeats. */
  pollDelays: readonly number[];
  /** How many polls before giving up on an operation that stays "in progress". */
  maxPolls: number;
  requestTimeoutMs: number;
  /** One `Retry-After` second in ms (1000; tests shrink it). */
  retryAfterUnitMs: number;
  /** Consecutive 429 answers waited out before the run fails as KSEF_UNAVAILABLE. */
  max429: number;
  /** The access token is refreshed this long before its `validUntil`. */
  refreshMarginMs: number;
  /** Waits at least this long are reported to the run (`waiting_until`). */
  reportWaitsFromMs: number;
}

/** Options of a KSeF client. */
export interface KsefClientOptions extends KsefClientTuning {
  /** The API root, e.g. `https://api-test.ksef.mf.gov.pl/v2` (srodowiska.md). */
  baseUrl: string;
  nip: string;
  /** How it signs in: a KSeF token (tokeny-ksef.md; a secret) or a sign-in method (xadesSignIn()). */
  signIn: string | SignInMethod;
  pacer: Pacer;
  now: () => number;
  /** Resolves after `ms` or when `signal` aborts. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Told when a wait starts (its end) and ends (null). */
  onWait: (until: number | null) => Promise<void>;
  /** Told of KSeF's technical warnings on an answer (`X-System-Warning`), with the request: `GET /path` without the query. */
  onSystemWarnings?: (operation: string, warnings: SystemWarning[]) => void;
  fetch?: typeof fetch;
}

interface TokenInfo {
  token: string;
  validUntil: string;
}

interface SendOptions {
  bearer?: string;
  body?: unknown;
  /** An XML body sent as these exact bytes (POST /auth/xades-signature: the bytes signed are the bytes sent). */
  xml?: Uint8Array;
  /** Answers that the caller handles itself (others below 500 fail the run). */
  accept?: readonly number[];
  /** The media type asked for (open-api.json: JSON everywhere but GET /invoices/ksef/{n}, which answers application/xml). */
  mediaType?: string;
}

/** Talks to one KSeF context (NIP), signed in one way. */
export class KsefClient {
  #o: KsefClientOptions;
  #fetch: typeof fetch;
  #certs: PublicKeyCertificate[] | null = null;
  #access: TokenInfo | null = null;
  #refresh: TokenInfo | null = null;
  #signIn: SignInMethod;

  constructor(options: KsefClientOptions) {
    this.#o = options;
    this.#fetch = options.fetch ?? fetch;
    this.#signIn = typeof options.signIn === "string" ? tokenSignIn(options.signIn) : options.signIn;
  }

  /** How this client signs in: "token" or "certificate". */
  get signInKind(): "token" | "certificate" {
    return this.#signIn.kind;
  }

  /** The public-key certificates (GET /security/public-key-certificates), fetched once per client and after `forgetCertificates()`. */
  async certificates(signal: AbortSignal): Promise<PublicKeyCertificate[]> {
    if (!this.#certs) {
      const res = await this.#send("auth", "GET", "/security/public-key-certificates", {}, signal);
      const list = (await _json(res)) as PublicKeyCertificate[];
      if (!Array.isArray(list)) throw ksefError(KSEF_ERROR.protocol, "KSeF sent no list of public-key certificates");
      this.#certs = list;
    }
    return this.#certs;
  }

  /** klucze-publiczne-do-szyfrowania.md §4.4: after 21470 the certificates are fetched again before the repeat. */
  forgetCertificates(): void {
    this.#certs = null;
  }

  /** A JSON request to a protected endpoint with the access token; 401 refreshes (or re-authenticates) once. */
  async call(group: EndpointGroup, method: string, path: string, body: unknown, signal: AbortSignal, accept: readonly number[] = [], mediaType = "application/json"): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const bearer = await this.#accessToken(signal);
      const res = await this.#send(group, method, path, { bearer, body, accept: [...accept, 401, 403], mediaType }, signal);
      if (res.status === 401 && attempt < 2) {
        await res.body?.cancel();
        // First a refresh, then (if the refresh token is gone too) a whole new authentication.
        if (attempt === 0) this.#access = null;
        else this.#access = this.#refresh = null;
        continue;
      }
      if (res.status === 401) throw this.#signIn.refused(this.#o.now());
      if (res.status === 403) {
        await res.body?.cancel();
        throw this.#signIn.forbidden(`${method} ${_pathName(path)}`, this.#o.nip);
      }
      return res;
    }
  }

  /** The access token for callers that make their own requests (the sender, send/online_api.ts): refreshed or renewed as needed. */
  async accessToken(signal: AbortSignal): Promise<string> {
    return this.#accessToken(signal);
  }

  /** Forgets the access token after KSeF answered 401 to it, so that the next accessToken() refreshes it. */
  dropAccessToken(): void {
    this.#access = null;
  }

  /**
   * A part of an export package from its pre-signed URL (no token, no API limits: open-api.json InvoicePackagePart.url).
   * The URL comes from KSeF's answer, so it must be https (or this machine, for a simulator), and a part is read
   * only up to MAX_PART_BYTES.
   */
  async downloadPart(url: string, signal: AbortSignal): Promise<Uint8Array> {
    const u = new URL(url);
    if (u.protocol !== "https:" && !["localhost", "127.0.0.1", "[::1]"].includes(u.hostname)) {
      throw ksefError(KSEF_ERROR.protocol, "KSeF named a package part outside https");
    }
    const res = await this.#send(null, "GET", url, {}, signal);
    const declared = Number(res.headers.get("content-length") ?? "0");
    if (declared > MAX_PART_BYTES) throw ksefError(KSEF_ERROR.protocol, `A package part is larger than ${MAX_PART_BYTES} bytes`);
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = res.body?.getReader();
    for (;;) {
      const next = reader ? await reader.read() : { done: true as const, value: undefined };
      if (next.done) break;
      size += next.value.byteLength;
      if (size > MAX_PART_BYTES) {
        await reader?.cancel().catch(() => {});
        throw ksefError(KSEF_ERROR.protocol, `A package part is larger than ${MAX_PART_BYTES} bytes`);
      }
      chunks.push(next.value);
    }
    const out = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }

  // uwierzytelnianie.md §4–§5: reuse the access token until shortly before `validUntil`, then refresh it; when the
  // refresh fails (expired or revoked), authenticate again from the challenge.
  async #accessToken(signal: AbortSignal): Promise<string> {
    const now = this.#o.now();
    if (this.#access && now < Date.parse(this.#access.validUntil) - this.#o.refreshMarginMs) return this.#access.token;
    this.#access = null;
    if (this.#refresh && now < Date.parse(this.#refresh.validUntil)) {
      const res = await this.#send("auth", "POST", "/auth/token/refresh", { bearer: this.#refresh.token, accept: [400, 401, 403] }, signal);
      if (res.ok) {
        this.#access = _tokenInfo((await _json(res) as { accessToken?: unknown }).accessToken);
        return this.#access.token;
      }
      await res.body?.cancel();
      this.#refresh = null;
    }
    await this.#authenticate(signal);
    return this.#access!.token;
  }

  // uwierzytelnianie.md §1 (challenge), §2 (the sign-in method's start), §3 (poll GET /auth/{referenceNumber} with
  // the authentication token), §4 (POST /auth/token/redeem, once).
  async #authenticate(signal: AbortSignal): Promise<void> {
    const io: SignInIo = {
      nip: this.#o.nip,
      now: this.#o.now,
      challenge: async (sig) => {
        const c = (await _json(await this.#send("auth", "POST", "/auth/challenge", {}, sig))) as { challenge?: string; timestamp?: string; timestampMs?: number };
        if (typeof c.challenge !== "string" || typeof c.timestamp !== "string") throw ksefError(KSEF_ERROR.protocol, "KSeF sent a challenge without challenge or timestamp");
        // open-api.json AuthenticationChallengeResponse.timestampMs is the value to encrypt; older answers had only `timestamp`.
        const timestampMs = typeof c.timestampMs === "number" && Number.isSafeInteger(c.timestampMs) ? c.timestampMs : challengeMillis(c.timestamp);
        return { challenge: c.challenge, timestampMs } satisfies Challenge;
      },
      post: (path, body, sig) => this.#send("auth", "POST", path, { ...("xml" in body ? { xml: body.xml } : { body: body.json }), accept: [400] }, sig),
      certificates: (sig) => this.certificates(sig),
      forgetCertificates: () => this.forgetCertificates(),
    };
    const init = await this.#signIn.start(io, signal);
    const started = (await _json(init)) as { referenceNumber?: string; authenticationToken?: unknown };
    if (typeof started.referenceNumber !== "string") throw ksefError(KSEF_ERROR.protocol, "KSeF started an authentication without a reference number");
    const auth = _tokenInfo(started.authenticationToken);
    const status = await this.poll(async () => {
      const res = await this.#send("auth", "GET", `/auth/${encodeURIComponent(started.referenceNumber!)}`, { bearer: auth.token }, signal);
      return ((await _json(res)) as { status?: StatusInfo }).status;
    }, signal);
    if (status.code !== 200) throw this.#signIn.failed(status, this.#o.nip, this.#o.now());
    const tokens = (await _json(await this.#send("auth", "POST", "/auth/token/redeem", { bearer: auth.token }, signal))) as { accessToken?: unknown; refreshToken?: unknown };
    this.#access = _tokenInfo(tokens.accessToken);
    this.#refresh = _tokenInfo(tokens.refreshToken);
  }

  /** Polls an operation's status until its code is no longer 100 ("in progress"). */
  async poll(read: () => Promise<StatusInfo | undefined>, signal: AbortSignal): Promise<StatusInfo> {
    for (let i = 0; i < this.#o.maxPolls; i++) {
      const status = await read();
      if (!status || typeof status.code !== "number") throw ksefError(KSEF_ERROR.protocol, "KSeF sent an operation status without a code");
      if (status.code !== 100) return status;
      const d = this.#o.pollDelays;
      await this.#wait(d[Math.min(i, d.length - 1)] ?? 1000, signal, false);
    }
    throw ksefError(KSEF_ERROR.unavailable, `A KSeF operation stayed in progress after ${this.#o.maxPolls} polls: KSeF is slow or overloaded, retry the sync later`);
  }

  // One request: own pacing first, then the answer; 429 waits per Retry-After, 5xx and network errors back off.
  async #send(group: EndpointGroup | null, method: string, path: string, s: SendOptions, signal: AbortSignal): Promise<Response> {
    const url = group === null ? path : `${this.#o.baseUrl}${path}`;
    let failures = 0;
    let throttled = 0;
    for (;;) {
      if (group) {
        const pace = this.#o.pacer.delay(group, this.#o.now());
        if (pace > 0) await this.#wait(pace, signal, true);
        this.#o.pacer.record(group, this.#o.now());
      }
      let res: Response | null = null;
      let problem = "";
      try {
        // open-api.json: every operation answers its errors as Problem Details when asked with X-Error-Format.
        const headers: Record<string, string> = group === null ? {} : { accept: s.mediaType ?? "application/json", "x-error-format": "problem-details" };
        if (s.bearer) headers.authorization = `Bearer ${s.bearer}`;
        if (s.body !== undefined) headers["content-type"] = "application/json";
        if (s.xml !== undefined) headers["content-type"] = "application/xml";
        res = await this.#fetch(url, {
          method, headers, redirect: "error",
          body: (s.xml as Uint8Array<ArrayBuffer> | undefined) ?? (s.body === undefined ? null : JSON.stringify(s.body)),
          signal: AbortSignal.any([signal, AbortSignal.timeout(this.#o.requestTimeoutMs)]),
        });
      } catch (e) {
        if (signal.aborted) throw e;
        problem = (e as Error).name === "TimeoutError" ? `no answer within ${this.#o.requestTimeoutMs} ms` : "network error";
      }
      if (res && group !== null && this.#o.onSystemWarnings) {
        const warnings = parseSystemWarning(res.headers.get(SYSTEM_WARNING_HEADER));
        if (warnings.length > 0) this.#o.onSystemWarnings(`${method} ${_pathName(path)}`, warnings);
      }
      if (res && res.status === 429) {
        await res.body?.cancel();
        if (++throttled > this.#o.max429) throw ksefError(KSEF_ERROR.unavailable, `KSeF kept answering 429 Too Many Requests (${throttled} times) for ${_pathName(path)}: another client may share this NIP and IP; retry later`);
        await this.#wait(_retryAfter(res.headers.get("retry-after"), this.#o.now()) * this.#o.retryAfterUnitMs, signal, true);
        continue;
      }
      if (res && res.status < 500) {
        if (res.ok || s.accept?.includes(res.status)) return res;
        const body = await _json(res, true);
        throw ksefError(KSEF_ERROR.protocol, `KSeF answered HTTP ${res.status} to ${method} ${_pathName(path)} (${describeException(body)})`);
      }
      if (res) {
        problem = `HTTP ${res.status}`;
        await res.body?.cancel();
      }
      const delay = this.#o.retryDelays[failures++];
      if (delay === undefined) throw ksefError(KSEF_ERROR.unavailable, `KSeF is not reachable or failing (${problem} for ${_pathName(path)}, ${failures} attempts): check KSeF's status page and retry the sync later`);
      await this.#wait(delay, signal, false);
    }
  }

  async #wait(ms: number, signal: AbortSignal, report: boolean): Promise<void> {
    if (ms <= 0) return;
    const shown = report && ms >= this.#o.reportWaitsFromMs;
    if (shown) await this.#o.onWait(this.#o.now() + ms);
    await this.#o.sleep(ms, signal);
    if (shown) await this.#o.onWait(null);
    if (signal.aborted) throw signal.reason ?? new Error("aborted");
  }
}

function _tokenInfo(v: unknown): TokenInfo {
  const t = v as TokenInfo | null;
  if (!t || typeof t.token !== "string" || typeof t.validUntil !== "string" || Number.isNaN(Date.parse(t.validUntil))) {
    throw ksefError(KSEF_ERROR.protocol, "KSeF sent a token without token or validUntil");
  }
  return { token: t.token, validUntil: t.validUntil };
}

// limity-api.md §2: Retry-After in seconds; an HTTP date is accepted too (RFC 9110 §10.2.3). Missing: 1 s.
function _retryAfter(v: string | null, now: number): number {
  if (v === null) return 1;
  if (/^\d+$/.test(v.trim())) return Number(v.trim());
  const at = Date.parse(v);
  return Number.isNaN(at) ? 1 : Math.max(0, Math.ceil((at - now) / 1000));
}

// For messages: the path without query strings (pre-signed part URLs carry signatures).
function _pathName(path: string): string {
  return path.startsWith("http") ? new URL(path).pathname : path.split("?")[0]!;
}

async function _json(res: Response, lenient = false): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    if (lenient) return null;
    throw ksefError(KSEF_ERROR.protocol, `KSeF sent a body that is not JSON (HTTP ${res.status})`);
  }
}

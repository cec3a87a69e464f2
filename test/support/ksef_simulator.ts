/**
 * A KSeF 2.0 simulator for tests and demos, built from KSeF's open-api.json
 * (CIRFMF/ksef-docs) and held to it: every request it receives and every
 * answer it gives goes through test/support/ksef_conformance.ts; a request
 * that departs from the description is answered 400 21405 with the reason in
 * its details, and `close()` fails with every departure, so a test in which the
 * client or the simulator strays fails. It serves public-key certificates (with
 * key rotation and 21470), challenge, token authentication (the RSA-OAEP
 * `token|timestampMs` is decrypted and checked), XAdES authentication (the signature checked by xmlsec1:
 * ksef_simulator_xades.ts), status, redeem, refresh, certificate enrollment (ksef_simulator_certificates.ts),
 * metadata queries, exports as AES-256-CBC encrypted ZIP parts (truncated past
 * a package limit), invoice download, 429 with Retry-After past its limits, and
 * errors as ExceptionResponse or, with `X-Error-Format: problem-details`, as
 * Problem Details, and KSeF's technical warnings (`X-System-Warning`) where a test asks for them. More
 * operations plug in through `routes` (the sending side does). It is not KSeF: no certificate chains, no permissions model beyond grants per NIP or fingerprint.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { formatKsefNumber } from "../../lib/formats/invoice/ksef_number.ts";
import { KSEF_LIMITS, type RateLimit } from "../../storage/ksef/connection/pacing.ts";
import { checkRequest, checkResponse, ksefSpec } from "./ksef_conformance.ts";
import { SimAuth, type SimToken } from "./ksef_simulator_auth.ts";
import { SimKeys } from "./ksef_simulator_keys.ts";
import { SimXades, type SimCertificateGrant } from "./ksef_simulator_xades.ts";
import { SimCertificates } from "./ksef_simulator_certificates.ts";
import { buildPackage, iso7, metadataOf, parseTime, selectInvoices, type SimFilters, type SimInvoice } from "./ksef_simulator_invoices.ts";

export type { SimInvoice } from "./ksef_simulator_invoices.ts";

export type { SimToken } from "./ksef_simulator_auth.ts";
export type { SimCertificateGrant } from "./ksef_simulator_xades.ts";

/** A request as a route sees it: `path` relative to the API root, without the query. */
export interface SimRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: Buffer;
  /** The Bearer token sent, or "". */
  bearer: string;
}

/** What a route may use to answer. */
export interface SimContext {
  /** A JSON (or, for bytes, `contentType`) answer. */
  send(status: number, body: unknown, headers?: Record<string, string>, contentType?: string): void;
  /** A 400 with KSeF exception codes, as ExceptionResponse or Problem Details per the request's X-Error-Format. */
  badRequest(code: number, description: string, details?: string[]): void;
  /** The 401/403 Problem Details. */
  unauthorized(detail: string): void;
  forbidden(detail: string, required: string[], present: string[]): void;
  /** The access token's context, or null when it is unknown or expired. */
  session(): { nip: string; permissions: string[]; certificate?: Buffer } | null;
  /** The simulator's clock, ms, strictly increasing. */
  tick(): number;
  keys: SimKeys;
  sim: KsefSimulator;
}

/** An extra route: returns true when it answered the request. */
export type SimRoute = (req: SimRequest, ctx: SimContext) => boolean | Promise<boolean>;

/** Options of the simulator. */
export interface SimOptions {
  tokens: SimToken[];
  /** Who may sign in with a certificate (XAdES), and with which permissions. */
  certificates?: SimCertificateGrant[];
  /** Requests per window per limit group before 429 (default: the documented limits). */
  limits?: Partial<Record<string, RateLimit>>;
  /** Invoices per export package before it is truncated (KSeF: 10 000). */
  packageLimit?: number;
  /** Bytes of a package part before encryption (KSeF: 50 MB). */
  partSize?: number;
  /** Access token lifetime, ms. */
  accessTtlMs?: number;
  /** Seconds sent in Retry-After. */
  retryAfter?: number;
  /** Delay before each package part is sent, ms. */
  partDelayMs?: number;
  /** validTo of the published certificates (default: the fixture's). */
  certificateValidTo?: string;
  /** Answer errors as the deprecated ExceptionResponse even when Problem Details are asked for (an older KSeF). */
  legacyErrors?: boolean;
  /** More operations (e.g. online sessions), tried before the built-in ones. */
  routes?: SimRoute[];
  /** Requests outside the API root (pre-signed upload and download URLs), tried before the built-in ones; true when answered. */
  rawRoutes?: ((req: IncomingMessage, res: ServerResponse, body: Buffer) => boolean | Promise<boolean>)[];
  /** The limit group of a path the built-in ones do not know (their limits go into `limits`); default "other". */
  limitGroup?: (method: string, path: string) => string | undefined;
}

/** A running simulator. */
export interface KsefSimulator {
  /** The API root to configure as `environment`. */
  url: string;
  invoices: SimInvoice[];
  /** Stores an invoice now (its PermanentStorage date is the simulator's clock, strictly increasing). */
  add(i: { seller: string; buyer: string; third?: string; xml: Uint8Array; invoiceNumber: string; currency?: string; net?: number; vat?: number; gross?: number; xmlPending?: boolean; at?: number }): SimInvoice;
  /** The XML of an invoice added with `xmlPending` becomes deliverable. */
  release(ksefNumber: string): void;
  /** The next `n` requests answer `status` (5xx or 429 storms). */
  failNext(n: number, status: number): void;
  /** The next authentication ends with this status code (e.g. 470, 480) instead of its own. */
  failNextAuthentication(code: number): void;
  /** Every access token issued so far stops working (refresh tokens stay valid). */
  expireAccessTokens(): void;
  /** Every refresh token issued so far stops working too (KSeF's live at most 7 days): the next refresh is refused. */
  expireRefreshTokens(): void;
  /** KSeF revokes the certificate with this serial (hex): its next sign-ins end with 460 "Certyfikat odwołany". */
  revokeCertificate(serial: string): void;
  /** The XAdES sign-in side: its grants (may be changed) and the bodies received, as sent. */
  xades: SimXades;
  /** The certificate operations (/certificates/*): what was issued, the limits, the test CA. */
  certificates: SimCertificates;
  /** The next export package is encrypted with a wrong key. */
  corruptNextPackage(): void;
  /** An emergency key rotation: the current key is withdrawn (21470 for its publicKeyId), the next published. */
  rotateKeys(): void;
  /** Called after each export is started (with their count), e.g. to expire tokens mid-run. */
  afterExport: ((count: number) => void) | null;
  /** Called before each API request is handled (method, path relative to the API root). */
  beforeRequest: ((method: string, path: string) => void) | null;
  /**
   * KSeF's technical warning for a successful answer (KSeF API 2.6.0: the `X-System-Warning` header, `[code]: message
   * | [code]: message`), or null for none; KSeF's test environment sends one when asked with `X-Test-System-Warning`.
   */
  systemWarning: ((method: string, path: string) => string | null) | null;
  /** Counters: requests per limit group, 429s sent because a limit was exceeded, exports started. */
  stats: { requests: Record<string, number>; throttled: number; exports: number; authentications: number; refreshes: number; certificateFetches: number };
  /** Every API exchange, in order: method, path with query, request headers and JSON body, status, JSON answer. */
  log: { method: string; path: string; headers: IncomingMessage["headers"]; request: unknown; status: number; body: unknown }[];
  /** Departures from open-api.json seen so far, taken (and cleared). */
  takeViolations(): string[];
  /** Stops; throws when a request or answer departed from open-api.json (the test fails). */
  close(): Promise<void>;
}

export const PREFIX = "/v2"; // srodowiska.md: https://api-test.ksef.mf.gov.pl/v2
const WINDOWS = [["perSecond", 1000], ["perMinute", 60_000], ["perHour", 3_600_000]] as const;

/** The limit group of a path (pacing.ts's groups; `extra`'s answer or "other" for the rest). */
function groupOf(p: string, extra: string | undefined): string {
  return p.startsWith("/auth") || p.startsWith("/security") ? "auth" : p === "/invoices/query/metadata" ? "metadata"
    : p === "/invoices/exports" ? "export" : p.startsWith("/invoices/exports/") ? "exportStatus" : p.startsWith("/invoices/ksef/") ? "download" : extra ?? "other";
}

/** Starts a simulator on 127.0.0.1 and an ephemeral port. */
export async function startKsefSimulator(o: SimOptions): Promise<KsefSimulator> {
  const spec = ksefSpec();
  const keys = new SimKeys(o.certificateValidTo);
  const limits: Record<string, RateLimit> = { ...KSEF_LIMITS, other: { perSecond: 10, perMinute: 30, perHour: 120 }, ...o.limits } as Record<string, RateLimit>;
  const history = new Map<string, number[]>();
  const violations: string[] = [];
  let failures = { n: 0, status: 503 };
  let corrupt = false;
  let clock = 0;
  const tick = (): number => (clock = Math.max(clock + 1, Date.now()));
  const ref = (kind: string): string => `${new Date().toISOString().slice(0, 10).replaceAll("-", "")}-${kind}-${_hex(5)}-${_hex(5)}-${_hex(1)}`;

  function throttle(group: string): boolean {
    const now = Date.now();
    const times = (history.get(group) ?? []).filter((t) => t > now - 3_600_000);
    history.set(group, times);
    for (const [key, span] of WINDOWS) {
      const max = limits[group]?.[key];
      if (max !== undefined && times.filter((t) => t > now - span).length >= max) return true;
    }
    times.push(now);
    return false;
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => void dispatch(req, res, Buffer.concat(chunks)).catch((e: unknown) => {
      violations.push(`simulator error on ${req.method} ${req.url}: ${String(e)}`);
      if (!res.headersSent) res.writeHead(500).end();
    }));
  });

  async function dispatch(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const full = req.url ?? "";
    for (const raw of o.rawRoutes ?? []) if (await raw(req, res, body)) return;
    if (full.startsWith("/storage/")) return servePart(full.split("?")[0]!.slice("/storage/".length), res);
    const rel = full.startsWith(PREFIX) ? full.slice(PREFIX.length) : full;
    const url = new URL(rel, "http://x");
    const sreq: SimRequest = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, body, bearer: (req.headers.authorization ?? "").replace(/^Bearer /, "") };
    const problems = req.headers["x-error-format"] === "problem-details" && !o.legacyErrors;
    let answered = false;
    const ctx: SimContext = {
      keys, sim, tick,
      send(status, payload, headers = {}, contentType) {
        answered = true;
        const bytes = payload === undefined ? Buffer.alloc(0) : payload instanceof Uint8Array ? Buffer.from(payload) : Buffer.from(JSON.stringify(payload));
        const type = contentType ?? (payload instanceof Uint8Array ? "application/octet-stream" : "application/json");
        const warning = status >= 200 && status < 300 ? sim.systemWarning?.(sreq.method, sreq.path) ?? null : null;
        const all = { ...(bytes.length > 0 ? { "content-type": type } : {}), "content-length": String(bytes.length), ...(warning ? { "X-System-Warning": warning } : {}), ...headers };
        const lower = Object.fromEntries(Object.entries(all).map(([k, v]) => [k.toLowerCase(), v]));
        for (const v of checkResponse(spec, { method: sreq.method, path: rel }, { status, headers: lower, body: bytes })) violations.push(`answer: ${v}`);
        sim.log.push({ method: sreq.method, path: rel, headers: req.headers, request: _parse(body), status, body: payload instanceof Uint8Array ? null : payload });
        res.writeHead(status, all);
        res.end(bytes);
      },
      badRequest(code, description, details = []) {
        if (problems) {
          ctx.send(400, { title: "Bad Request", status: 400, instance: sreq.path, detail: "Żądanie jest nieprawidłowe.", errors: [{ code, description, details }], timestamp: iso7(Date.now()), traceId: _hex(16).toLowerCase() }, {}, "application/problem+json");
        } else {
          ctx.send(400, { exception: { exceptionDetailList: [{ exceptionCode: code, exceptionDescription: description, details }], timestamp: iso7(Date.now()) } });
        }
      },
      unauthorized(detail) {
        ctx.send(401, { title: "Unauthorized", status: 401, detail, instance: sreq.path, traceId: _hex(16).toLowerCase(), timestamp: iso7(Date.now()) }, {}, "application/problem+json");
      },
      forbidden(detail, required, present) {
        ctx.send(403, {
          title: "Forbidden", status: 403, detail, instance: sreq.path, reasonCode: "missing-permissions",
          security: { requiredAnyOfPermissions: required, presentPermissions: present }, traceId: _hex(16).toLowerCase(), timestamp: iso7(Date.now()),
        }, {}, "application/problem+json");
      },
      session() {
        return auth.session(sreq.bearer);
      },
    };
    if (!full.startsWith(PREFIX)) {
      violations.push(`request outside the API root: ${sreq.method} ${full}`);
      return void res.writeHead(404).end();
    }
    sim.beforeRequest?.(sreq.method, sreq.path);
    const group = groupOf(sreq.path, o.limitGroup?.(sreq.method, sreq.path));
    sim.stats.requests[group] = (sim.stats.requests[group] ?? 0) + 1;
    const wrong = checkRequest(spec, { method: sreq.method, path: rel, headers: req.headers, body });
    if (wrong.length > 0) {
      violations.push(...wrong.map((w) => `request: ${w}`));
      return ctx.badRequest(21405, "Błąd walidacji danych wejściowych.", wrong);
    }
    if (failures.n > 0) {
      failures.n--;
      if (failures.status === 429) return tooMany(ctx, problems, sreq.path, "Simulated limit");
      return ctx.send(failures.status, undefined);
    }
    if (throttle(group)) {
      sim.stats.throttled++;
      return tooMany(ctx, problems, sreq.path, `Przekroczono limit żądań dla grupy ${group}.`);
    }
    for (const route of [xades.route, certificates.route, ...(o.routes ?? [])]) {
      if (await route(sreq, ctx) || answered) return;
    }
    await builtIn(sreq, ctx);
    if (!answered) {
      violations.push(`simulator: no route answered ${sreq.method} ${sreq.path}`);
      res.writeHead(404).end();
    }
  }

  function tooMany(ctx: SimContext, problems: boolean, path: string, detail: string): void {
    const retry = { "retry-after": String(o.retryAfter ?? 1) };
    if (problems) return ctx.send(429, { title: "Too Many Requests", status: 429, instance: path, detail, timestamp: iso7(Date.now()), traceId: _hex(16).toLowerCase() }, retry, "application/problem+json");
    ctx.send(429, { status: { code: 429, description: "Too Many Requests", details: [detail] } }, retry);
  }

  async function servePart(id: string, res: ServerResponse): Promise<void> {
    const bytes = parts.get(id);
    if (o.partDelayMs) await new Promise((r) => setTimeout(r, o.partDelayMs));
    res.writeHead(bytes ? 200 : 404, { "content-type": "application/octet-stream", "content-length": String(bytes?.length ?? 0) });
    res.end(bytes ?? Buffer.alloc(0));
  }

  const auth = new SimAuth(o.tokens, o.accessTtlMs ?? 15 * 60_000, ref);
  const xades = new SimXades(auth, o.certificates ?? []);
  const certificates = new SimCertificates(ref);
  const exports = new Map<string, Record<string, unknown>>();
  const parts = new Map<string, Buffer>();

  async function builtIn(r: SimRequest, ctx: SimContext): Promise<void> {
    const p = r.path;
    const json = (): Record<string, unknown> => (r.body.length ? (JSON.parse(r.body.toString()) as Record<string, unknown>) : {});
    if (p === "/security/public-key-certificates" && r.method === "GET") {
      sim.stats.certificateFetches++;
      return ctx.send(200, keys.published());
    }
    if (auth.handle(r, ctx)) return;
    const session = ctx.session();
    if (!session) return ctx.unauthorized("Wymagane jest uwierzytelnienie.");
    if (!session.permissions.includes("InvoiceRead")) return ctx.forbidden("Brak wymaganych uprawnień do wykonania operacji w bieżącym kontekście.", ["InvoiceRead"], session.permissions);
    if (p === "/invoices/exports" && r.method === "POST") return startExport(json(), session.nip, ctx);
    if (p.startsWith("/invoices/exports/") && r.method === "GET") {
      const e = exports.get(p.slice("/invoices/exports/".length));
      return e ? ctx.send(200, e) : ctx.badRequest(21175, "Wynik zapytania o podanym identyfikatorze nie istnieje.");
    }
    if (p.startsWith("/invoices/ksef/") && r.method === "GET") {
      const n = decodeURIComponent(p.slice("/invoices/ksef/".length));
      const i = sim.invoices.find((x) => x.ksefNumber === n);
      if (!i) return ctx.badRequest(21164, "Faktura o podanym identyfikatorze nie istnieje.", [`Faktura o numerze KSeF ${n} nie została znaleziona.`]);
      if (i.xmlPending) return ctx.badRequest(21165, "Faktura o podanym numerze KSeF nie jest jeszcze dostępna.", [`Faktura o numerze KSeF ${n} została przetworzona, ale nie jest jeszcze dostępna do pobrania. Spróbuj ponownie później.`]);
      return ctx.send(200, i.xml, {}, "application/xml");
    }
    if (p === "/invoices/query/metadata" && r.method === "POST") {
      const offset = Number(r.query.get("pageOffset") ?? 0);
      const size = Number(r.query.get("pageSize") ?? 10);
      const hwm = tick();
      const all = selectInvoices(sim.invoices, json() as SimFilters, session.nip, hwm, Date.now());
      const page = all.slice(offset * size, offset * size + size);
      return ctx.send(200, { hasMore: all.length > (offset + 1) * size, isTruncated: false, permanentStorageHwmDate: iso7(hwm), invoices: page.map(metadataOf) });
    }
  }

  function startExport(body: Record<string, unknown>, nip: string, ctx: SimContext): void {
    const enc = body.encryption as { encryptedSymmetricKey: string; initializationVector: string; publicKeyId?: string };
    const filters = body.filters as SimFilters;
    const key = keys.decrypt(enc.publicKeyId, enc.encryptedSymmetricKey);
    if (!key.ok && key.unknownKey) return ctx.badRequest(21470, "Przesłany identyfikator klucza jest nieznany lub wskazuje na wycofany klucz.", [`Klucz o identyfikatorze ${String(enc.publicKeyId)} nie jest wspierany.`]);
    const reference = ref("EH");
    sim.stats.exports++;
    const hwm = tick();
    const from = parseTime(filters.dateRange?.from);
    if (filters.dateRange?.dateType !== "PermanentStorage") throw new Error("simulator: exports are by PermanentStorage date");
    if (!key.ok || key.plain.length !== 32) {
      exports.set(reference, { status: { code: 415, description: "Błąd odszyfrowania dostarczonego klucza" } });
    } else if (from > hwm && filters.dateRange.restrictToPermanentStorageHwmDate) {
      exports.set(reference, { status: { code: 420, description: "Zakres filtrowania wykracza poza dostępny zakres danych", details: ["Parametr dateRange.from jest późniejszy niż PermanentStorageHwmDate przy włączonym restrictToPermanentStorageHwmDate."] } });
    } else {
      const all = selectInvoices(sim.invoices, filters, nip, hwm, Date.now());
      const limit = o.packageLimit ?? 10_000;
      const to = filters.dateRange.to ? parseTime(filters.dateRange.to) : Infinity;
      const built = buildPackage(all.slice(0, limit), {
        truncated: all.length > limit, hwm: Math.min(hwm, to), key: corrupt ? null : key.plain, iv: Buffer.from((body.encryption as { initializationVector: string }).initializationVector, "base64"),
        partSize: o.partSize ?? 50 * 1024 * 1024, reference, partUrl: (id) => `${sim.url.slice(0, -PREFIX.length)}/storage/${id}?sig=${_hex(8)}`,
      });
      corrupt = false;
      for (const [id, bytes] of built.parts) parts.set(id, bytes);
      exports.set(reference, { status: { code: 200, description: "Eksport faktur zakończony sukcesem" }, completedDate: iso7(Date.now()), packageExpirationDate: iso7(Date.now() + 7 * 86_400_000), package: built.pkg });
    }
    ctx.send(201, { referenceNumber: reference });
    sim.afterExport?.(sim.stats.exports);
  }

  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const addr = server.address();
  let serial = 0;
  const sim: KsefSimulator = {
    url: `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}${PREFIX}`,
    invoices: [], afterExport: null, beforeRequest: null, systemWarning: null, log: [],
    stats: { requests: {}, throttled: 0, exports: 0, authentications: 0, refreshes: 0, certificateFetches: 0 },
    add(i) {
      const at = i.at ?? tick();
      const day = new Date(at).toISOString().slice(0, 10).replaceAll("-", "");
      const inv: SimInvoice = {
        // numer-ksef.md: seller NIP, date, 12 technical hex digits, CRC-8 checksum.
        ksefNumber: formatKsefNumber(i.seller, day, (++serial).toString(16).padStart(12, "0")),
        seller: i.seller, buyer: i.buyer, third: i.third ?? null, xml: i.xml, invoiceNumber: i.invoiceNumber, permanentStorageDate: iso7(at),
        currency: i.currency ?? "PLN", netAmount: i.net ?? 100, vatAmount: i.vat ?? 23, grossAmount: i.gross ?? 123, xmlPending: i.xmlPending ?? false,
      };
      const last = sim.invoices[sim.invoices.length - 1];
      sim.invoices.push(inv);
      // Kept in PermanentStorage order; the usual add (the clock's now) goes last, so a sort is rarely needed.
      if (last && parseTime(last.permanentStorageDate) > at) sim.invoices.sort((a, b) => parseTime(a.permanentStorageDate) - parseTime(b.permanentStorageDate));
      return inv;
    },
    release(ksefNumber) {
      const i = sim.invoices.find((x) => x.ksefNumber === ksefNumber);
      if (!i) throw new Error(`simulator: no invoice ${ksefNumber}`);
      i.xmlPending = false;
    },
    failNext(n, status) {
      failures = { n, status };
    },
    failNextAuthentication(code) {
      auth.failNext = code;
    },
    expireAccessTokens() {
      auth.expireAccess();
    },
    expireRefreshTokens() {
      auth.expireRefresh();
    },
    revokeCertificate(serial) {
      xades.revoke(serial);
    },
    xades,
    certificates,
    corruptNextPackage() {
      corrupt = true;
    },
    rotateKeys() {
      keys.rotate();
    },
    takeViolations() {
      return violations.splice(0);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      certificates.close();
      if (violations.length > 0) throw new Error(`The KSeF exchanges departed from open-api.json:\n${[...new Set(violations)].slice(0, 30).join("\n")}`);
    },
  };
  return sim;
}

function _hex(bytes: number): string {
  return randomBytes(bytes).toString("hex").toUpperCase();
}

function _parse(body: Buffer): unknown {
  try {
    return body.length > 0 ? JSON.parse(body.toString()) : null;
  } catch {
    return null;
  }
}

/**
 * A KSeF 2.0 simulator for tests and demos, built from KSeF's open-api.json
 * (CIRFMF/ksef-docs): public-key certificates, challenge, token
 * authentication (the RSA-OAEP `token|timestampMs` is decrypted and checked),
 * status, redeem, refresh, metadata queries, exports as AES-256-CBC encrypted
 * ZIP parts (truncated past a package limit), invoice download, and 429 with
 * Retry-After past its limits. Its certificate and key are a self-signed test
 * fixture made once with `openssl req -x509` (test/fixtures/ksef/). It is not
 * KSeF: no XAdES, no sending of invoices, no permissions model beyond InvoiceRead.
 */
import { constants, createCipheriv, createHash, privateDecrypt, randomBytes, X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { KSEF_LIMITS, type EndpointGroup, type RateLimit } from "../../storage/sources/ksef/pacing.ts";
import { fixturePath } from "./server.ts";
import { writeZip } from "./zip_writer.ts";

/** A KSeF token the simulator accepts. */
export interface SimToken {
  token: string;
  nip: string;
  permissions: string[];
}

/** An invoice stored in the simulator. */
export interface SimInvoice {
  ksefNumber: string;
  seller: string;
  buyer: string;
  third: string | null;
  xml: Uint8Array;
  invoiceNumber: string;
  permanentStorageDate: string;
}

/** A request handed to `extraRoutes`. */
export interface SimExtraRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** The path under the API root, e.g. `/sessions/online`. */
  path: string;
  body: Buffer;
  access: { nip: string; permissions: string[] } | null;
}

/** Options of the simulator. */
export interface SimOptions {
  tokens: SimToken[];
  /** Requests per window per endpoint group before 429 (default: the documented limits). */
  limits?: Partial<Record<EndpointGroup, RateLimit>>;
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
}

/** A running simulator. */
export interface KsefSimulator {
  /** The API root to configure as `environment`. */
  url: string;
  invoices: SimInvoice[];
  /** Stores an invoice now (its PermanentStorage date is the simulator's clock, strictly increasing). */
  add(i: { seller: string; buyer: string; third?: string; xml: Uint8Array; invoiceNumber: string }): SimInvoice;
  /** The next `n` requests answer `status` (5xx or 429 storms). */
  failNext(n: number, status: number): void;
  /** Every access token issued so far stops working (refresh tokens stay valid). */
  expireAccessTokens(): void;
  /** The next export package is encrypted with a wrong key. */
  corruptNextPackage(): void;
  /** Called after each export is started (with their count), e.g. to expire tokens mid-run. */
  afterExport: ((count: number) => void) | null;
  /**
   * More routes under the API root (e.g. the online-session side, ksef_simulator_online.ts), asked before the
   * built-in ones: `access` is the bearer's grant (null when it has none). Resolves true when it answered.
   */
  extraRoutes: ((r: SimExtraRequest) => Promise<boolean>) | null;
  /** Counters: requests per path group, 429s sent because a limit was exceeded, exports started. */
  stats: { requests: Record<string, number>; throttled: number; exports: number; authentications: number; refreshes: number };
  close(): Promise<void>;
}

const PREFIX = "/api/v2";
const WINDOWS = [["perSecond", 1000], ["perMinute", 60_000], ["perHour", 3_600_000]] as const;

/** Starts a simulator on 127.0.0.1 and an ephemeral port. */
export async function startKsefSimulator(o: SimOptions): Promise<KsefSimulator> {
  const certPem = readFileSync(fixturePath("ksef", "simulator_cert.pem"), "utf8");
  const keyPem = readFileSync(fixturePath("ksef", "simulator_key.pem"), "utf8");
  const x509 = new X509Certificate(certPem);
  const certDer = x509.raw.toString("base64");
  const limits = { ...KSEF_LIMITS, ...o.limits };
  const history = new Map<EndpointGroup, number[]>();
  const challenges = new Map<string, number>();
  const auths = new Map<string, { ref: string; code: number; nip: string; permissions: string[]; redeemed: boolean }>();
  const access = new Map<string, { nip: string; permissions: string[]; until: number }>();
  const refresh = new Map<string, { nip: string; permissions: string[] }>();
  const exports = new Map<string, Record<string, unknown>>();
  const parts = new Map<string, Buffer>();
  let failures: { n: number; status: number } = { n: 0, status: 503 };
  let corrupt = false;
  let clock = 0;
  const stats: KsefSimulator["stats"] = { requests: {}, throttled: 0, exports: 0, authentications: 0, refreshes: 0 };
  const invoices: SimInvoice[] = [];
  let url = "";

  const tick = (): number => (clock = Math.max(clock + 1, Date.now()));
  const iso7 = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$10000+00:00"); // as KSeF writes them
  const ref = (kind: string): string => `${new Date().toISOString().slice(0, 10).replaceAll("-", "")}-${kind}-${randomBytes(5).toString("hex").toUpperCase()}-${randomBytes(5).toString("hex").toUpperCase()}-${randomBytes(1).toString("hex").toUpperCase()}`;

  function throttle(group: EndpointGroup): boolean {
    const now = Date.now();
    const times = (history.get(group) ?? []).filter((t) => t > now - 3_600_000);
    history.set(group, times);
    for (const [key, span] of WINDOWS) {
      const max = limits[group][key];
      if (max !== undefined && times.filter((t) => t > now - span).length >= max) return true;
    }
    times.push(now);
    return false;
  }

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    const bytes = body instanceof Uint8Array ? body : Buffer.from(JSON.stringify(body));
    res.writeHead(status, { "content-type": body instanceof Uint8Array ? "application/octet-stream" : "application/json", "content-length": String(bytes.length), ...headers });
    res.end(bytes);
  };
  const exception = (code: number, description: string): unknown => ({ exception: { exceptionDetailList: [{ exceptionCode: code, exceptionDescription: description }], timestamp: new Date().toISOString() } });

  function roleOf(i: SimInvoice, subject: string, nip: string): boolean {
    return subject === "Subject1" ? i.seller === nip : subject === "Subject2" ? i.buyer === nip : subject === "Subject3" ? i.third === nip : false;
  }
  function metadata(i: SimInvoice): Record<string, unknown> {
    return {
      ksefNumber: i.ksefNumber, invoiceNumber: i.invoiceNumber, issueDate: i.permanentStorageDate.slice(0, 10),
      invoicingDate: i.permanentStorageDate, acquisitionDate: i.permanentStorageDate, permanentStorageDate: i.permanentStorageDate,
      seller: { nip: i.seller, name: `Seller ${i.seller}` }, buyer: { identifier: { type: "Nip", value: i.buyer }, name: `Buyer ${i.buyer}` },
      netAmount: 100, grossAmount: 123, vatAmount: 23, currency: "PLN", invoicingMode: "Online", invoiceType: "Vat",
      formCode: { systemCode: "FA (2)", schemaVersion: "1-0E", value: "FA" }, isSelfInvoicing: false, hasAttachment: false,
      invoiceHash: createHash("sha256").update(i.xml).digest("base64"),
      thirdSubjects: i.third ? [{ identifier: { type: "Nip", value: i.third }, name: `Third ${i.third}`, role: 0 }] : [],
    };
  }
  function select(filters: { subjectType?: string; dateRange?: { dateType?: string; from?: string; to?: string | null } }, nip: string, hwm: number): SimInvoice[] {
    const from = Date.parse(filters.dateRange?.from ?? "");
    const to = Math.min(filters.dateRange?.to ? Date.parse(filters.dateRange.to) : Infinity, hwm);
    return invoices.filter((i) => roleOf(i, filters.subjectType ?? "", nip) && Date.parse(i.permanentStorageDate) >= from && Date.parse(i.permanentStorageDate) <= to);
  }

  function startExport(body: Record<string, unknown>, nip: string): unknown {
    const enc = body.encryption as { encryptedSymmetricKey?: string; initializationVector?: string } | undefined;
    const filters = body.filters as Parameters<typeof select>[0];
    const reference = ref("EH");
    stats.exports++;
    let key: Buffer;
    try {
      key = privateDecrypt({ key: keyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" }, Buffer.from(enc?.encryptedSymmetricKey ?? "", "base64"));
      if (key.length !== 32) throw new Error("key size");
    } catch {
      exports.set(reference, { status: { code: 415, description: "Błąd odszyfrowania dostarczonego klucza" } });
      return { referenceNumber: reference };
    }
    const iv = Buffer.from(enc?.initializationVector ?? "", "base64");
    const hwm = tick();
    const from = Date.parse(filters.dateRange?.from ?? "");
    if (filters.dateRange?.dateType !== "PermanentStorage" || Number.isNaN(from)) throw new Error("simulator: exports are by PermanentStorage date");
    if (from > hwm) {
      exports.set(reference, { status: { code: 420, description: "Zakres filtrowania wykracza poza dostępny zakres danych" } });
      return { referenceNumber: reference };
    }
    const all = select(filters, nip, hwm);
    const limit = o.packageLimit ?? 10_000;
    const chosen = all.slice(0, limit);
    const truncated = all.length > limit;
    const zip = writeZip([
      ...chosen.map((i) => ({ name: `${i.ksefNumber}.xml`, bytes: i.xml })),
      { name: "_metadata.json", bytes: Buffer.from(JSON.stringify({ invoices: chosen.map(metadata) })) },
    ]);
    const partSize = o.partSize ?? 50 * 1024 * 1024;
    const list: Record<string, unknown>[] = [];
    for (let at = 0, n = 1; at < zip.length; at += partSize, n++) {
      const plain = zip.subarray(at, at + partSize);
      const cipher = createCipheriv("aes-256-cbc", corrupt ? randomBytes(32) : key, iv);
      const bytes = Buffer.concat([cipher.update(plain), cipher.final()]);
      const id = `${reference}-${String(n).padStart(3, "0")}`;
      parts.set(id, bytes);
      list.push({
        ordinalNumber: n, partName: `${id}.zip.aes`, method: "GET", url: `${url.replace(PREFIX, "")}/storage/${id}?sig=${randomBytes(8).toString("hex")}`,
        partSize: plain.length, partHash: createHash("sha256").update(plain).digest("base64"),
        encryptedPartSize: bytes.length, encryptedPartHash: createHash("sha256").update(bytes).digest("base64"),
        expirationDate: new Date(Date.now() + 3_600_000).toISOString(),
      });
    }
    corrupt = false;
    const last = chosen.at(-1);
    exports.set(reference, {
      status: { code: 200, description: "Eksport faktur zakończony sukcesem" }, completedDate: new Date().toISOString(),
      package: {
        invoiceCount: chosen.length, size: zip.length, parts: list, isTruncated: truncated,
        ...(truncated && last ? { lastPermanentStorageDate: last.permanentStorageDate } : {}),
        permanentStorageHwmDate: truncated && last ? last.permanentStorageDate : iso7(hwm),
      },
    });
    return { referenceNumber: reference };
  }

  async function handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const path = (req.url ?? "").split("?")[0]!;
    const bearer = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    const json = (): Record<string, unknown> => (body.length ? (JSON.parse(body.toString()) as Record<string, unknown>) : {});
    if (path.startsWith("/storage/")) {
      const bytes = parts.get(path.slice("/storage/".length));
      if (o.partDelayMs) await new Promise((r) => setTimeout(r, o.partDelayMs));
      return bytes ? send(res, 200, bytes) : send(res, 404, {});
    }
    if (!path.startsWith(PREFIX)) return send(res, 404, {});
    const p = path.slice(PREFIX.length);
    if (sim.extraRoutes) {
      const grant = access.get(bearer);
      if (await sim.extraRoutes({ req, res, path: p, body, access: grant && grant.until > Date.now() ? grant : null })) return;
    }
    const group: EndpointGroup = p.startsWith("/auth") || p.startsWith("/security") ? "auth" : p === "/invoices/query/metadata" ? "metadata"
      : p === "/invoices/exports" ? "export" : p.startsWith("/invoices/exports/") ? "exportStatus" : "download";
    stats.requests[group] = (stats.requests[group] ?? 0) + 1;
    if (failures.n > 0) {
      failures.n--;
      return send(res, failures.status, failures.status === 429 ? { status: { code: 429, description: "Too Many Requests" } } : {}, failures.status === 429 ? { "retry-after": String(o.retryAfter ?? 1) } : {});
    }
    if (throttle(group)) {
      stats.throttled++;
      return send(res, 429, { status: { code: 429, description: "Too Many Requests", details: [`Limit for ${group} exceeded`] } }, { "retry-after": String(o.retryAfter ?? 1) });
    }
    if (p === "/security/public-key-certificates") {
      const validTo = o.certificateValidTo ?? x509.validTo;
      const entry = (usage: string) => ({ certificate: certDer, validFrom: new Date(x509.validFrom).toISOString(), validTo: new Date(validTo).toISOString(), usage: [usage] });
      return send(res, 200, [entry("KsefTokenEncryption"), entry("SymmetricKeyEncryption")]);
    }
    if (p === "/auth/challenge" && req.method === "POST") {
      const challenge = ref("CR");
      const at = tick();
      challenges.set(challenge, at);
      return send(res, 200, { challenge, timestamp: iso7(at) });
    }
    if (p === "/auth/ksef-token" && req.method === "POST") {
      const b = json() as { challenge?: string; contextIdentifier?: { type?: string; value?: string }; encryptedToken?: string };
      const at = challenges.get(b.challenge ?? "");
      if (at === undefined || b.contextIdentifier?.type !== "Nip") return send(res, 400, exception(21405, "Błąd walidacji danych wejściowych."));
      challenges.delete(b.challenge!);
      stats.authentications++;
      let code = 450;
      let holder: SimToken | undefined;
      try {
        const plain = privateDecrypt({ key: keyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" }, Buffer.from(b.encryptedToken ?? "", "base64")).toString();
        const cut = plain.lastIndexOf("|");
        holder = o.tokens.find((t) => t.token === plain.slice(0, cut));
        if (holder && plain.slice(cut + 1) === String(at)) code = holder.nip === b.contextIdentifier.value ? 200 : 415;
      } catch {
        code = 450;
      }
      const r = ref("AU");
      const authToken = randomBytes(24).toString("hex");
      auths.set(authToken, { ref: r, code, nip: b.contextIdentifier.value ?? "", permissions: holder?.permissions ?? [], redeemed: false });
      return send(res, 202, { referenceNumber: r, authenticationToken: { token: authToken, validUntil: new Date(Date.now() + 600_000).toISOString() } });
    }
    const auth = auths.get(bearer);
    if (p.startsWith("/auth/") && req.method === "GET" && p !== "/auth/sessions") {
      if (!auth || auth.ref !== p.slice("/auth/".length)) return send(res, 401, {});
      const description = { 200: "Uwierzytelnianie zakończone sukcesem", 415: "Uwierzytelnianie zakończone niepowodzeniem", 450: "Uwierzytelnianie zakończone niepowodzeniem z powodu błędnego tokenu" }[auth.code];
      return send(res, 200, { startDate: new Date().toISOString(), authenticationMethod: "Token", status: { code: auth.code, description, ...(auth.code === 450 ? { details: ["Nieprawidłowy token"] } : {}) } });
    }
    const ttl = o.accessTtlMs ?? 15 * 60_000;
    if (p === "/auth/token/redeem" && req.method === "POST") {
      if (!auth || auth.code !== 200 || auth.redeemed) return send(res, auth ? 400 : 401, exception(21301, "Brak autoryzacji."));
      auth.redeemed = true;
      const a = randomBytes(24).toString("hex");
      const r = randomBytes(24).toString("hex");
      access.set(a, { nip: auth.nip, permissions: auth.permissions, until: Date.now() + ttl });
      refresh.set(r, { nip: auth.nip, permissions: auth.permissions });
      return send(res, 200, { accessToken: { token: a, validUntil: new Date(Date.now() + ttl).toISOString() }, refreshToken: { token: r, validUntil: new Date(Date.now() + 7 * 86_400_000).toISOString() } });
    }
    if (p === "/auth/token/refresh" && req.method === "POST") {
      const r = refresh.get(bearer);
      if (!r) return send(res, 401, {});
      stats.refreshes++;
      const a = randomBytes(24).toString("hex");
      access.set(a, { ...r, until: Date.now() + ttl });
      return send(res, 200, { accessToken: { token: a, validUntil: new Date(Date.now() + ttl).toISOString() } });
    }
    const session = access.get(bearer);
    if (!session || session.until <= Date.now()) return send(res, 401, {});
    if (!session.permissions.includes("InvoiceRead")) return send(res, 403, {});
    if (p === "/invoices/exports" && req.method === "POST") {
      const started = startExport(json(), session.nip);
      sim.afterExport?.(stats.exports);
      return send(res, 201, started);
    }
    if (p.startsWith("/invoices/exports/") && req.method === "GET") {
      const e = exports.get(p.slice("/invoices/exports/".length));
      return e ? send(res, 200, e) : send(res, 400, exception(21175, "Wynik zapytania o podanym identyfikatorze nie istnieje."));
    }
    if (p.startsWith("/invoices/ksef/") && req.method === "GET") {
      const i = invoices.find((x) => x.ksefNumber === decodeURIComponent(p.slice("/invoices/ksef/".length)));
      if (!i) return send(res, 400, exception(21164, "Faktura o podanym identyfikatorze nie istnieje."));
      res.writeHead(200, { "content-type": "application/xml", "content-length": String(i.xml.length) });
      return void res.end(i.xml);
    }
    if (p === "/invoices/query/metadata" && req.method === "POST") {
      const q = new URL(req.url ?? "", "http://x").searchParams;
      const offset = Number(q.get("pageOffset") ?? 0);
      const size = Math.min(250, Math.max(10, Number(q.get("pageSize") ?? 10)));
      const hwm = tick();
      const all = select(json() as Parameters<typeof select>[0], session.nip, hwm);
      const page = all.slice(offset * size, offset * size + size);
      return send(res, 200, { hasMore: all.length > (offset + 1) * size, isTruncated: false, permanentStorageHwmDate: iso7(hwm), invoices: page.map(metadata) });
    }
    return send(res, 404, {});
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => void handle(req, res, Buffer.concat(chunks)).catch((e: unknown) => send(res, 500, { error: String(e) })));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const addr = server.address();
  url = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}${PREFIX}`;
  let serial = 0;
  const sim: KsefSimulator = {
    url, invoices, stats, afterExport: null, extraRoutes: null,
    add(i) {
      const at = tick();
      const day = new Date(at).toISOString().slice(0, 10).replaceAll("-", "");
      const hex = (++serial).toString(16).toUpperCase().padStart(12, "0");
      const inv: SimInvoice = {
        ksefNumber: `${i.seller}-${day}-${hex}-${createHash("sha256").update(hex).digest("hex").slice(0, 2).toUpperCase()}`,
        seller: i.seller, buyer: i.buyer, third: i.third ?? null, xml: i.xml, invoiceNumber: i.invoiceNumber, permanentStorageDate: iso7(at),
      };
      invoices.push(inv);
      return inv;
    },
    failNext(n, status) {
      failures = { n, status };
    },
    expireAccessTokens() {
      for (const a of access.values()) a.until = 0;
    },
    corruptNextPackage() {
      corrupt = true;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
  return sim;
}

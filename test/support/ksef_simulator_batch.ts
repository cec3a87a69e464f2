/**
 * The batch-session side of the KSeF simulator (ksef_simulator.ts), from KSeF's open-api.json, sesja-wsadowa.md and
 * faktury/sesje/sesja-sprawdzenie-stanu-i-pobranie-upo.md: open a batch session (the key unwrapped as for online
 * sessions; pre-signed part URLs with the method and headers to use), part uploads outside the API (size and hash
 * checked against the declaration, 403 once the upload window of 20 minutes a part is over), close (the parts
 * decrypted, joined, checked against the package's size and hash, unzipped, and every invoice judged by the online
 * side's judge, duplicates included), the session status with its collective UPO pages, the invoice lists with
 * continuation tokens (all, and the failed ones), per-invoice UPOs by pre-signed URL or by the API. Its API routes
 * plug into the simulator's `routes`, so they are held to open-api.json like the rest. Faults: a part upload
 * refused or lost (stored, its answer never sent), a session that expires before it is closed, a session failed as
 * a whole, 5xx and 429 on its operations.
 */
import { createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readZip } from "../../lib/formats/zip/read.ts";
import type { KsefSimulator, SimContext, SimRequest, SimRoute } from "./ksef_simulator.ts";
import { isSessionForm, type OnlineInvoice, type OnlineSide } from "./ksef_simulator_online.ts";

/** A batch session as the simulator holds it. */
export interface SimBatch {
  reference: string;
  nip: string;
  systemCode: string;
  key: Buffer;
  iv: Buffer;
  fileSize: number;
  fileHash: string;
  parts: { ordinalNumber: number; fileSize: number; fileHash: string; data: Buffer | null }[];
  status: { code: number; description: string; details?: string[] };
  created: number;
  deadline: number;
  invoices: OnlineInvoice[];
  upoPages: Buffer[];
  polls: number;
  /** The session's declared `offlineMode` (open-api.json OpenBatchSessionRequest). */
  offlineMode: boolean;
}

/** Options of the batch side. */
export interface BatchOptions {
  /** Status polls answered 150 after closing before the outcome. */
  processingPolls?: number;
  /** Invoices per page of the collective UPO. */
  upoPageSize?: number;
  /** The upload window per part, ms (sesja-wsadowa.md: 20 minutes a part). */
  uploadWindowMs?: number;
}

/** The batch side, for tests to inspect and steer. */
export interface BatchSide {
  sessions: Map<string, SimBatch>;
  /** Requests per operation (open, upload, close, status, list, upo, sessionUpo, download). */
  calls: Record<string, number>;
  /** The next `n` part uploads answer `status`, or are stored and then lost (the connection dropped without an answer). */
  failNextUploads(n: number, status: number | "lost"): void;
  /** The next `n` batch-session API requests answer `status` (a 429 carries Retry-After 1). */
  failNext(n: number, status: number): void;
  /** The next session closed fails as a whole with this status (e.g. 500) instead of being processed. */
  failNextSession: number | null;
  /** Called when a request arrives (operation name), e.g. to kill a server mid-step. */
  onRequest: ((operation: string) => void) | null;
  routes: SimRoute[];
  rawRoutes: ((req: IncomingMessage, res: ServerResponse, body: Buffer) => boolean | Promise<boolean>)[];
  limitGroup: (method: string, path: string) => string | undefined;
}

/** Adds the batch-session routes to a simulator that has the online side (whose judge and duplicate check it shares). */
export function batchSessions(online: OnlineSide, o: BatchOptions = {}): BatchSide {
  let simRef: KsefSimulator | null = null;
  let uploadFaults = { n: 0, status: 500 as number | "lost" };
  let faults = { n: 0, status: 503 };
  const b64sha = (b: Uint8Array): string => createHash("sha256").update(b).digest("base64");
  const ref = (kind: string): string => `${new Date().toISOString().slice(0, 10).replaceAll("-", "")}-${kind}-${_hex(5)}-${_hex(5)}-${_hex(1)}`;
  const origin = (): string => simRef!.url.replace(/\/v2$/, "");
  const noSession = (ctx: SimContext, reference: string): void =>
    ctx.badRequest(21173, "Brak sesji o wskazanym numerze referencyjnym.", [`Sesja o numerze referencyjnym ${reference} nie została odnaleziona.`]);

  const route: SimRoute = async (r, ctx) => {
    const op = operation(r.method, r.path);
    if (!op) return false;
    const parts = r.path.split("/").map(decodeURIComponent);
    // GET /sessions/{ref}/… of an online session belongs to the online side.
    if (op !== "open" && op !== "close" && !side.sessions.has(parts[2]!)) return false;
    simRef = ctx.sim;
    side.calls[op] = (side.calls[op] ?? 0) + 1;
    side.onRequest?.(op);
    if (faults.n > 0) {
      faults.n--;
      if (faults.status === 429) ctx.send(429, { status: { code: 429, description: "Too Many Requests", details: ["Przekroczono limit żądań."] } }, { "retry-after": "1" });
      else ctx.send(faults.status, undefined);
      return true;
    }
    const access = ctx.session();
    if (!access) return (ctx.unauthorized("Wymagane jest uwierzytelnienie."), true);
    if (!access.permissions.includes("InvoiceWrite")) return (ctx.forbidden("Brak wymaganych uprawnień do wykonania operacji w bieżącym kontekście.", ["InvoiceWrite"], access.permissions), true);
    if (op === "open") return (open(ctx, access.nip, JSON.parse(r.body.toString()) as Record<string, unknown>), true);
    const reference = op === "close" ? parts[3]! : parts[2]!;
    const s = side.sessions.get(reference);
    if (!s || s.nip !== access.nip) return (noSession(ctx, reference), true);
    if (op === "close") return (close(ctx, s), true);
    if (op === "status") return (ctx.send(200, statusOf(s)), true);
    if (op === "list") return (list(r, ctx, s, parts[4] === "failed"), true);
    if (op === "sessionUpo") {
      const page = s.upoPages.find((_, i) => pageRef(s, i) === parts[4]);
      return (page ? ctx.send(200, page, { "x-ms-meta-hash": b64sha(page) }, "application/xml") : ctx.badRequest(21178, "Nie znaleziono UPO dla podanych kryteriów.", [`UPO ${parts[4]} nie zostało znalezione.`]), true);
    }
    const inv = s.invoices.find((i) => (parts[4] === "ksef" ? i.ksefNumber === parts[5] : i.reference === parts[4]));
    if (!inv?.upo) return (ctx.badRequest(21178, "Nie znaleziono UPO dla podanych kryteriów.", [`UPO dla sesji ${reference} nie zostało znalezione.`]), true);
    ctx.send(200, inv.upo, { "x-ms-meta-hash": b64sha(inv.upo) }, "application/xml");
    return true;
  };

  function open(ctx: SimContext, nip: string, b: Record<string, unknown>): void {
    const form = b.formCode as { systemCode: string; schemaVersion: string; value: string };
    const enc = b.encryption as { encryptedSymmetricKey: string; initializationVector: string; publicKeyId?: string | null };
    const file = b.batchFile as { fileSize: number; fileHash: string; fileParts: { ordinalNumber: number; fileSize: number; fileHash: string }[] };
    // open-api.json OpenBatchSessionRequest.formCode: FA(2), FA(3) and FA_RR(1), not PEF.
    if (!isSessionForm(form)) {
      return ctx.badRequest(21405, "Błąd walidacji danych wejściowych.", [`Nieobsługiwany kod formularza ${form.systemCode}.`]);
    }
    const key = ctx.keys.decrypt(enc.publicKeyId, enc.encryptedSymmetricKey);
    if (!key.ok && key.unknownKey) return ctx.badRequest(21470, "Przesłany identyfikator klucza jest nieznany lub wskazuje na wycofany klucz.", [`Klucz o identyfikatorze ${String(enc.publicKeyId)} nie jest wspierany.`]);
    const iv = Buffer.from(enc.initializationVector, "base64");
    if (!key.ok || key.plain.length !== 32 || iv.length !== 16) return ctx.badRequest(21405, "Błąd walidacji danych wejściowych.", ["Nie udało się odszyfrować klucza symetrycznego lub ma on nieprawidłową długość."]);
    const ordinals = file.fileParts.map((p) => p.ordinalNumber).sort((x, y) => x - y);
    if (ordinals.some((n, i) => n !== i + 1)) return ctx.badRequest(21405, "Błąd walidacji danych wejściowych.", ["Numery części muszą być kolejne od 1."]);
    const reference = ref("SB");
    const now = Date.now();
    // sesja-wsadowa.md: 20 minutes for each declared part, for every part.
    const window = (o.uploadWindowMs ?? 20 * 60_000) * file.fileParts.length;
    side.sessions.set(reference, {
      reference, nip, systemCode: form.systemCode, key: key.plain, iv, fileSize: file.fileSize, fileHash: file.fileHash,
      parts: file.fileParts.map((p) => ({ ...p, data: null })), status: { code: 100, description: "Sesja wsadowa rozpoczęta" },
      created: now, deadline: now + window, invoices: [], upoPages: [], polls: 0, offlineMode: b.offlineMode === true,
    });
    ctx.send(201, {
      referenceNumber: reference,
      partUploadRequests: file.fileParts.map((p) => ({
        ordinalNumber: p.ordinalNumber, method: "PUT", url: `${origin()}/upload/${reference}/${p.ordinalNumber}?sig=${_hex(8)}`,
        headers: { "x-ms-blob-type": "BlockBlob", "content-type": "application/octet-stream" },
      })),
    });
  }

  // The part upload, outside the API: the body is the part's bytes, checked against its declaration.
  async function upload(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<boolean> {
    const m = /^\/upload\/([^/]+)\/(\d+)\?sig=/.exec(req.url ?? "");
    if (!m) return false;
    side.calls.upload = (side.calls.upload ?? 0) + 1;
    side.onRequest?.("upload");
    const answer = (status: number): void => void res.writeHead(status, { "content-length": "0" }).end();
    if (req.method !== "PUT" || req.headers["x-ms-blob-type"] !== "BlockBlob" || req.headers.authorization) return (answer(400), true);
    const s = side.sessions.get(m[1]!);
    const part = s?.parts.find((p) => p.ordinalNumber === Number(m[2]));
    if (!s || !part) return (answer(404), true);
    if (Date.now() > s.deadline || s.status.code !== 100) return (answer(403), true);
    if (uploadFaults.n > 0) {
      uploadFaults.n--;
      if (uploadFaults.status !== "lost") return (answer(uploadFaults.status), true);
      if (body.length === part.fileSize && b64sha(body) === part.fileHash) part.data = body;
      res.destroy(); // taken, but the answer never arrives
      return true;
    }
    if (body.length !== part.fileSize || b64sha(body) !== part.fileHash) return (answer(400), true);
    part.data = body;
    answer(201);
    return true;
  }

  // Pre-signed downloads of UPOs (open-api.json upoDownloadUrl, UpoPageResponse.downloadUrl): no token, not limited.
  function download(req: IncomingMessage, res: ServerResponse): boolean {
    const m = /^\/download\/([^/]+)\/([^/?]+)\?sig=/.exec(req.url ?? "");
    if (!m) return false;
    side.calls.download = (side.calls.download ?? 0) + 1;
    let bytes: Uint8Array | null | undefined = null;
    for (const s of side.sessions.values()) {
      if (s.reference === m[1]) bytes = /^page-\d+$/.test(m[2]!) ? s.upoPages[Number(m[2]!.slice(5))] : s.invoices.find((i) => i.reference === m[2])?.upo;
    }
    if (!bytes) return void res.writeHead(404, { "content-length": "0" }).end(), true;
    res.writeHead(200, { "content-type": "application/xml", "content-length": String(bytes.length), "x-ms-meta-hash": b64sha(bytes) }).end(bytes);
    return true;
  }

  function close(ctx: SimContext, s: SimBatch): void {
    if (s.status.code !== 100) return ctx.badRequest(21180, "Status sesji nie pozwala na wykonanie operacji.", [`Status sesji ${s.status.code} uniemożliwia jej zamknięcie.`]);
    if (Date.now() > s.deadline) {
      s.status = { code: 440, description: "Sesja anulowana", details: ["Przekroczono czas wysyłki"] };
      return ctx.badRequest(21180, "Status sesji nie pozwala na wykonanie operacji.", ["Przekroczono czas wysyłki."]);
    }
    if (side.failNextSession !== null) {
      s.status = { code: side.failNextSession, description: `Nieznany błąd (${side.failNextSession})` };
      side.failNextSession = null;
      return ctx.send(204, undefined);
    }
    process(s, ctx.sim);
    ctx.send(204, undefined);
  }

  function process(s: SimBatch, sim: KsefSimulator): void {
    if (s.parts.some((p) => p.data === null)) return void (s.status = { code: 405, description: "Błąd weryfikacji poprawności dostarczonych elementów paczki" });
    let zip: Buffer;
    try {
      zip = Buffer.concat(s.parts.map((p) => {
        const d = createDecipheriv("aes-256-cbc", s.key, s.iv);
        return Buffer.concat([d.update(p.data!), d.final()]);
      }));
    } catch {
      return void (s.status = { code: 435, description: "Błąd odszyfrowania zaszyfrowanych części archiwum" });
    }
    if (zip.length !== s.fileSize || b64sha(zip) !== s.fileHash) return void (s.status = { code: 405, description: "Błąd weryfikacji poprawności dostarczonych elementów paczki" });
    let entries: ReturnType<typeof readZip>;
    try {
      entries = readZip(zip);
    } catch {
      return void (s.status = { code: 430, description: "Błąd dekompresji pierwotnego archiwum" });
    }
    if (entries.length > 10_000) return void (s.status = { code: 420, description: "Przekroczony limit faktur w sesji" });
    for (const e of entries) {
      const inv: OnlineInvoice = {
        session: s.reference, reference: ref("EE"), xml: e.bytes(), status: { code: 100, description: "Faktura przyjęta do dalszego przetwarzania" },
        ksefNumber: null, acquisitionDate: null, upo: null, polls: 0, invoiceNumber: "", fileName: e.name,
        offlineMode: s.offlineMode, invoicingDate: s.created, // automatyczne-okreslanie-trybu-offline.md: a batch's invoicingDate is its opening
      };
      online.judge(inv, s, sim);
      s.invoices.push(inv);
      online.invoices.push(inv);
    }
    const ok = s.invoices.filter((i) => i.status.code === 200);
    s.status = ok.length > 0 ? { code: 200, description: "Sesja wsadowa przetworzona pomyślnie" } : { code: 445, description: "Błąd weryfikacji, brak poprawnych faktur" };
    const size = o.upoPageSize ?? 1000;
    for (let i = 0; i < ok.length; i += size) s.upoPages.push(collectiveUpo(s, ok.slice(i, i + size)));
  }

  function pageRef(s: SimBatch, i: number): string {
    return `${s.reference.slice(0, 33)}-${String(i).padStart(2, "0")}`.slice(0, 36);
  }

  function statusOf(s: SimBatch): Record<string, unknown> {
    const processing = s.status.code !== 100 && s.status.code !== 440 && s.polls++ < (o.processingPolls ?? 0);
    const expired = s.status.code === 100 && Date.now() > s.deadline;
    if (expired) s.status = { code: 440, description: "Sesja anulowana", details: ["Przekroczono czas wysyłki"] };
    const status = processing ? { code: 150, description: "Trwa przetwarzanie" } : s.status;
    const done = !processing && s.upoPages.length > 0;
    return {
      status, dateCreated: new Date(s.created).toISOString(), dateUpdated: new Date().toISOString(),
      ...(processing || s.status.code === 100 ? {} : {
        invoiceCount: s.invoices.length, successfulInvoiceCount: s.invoices.filter((i) => i.status.code === 200).length,
        failedInvoiceCount: s.invoices.filter((i) => i.status.code !== 200).length,
      }),
      ...(done ? { upo: { pages: s.upoPages.map((_, i) => ({ referenceNumber: pageRef(s, i), downloadUrl: `${origin()}/download/${s.reference}/page-${i}?sig=${_hex(8)}`, downloadUrlExpirationDate: new Date(Date.now() + 3_600_000).toISOString() })) } } : {}),
    };
  }

  function list(r: SimRequest, ctx: SimContext, s: SimBatch, failed: boolean): void {
    const size = Number(r.query.get("pageSize") ?? 10);
    const from = Number(r.headers["x-continuation-token"] ?? 0);
    const all = s.invoices.filter((i) => !failed || i.status.code !== 200);
    const page = all.slice(from, from + size);
    ctx.send(200, {
      invoices: page.map((inv) => ({
        ordinalNumber: s.invoices.indexOf(inv) + 1, invoiceNumber: inv.invoiceNumber || null, referenceNumber: inv.reference, invoiceHash: b64sha(inv.xml),
        invoiceFileName: inv.fileName, invoicingDate: new Date(s.created).toISOString(), invoicingMode: inv.invoicingMode ?? "Online", status: inv.status,
        ...(inv.status.code === 200 ? {
          ksefNumber: inv.ksefNumber, acquisitionDate: inv.acquisitionDate,
          upoDownloadUrl: `${origin()}/download/${s.reference}/${inv.reference}?sig=${_hex(8)}`, upoDownloadUrlExpirationDate: new Date(Date.now() + 3_600_000).toISOString(),
        } : {}),
      })),
      ...(from + size < all.length ? { continuationToken: String(from + size) } : {}),
    });
  }

  // A page of the session's collective UPO: the session, and a Dokument per accepted invoice (schema upo-v4-3, unsigned).
  function collectiveUpo(s: SimBatch, invoices: OnlineInvoice[]): Buffer {
    const docs = invoices.map((i) => `	<Dokument>
		<NumerKSeFDokumentu>${i.ksefNumber}</NumerKSeFDokumentu>
		<NumerFaktury>${i.invoiceNumber.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</NumerFaktury>
		<DataNadaniaNumeruKSeF>${i.acquisitionDate}</DataNadaniaNumeruKSeF>
		<SkrotDokumentu>${b64sha(i.xml)}</SkrotDokumentu>
		<NazwaPliku>${i.fileName}</NazwaPliku>
	</Dokument>
`).join("");
    return Buffer.from(`<?xml version="1.0" encoding="utf-8"?>
<Potwierdzenie xmlns="http://upo.schematy.mf.gov.pl/KSeF/v4-3">
	<NazwaPodmiotuPrzyjmujacego>Ministerstwo Finansów - symulator testowy</NazwaPodmiotuPrzyjmujacego>
	<NumerReferencyjnySesji>${s.reference}</NumerReferencyjnySesji>
	<Uwierzytelnienie>
		<IdKontekstu>
			<Nip>${s.nip}</Nip>
		</IdKontekstu>
	</Uwierzytelnienie>
	<KodFormularza>${s.systemCode}</KodFormularza>
${docs}</Potwierdzenie>
`);
  }

  const side: BatchSide = {
    sessions: new Map(), calls: {}, failNextSession: null, onRequest: null,
    routes: [route],
    rawRoutes: [upload, (req, res) => download(req, res)],
    limitGroup: (method, path) => {
      const op = operation(method, path);
      return op ? `batch-${op}` : undefined;
    },
    failNextUploads(n, status) {
      uploadFaults = { n, status };
    },
    failNext(n, status) {
      faults = { n, status };
    },
  };
  return side;
}

// The batch-session operations of open-api.json this side answers (the GETs only for its own sessions).
function operation(method: string, path: string): string | null {
  if (method === "POST" && path === "/sessions/batch") return "open";
  if (method === "POST" && /^\/sessions\/batch\/[^/]+\/close$/.test(path)) return "close";
  if (method !== "GET") return null;
  if (/^\/sessions\/[^/]+$/.test(path)) return "status";
  if (/^\/sessions\/[^/]+\/invoices(\/failed)?$/.test(path)) return "list";
  if (/^\/sessions\/[^/]+\/upo\/[^/]+$/.test(path)) return "sessionUpo";
  if (/^\/sessions\/[^/]+\/invoices\/(ksef\/[^/]+|[^/]+)\/upo$/.test(path)) return "upo";
  return null;
}

function _hex(bytes: number): string {
  return randomBytes(bytes).toString("hex").toUpperCase();
}

/**
 * The online-session side of the KSeF simulator (ksef_simulator.ts), from KSeF's open-api.json and
 * sesja-interaktywna.md: open a session (the AES key unwrapped with the simulator key its publicKeyId names, so a
 * withdrawn key after `rotateKeys()` is 21470), send an invoice
 * (decrypted, its hashes and sizes checked, judged), the invoice's status, its UPO (shaped after
 * faktury/upo/przyklady, schema v4-3, without the XAdES signature), and closing. Its routes plug into the
 * simulator's `routes` option, so each request and answer is held to open-api.json like the rest; errors use the
 * codes the operations' 400 tables list (21173, 21180, 21402, 21403, 21470, 21178). Invoices with the same seller,
 * type and number as an accepted one get 440 with `originalKsefNumber`. Accepted invoices are added to the
 * simulator's invoices, so its export side delivers them to the buyer. 5xx, 429 and delays can be injected.
 *
 * `judge` decides an invoice's fate; the default judges it as KSeF does, by the official FA(2)/FA(3) XML Schema
 * and KSeF's file rules (the project's own validation, README "Validation"): a failure is status 450 with the
 * first findings as details.
 */
import { createDecipheriv, createHash, randomBytes } from "node:crypto";
import { formatKsefNumber } from "../../lib/formats/invoice/ksef_number.ts";
import { warsawDate } from "../../lib/ksef/working_days.ts";
import { parseXml } from "../../lib/formats/xml/parse.ts";
import type { XmlElement } from "../../lib/formats/xml/tree.ts";
import { formatOf, validateInvoice } from "../../lib/formats/validation/invoice_validation.ts";
import { SchemaSet } from "../../lib/formats/validation/schema_set.ts";
import { readSchemaFiles } from "../../storage/schemas/schema_files.ts";
import type { KsefSimulator, SimContext, SimRequest, SimRoute } from "./ksef_simulator.ts";

/**
 * The forms a session may be opened for (open-api.json OpenOnlineSessionRequest.formCode; PEF(3) is for Peppol
 * providers, whom the simulator does not serve): each system code's schema version, value, namespace and schema.
 */
export const SESSION_FORMS: Record<string, { schemaVersion: string; value: string; ns: string; schema: string }> = {
  "FA (2)": { schemaVersion: "1-0E", value: "FA", ns: "http://crd.gov.pl/wzor/2023/06/29/12648/", schema: "Schemat_FA(2)_v1-0E.xsd" },
  "FA (3)": { schemaVersion: "1-0E", value: "FA", ns: "http://crd.gov.pl/wzor/2025/06/25/13775/", schema: "Schemat_FA(3)_v1-0E.xsd" },
  "FA_RR (1)": { schemaVersion: "1-1E", value: "FA_RR", ns: "http://crd.gov.pl/wzor/2026/03/06/14189/", schema: "schemat_FA_RR(1)_v1-1E.xsd" },
};

/** The namespace of each session form's Faktura, by system code (the name other tests know it by). */
export const FA_NAMESPACES: Record<string, string> = Object.fromEntries(Object.entries(SESSION_FORMS).map(([code, f]) => [code, f.ns]));

/** True when `form` is one of SESSION_FORMS exactly as the table gives it. */
export function isSessionForm(form: { systemCode?: unknown; schemaVersion?: unknown; value?: unknown } | undefined): boolean {
  const f = typeof form?.systemCode === "string" && Object.hasOwn(SESSION_FORMS, form.systemCode) ? SESSION_FORMS[form.systemCode] : undefined;
  return f !== undefined && form?.schemaVersion === f.schemaVersion && form.value === f.value;
}

/** A verdict: null = valid, else KSeF's invoice status for the refusal (e.g. 450 with details). */
export type Judge = (xml: Uint8Array, systemCode: string) => { code: number; description: string; details: string[] } | null;

/** A judge of the shape alone: well-formed XML whose root is `Faktura` in the session form's namespace (schemaJudge's first check). */
export const wellFormedJudge: Judge = (xml, systemCode) => {
  let root: XmlElement;
  try {
    root = parseXml(xml).root;
  } catch (e) {
    return { code: 450, description: "Błąd weryfikacji semantyki dokumentu faktury", details: [String((e as Error).message).slice(0, 200)] };
  }
  if (root.local !== "Faktura" || root.ns !== SESSION_FORMS[systemCode]?.ns) {
    return { code: 450, description: "Błąd weryfikacji semantyki dokumentu faktury", details: [`Dokument nie jest zgodny ze schematem ${systemCode}`] };
  }
  return null;
};

let _schemas: SchemaSet | null = null;

/** The default judge: well-formed, in the session form's namespace, and valid by the form's schema and KSeF's file rules. */
export const schemaJudge: Judge = (xml, systemCode) => {
  const shape = wellFormedJudge(xml, systemCode);
  if (shape) return shape;
  const doc = parseXml(xml);
  const format = formatOf(doc.root);
  _schemas ??= new SchemaSet(readSchemaFiles());
  const report = validateInvoice(xml, doc, format!, _schemas);
  if (report.valid) return null;
  return { code: 450, description: "Błąd weryfikacji semantyki dokumentu faktury", details: report.errors.slice(0, 5).map((e) => `${e.path}: ${e.message}`) };
};

/** Options of the online side. */
export interface OnlineOptions {
  judge?: Judge;
  /** Status polls answered 150 ("Trwa przetwarzanie") before the verdict. */
  processingPolls?: number;
  /** Session lifetime, ms (validUntil). */
  sessionTtlMs?: number;
}

/** A received invoice. */
export interface OnlineInvoice {
  session: string;
  reference: string;
  xml: Uint8Array;
  status: { code: number; description: string; details?: string[]; extensions?: Record<string, string> };
  ksefNumber: string | null;
  acquisitionDate: string | null;
  upo: Uint8Array | null;
  polls: number;
  invoiceNumber: string;
  /** The duplicate key (seller, kind, number) once read. */
  key?: string;
  /** The file's name in a batch package. */
  fileName?: string;
  /** Declared `offlineMode` (the request's, or the batch session's). */
  offlineMode?: boolean;
  /** When KSeF took it for processing (`invoicingDate`: sent online, or the batch session opened), ms. */
  invoicingDate?: number;
  /** KSeF's `invoicingMode` once judged (automatyczne-okreslanie-trybu-offline.md). */
  invoicingMode?: "Online" | "Offline";
  /** The `hashOfCorrectedInvoice` of a technical correction. */
  hashOfCorrectedInvoice?: string;
  /** The rejected offline invoice a technical correction is linked to (korekta-techniczna.md, step 6). */
  corrects?: OnlineInvoice | null;
}

/** The online side, for tests to inspect and steer. */
export interface OnlineSide {
  sessions: Map<string, { nip: string; systemCode: string; key: Buffer; iv: Buffer; open: boolean; count: number }>;
  invoices: OnlineInvoice[];
  /** Requests per operation (open, send, status, upo, close). */
  calls: Record<string, number>;
  /** The next `n` online-session requests answer `status` (a 429 carries Retry-After `retryAfter`). */
  failNext(n: number, status: number, retryAfter?: number): void;
  /** Each online-session request waits this long first. */
  delayMs: number;
  /** Called when a request arrives (e.g. to kill a server mid-burst). */
  onRequest: ((operation: string) => void) | null;
  /** For the simulator's options: the online-session operations, held to open-api.json like the rest. */
  routes: SimRoute[];
  /** Judges a received invoice as KSeF does (the batch side judges its invoices so too): status, KSeF number, UPO. */
  judge(inv: OnlineInvoice, s: { nip: string; systemCode: string }, sim: KsefSimulator): void;
  /** For the simulator's options: each operation its own limit group (none limited unless `limits` names it). */
  limitGroup: (method: string, path: string) => string | undefined;
}

/** Adds the online-session routes to a simulator: pass `routes` and `limitGroup` in its options. */
export function onlineSessions(o: OnlineOptions = {}): OnlineSide {
  const judge = o.judge ?? schemaJudge;
  let failures = { n: 0, status: 503, retryAfter: 1 };
  let serial = 0;
  /** Accepted invoices by duplicate key: KSeF's duplicate check (same seller NIP, RodzajFaktury and P_2). */
  const accepted = new Map<string, OnlineInvoice>();
  const ref = (kind: string): string => `${new Date().toISOString().slice(0, 10).replaceAll("-", "")}-${kind}-${randomBytes(5).toString("hex").toUpperCase()}-${randomBytes(5).toString("hex").toUpperCase()}-${randomBytes(1).toString("hex").toUpperCase()}`;
  const b64sha = (b: Uint8Array): string => createHash("sha256").update(b).digest("base64");
  // open-api.json, the 400 tables of POST /sessions/online/{referenceNumber}/invoices and …/close.
  const noSession = (ctx: SimContext, reference: string): void =>
    ctx.badRequest(21173, "Brak sesji o wskazanym numerze referencyjnym.", [`Sesja o numerze referencyjnym ${reference} nie została odnaleziona.`]);

  const route: SimRoute = async (r, ctx) => {
    const op = operation(r.method, r.path);
    if (!op) return false;
    await answer(r, ctx, op);
    return true;
  };

  async function answer(r: SimRequest, ctx: SimContext, op: string): Promise<void> {
    side.calls[op] = (side.calls[op] ?? 0) + 1;
    side.onRequest?.(op);
    if (side.delayMs > 0) await new Promise((done) => setTimeout(done, side.delayMs));
    if (failures.n > 0) {
      failures.n--;
      if (failures.status === 429) return tooMany(r, ctx, failures.retryAfter);
      return ctx.send(failures.status, undefined);
    }
    const access = ctx.session();
    if (!access) return ctx.unauthorized("Wymagane jest uwierzytelnienie.");
    if (!access.permissions.includes("InvoiceWrite")) {
      return ctx.forbidden("Brak wymaganych uprawnień do wykonania operacji w bieżącym kontekście.", ["InvoiceWrite"], access.permissions);
    }
    const parts = r.path.split("/").map(decodeURIComponent);
    const body = (): Record<string, unknown> => (r.body.length ? (JSON.parse(r.body.toString()) as Record<string, unknown>) : {});
    if (op === "open") return openSession(ctx, access.nip, body());
    if (op === "send") return sendInvoice(ctx, access.nip, parts[3]!, body());
    if (op === "close") {
      const s = side.sessions.get(parts[3]!);
      if (!s || s.nip !== access.nip) return noSession(ctx, parts[3]!);
      if (!s.open) return ctx.badRequest(21180, "Status sesji nie pozwala na wykonanie operacji.", ["Status sesji 170 uniemożliwia jej zamknięcie."]);
      s.open = false;
      return ctx.send(204, undefined);
    }
    const session = side.sessions.get(parts[2]!);
    if (!session || session.nip !== access.nip) return noSession(ctx, parts[2]!);
    const inv = parts[4] === "ksef"
      ? side.invoices.find((i) => i.session === parts[2] && i.ksefNumber === parts[5])
      : side.invoices.find((i) => i.session === parts[2] && i.reference === parts[4]);
    if (op === "upo") {
      if (!inv?.upo) return ctx.badRequest(21178, "Nie znaleziono UPO dla podanych kryteriów.", [`UPO dla sesji ${parts[2]} nie zostało znalezione.`]);
      return ctx.send(200, inv.upo, { "x-ms-meta-hash": b64sha(inv.upo) }, "application/xml");
    }
    if (!inv) return ctx.badRequest(21405, "Błąd walidacji danych wejściowych.", [`Faktura o numerze referencyjnym ${parts[4]} nie istnieje w sesji ${parts[2]}.`]);
    ctx.send(200, statusOf(inv));
  }

  const side: OnlineSide = {
    sessions: new Map(), invoices: [], calls: {}, delayMs: 0, onRequest: null,
    routes: [route],
    judge: (inv, s, sim) => judgeInvoice(inv, s, sim),
    limitGroup: (method, path) => {
      const op = operation(method, path);
      return op ? `online-${op}` : undefined;
    },
    failNext(n, status, retryAfter = 1) {
      failures = { n, status, retryAfter };
    },
  };

  function tooMany(r: SimRequest, ctx: SimContext, seconds: number): void {
    const retry = { "retry-after": String(seconds) };
    if (r.headers["x-error-format"] === "problem-details") {
      ctx.send(429, { title: "Too Many Requests", status: 429, instance: r.path, detail: `Przekroczono limit żądań. Spróbuj ponownie po ${seconds} sekundach.`, timestamp: new Date().toISOString(), traceId: randomBytes(16).toString("hex") }, retry, "application/problem+json");
    } else {
      ctx.send(429, { status: { code: 429, description: "Too Many Requests", details: ["Przekroczono limit żądań."] } }, retry);
    }
  }

  function openSession(ctx: SimContext, nip: string, b: Record<string, unknown>): void {
    const form = b.formCode as { systemCode: string; schemaVersion: string; value: string };
    const enc = b.encryption as { encryptedSymmetricKey: string; initializationVector: string; publicKeyId?: string | null };
    if (!isSessionForm(form)) {
      return ctx.badRequest(21405, "Błąd walidacji danych wejściowych.", [`Nieobsługiwany kod formularza ${form.systemCode} ${form.schemaVersion} ${form.value}.`]);
    }
    // klucze-publiczne-do-szyfrowania.md §4.3: a withdrawn or unknown publicKeyId is 21470.
    const key = ctx.keys.decrypt(enc.publicKeyId, enc.encryptedSymmetricKey);
    if (!key.ok && key.unknownKey) {
      return ctx.badRequest(21470, "Przesłany identyfikator klucza jest nieznany lub wskazuje na wycofany klucz.", [`Klucz o identyfikatorze ${String(enc.publicKeyId)} nie jest wspierany.`]);
    }
    const iv = Buffer.from(enc.initializationVector, "base64");
    if (!key.ok || key.plain.length !== 32 || iv.length !== 16) return ctx.badRequest(21405, "Błąd walidacji danych wejściowych.", ["Nie udało się odszyfrować klucza symetrycznego lub ma on nieprawidłową długość."]);
    const reference = ref("SO");
    side.sessions.set(reference, { nip, systemCode: form.systemCode, key: key.plain, iv, open: true, count: 0 });
    ctx.send(201, { referenceNumber: reference, validUntil: new Date(Date.now() + (o.sessionTtlMs ?? 12 * 3_600_000)).toISOString() });
  }

  function sendInvoice(ctx: SimContext, nip: string, sessionRef: string, b: Record<string, unknown>): void {
    const s = side.sessions.get(sessionRef);
    if (!s || s.nip !== nip) return noSession(ctx, sessionRef);
    if (!s.open) return ctx.badRequest(21180, "Status sesji nie pozwala na wykonanie operacji.", ["Status sesji 170 uniemożliwia wysyłkę faktur."]);
    const encrypted = Buffer.from(String(b.encryptedInvoiceContent), "base64");
    // open-api.json: the encrypted content's length and hash are checked when it is received (21402, 21403).
    if (encrypted.length !== b.encryptedInvoiceSize) return ctx.badRequest(21402, "Nieprawidłowy rozmiar pliku.", ["Długość treści nie zgadza się z rozmiarem pliku."]);
    if (b64sha(encrypted) !== b.encryptedInvoiceHash) return ctx.badRequest(21403, "Nieprawidłowy skrót pliku.", ["Skrót treści nie zgadza się ze skrótem pliku."]);
    const reference = ref("EE");
    const inv: OnlineInvoice = {
      session: sessionRef, reference, xml: new Uint8Array(), status: { code: 100, description: "Faktura przyjęta do dalszego przetwarzania" }, ksefNumber: null, acquisitionDate: null, upo: null, polls: 0, invoiceNumber: "",
      offlineMode: b.offlineMode === true, invoicingDate: Date.now(),
      ...(typeof b.hashOfCorrectedInvoice === "string" ? { hashOfCorrectedInvoice: b.hashOfCorrectedInvoice } : {}),
    };
    side.invoices.push(inv);
    s.count++;
    let xml: Buffer;
    try {
      const d = createDecipheriv("aes-256-cbc", s.key, s.iv);
      xml = Buffer.concat([d.update(encrypted), d.final()]);
    } catch {
      inv.status = { code: 435, description: "Błąd odszyfrowania pliku" };
      return ctx.send(202, { referenceNumber: reference });
    }
    inv.xml = new Uint8Array(xml);
    if (xml.length !== b.invoiceSize || b64sha(xml) !== b.invoiceHash) {
      inv.status = { code: 430, description: "Błąd weryfikacji pliku faktury", details: ["Skrót lub rozmiar faktury nie zgadza się"] };
      return ctx.send(202, { referenceNumber: reference });
    }
    judgeInvoice(inv, s, ctx.sim);
    ctx.send(202, { referenceNumber: reference });
  }

  function judgeInvoice(inv: OnlineInvoice, s: { nip: string; systemCode: string }, sim: KsefSimulator): void {
    const verdict = judge(inv.xml, s.systemCode);
    if (verdict) {
      inv.status = { code: verdict.code, description: verdict.description, details: verdict.details };
      return;
    }
    const facts = _facts(inv.xml);
    inv.invoiceNumber = facts.number;
    // automatyczne-okreslanie-trybu-offline.md: declared offline, or the day of P_1 before the day of invoicingDate.
    inv.invoicingMode = inv.offlineMode || facts.issueDate < warsawDate(inv.invoicingDate ?? Date.now()) ? "Offline" : "Online";
    inv.key = `${facts.seller}\u0000${facts.kind}\u0000${facts.number}`;
    const original = accepted.get(inv.key);
    if (original) {
      inv.status = {
        code: 440, description: "Duplikat faktury", details: ["Faktura o tym numerze została już przyjęta"],
        extensions: { originalSessionReferenceNumber: original.session, originalKsefNumber: original.ksefNumber! },
      };
      return;
    }
    // korekta-techniczna.md, step 6: an accepted correction is linked to the rejected offline invoice of that hash.
    if (inv.hashOfCorrectedInvoice !== undefined) {
      inv.corrects = side.invoices.find((i) => i !== inv && i.offlineMode === true && i.status.code !== 200 && i.status.code !== 100 && b64sha(i.xml) === inv.hashOfCorrectedInvoice) ?? null;
    }
    const day = new Date().toISOString().slice(0, 10).replaceAll("-", "");
    const stored = sim.add({ seller: facts.seller, buyer: facts.buyer, xml: inv.xml, invoiceNumber: facts.number });
    stored.ksefNumber = formatKsefNumber(facts.seller, day, (0x0100_0000_0000 + ++serial).toString(16).padStart(12, "0"));
    inv.ksefNumber = stored.ksefNumber;
    inv.acquisitionDate = new Date().toISOString();
    inv.status = { code: 200, description: "Sukces" };
    inv.upo = _upo(inv, s, facts, inv.fileName ? "Wsadowy" : "Online");
    accepted.set(inv.key, inv);
  }

  function statusOf(inv: OnlineInvoice): Record<string, unknown> {
    const polls = o.processingPolls ?? 0;
    const processing = inv.polls++ < polls && inv.status.code !== 100;
    const status = processing ? { code: 150, description: "Trwa przetwarzanie" } : inv.status;
    const done = !processing && inv.status.code === 200;
    return {
      ordinalNumber: side.invoices.filter((i) => i.session === inv.session).indexOf(inv) + 1,
      invoiceNumber: inv.invoiceNumber || null, referenceNumber: inv.reference, invoiceHash: b64sha(inv.xml),
      invoicingDate: new Date(inv.invoicingDate ?? Date.now()).toISOString(), invoicingMode: inv.invoicingMode ?? "Online",
      ...(done ? { ksefNumber: inv.ksefNumber, acquisitionDate: inv.acquisitionDate } : {}),
      status,
    };
  }

  function _upo(inv: OnlineInvoice, s: { nip: string; systemCode: string }, f: _Facts, mode: string): Uint8Array {
    const schema = SESSION_FORMS[s.systemCode]?.schema ?? "";
    const esc = (v: string): string => v.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    return new Uint8Array(Buffer.from(`<?xml version="1.0" encoding="utf-8"?>
<Potwierdzenie xmlns="http://upo.schematy.mf.gov.pl/KSeF/v4-3">
	<NazwaPodmiotuPrzyjmujacego>Ministerstwo Finansów - symulator testowy</NazwaPodmiotuPrzyjmujacego>
	<NumerReferencyjnySesji>${inv.session}</NumerReferencyjnySesji>
	<Uwierzytelnienie>
		<IdKontekstu>
			<Nip>${s.nip}</Nip>
		</IdKontekstu>
		<SkrotDokumentuUwierzytelniajacego>${randomBytes(32).toString("base64")}</SkrotDokumentuUwierzytelniajacego>
	</Uwierzytelnienie>
	<NazwaStrukturyLogicznej>${schema}</NazwaStrukturyLogicznej>
	<KodFormularza>${s.systemCode}</KodFormularza>
	<Dokument>
		<NipSprzedawcy>${f.seller}</NipSprzedawcy>
		<NumerKSeFDokumentu>${inv.ksefNumber}</NumerKSeFDokumentu>
		<NumerFaktury>${esc(f.number)}</NumerFaktury>
		<DataWystawieniaFaktury>${f.issueDate}</DataWystawieniaFaktury>
		<DataPrzeslaniaDokumentu>${inv.acquisitionDate}</DataPrzeslaniaDokumentu>
		<DataNadaniaNumeruKSeF>${inv.acquisitionDate}</DataNadaniaNumeruKSeF>
		<SkrotDokumentu>${b64sha(inv.xml)}</SkrotDokumentu>
		<TrybWysylki>${mode}</TrybWysylki>
	</Dokument>
</Potwierdzenie>
`));
  }

  return side;
}

interface _Facts {
  seller: string;
  buyer: string;
  number: string;
  kind: string;
  issueDate: string;
}

// The fields KSeF's duplicate check and the UPO use: seller NIP, invoice number (P_2), kind (RodzajFaktury);
// FA_RR(1) has them in FakturaRR (P_4C, RodzajFaktury, P_4B), its seller being the farmer (Podmiot1).
function _facts(xml: Uint8Array): _Facts {
  const root = parseXml(xml).root;
  const child = (e: XmlElement | undefined, name: string): XmlElement | undefined => e?.children.find((c) => c.local === name);
  const path = (...names: string[]): string => {
    let e: XmlElement | undefined = root;
    for (const n of names) e = child(e, n);
    return e?.text.trim() ?? "";
  };
  return {
    seller: path("Podmiot1", "DaneIdentyfikacyjne", "NIP"), buyer: path("Podmiot2", "DaneIdentyfikacyjne", "NIP"),
    number: path("Fa", "P_2") || path("FakturaRR", "P_4C"), kind: path("Fa", "RodzajFaktury") || path("FakturaRR", "RodzajFaktury"),
    issueDate: path("Fa", "P_1") || path("FakturaRR", "P_4B"),
  };
}

// The online-session operations of open-api.json this side answers.
function operation(method: string, path: string): string | null {
  if (method === "POST" && path === "/sessions/online") return "open";
  if (method === "POST" && /^\/sessions\/online\/[^/]+\/invoices$/.test(path)) return "send";
  if (method === "POST" && /^\/sessions\/online\/[^/]+\/close$/.test(path)) return "close";
  if (method === "GET" && /^\/sessions\/[^/]+\/invoices\/(ksef\/[^/]+|[^/]+)\/upo$/.test(path)) return "upo";
  if (method === "GET" && /^\/sessions\/[^/]+\/invoices\/[^/]+$/.test(path)) return "status";
  return null;
}

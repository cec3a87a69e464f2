/**
 * The online-session side of the KSeF simulator (ksef_simulator.ts), from KSeF's open-api.json and
 * sesja-interaktywna.md: open a session (the AES key unwrapped with the simulator's RSA key), send an invoice
 * (decrypted, its hashes and sizes checked, judged), the invoice's status, its UPO (shaped after
 * faktury/upo/przyklady, schema v4-3, without the XAdES signature), and closing. Invoices with the same seller,
 * type and number as an accepted one get 440 with `originalKsefNumber`. Accepted invoices are added to the
 * simulator's invoices, so its export side delivers them to the buyer. 5xx, 429 and delays can be injected.
 *
 * `judge` decides an invoice's fate; the default only checks that it is well-formed and in the form's namespace.
 * The lead can wire in the project's FA(2)/FA(3) XML Schema validation there, so the simulator judges invoices the
 * way the validation does.
 */
import { constants, createDecipheriv, createHash, privateDecrypt, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { formatKsefNumber } from "../../lib/formats/invoice/ksef_number.ts";
import { parseXml } from "../../lib/formats/xml/parse.ts";
import type { XmlElement } from "../../lib/formats/xml/tree.ts";
import type { KsefSimulator, SimExtraRequest } from "./ksef_simulator.ts";
import { fixturePath } from "./server.ts";

/** The namespaces of the FA forms (schemat_FA(2)_v1-0E.xsd, schemat_FA(3)_v1-0E.xsd). */
export const FA_NAMESPACES: Record<string, string> = {
  "FA (2)": "http://crd.gov.pl/wzor/2023/06/29/12648/",
  "FA (3)": "http://crd.gov.pl/wzor/2025/06/25/13775/",
};

/** A verdict: null = valid, else KSeF's invoice status for the refusal (e.g. 450 with details). */
export type Judge = (xml: Uint8Array, systemCode: string) => { code: number; description: string; details: string[] } | null;

/** The default judge: well-formed XML whose root is `Faktura` in the session form's namespace. */
export const wellFormedJudge: Judge = (xml, systemCode) => {
  let root: XmlElement;
  try {
    root = parseXml(xml).root;
  } catch (e) {
    return { code: 450, description: "Błąd weryfikacji semantyki dokumentu faktury", details: [String((e as Error).message).slice(0, 200)] };
  }
  if (root.local !== "Faktura" || root.ns !== FA_NAMESPACES[systemCode]) {
    return { code: 450, description: "Błąd weryfikacji semantyki dokumentu faktury", details: [`Dokument nie jest zgodny ze schematem ${systemCode}`] };
  }
  return null;
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
}

const PEM = (): string => readFileSync(fixturePath("ksef", "simulator_key.pem"), "utf8");

/** Adds the online-session routes to a running simulator. */
export function attachOnlineSessions(sim: KsefSimulator, o: OnlineOptions = {}): OnlineSide {
  const keyPem = PEM();
  const judge = o.judge ?? wellFormedJudge;
  let failures = { n: 0, status: 503, retryAfter: 1 };
  let serial = 0;
  /** Accepted invoices by duplicate key: KSeF's duplicate check (same seller NIP, RodzajFaktury and P_2). */
  const accepted = new Map<string, OnlineInvoice>();
  const side: OnlineSide = {
    sessions: new Map(), invoices: [], calls: {}, delayMs: 0, onRequest: null,
    failNext(n, status, retryAfter = 1) {
      failures = { n, status, retryAfter };
    },
  };
  const send = (res: ServerResponse, status: number, body: unknown, type = "application/json", headers: Record<string, string> = {}): true => {
    const bytes = body instanceof Uint8Array ? body : Buffer.from(JSON.stringify(body));
    res.writeHead(status, { "content-type": type, "content-length": String(bytes.length), ...headers });
    res.end(bytes);
    return true;
  };
  const problem = (res: ServerResponse, status: number, code: number, detail: string): true =>
    send(res, status, {
      title: "Bad Request", status, detail: "Żądanie jest nieprawidłowe.", errors: [{ code, description: detail, details: [] }],
      instance: "", timestamp: new Date().toISOString(), traceId: randomBytes(16).toString("hex"),
    }, "application/problem+json");
  const ref = (kind: string): string => `${new Date().toISOString().slice(0, 10).replaceAll("-", "")}-${kind}-${randomBytes(5).toString("hex").toUpperCase()}-${randomBytes(5).toString("hex").toUpperCase()}-${randomBytes(1).toString("hex").toUpperCase()}`;
  const b64sha = (b: Uint8Array): string => createHash("sha256").update(b).digest("base64");

  function operation(method: string, path: string): string | null {
    if (method === "POST" && path === "/sessions/online") return "open";
    if (method === "POST" && /^\/sessions\/online\/[^/]+\/invoices$/.test(path)) return "send";
    if (method === "POST" && /^\/sessions\/online\/[^/]+\/close$/.test(path)) return "close";
    if (method === "GET" && /^\/sessions\/[^/]+\/invoices\/(ksef\/[^/]+|[^/]+)\/upo$/.test(path)) return "upo";
    if (method === "GET" && /^\/sessions\/[^/]+\/invoices\/[^/]+$/.test(path)) return "status";
    return null;
  }

  sim.extraRoutes = async (r: SimExtraRequest): Promise<boolean> => {
    const op = operation(r.req.method ?? "", r.path);
    if (!op) return false;
    side.calls[op] = (side.calls[op] ?? 0) + 1;
    side.onRequest?.(op);
    if (side.delayMs > 0) await new Promise((done) => setTimeout(done, side.delayMs));
    if (failures.n > 0) {
      failures.n--;
      if (failures.status === 429) return send(r.res, 429, { status: { code: 429, description: "Too Many Requests", details: ["Przekroczono limit"] } }, "application/json", { "retry-after": String(failures.retryAfter) });
      return send(r.res, failures.status, {});
    }
    if (!r.access) return send(r.res, 401, { title: "Unauthorized", status: 401, detail: "Brak autoryzacji." }, "application/problem+json");
    if (!r.access.permissions.includes("InvoiceWrite")) return send(r.res, 403, { title: "Forbidden", status: 403, detail: "Brak uprawnień InvoiceWrite." }, "application/problem+json");
    const parts = r.path.split("/").map(decodeURIComponent);
    const body = (): Record<string, unknown> => (r.body.length ? (JSON.parse(r.body.toString()) as Record<string, unknown>) : {});
    if (op === "open") return openSession(r, body());
    if (op === "send") return sendInvoice(r, parts[3]!, body());
    if (op === "close") {
      const s = side.sessions.get(parts[3]!);
      if (!s || s.nip !== r.access.nip) return problem(r.res, 400, 21170, "Sesja o podanym numerze referencyjnym nie istnieje.");
      s.open = false;
      r.res.writeHead(204).end();
      return true;
    }
    const session = side.sessions.get(parts[2]!);
    if (!session || session.nip !== r.access.nip) return problem(r.res, 400, 21170, "Sesja o podanym numerze referencyjnym nie istnieje.");
    const inv = parts[4] === "ksef"
      ? side.invoices.find((i) => i.session === parts[2] && i.ksefNumber === parts[5])
      : side.invoices.find((i) => i.session === parts[2] && i.reference === parts[4]);
    if (!inv) return problem(r.res, 400, 21178, "Faktura o podanym numerze referencyjnym nie istnieje.");
    if (op === "upo") {
      if (!inv.upo) return problem(r.res, 400, 21178, "UPO dla faktury nie jest jeszcze dostępne.");
      return send(r.res, 200, inv.upo, "application/xml", { "x-ms-meta-hash": b64sha(inv.upo) });
    }
    return send(r.res, 200, statusOf(inv));
  };

  function openSession(r: SimExtraRequest, b: Record<string, unknown>): true {
    const form = b.formCode as { systemCode?: string; schemaVersion?: string; value?: string } | undefined;
    const enc = b.encryption as { encryptedSymmetricKey?: string; initializationVector?: string } | undefined;
    if (!form || !(form.systemCode! in FA_NAMESPACES) || form.schemaVersion !== "1-0E" || form.value !== "FA") return problem(r.res, 400, 21405, "Nieprawidłowy kod formularza.");
    let key: Buffer;
    try {
      key = privateDecrypt({ key: keyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" }, Buffer.from(enc?.encryptedSymmetricKey ?? "", "base64"));
    } catch {
      return problem(r.res, 400, 21405, "Błąd odszyfrowania klucza symetrycznego.");
    }
    const iv = Buffer.from(enc?.initializationVector ?? "", "base64");
    if (key.length !== 32 || iv.length !== 16) return problem(r.res, 400, 21405, "Nieprawidłowa długość klucza lub wektora.");
    const reference = ref("SO");
    side.sessions.set(reference, { nip: r.access!.nip, systemCode: form.systemCode!, key, iv, open: true, count: 0 });
    return send(r.res, 201, { referenceNumber: reference, validUntil: new Date(Date.now() + (o.sessionTtlMs ?? 12 * 3_600_000)).toISOString() });
  }

  function sendInvoice(r: SimExtraRequest, sessionRef: string, b: Record<string, unknown>): true {
    const s = side.sessions.get(sessionRef);
    if (!s || s.nip !== r.access!.nip || !s.open) return problem(r.res, 400, 21180, "Sesja nie istnieje lub została zamknięta.");
    for (const f of ["invoiceHash", "invoiceSize", "encryptedInvoiceHash", "encryptedInvoiceSize", "encryptedInvoiceContent"]) {
      if (b[f] === undefined) return problem(r.res, 400, 21405, `Brak pola ${f}.`);
    }
    const encrypted = Buffer.from(String(b.encryptedInvoiceContent), "base64");
    const reference = ref("EE");
    const inv: OnlineInvoice = { session: sessionRef, reference, xml: new Uint8Array(), status: { code: 100, description: "Faktura przyjęta do dalszego przetwarzania" }, ksefNumber: null, acquisitionDate: null, upo: null, polls: 0, invoiceNumber: "" };
    side.invoices.push(inv);
    s.count++;
    if (encrypted.length !== b.encryptedInvoiceSize || b64sha(encrypted) !== b.encryptedInvoiceHash) {
      inv.status = { code: 430, description: "Błąd weryfikacji pliku faktury", details: ["Skrót lub rozmiar zaszyfrowanej faktury nie zgadza się"] };
      return send(r.res, 202, { referenceNumber: reference });
    }
    let xml: Buffer;
    try {
      const d = createDecipheriv("aes-256-cbc", s.key, s.iv);
      xml = Buffer.concat([d.update(encrypted), d.final()]);
    } catch {
      inv.status = { code: 435, description: "Błąd odszyfrowania pliku" };
      return send(r.res, 202, { referenceNumber: reference });
    }
    inv.xml = new Uint8Array(xml);
    if (xml.length !== b.invoiceSize || b64sha(xml) !== b.invoiceHash) {
      inv.status = { code: 430, description: "Błąd weryfikacji pliku faktury", details: ["Skrót lub rozmiar faktury nie zgadza się"] };
      return send(r.res, 202, { referenceNumber: reference });
    }
    judgeInvoice(inv, s);
    return send(r.res, 202, { referenceNumber: reference });
  }

  function judgeInvoice(inv: OnlineInvoice, s: { nip: string; systemCode: string }): void {
    const verdict = judge(inv.xml, s.systemCode);
    if (verdict) {
      inv.status = { code: verdict.code, description: verdict.description, details: verdict.details };
      return;
    }
    const facts = _facts(inv.xml);
    inv.invoiceNumber = facts.number;
    inv.key = `${facts.seller}\u0000${facts.kind}\u0000${facts.number}`;
    const original = accepted.get(inv.key);
    if (original) {
      inv.status = {
        code: 440, description: "Duplikat faktury", details: ["Faktura o tym numerze została już przyjęta"],
        extensions: { originalSessionReferenceNumber: original.session, originalKsefNumber: original.ksefNumber! },
      };
      return;
    }
    const day = new Date().toISOString().slice(0, 10).replaceAll("-", "");
    const stored = sim.add({ seller: facts.seller, buyer: facts.buyer, xml: inv.xml, invoiceNumber: facts.number });
    stored.ksefNumber = formatKsefNumber(facts.seller, day, (0x0100_0000_0000 + ++serial).toString(16).padStart(12, "0"));
    inv.ksefNumber = stored.ksefNumber;
    inv.acquisitionDate = new Date().toISOString();
    inv.status = { code: 200, description: "Sukces" };
    inv.upo = _upo(inv, s, facts);
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
      invoicingDate: new Date().toISOString(), invoicingMode: "Online",
      ...(done ? { ksefNumber: inv.ksefNumber, acquisitionDate: inv.acquisitionDate } : {}),
      status,
    };
  }

  function _upo(inv: OnlineInvoice, s: { nip: string; systemCode: string }, f: _Facts): Uint8Array {
    const schema = s.systemCode === "FA (2)" ? "Schemat_FA(2)_v1-0E.xsd" : "Schemat_FA(3)_v1-0E.xsd";
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
		<TrybWysylki>Online</TrybWysylki>
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

// The fields KSeF's duplicate check and the UPO use: seller NIP, invoice number (P_2), kind (RodzajFaktury).
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
    number: path("Fa", "P_2"), kind: path("Fa", "RodzajFaktury"), issueDate: path("Fa", "P_1"),
  };
}

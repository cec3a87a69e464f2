/**
 * KSeF's certificate operations (certyfikaty-KSeF.md §1–§8, open-api.json `/certificates/*`) over the source's
 * client, signed in as the source signs in: limits, enrollment data, enrollment, its status polled until KSeF has
 * issued the certificate, retrieval, query and revocation. KSeF issues certificates only to a sign-in made with a
 * certificate: a token's session gets 25001/25002, thrown as CertificatesNeedSignature (the command says so before
 * asking, from the source's configuration). It
 * writes no files; the command's caller does.
 * @module
 */
import { abortableSleep } from "../../../lib/contracts/document_source.ts";
import { KsefClient } from "../connection/client.ts";
import { describeException, exceptionCodes } from "../connection/errors.ts";
import { Pacer } from "../connection/pacing.ts";
import { chooseSignIn, type SignInOptions } from "../connection/sign_in_choice.ts";
import { DEFAULT_TUNING } from "../receive/source.ts";

/** open-api.json KsefCertificateType. */
export type KsefCertificateType = "Authentication" | "Offline";

/** open-api.json CertificateLimitsResponse. */
export interface CertificateLimits {
  canRequest: boolean;
  enrollment: { limit: number; remaining: number };
  certificate: { limit: number; remaining: number };
}

/** open-api.json CertificateListItem (the fields shown). */
export interface CertificateListItem {
  certificateSerialNumber: string;
  name: string;
  type: KsefCertificateType;
  commonName: string;
  status: string;
  validFrom: string;
  validTo: string;
}

/** KSeF refused a certificate operation because the session signed in with a KSeF token (25001, 25002). */
export class CertificatesNeedSignature extends Error {
  constructor() {
    super("KSeF issues certificates only to a sign-in made with a certificate");
    this.name = "CertificatesNeedSignature";
  }
}

/** Options of the certificate operations: the source's API root, context and sign-in. */
export interface CertificatesApiOptions extends SignInOptions {
  baseUrl: string;
  nip: string;
  fetch?: typeof fetch;
  /** Delays between enrollment status polls (default the client's: 0.5 s, 1 s, 2 s, then 5 s). */
  pollDelays?: readonly number[];
}

// open-api.json: 25001 (no enrollment data) and 25002 (no enrollment) for "the way of authentication used".
const _NEEDS_SIGNATURE = [25001, 25002];
// open-api.json QueryCertificatesRequest's page size: 10 to 50.
const _PAGE_SIZE = 50;
// A bound on the pages read (50 × 20 = 1,000 certificates), far above KSeF's certificate limit.
const _MAX_PAGES = 20;

/** The certificate operations of one ksef source. */
export class KsefCertificatesApi {
  #client: KsefClient;
  #signal = new AbortController().signal;

  constructor(o: CertificatesApiOptions) {
    this.#client = new KsefClient({
      ...DEFAULT_TUNING, ...(o.pollDelays ? { pollDelays: o.pollDelays } : {}),
      baseUrl: o.baseUrl.replace(/\/+$/, ""), nip: o.nip, signIn: chooseSignIn(o), pacer: new Pacer(), now: Date.now, sleep: abortableSleep,
      onWait: async () => {}, ...(o.fetch ? { fetch: o.fetch } : {}),
    });
  }

  /** How the source signs in: a token's session cannot have certificates (checked before any request). */
  get signInKind(): "token" | "certificate" {
    return this.#client.signInKind;
  }

  /** GET /certificates/limits. */
  async limits(): Promise<CertificateLimits> {
    return (await this.#json("GET", "/certificates/limits")) as CertificateLimits;
  }

  /** GET /certificates/enrollments/data: the subject KSeF puts into the certificate. */
  async enrollmentData(): Promise<Record<string, unknown>> {
    return (await this.#json("GET", "/certificates/enrollments/data")) as Record<string, unknown>;
  }

  /** POST /certificates/enrollments, then its status polled until issued; the new certificate's serial. */
  async enroll(name: string, type: KsefCertificateType, csr: Uint8Array): Promise<string> {
    const started = (await this.#json("POST", "/certificates/enrollments", { certificateName: name, certificateType: type, csr: Buffer.from(csr).toString("base64") })) as { referenceNumber?: string };
    if (typeof started.referenceNumber !== "string") throw new Error("KSeF accepted the certificate request without a reference number");
    let serial: string | undefined;
    const status = await this.#client.poll(async () => {
      const s = (await this.#json("GET", `/certificates/enrollments/${encodeURIComponent(started.referenceNumber!)}`)) as { status?: { code: number; description: string; details?: string[] }; certificateSerialNumber?: string };
      serial = s.certificateSerialNumber;
      return s.status;
    }, this.#signal);
    if (status.code !== 200 || typeof serial !== "string") {
      throw new Error(`KSeF did not issue the certificate: ${status.code} ${status.description}${status.details?.length ? ` (${status.details.join("; ")})` : ""}`);
    }
    return serial;
  }

  /** POST /certificates/retrieve of one serial: the certificate (DER). */
  async retrieve(serial: string): Promise<Uint8Array> {
    const r = (await this.#json("POST", "/certificates/retrieve", { certificateSerialNumbers: [serial] })) as { certificates?: { certificate?: string; certificateSerialNumber?: string }[] };
    const found = r.certificates?.find((c) => c.certificateSerialNumber === serial);
    if (typeof found?.certificate !== "string") throw new Error(`KSeF did not return the certificate ${serial}`);
    return new Uint8Array(Buffer.from(found.certificate, "base64"));
  }

  /** POST /certificates/query, every page: the subject's certificates, newest request first. */
  async list(): Promise<CertificateListItem[]> {
    const out: CertificateListItem[] = [];
    for (let page = 0; page < _MAX_PAGES; page++) {
      const r = (await this.#json("POST", `/certificates/query?pageSize=${_PAGE_SIZE}&pageOffset=${page}`, {})) as { certificates?: CertificateListItem[]; hasMore?: boolean };
      out.push(...(r.certificates ?? []));
      if (!r.hasMore) break;
    }
    return out;
  }

  /** POST /certificates/{serial}/revoke. */
  async revoke(serial: string): Promise<void> {
    await this.#json("POST", `/certificates/${encodeURIComponent(serial.toUpperCase())}/revoke`, { revocationReason: "Unspecified" });
  }

  // One request; KSeF's 400 as one line (its codes and descriptions, not details that may echo input).
  async #json(method: string, path: string, body?: unknown): Promise<unknown> {
    // The certificate operations are in no documented limit group; the "auth" pace (60 a second) only spaces
    // them, and a 429 is waited out per Retry-After by the client all the same.
    const res = await this.#client.call("auth", method, path, body, this.#signal, [400]);
    const text = await res.text();
    const parsed = text === "" ? null : JSON.parse(text) as unknown;
    if (res.status === 400) {
      if (exceptionCodes(parsed).some((c) => _NEEDS_SIGNATURE.includes(c))) throw new CertificatesNeedSignature();
      throw new Error(`KSeF refused ${method} ${path.split("?")[0]}: ${describeException(parsed)}`);
    }
    return parsed;
  }
}

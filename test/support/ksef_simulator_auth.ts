/**
 * The authentication side of the KSeF simulator (uwierzytelnianie.md and
 * open-api.json): challenge (with `timestampMs` and `clientIp`), token
 * authentication (the RSA-OAEP `token|timestampMs` decrypted with the key its
 * `publicKeyId` names; a withdrawn key is 21470), the operation's status (with
 * `authenticationMethodInfo`; 200, 415, 450, or a status a test forces such as
 * 470/480), redeem once, refresh, and the access tokens other routes check. The XAdES start
 * (POST /auth/xades-signature) is ksef_simulator_xades.ts's: it takes a challenge and begins an operation here.
 */
import { randomBytes } from "node:crypto";
import type { SimContext, SimRequest } from "./ksef_simulator.ts";
import { iso7 } from "./ksef_simulator_invoices.ts";

/** A KSeF token the simulator accepts. */
export interface SimToken {
  token: string;
  nip: string;
  permissions: string[];
}

/** What an authentication grants: a context and the permissions in it. */
export interface Grant {
  nip: string;
  permissions: string[];
  /** The certificate (DER) of an XAdES sign-in: certificate enrollment reads its subject (ksef_simulator_certificates.ts). */
  certificate?: Buffer;
}

/** How an authentication started: its method and, for a failure, the detail its status gives. */
interface _Started extends Grant {
  ref: string;
  code: number;
  method: "token" | "xades";
  detail?: string;
}

// open-api.json AuthenticationOperationStatusResponse.status: description and details per code.
const AUTH_TEXT: Record<number, [string, string?]> = {
  200: ["Uwierzytelnianie zakończone sukcesem"],
  415: ["Uwierzytelnianie zakończone niepowodzeniem", "Brak przypisanych uprawnień"],
  425: ["Uwierzytelnienie unieważnione", "Uwierzytelnienie i powiązane refresh tokeny zostały unieważnione przez użytkownika"],
  450: ["Uwierzytelnianie zakończone niepowodzeniem z powodu błędnego tokenu", "Nieprawidłowy token"],
  460: ["Uwierzytelnianie zakończone niepowodzeniem z powodu błędu certyfikatu", "Niepoprawny certyfikat"],
  470: ["Uwierzytelnianie zakończone niepowodzeniem", "Próba wykorzystania metod autoryzacyjnych osoby zmarłej"],
  480: ["Uwierzytelnienie zablokowane", "Podejrzenie incydentu bezpieczeństwa. Skontaktuj się z Ministerstwem Finansów przez formularz zgłoszeniowy."],
  500: ["Nieznany błąd"],
  550: ["Operacja została anulowana przez system", "Przetwarzanie zostało przerwane z przyczyn wewnętrznych systemu. Spróbuj ponownie"],
};
const UNAUTHENTICATED = "Wymagane jest uwierzytelnienie.";

/** Authentication state and routes. */
export class SimAuth {
  /** The status the next authentication ends with instead of its own (then null again). */
  failNext: number | null = null;
  #tokens: SimToken[];
  #ttl: number;
  #ref: (kind: string) => string;
  #challenges = new Map<string, number>();
  #auths = new Map<string, _Started>();
  #access = new Map<string, Grant & { until: number }>();
  #refresh = new Map<string, Grant>();
  #redeemed = new Set<string>();

  constructor(tokens: SimToken[], accessTtlMs: number, ref: (kind: string) => string) {
    this.#tokens = tokens;
    this.#ttl = accessTtlMs;
    this.#ref = ref;
  }

  /** The context of a live access token, or null. */
  session(bearer: string): Grant | null {
    const s = this.#access.get(bearer);
    return s && s.until > Date.now() ? s : null;
  }

  /** Every access token issued so far stops working (refresh tokens stay valid). */
  expireAccess(): void {
    for (const a of this.#access.values()) a.until = 0;
  }

  /** Every refresh token issued so far stops working. */
  expireRefresh(): void {
    this.#refresh.clear();
  }

  /** Answers an /auth/* request; false for other paths. */
  handle(r: SimRequest, ctx: SimContext): boolean {
    const p = r.path;
    if (p === "/auth/challenge" && r.method === "POST") {
      const challenge = this.#ref("CR");
      const at = ctx.tick();
      this.#challenges.set(challenge, at);
      ctx.send(200, { challenge, timestamp: iso7(at), timestampMs: at, clientIp: "127.0.0.1" });
      return true;
    }
    if (p === "/auth/ksef-token" && r.method === "POST") return this.#start(r, ctx);
    const auth = this.#auths.get(r.bearer);
    if (p.startsWith("/auth/") && r.method === "GET" && p !== "/auth/sessions") {
      if (!auth) return ctx.unauthorized(UNAUTHENTICATED), true;
      if (auth.ref !== p.slice("/auth/".length)) return ctx.badRequest(21304, "Brak uwierzytelnienia.", [`Operacja uwierzytelniania o numerze referencyjnym ${p.slice(6)} nie została znaleziona.`]), true;
      const [description, usual] = AUTH_TEXT[auth.code] ?? ["Nieznany błąd"];
      const detail = auth.code === 200 ? undefined : auth.detail ?? usual;
      const info = auth.method === "token"
        ? { authenticationMethod: "Token", authenticationMethodInfo: { category: "Token", code: "token", displayName: "Token KSeF" } }
        : { authenticationMethod: "InternalCertificate", authenticationMethodInfo: { category: "XadesSignature", code: "certificate", displayName: "Certyfikat KSeF" } };
      ctx.send(200, {
        startDate: iso7(Date.now()), ...info,
        status: { code: auth.code, description, ...(detail ? { details: [detail] } : {}) },
      });
      return true;
    }
    if (p === "/auth/token/redeem" && r.method === "POST") {
      if (!auth) return ctx.unauthorized(UNAUTHENTICATED), true;
      if (auth.code !== 200 || this.#redeemed.has(r.bearer)) return ctx.badRequest(21301, "Brak autoryzacji.", [`Tokeny dla operacji uwierzytelniania ${auth.ref} zostały już pobrane.`]), true;
      this.#redeemed.add(r.bearer);
      const a = randomBytes(24).toString("hex");
      const rt = randomBytes(24).toString("hex");
      const grant: Grant = { nip: auth.nip, permissions: auth.permissions, ...(auth.certificate ? { certificate: auth.certificate } : {}) };
      this.#access.set(a, { ...grant, until: Date.now() + this.#ttl });
      this.#refresh.set(rt, grant);
      ctx.send(200, { accessToken: { token: a, validUntil: iso7(Date.now() + this.#ttl) }, refreshToken: { token: rt, validUntil: iso7(Date.now() + 7 * 86_400_000) } });
      return true;
    }
    if (p === "/auth/token/refresh" && r.method === "POST") {
      const rt = this.#refresh.get(r.bearer);
      if (!rt) return ctx.unauthorized(UNAUTHENTICATED), true;
      ctx.sim.stats.refreshes++;
      const a = randomBytes(24).toString("hex");
      this.#access.set(a, { ...rt, until: Date.now() + this.#ttl });
      ctx.send(200, { accessToken: { token: a, validUntil: iso7(Date.now() + this.#ttl) } });
      return true;
    }
    return false;
  }

  /** The time a challenge was issued at, once: it is used up (undefined when it was never issued or is used). */
  takeChallenge(challenge: string): number | undefined {
    const at = this.#challenges.get(challenge);
    this.#challenges.delete(challenge);
    return at;
  }

  /** Starts an operation that ends with `code` (and `detail` in its status), and answers 202 with its tokens. */
  begin(ctx: SimContext, grant: Grant, code: number, method: "token" | "xades", detail?: string): void {
    if (this.failNext !== null) [code, this.failNext, detail] = [this.failNext, null, undefined];
    ctx.sim.stats.authentications++;
    const reference = this.#ref("AU");
    const authToken = randomBytes(24).toString("hex");
    this.#auths.set(authToken, { ref: reference, code, method, ...grant, ...(detail === undefined ? {} : { detail }) });
    ctx.send(202, { referenceNumber: reference, authenticationToken: { token: authToken, validUntil: iso7(Date.now() + 600_000) } });
  }

  // POST /auth/ksef-token: the challenge must be one issued and unused; the token decrypts to `token|timestampMs`.
  #start(r: SimRequest, ctx: SimContext): boolean {
    const b = JSON.parse(r.body.toString()) as { challenge?: string; contextIdentifier?: { type?: string; value?: string }; encryptedToken?: string; publicKeyId?: string };
    const at = this.#challenges.get(b.challenge ?? "");
    if (at === undefined) return ctx.badRequest(21111, "Nieprawidłowe wyzwanie autoryzacyjne."), true;
    const plain = ctx.keys.decrypt(b.publicKeyId, b.encryptedToken ?? "");
    if (!plain.ok && plain.unknownKey) {
      ctx.badRequest(21470, "Przesłany identyfikator klucza jest nieznany lub wskazuje na wycofany klucz.", [`Klucz o identyfikatorze ${String(b.publicKeyId)} nie jest wspierany.`]);
      return true;
    }
    this.#challenges.delete(b.challenge!);
    let code = 450;
    let holder: SimToken | undefined;
    if (plain.ok) {
      const text = plain.plain.toString();
      const cut = text.lastIndexOf("|");
      holder = this.#tokens.find((t) => t.token === text.slice(0, cut));
      if (holder && text.slice(cut + 1) === String(at)) code = holder.nip === b.contextIdentifier?.value && b.contextIdentifier?.type === "Nip" ? 200 : 415;
    }
    this.begin(ctx, { nip: b.contextIdentifier?.value ?? "", permissions: holder?.permissions ?? [] }, code, "token");
    return true;
  }
}

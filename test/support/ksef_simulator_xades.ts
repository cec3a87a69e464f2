/**
 * POST /auth/xades-signature of the KSeF simulator (uwierzytelnianie.md §2.1, auth/podpis-xades.md, open-api.json).
 * The signature is verified by `xmlsec1`, not by this project's code: the body goes to a temporary file and
 * `xmlsec1 --verify` checks it with the certificate of its own X509Certificate as the trusted key, only same-document
 * references. Then what KSeF checks itself: the challenge is one issued and unused (400 21111), one signature whose
 * reference covers the whole document (`URI=""`), SignedProperties with SigningTime and a SigningCertificate digest
 * of the certificate (400 9105 otherwise), the certificate's dates and a revocation list (status 460 with KSeF's
 * details), and who signs in: `certificateSubject` reads the NIP from organizationIdentifier (`VATPL-…`) or
 * serialNumber (`TINPL-…`/`NIP-…`) as podpis-xades.md's patterns do; `certificateFingerprint` looks up a registered
 * SHA-256 fingerprint. A signer without permissions in the context ends with 415.
 */
import { execFile } from "node:child_process";
import { createHash, X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SimAuth } from "./ksef_simulator_auth.ts";
import type { SimContext, SimRequest } from "./ksef_simulator.ts";

/** A certificate's rights: its subject's NIP (certificateSubject) or its fingerprint (certificateFingerprint) in a context. */
export interface SimCertificateGrant {
  /** The context (NIP) the rights are in. */
  nip: string;
  permissions: string[];
  /** SHA-256 of the certificate, hex: the grant is by fingerprint; without it, by the NIP in the subject. */
  fingerprint?: string;
}

/** The XAdES route and its state. */
export class SimXades {
  grants: SimCertificateGrant[];
  #revoked = new Set<string>();
  #auth: SimAuth;
  /** Every body received, as sent (tests look at the exact bytes). */
  bodies: Buffer[] = [];

  constructor(auth: SimAuth, grants: SimCertificateGrant[]) {
    this.#auth = auth;
    this.grants = grants;
  }

  /** KSeF revokes the certificate with this serial (hex, any case). */
  revoke(serial: string): void {
    this.#revoked.add(serial.replace(/^0+/, "").toUpperCase());
  }

  /** The route: answers POST /auth/xades-signature. */
  route = async (r: SimRequest, ctx: SimContext): Promise<boolean> => {
    if (r.path !== "/auth/xades-signature" || r.method !== "POST") return false;
    this.bodies.push(r.body);
    const xml = r.body.toString("utf8");
    const one = (re: RegExp): string | undefined => re.exec(xml)?.[1];
    const challenge = one(/<(?:\w+:)?Challenge>([^<]*)</);
    const contextNip = one(/<(?:\w+:)?ContextIdentifier>\s*<(?:\w+:)?Nip>(\d{10})</);
    const subjectType = one(/<(?:\w+:)?SubjectIdentifierType>([^<]*)</);
    const certB64 = one(/<(?:\w+:)?X509Certificate>([^<]*)</);
    const signatures = xml.match(/<(?:\w+:)?Signature[\s>]/g)?.length ?? 0;
    if (!challenge || !contextNip || !subjectType) return ctx.badRequest(21401, "Dokument nie jest zgodny ze schemą (xsd).", ["Brak wymaganych elementów AuthTokenRequest."]), true;
    if (signatures === 0 || !certB64) return ctx.badRequest(9102, "Brak podpisu."), true;
    if (signatures > 1) return ctx.badRequest(9103, "Przekroczona liczba dozwolonych podpisów."), true;
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(Buffer.from(certB64.replace(/\s+/g, ""), "base64"));
    } catch {
      return ctx.badRequest(21115, "Nieprawidłowy certyfikat."), true;
    }
    if (!(await _xmlsecVerifies(r.body, cert))) return ctx.badRequest(9105, "Nieprawidłowy podpis."), true;
    // The enveloped reference must cover the whole document, and SignedProperties must be signed and name this certificate.
    const whole = /<(?:\w+:)?Reference URI="">/.test(xml);
    const propsRef = /<(?:\w+:)?Reference[^>]*Type="http:\/\/uri\.etsi\.org\/01903#SignedProperties"/.test(xml);
    const signingTime = one(/<(?:\w+:)?SigningTime>([^<]+)</);
    const certDigest = one(/<(?:\w+:)?CertDigest>[\s\S]*?<(?:\w+:)?DigestValue>([^<]+)</);
    const sha256 = createHash("sha256").update(cert.raw).digest("base64");
    if (!whole || !propsRef || !signingTime || Number.isNaN(Date.parse(signingTime)) || certDigest !== sha256) {
      return ctx.badRequest(9105, "Nieprawidłowy podpis.", ["Podpis nie spełnia wymagań XAdES-BES (SignedProperties: SigningTime, SigningCertificate)."]), true;
    }
    // Used once, and only a challenge this simulator issued.
    if (this.#auth.takeChallenge(challenge) === undefined) return ctx.badRequest(21111, "Nieprawidłowe wyzwanie autoryzacyjne."), true;
    const now = Date.now();
    const grant = { nip: contextNip, permissions: [] as string[] };
    if (now < Date.parse(cert.validFrom) || now > Date.parse(cert.validTo)) return this.#auth.begin(ctx, grant, 460, "xades", "Nieważny certyfikat"), true;
    if (this.#revoked.has(cert.serialNumber.replace(/^0+/, "").toUpperCase())) return this.#auth.begin(ctx, grant, 460, "xades", "Certyfikat odwołany"), true;
    const fingerprint = createHash("sha256").update(cert.raw).digest("hex").toUpperCase();
    const found = subjectType === "certificateFingerprint"
      ? this.grants.find((g) => g.fingerprint?.toUpperCase() === fingerprint && g.nip === contextNip)
      : subjectType === "certificateSubject"
        ? this.grants.find((g) => g.fingerprint === undefined && g.nip === contextNip && _subjectNip(cert.subject) === contextNip)
        : undefined;
    if (!found) return this.#auth.begin(ctx, grant, 415, "xades"), true;
    this.#auth.begin(ctx, { nip: contextNip, permissions: found.permissions, certificate: Buffer.from(cert.raw) }, 200, "xades");
    return true;
  };
}

// auth/podpis-xades.md: organizationIdentifier (2.5.4.97) `(VATPL).*?(\d{10})`, serialNumber (2.5.4.5) `(TINPL|NIP).*?(\d{10})`.
function _subjectNip(subject: string): string | null {
  for (const line of subject.split("\n")) {
    // Deno's X509Certificate names the attribute by its OID.
    const org = /^(?:organizationIdentifier|OID\(2\.5\.4\.97\)|2\.5\.4\.97)=VATPL.*?(\d{10})/.exec(line);
    if (org) return org[1]!;
    const serial = /^serialNumber=(?:TINPL|NIP).*?(\d{10})/.exec(line);
    if (serial) return serial[1]!;
  }
  return null;
}

// xmlsec1 with the document's own certificate as the only key, same-document references only; asynchronous, so
// that the simulator (in the test's process) keeps serving while it runs.
async function _xmlsecVerifies(body: Buffer, cert: X509Certificate): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), "ksef-sim-xades-"));
  try {
    writeFileSync(join(dir, "request.xml"), body);
    writeFileSync(join(dir, "cert.pem"), cert.toString());
    const args = ["--verify", "--pubkey-cert-pem", join(dir, "cert.pem"), "--id-attr:Id", "SignedProperties", "--enabled-reference-uris", "empty,same-doc", join(dir, "request.xml")];
    return await new Promise<boolean>((done) => execFile("xmlsec1", args, (error) => done(error === null)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

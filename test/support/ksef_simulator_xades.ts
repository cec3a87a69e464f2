/**
 * POST /auth/xades-signature of the KSeF simulator (uwierzytelnianie.md §2.1, auth/podpis-xades.md, open-api.json).
 * The signature is verified by `xmlsec1`, not by this project's code: the body goes to a temporary file and
 * `xmlsec1 --verify` checks it with the certificate of its own X509Certificate as the trusted key, only same-document
 * references. Then what KSeF checks itself (400 9105 otherwise, _shapeProblem()): the signature the root's last
 * child, exclusive C14N, RSA or ECDSA with SHA-256 (not RSA-PSS, not SHA-1), one reference to the whole document and
 * one to SignedProperties with SigningTime and SigningCertificate (SHA-256 digest, issuer/serial of the
 * certificate); the challenge is one issued and unused (400 21111), the certificate's dates and a revocation list (status 460 with KSeF's
 * details), and who signs in: `certificateSubject` reads the NIP from organizationIdentifier (`VATPL-…`) or
 * serialNumber (`TINPL-…`/`NIP-…`) as podpis-xades.md's patterns do; `certificateFingerprint` looks up a registered
 * SHA-256 fingerprint. A signer without permissions in the context ends with 415.
 */
import { execFile } from "node:child_process";
import { createHash, X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseXml } from "../../lib/formats/xml/parse.ts";
import type { XmlElement } from "../../lib/formats/xml/tree.ts";
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
    const wrong = _shapeProblem(r.body, cert);
    if (wrong !== null) return ctx.badRequest(9105, "Nieprawidłowy podpis.", [wrong]), true;
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

const _DS = "http://www.w3.org/2000/09/xmldsig#";
const _XADES = "http://uri.etsi.org/01903/v1.3.2#";
const _EXC = "http://www.w3.org/2001/10/xml-exc-c14n#";
const _ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";
const _SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";
// podpis-xades.md lists more, but KSeF refuses RSA-PSS and SHA-1 in practice: what it takes is these.
const _SIGNATURE_METHODS = new Set(["http://www.w3.org/2001/04/xmldsig-more#rsa-sha256", "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"]);

/**
 * What KSeF checks of a signature that verifies (auth/podpis-xades.md, README "KSeF"), or null: `ds:Signature` the
 * root's last child; exclusive C14N for SignedInfo; RSA or ECDSA with SHA-256; one reference to the whole document
 * (`URI=""`: enveloped-signature, then exclusive C14N) and one to SignedProperties (exclusive C14N), both SHA-256;
 * SignedProperties with SigningTime and SigningCertificate: the certificate's SHA-256 digest and its issuer/serial.
 */
function _shapeProblem(body: Buffer, cert: X509Certificate): string | null {
  let root: XmlElement;
  try {
    root = parseXml(new Uint8Array(body)).root;
  } catch {
    return "Dokument nie jest poprawnym XML.";
  }
  const attr = (e: XmlElement | undefined, name: string) => e?.attrs.find((a) => a.ns === "" && a.local === name)?.value;
  const kid = (e: XmlElement | undefined, ns: string, local: string) => e?.children.filter((c) => c.ns === ns && c.local === local) ?? [];
  const signature = root.children.at(-1);
  if (signature?.ns !== _DS || signature.local !== "Signature") return "Podpis musi być ostatnim elementem dokumentu.";
  const signedInfo = kid(signature, _DS, "SignedInfo")[0];
  if (attr(kid(signedInfo, _DS, "CanonicalizationMethod")[0], "Algorithm") !== _EXC) return "Nieobsługiwany algorytm kanonikalizacji.";
  if (!_SIGNATURE_METHODS.has(attr(kid(signedInfo, _DS, "SignatureMethod")[0], "Algorithm") ?? "")) return "Nieobsługiwany algorytm podpisu.";
  const refs = kid(signedInfo, _DS, "Reference");
  const transforms = (ref: XmlElement) => kid(kid(ref, _DS, "Transforms")[0], _DS, "Transform").map((t) => attr(t, "Algorithm"));
  const whole = refs.filter((ref) => attr(ref, "URI") === "");
  const props = refs.filter((ref) => attr(ref, "Type") === "http://uri.etsi.org/01903#SignedProperties");
  if (whole.length !== 1 || props.length !== 1 || refs.length !== 2) return "Podpis musi obejmować cały dokument i SignedProperties.";
  if (transforms(whole[0]!).join(" ") !== `${_ENVELOPED} ${_EXC}`) return "Nieobsługiwane przekształcenia referencji dokumentu.";
  if (![_EXC, ""].includes(transforms(props[0]!).join(" "))) return "Nieobsługiwane przekształcenia referencji SignedProperties.";
  if (refs.some((ref) => attr(kid(ref, _DS, "DigestMethod")[0], "Algorithm") !== _SHA256)) return "Nieobsługiwany algorytm skrótu.";
  const signed = kid(kid(kid(signature, _DS, "Object")[0], _XADES, "QualifyingProperties")[0], _XADES, "SignedProperties")[0];
  const ssp = kid(signed, _XADES, "SignedSignatureProperties")[0];
  const signingTime = kid(ssp, _XADES, "SigningTime")[0]?.text;
  const certEl = kid(kid(ssp, _XADES, "SigningCertificate")[0], _XADES, "Cert")[0];
  const certDigest = kid(certEl, _XADES, "CertDigest")[0];
  const issuerSerial = kid(certEl, _XADES, "IssuerSerial")[0];
  const xadesProblem = "Podpis nie spełnia wymagań XAdES-BES (SignedProperties: SigningTime, SigningCertificate).";
  if (!signingTime || Number.isNaN(Date.parse(signingTime))) return xadesProblem;
  if (attr(kid(certDigest, _DS, "DigestMethod")[0], "Algorithm") !== _SHA256) return xadesProblem;
  if (kid(certDigest, _DS, "DigestValue")[0]?.text.trim() !== createHash("sha256").update(cert.raw).digest("base64")) return xadesProblem;
  const serial = kid(issuerSerial, _DS, "X509SerialNumber")[0]?.text.trim();
  if (issuerSerial === undefined || serial !== BigInt(`0x${cert.serialNumber}`).toString()) return xadesProblem;
  return null;
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

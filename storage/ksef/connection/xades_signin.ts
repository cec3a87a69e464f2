/**
 * Sign-in with a certificate (uwierzytelnianie.md §2.1, auth/podpis-xades.md): the `AuthTokenRequest` for the
 * challenge and the source's NIP, signed in enveloped XAdES-BES by the signer, sent as those exact bytes to
 * POST /auth/xades-signature. The certificate's own dates are checked first, so that an ended one is said as such
 * (KSEF_CERTIFICATE_EXPIRED) instead of as KSeF's 460. KSeF's refusals (open-api.json: 400 9105 invalid signature,
 * 21115 invalid certificate, 21111 invalid challenge; statuses 415, 460, 470, 480) are KSEF_CERTIFICATE_REJECTED
 * with KSeF's code and words; a refused challenge (21111) is KSEF_PROTOCOL_ERROR. It neither reads files nor checks revocation: KSeF does (and says 460).
 * @module
 */
import { X509Certificate } from "node:crypto";
import type { Signer } from "../../../lib/formats/xades/signer.ts";
import { describeException, exceptionsOf, KSEF_ERROR, ksefError } from "./errors.ts";
import { statusText, type SignInMethod } from "./sign_in.ts";

/** How `AuthTokenRequest` names who signs in (uwierzytelnianie.md §2.1, `SubjectIdentifierType`). */
export type SubjectIdentifierType = "certificateSubject" | "certificateFingerprint";

/**
 * What builds and signs the request: lib/ksef/auth_token_request.ts's `authTokenRequestXml` and lib/formats/xades's
 * `signEnveloped` (xades_tools.ts gives them); a seam, so that a test can spoil a signature after it is made.
 */
export interface XadesTools {
  authTokenRequestXml(o: { challenge: string; context: { type: "Nip"; value: string }; subjectIdentifierType: SubjectIdentifierType }): Uint8Array;
  signEnveloped(unsigned: Uint8Array, signer: Signer, o: { signingTime: Date }): Promise<Uint8Array>;
}

/** Options of xadesSignIn(). */
export interface XadesSignInOptions {
  signer: Signer;
  subjectIdentifier: SubjectIdentifierType;
  tools: XadesTools;
}

// open-api.json POST /auth/xades-signature 400: the exception codes that are the certificate's or the signature's.
const _REFUSED = new Map<number, string>([
  [9101, "the signed document is invalid"], [9102, "the request carries no signature"], [9103, "the request carries too many signatures"],
  [9105, "the signature is invalid"], [21115, "the certificate is invalid"], [21117, "the subject identifier does not fit the context"],
  [21406, "the signature does not fit the authentication type"],
]);

/** Sign-in with a certificate and its key (`signer`). */
export function xadesSignIn(o: XadesSignInOptions): SignInMethod {
  const cert = _certificate(o.signer.certificate);
  const named = `"${cert.subject}" (serial ${cert.serial})`;
  const who = `the certificate ${named}`;
  return {
    kind: "certificate",
    async start(io, signal) {
      const now = io.now();
      if (now < cert.notBefore || now > cert.notAfter) { // RFC 5280 §4.1.2.5: both ends belong to the validity period
        const when = now < cert.notBefore ? `is valid only from ${new Date(cert.notBefore).toISOString()}` : `ended on ${new Date(cert.notAfter).toISOString()}`;
        throw ksefError(KSEF_ERROR.certificateExpired, `The sign-in certificate ${named} ${when}: get a new KSeF certificate (README "KSeF", "Certificates") and put it into sources.json`);
      }
      const challenge = await io.challenge(signal);
      let unsigned: Uint8Array;
      try {
        unsigned = o.tools.authTokenRequestXml({ challenge: challenge.challenge, context: { type: "Nip", value: io.nip }, subjectIdentifierType: o.subjectIdentifier });
      } catch (e) {
        // The schema's patterns refuse the challenge KSeF sent (the NIP was checked at startup).
        throw ksefError(KSEF_ERROR.protocol, `KSeF sent a challenge that AuthTokenRequest cannot carry: ${(e as Error).message}`);
      }
      const signed = await o.tools.signEnveloped(unsigned, o.signer, { signingTime: new Date(now) });
      // open-api.json's `verifyCertificateChain` is not sent: KSeF's default per environment (chains and OCSP/CRL
      // checked where self-signed certificates are not taken) is what production does.
      const res = await io.post("/auth/xades-signature", { xml: signed }, signal);
      if (res.status !== 400) return res;
      const error = await res.json().catch(() => null);
      const known = exceptionsOf(error).find((e) => _REFUSED.has(e.code));
      if (known) {
        throw ksefError(KSEF_ERROR.certificateRejected, `KSeF refused the signed sign-in request: ${_REFUSED.get(known.code)} (${describeException(error)}): check ${who} and its key in sources.json`);
      }
      if (exceptionsOf(error).some((e) => e.code === 21111)) {
        throw ksefError(KSEF_ERROR.protocol, `KSeF refused the sign-in request's challenge (${describeException(error)}): the challenge lives 10 minutes; check the server clock and retry the sync`);
      }
      throw ksefError(KSEF_ERROR.protocol, `KSeF refused the signed sign-in request (${describeException(error)})`);
    },
    // open-api.json AuthenticationOperationStatusResponse codes as they concern a certificate.
    failed(status, nip) {
      const what = statusText(status);
      const c = status.code;
      // 415 is the context's, not the certificate's: KSEF_WRONG_NIP, as for a token (errors.ts).
      if (c === 415) return ksefError(KSEF_ERROR.wrongNip, `KSeF finds no permissions for ${who} in the context of NIP ${nip} (415 ${what}): check "nip" in sources.json, or grant the certificate's subject rights for that NIP in KSeF`);
      if (c === 460) return ksefError(KSEF_ERROR.certificateRejected, `KSeF refused ${who} (460 ${what}): an untrusted, revoked, suspended or ended certificate cannot sign in; get a new one (README "KSeF", "Certificates")`);
      if (c === 425) return ksefError(KSEF_ERROR.certificateRejected, `KSeF cancelled the sign-in with ${who} (425 ${what}): a user revoked the session in KSeF; the next sync signs in again`);
      if (c === 450) return ksefError(KSEF_ERROR.certificateRejected, `KSeF refused the sign-in with ${who} (450 ${what}): retry the sync; if it persists, check the server clock`);
      if (c === 470) return ksefError(KSEF_ERROR.certificateRejected, `KSeF refuses ${who}: its authorisation methods are those of a deceased person (470 ${what}): a person with rights in the context of NIP ${nip} must get a certificate of their own`);
      if (c === 480) return ksefError(KSEF_ERROR.certificateRejected, `KSeF blocked sign-in with ${who} on a suspected security incident (480 ${what}): retrying will not help; contact the Ministry of Finance through KSeF's contact form`);
      if (c === 500 || c === 550) return ksefError(KSEF_ERROR.unavailable, `KSeF could not finish the authentication (${c} ${what}): retry the sync later`);
      return ksefError(KSEF_ERROR.protocol, `KSeF ended the authentication with status ${c} (${what})`);
    },
    refused() {
      return ksefError(KSEF_ERROR.certificateRejected, `KSeF refuses the access it granted to ${who} even after a new sign-in: check in KSeF that the certificate is not revoked and its subject still has rights`);
    },
    forbidden(what, nip) {
      return ksefError(KSEF_ERROR.permissionDenied, `The subject of ${who} has no permission for ${what} in the context of NIP ${nip}: grant it InvoiceRead (and InvoiceWrite to send) in KSeF`);
    },
  };
}

/** The facts a message and the date check need, from the DER certificate. */
function _certificate(der: Uint8Array): { subject: string; serial: string; notBefore: number; notAfter: number } {
  let x: X509Certificate;
  try {
    x = new X509Certificate(der);
  } catch {
    throw new RangeError("The signer's certificate is not a DER X.509 certificate");
  }
  return {
    subject: x.subject.split("\n").join(", "), serial: x.serialNumber.toUpperCase(),
    notBefore: Date.parse(x.validFrom), notAfter: Date.parse(x.validTo),
  };
}

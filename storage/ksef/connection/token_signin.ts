/**
 * Sign-in with a KSeF token (uwierzytelnianie.md §2.2: `token|timestampMs` encrypted with RSA-OAEP for KSeF's
 * KsefTokenEncryption key, POST /auth/ksef-token), the way that ends: KSeF takes tokens until 31 December 2026
 * (README "KSeF"), after which a token's failure says so and how to move to a certificate. The token is a secret:
 * no message carries it.
 * @module
 */
import { encryptKsefToken, pickCertificate } from "./crypto.ts";
import { describeException, exceptionCodes, KSEF_ERROR, ksefError } from "./errors.ts";
import { statusText, type SignInMethod } from "./sign_in.ts";

/** The first moment KSeF no longer takes KSeF tokens: 1 January 2027, 00:00 in Poland (UTC+1 in winter). */
export const KSEF_TOKENS_END_MS: number = Date.UTC(2026, 11, 31, 23, 0, 0);
/** open-api.json (POST /auth/ksef-token, /invoices/exports, 400): the publicKeyId sent is unknown or withdrawn. */
export const KEY_WITHDRAWN = 21470;

const _MOVE = `sign in with a certificate instead: put "certificate" and "key" (or "pkcs12") into the source's entry in sources.json in place of "token" (README "KSeF", "Moving from a token to a certificate")`;

/** What the operator is told about a source that signs in with a token (at startup and on /readyz). */
export function tokenEndWarning(source: string, now: number): string {
  return now >= KSEF_TOKENS_END_MS
    ? `KSeF source "${source}" signs in with a KSeF token, which KSeF no longer takes since 31 December 2026: ${_MOVE}`
    : `KSeF source "${source}" signs in with a KSeF token, which KSeF takes only until 31 December 2026: ${_MOVE}`;
}

/** Sign-in with the KSeF token `token`. */
export function tokenSignIn(token: string): SignInMethod {
  // After the end of tokens every refusal is the end of tokens, whatever KSeF's words for it.
  const ended = (now: number, message: string): string => now >= KSEF_TOKENS_END_MS
    ? `KSeF no longer takes KSeF tokens (they ended on 31 December 2026): ${_MOVE}. KSeF said: ${message}`
    : message;
  return {
    kind: "token",
    async start(io, signal) {
      for (let attempt = 0; ; attempt++) {
        const challenge = await io.challenge(signal);
        const cert = pickCertificate(await io.certificates(signal), "KsefTokenEncryption", io.now());
        const request: Record<string, unknown> = {
          challenge: challenge.challenge,
          contextIdentifier: { type: "Nip", value: io.nip },
          encryptedToken: encryptKsefToken(cert, token, challenge.timestampMs),
        };
        // klucze-publiczne-do-szyfrowania.md §4.2: name the key used, so that a withdrawn one is refused with 21470.
        if (cert.publicKeyId) request.publicKeyId = cert.publicKeyId;
        const res = await io.post("/auth/ksef-token", { json: request }, signal);
        if (res.status !== 400) return res;
        const error = await res.json().catch(() => null);
        if (!exceptionCodes(error).includes(KEY_WITHDRAWN)) {
          throw ksefError(KSEF_ERROR.tokenRejected, ended(io.now(), `KSeF refused the authentication request (${describeException(error)}): check the token and NIP in sources.json`));
        }
        if (attempt > 0) throw ksefError(KSEF_ERROR.certificateExpired, `KSeF refuses the key it publishes for KsefTokenEncryption even after fetching the certificates again (${describeException(error)}): KSeF is rotating its keys; retry the sync later`);
        io.forgetCertificates();
      }
    },
    // open-api.json AuthenticationOperationStatusResponse codes as they concern a token.
    failed(status, nip, now) {
      const what = statusText(status);
      const c = status.code;
      if (c === 450 || c === 425) return ksefError(KSEF_ERROR.tokenRejected, ended(now, `KSeF rejected the KSeF token (${c} ${what}): generate a new token in KSeF and put it into sources.json`));
      if (c === 415) return ksefError(KSEF_ERROR.wrongNip, `The KSeF token has no permissions in the context of NIP ${nip} (415 ${what}): check "nip" in sources.json, or grant the token's owner rights for that NIP`);
      // 470 and 480 have no run error code of their own: the closest, a refused token, with what only the user can do.
      if (c === 470) return ksefError(KSEF_ERROR.tokenRejected, `KSeF refuses the token because the authorisation methods it stems from are those of a deceased person (470 ${what}): a person with rights in the context of NIP ${nip} must generate a new KSeF token for sources.json`);
      if (c === 480) return ksefError(KSEF_ERROR.tokenRejected, `KSeF blocked authentication with this token on a suspected security incident (480 ${what}): retrying will not help; contact the Ministry of Finance through KSeF's contact form`);
      if (c === 460) return ksefError(KSEF_ERROR.certificateExpired, `KSeF refused a certificate (460 ${what}): retry later; if it persists, KSeF's keys are being rotated`);
      if (c === 500 || c === 550) return ksefError(KSEF_ERROR.unavailable, `KSeF could not finish the authentication (${c} ${what}): retry the sync later`);
      return ksefError(KSEF_ERROR.protocol, `KSeF ended the authentication with status ${c} (${what})`);
    },
    refused(now) {
      return ksefError(KSEF_ERROR.tokenRejected, ended(now, "KSeF refuses the access it granted: check that the KSeF token is still active (tokeny-ksef.md) and generate a new one if it was revoked"));
    },
    forbidden(what, nip) {
      return ksefError(KSEF_ERROR.permissionDenied, `The KSeF token has no permission for ${what}: generate a token with the InvoiceRead permission (tokeny-ksef.md) for NIP ${nip}`);
    },
  };
}

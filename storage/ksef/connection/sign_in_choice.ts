/**
 * Which way a KSeF client signs in, from a source's or sender's options (README "KSeF"): a signer (a certificate
 * and its key, from files or an embedder's own) signs an XAdES `AuthTokenRequest`; otherwise the KSeF token, the
 * way KSeF ends after 31 December 2026 (token_signin.ts).
 * @module
 */
import type { Signer } from "../../../lib/formats/xades/signer.ts";
import { credentialFiles, type KsefSourceConfig } from "./config.ts";
import { loadFileSigner } from "./credentials.ts";
import type { SignInMethod } from "./sign_in.ts";
import { tokenEndWarning } from "./token_signin.ts";
import { xadesSignIn, type XadesTools } from "./xades_signin.ts";
import { defaultXadesTools } from "./xades_tools.ts";

/** The sign-in options that ksefSource() and createKsefSender() share. */
export interface SignInOptions {
  /** The KSeF token (tokeny-ksef.md), when the source signs in with one; a secret. */
  token?: string;
  /** Sign in with a certificate: its Signer (the files' signer, or an embedder's own: a key in an HSM or a KMS). */
  signer?: Signer;
  /** How `AuthTokenRequest` names who signs in (sources.json `subject_identifier`); default `certificate_subject`. */
  subjectIdentifier?: "certificate_subject" | "certificate_fingerprint";
  /**
   * What builds and signs the request; default lib/ksef and lib/formats/xades (tests spoil signatures through it).
   * @internal
   */
  xadesTools?: XadesTools;
}

/** The client's sign-in: the signer's when there is one, else the token's; TypeError when there is neither. */
export function chooseSignIn(o: SignInOptions): string | SignInMethod {
  if (o.signer) {
    return xadesSignIn({
      signer: o.signer, tools: o.xadesTools ?? defaultXadesTools(),
      subjectIdentifier: o.subjectIdentifier === "certificate_fingerprint" ? "certificateFingerprint" : "certificateSubject",
    });
  }
  if (typeof o.token === "string" && o.token !== "") return o.token;
  throw new TypeError("A KSeF source needs a way to sign in: a signer (certificate and key) or a KSeF token");
}

/**
 * The sign-in options of a sources.json entry: the files' signer (read and checked now: RangeError naming the file
 * when they cannot sign in) or the token. `dir` is the directory of sources.json.
 */
export function configuredSignIn(c: Pick<KsefSourceConfig, "credentials">, dir: string, now = Date.now()): SignInOptions {
  const files = credentialFiles(c.credentials, dir);
  if (c.credentials.kind === "token" || files === null) return { token: c.credentials.kind === "token" ? c.credentials.token : "" };
  return { signer: loadFileSigner(files, { now }), subjectIdentifier: c.credentials.subjectIdentifier };
}

/**
 * What the operator should act on about how sources.json's ksef entries sign in, each naming its tenant, for the
 * startup log and /readyz: a source still on a KSeF token (README "KSeF": tokens end on 31 December 2026), and a
 * sign-in certificate ending within 30 days or a key file others can read (the file signer's warnings). A
 * certificate that cannot be read is not warned about here: the source fails, naming the file. `dir` is the
 * directory of sources.json.
 */
export function signInWarnings(all: Readonly<Record<string, readonly { type: string; config: { name: string } }[]>>, dir: string, now: number): string[] {
  return Object.entries(all).flatMap(([tenant, entries]) => entries.flatMap((e) => {
    const c = e.config as Partial<KsefSourceConfig>;
    if (e.type !== "ksef" || !c.credentials) return [];
    if (c.credentials.kind === "token") return [`${tenant}: ${tokenEndWarning(e.config.name, now)}`];
    try {
      const files = credentialFiles(c.credentials, dir);
      // A certificate's end is the expiry watch's to say (30, 7 and 1 days before, with the command that renews it).
      return files ? loadFileSigner(files, { now, warnWithinMs: 0 }).warnings.map((w) => `${tenant}: KSeF source "${e.config.name}": ${w}`) : [];
    } catch (e) {
      // A file that cannot sign in (RangeError) is the source's to report, naming it; anything else is a bug to see.
      if (e instanceof RangeError) return [];
      throw e;
    }
  }));
}

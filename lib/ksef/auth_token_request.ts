/**
 * The unsigned `AuthTokenRequest` that KSeF's sign-in with a certificate signs in XAdES ("Uwierzytelnianie"
 * §2.1). Schema version 2.1 (`docs/auth/schemy/schemat_auth_v2-1.xsd`), which open-api.json lists beside 2.0
 * and which, unlike 2.0, standard XML Schema processors compile (API changelog 2.5.0). Challenge,
 * ContextIdentifier and SubjectIdentifierType; the optional AuthorizationPolicy (allowed client IPs) is left
 * out. Values are checked against the schema's patterns, so a bad one fails before anything is signed or sent.
 * @module
 */

/** The namespace of AuthTokenRequest, schema version 2.1. */
export const AUTH_TOKEN_REQUEST_NS = "http://ksef.mf.gov.pl/auth/token/2.1";

/** What AuthTokenRequest says: the challenge, the context signed in to, and how KSeF identifies the signer. */
export interface AuthTokenRequestInput {
  /** The `challenge` of POST /auth/challenge. */
  challenge: string;
  /** The context: a NIP, an internal identifier (NIP-5 digits) or a NIP with an EU VAT number (NIP-VATUE). */
  context: { type: "Nip" | "InternalId" | "NipVatUe"; value: string };
  /** `certificateSubject`: the NIP or PESEL in the certificate; `certificateFingerprint`: its SHA-256 fingerprint. */
  subjectIdentifierType: "certificateSubject" | "certificateFingerprint";
}

/** The schema's patterns: Challenge, TNIP, TIID and TNipVatUE (its member states' VAT number formats). */
const _CHALLENGE = /^\d{8}-CR-[A-F0-9]{10}-[A-F0-9]{10}-[A-F0-9]{2}$/;
const _NIP = "[1-9]((\\d[1-9])|([1-9]\\d))\\d{7}";
const _CONTEXT: Record<AuthTokenRequestInput["context"]["type"], RegExp> = {
  Nip: new RegExp(`^${_NIP}$`),
  InternalId: new RegExp(`^${_NIP}-\\d{5}$`),
  // The schema's pattern ends in '$', which XML Schema regular expressions take literally: read as the anchor meant.
  NipVatUe: new RegExp(`^${_NIP}-(?:${String.raw`((AT)(U\d{8})|(BE)([01]{1}\d{9})|(BG)(\d{9,10})|(CY)(\d{8}[A-Z])|(CZ)(\d{8,10})|(DE)(\d{9})|(DK)(\d{8})|(EE)(\d{9})|(EL)(\d{9})|(ES)([A-Z]\d{8}|\d{8}[A-Z]|[A-Z]\d{7}[A-Z])|(FI)(\d{8})|(FR)[A-Z0-9]{2}\d{9}|(HR)(\d{11})|(HU)(\d{8})|(IE)(\d{7}[A-Z]{2}|\d[A-Z0-9+*]\d{5}[A-Z])|(IT)(\d{11})|(LT)(\d{9}|\d{12})|(LU)(\d{8})|(LV)(\d{11})|(MT)(\d{8})|(NL)([A-Z0-9+*]{12})|(PT)(\d{9})|(RO)(\d{2,10})|(SE)(\d{12})|(SI)(\d{8})|(SK)(\d{10})|(XI)((\d{9}|(\d{12}))|(GD|HA)(\d{3})))`})$`),
};

/** The AuthTokenRequest document, UTF-8, ready to be signed with signEnveloped. */
export function authTokenRequestXml(input: AuthTokenRequestInput): Uint8Array {
  const { challenge, context, subjectIdentifierType } = input;
  if (!_CHALLENGE.test(challenge)) throw new RangeError(`KSeF challenge has an unexpected form: ${JSON.stringify(challenge)}`);
  const pattern = Object.hasOwn(_CONTEXT, context.type) ? _CONTEXT[context.type] : undefined;
  if (pattern === undefined) throw new RangeError(`Unknown KSeF context type ${JSON.stringify(context.type)}`);
  if (!pattern.test(context.value)) throw new RangeError(`KSeF context ${context.type} has an unexpected form: ${JSON.stringify(context.value)}`);
  if (subjectIdentifierType !== "certificateSubject" && subjectIdentifierType !== "certificateFingerprint") {
    throw new RangeError(`Unknown KSeF subject identifier type ${JSON.stringify(subjectIdentifierType)}`);
  }
  // The patterns admit no markup characters; escape all the same, so that no later loosening of them can
  // put markup into the signed document.
  const xml = '<?xml version="1.0" encoding="utf-8"?>\n' +
    `<AuthTokenRequest xmlns="${AUTH_TOKEN_REQUEST_NS}">` +
    `<Challenge>${_escape(challenge)}</Challenge>` +
    `<ContextIdentifier><${context.type}>${_escape(context.value)}</${context.type}></ContextIdentifier>` +
    `<SubjectIdentifierType>${subjectIdentifierType}</SubjectIdentifierType>` +
    "</AuthTokenRequest>";
  return new TextEncoder().encode(xml);
}

function _escape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

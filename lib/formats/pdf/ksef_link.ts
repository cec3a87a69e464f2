/**
 * The KSeF invoice verification link ("KOD I") printed as a QR code on KSeF visualisations:
 * https://qr{-test|-demo|}.ksef.mf.gov.pl/invoice/{seller NIP}/{issue date DD-MM-YYYY}/{SHA-256 of
 * the XML, base64url}, on the host of the invoice's KSeF environment (kody-qr.md, "Środowiska").
 * Builds the link only; the hash is of the exact XML bytes, computed by the caller or here from
 * the bytes. Per the Ministry of Finance KSeF 2.0 QR code specification (kody-qr.md).
 * @module
 */

import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import type { Invoice } from "../invoice/model.ts";

/** The KSeF environment whose QR host an invoice's codes link to (srodowiska.md: TE, DEMO, PRD). */
export type KsefQrEnvironment = "prod" | "test" | "demo";

/** kody-qr.md, "Środowiska": the QR verification host of each KSeF environment. */
export const KSEF_QR_HOSTS: Readonly<Record<KsefQrEnvironment, string>> = {
  test: "qr-test.ksef.mf.gov.pl",
  demo: "qr-demo.ksef.mf.gov.pl",
  prod: "qr.ksef.mf.gov.pl",
};

/** The QR host of `environment`; RangeError for anything else (a programmer mistake). */
export function ksefQrHost(environment: KsefQrEnvironment = "prod"): string {
  const host = Object.hasOwn(KSEF_QR_HOSTS, environment) ? KSEF_QR_HOSTS[environment] : undefined;
  if (host === undefined) throw new RangeError(`Unknown KSeF QR environment: ${String(environment)}`);
  return host;
}
const _ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const _HEX_SHA256 = /^[0-9a-fA-F]{64}$/;
const _B64_SHA256 = /^[A-Za-z0-9+/_-]{43}=?$/;

/**
 * The SHA-256 of the XML as unpadded base64url, from the raw 32 bytes, a 64-digit hex string
 * (as in the document JSON) or an already base64/base64url string; TypeError otherwise.
 */
export function sha256Base64Url(sha256: Uint8Array | string): string {
  let bytes: Uint8Array;
  if (typeof sha256 !== "string") bytes = sha256;
  else if (_HEX_SHA256.test(sha256)) bytes = Buffer.from(sha256, "hex");
  else if (_B64_SHA256.test(sha256)) bytes = Buffer.from(sha256.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  else throw new TypeError("Cannot read xmlSha256: expected 32 bytes, 64 hex digits or base64url");
  if (bytes.length !== 32) throw new TypeError(`Cannot read xmlSha256: ${bytes.length} bytes instead of 32`);
  return Buffer.from(bytes).toString("base64url");
}

/** SHA-256 of XML bytes as unpadded base64url, the last segment of the link. */
export function hashXmlForKsef(xml: Uint8Array): string {
  return createHash("sha256").update(xml).digest("base64url");
}

/**
 * The verification link (KOD I) of a KSeF invoice on the QR host of `environment` (default production), or null
 * when the seller NIP or a YYYY-MM-DD issue date is missing.
 */
export function ksefVerificationLink(invoice: Invoice, xmlSha256: Uint8Array | string, environment: KsefQrEnvironment = "prod"): string | null {
  const nip = invoice.seller.tax_id?.value.trim() ?? "";
  const date = _ISO_DATE.exec(invoice.issue_date?.trim() ?? "");
  if (nip === "" || date === null) return null;
  return `https://${ksefQrHost(environment)}/invoice/${encodeURIComponent(nip)}/${date[3]}-${date[2]}-${date[1]}/${sha256Base64Url(xmlSha256)}`;
}

/**
 * What the API asks of sending to KSeF (README "Sending to KSeF", "Offline invoices"), implemented by the sender's
 * side (storage/ksef/send/send_hook.ts): which tenants send, the certificate that signs KOD II, whether
 * uploads are issued offline by themselves now, and the deadline-near window.
 * @module
 */
import type { Signer } from "../formats/xades/signer.ts";

/** What the API knows of sending to KSeF. */
export interface KsefSendHook {
  /** True when the tenant's `ksef` source has `"send": true`. */
  sends(tenant: string): boolean;
  /** Asks the sender for a pass soon (a new submission waits). */
  wake(): void;
  /** The tenant's KSeF certificate of type Offline, to sign KOD II with; null when it has no usable one (README "Offline invoices"). */
  offlineCertificate?(tenant: string): KsefOfflineSigning | null;
  /** True when the tenant's uploads are issued offline by themselves now: KSeF has not answered for its `offline_when_unavailable`. */
  issuesOffline?(tenant: string): boolean;
  /** What the operator should know (e.g. a certificate ending soon), shown on /readyz. */
  warnings?(): string[];
  /** How long before the end of its deadline day an offline invoice's deadline is near (default 12 hours). */
  deadlineNearMs?: number;
}

/** What signs a tenant's KOD II: its KSeF context (a NIP) and its certificate of type Offline. */
export interface KsefOfflineSigning {
  contextId: string;
  /** The certificate's serial number, hex. */
  certificateSerial: string;
  /** Signs KOD II with the certificate's key (signKsefCertificateLink()). */
  signer: Signer;
}

/**
 * The `integrator-api/sources/ksef` entry point (README "Embedding the core"): the `ksef` document source with
 * its `sources.json` parser and environments, and the job that sends submissions to KSeF (README "Sending to
 * KSeF"). It re-exports; it holds no logic. The client, pacing and session modules behind it are private.
 * @module
 */
export { ksefSource, DEFAULT_TUNING, type KsefSourceOptions, type KsefTuning } from "./receive/source.ts";
export type { KsefClientTuning } from "./connection/client.ts";
export type { EndpointGroup, RateLimit } from "./connection/pacing.ts";
export {
  credentialFiles, isValidNip, KSEF_ENVIRONMENTS, parseKsefSourceConfig, SEND_MODES, SUBJECT_IDENTIFIERS,
  type KsefCredentials, type KsefSourceConfig, type SendMode, type SubjectIdentifier,
} from "./connection/config.ts";
export { createKeySigner, createSignerCache, CredentialsError, loadFileSigner, loadFileSignerAsync, type CertificateFacts, type FileSigner, type LoadedFiles, type LoadSignerOptions, type SignerFiles } from "./connection/credentials.ts";
export { SignerCache, SignerLoading } from "./connection/signer_cache.ts";
export type { PassphraseSource } from "./connection/key_files.ts";
export type { KdfRequest } from "../../lib/formats/pkcs8/key_derivation.ts";
export { SUBJECT_TYPES, type SubjectType } from "./receive/export.ts";
export { KSEF_ERROR, type KsefErrorCode } from "./connection/errors.ts";
export { createKsefSender, SEND_LEASE_MS, type KsefSendConfig, type KsefSender, type KsefSenderOptions } from "./send/job.ts";
export { fileAvailability, memoryAvailability, type KsefAvailability } from "./send/availability.ts";
export { sendingConfigs, type SendingConfigsOptions } from "./send/send_config.ts";
export { fetchTransport, HttpTimeout, nodeTransport, type HttpAnswer, type HttpExchange, type HttpTransport } from "./connection/http.ts";
export type { OnlineApiTuning, SendGroup } from "./send/online_api.ts";
export type { WindowLimit } from "./send/windows.ts";
export type { SessionTuning } from "./send/session_pool.ts";
export type { BatchTuning } from "./send/batch_session.ts";
export type { ChoiceTuning } from "./send/send_choice.ts";
export type { SignInOptions } from "./connection/sign_in_choice.ts";
export { KSEF_TOKENS_END_MS } from "./connection/token_signin.ts";
export type { SignatureAlgorithm, Signer } from "../../lib/formats/xades/signer.ts";
export { loadOfflineCertificate, type OfflineCertificate, type OfflineCertificateFiles } from "./offline/offline_certificate.ts";

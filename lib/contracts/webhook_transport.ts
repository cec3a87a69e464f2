/**
 * The contract of a webhook transport: one delivery attempt, a POST of the
 * signed body with a timeout (README “Webhooks”). The worker decides what to send and
 * when; the transport (storage/transports/) only sends it and reports back.
 * @module
 */

/** What the worker asks of the network: one POST, no redirects followed; throws on network errors and timeouts. */
export type WebhookTransport = (req: { url: string; headers: Record<string, string>; body: string; timeoutMs: number }) => Promise<{ status: number; retryAfter: string | null }>;

/**
 * A webhook receiver on a real `node:http` server for tests: it records every request (path, headers, body and the
 * status it answered) and answers `status()`; `until` resolves once the requests so far satisfy a condition, so a
 * test awaits deliveries instead of sleeping.
 * @module
 */
import { createServer, type IncomingHttpHeaders } from "node:http";

/** One request the receiver got. */
export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status it answered. */
  status: number;
  /** The `webhook-id` header. */
  id: string;
  /** The event's `type`, from the JSON body. */
  type: string;
}

export interface WebhookReceiver {
  server: ReturnType<typeof createServer>;
  all: ReceivedHook[];
  until(done: (all: ReceivedHook[]) => boolean): Promise<void>;
}

/** A receiver answering `status()` (204 by default); not yet listening. */
export function webhookReceiver(status: () => number = () => 204): WebhookReceiver {
  const all: ReceivedHook[] = [];
  const waiting = new Set<{ done: (all: ReceivedHook[]) => boolean; resolve: () => void }>();
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      const answer = status();
      const type = (JSON.parse(body) as { type: string }).type;
      all.push({ path: req.url ?? "", headers: req.headers, body, status: answer, id: req.headers["webhook-id"] as string, type });
      res.writeHead(answer);
      res.end();
      for (const w of waiting) {
        if (!w.done(all)) continue;
        waiting.delete(w);
        w.resolve();
      }
    });
  });
  return { server, all, until: (done) => new Promise<void>((resolve) => (done(all) ? resolve() : waiting.add({ done, resolve }))) };
}

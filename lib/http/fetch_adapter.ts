/**
 * Serves the app as a fetch handler, `(Request) => Promise<Response>`, for
 * Deno.serve, Bun, workers and in-process tests.
 * @module
 */
import { isStreamBody, type ApiRequest, type ApiResponse } from "./types.ts";

const EMPTY: AsyncIterable<Uint8Array> = { async *[Symbol.asyncIterator]() {} };

/** The core's request for a web Request. */
export function fromFetchRequest(req: Request, remoteAddress = ""): ApiRequest {
  const url = new URL(req.url);
  const body = req.body;
  return {
    method: req.method.toUpperCase(),
    path: url.pathname,
    query: url.searchParams,
    header: (name) => req.headers.get(name),
    body: body ? (body as unknown as AsyncIterable<Uint8Array>) : EMPTY,
    remoteAddress,
  };
}

/** A web Response for a core response. */
export function toFetchResponse(method: string, res: ApiResponse): Response {
  const b = res.body;
  let body: BodyInit | null = null;
  if (method !== "HEAD" && b !== null && ![204, 304].includes(res.status)) {
    if (!isStreamBody(b)) body = b as BodyInit;
    else {
      const it = b.stream(0, b.size)[Symbol.asyncIterator]();
      body = new ReadableStream<Uint8Array>({
        async pull(ctrl) {
          const r = await it.next();
          if (r.done) ctrl.close();
          else ctrl.enqueue(r.value);
        },
        async cancel() {
          await it.return?.();
        },
      });
    }
  }
  return new Response(body, { status: res.status, headers: res.headers });
}

/** Options of a fetch handler. */
export interface FetchHandlerOptions {
  /**
   * The client's address when the runtime does not pass one (Deno.serve passes `info.remoteAddr`); default `""`,
   * which is in no range, so that in-process callers see no operator detail unless they say where they stand.
   */
  remoteAddress?: string;
}

/** A fetch handler for `handle`. */
export function toFetchHandler(handle: (req: ApiRequest) => Promise<ApiResponse>, options: FetchHandlerOptions = {}): (req: Request, info?: { remoteAddr?: { hostname?: string } }) => Promise<Response> {
  const fallback = options.remoteAddress ?? "";
  return async (req: Request, info?: { remoteAddr?: { hostname?: string } }): Promise<Response> => {
    const request = fromFetchRequest(req, info?.remoteAddr?.hostname ?? fallback);
    return toFetchResponse(request.method, await handle(request));
  };
}

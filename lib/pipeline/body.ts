/**
 * Reads the body a route declares (`json`, `multipart` or none) before its
 * handler runs, so that the idempotency step can fingerprint it. A multipart
 * body that fails mid-stream closes the connection instead of draining it.
 * @module
 */
import type { BodyKind, RequestBody } from "../api/context.ts";
import { toApiError } from "../api/errors.ts";
import { parseBoundary, parseMultipart, type MultipartPart } from "../formats/multipart/parse.ts";
import { mediaType, readBody, readJsonObject } from "../http/body.ts";
import { ApiError } from "../http/errors.ts";
import type { ApiRequest } from "../http/types.ts";

const MULTIPART_PARTS = 100; // the OpenAPI document ignores other parts; a hundred is far beyond any real form, and bounds the work

/** The limits of the bodies read. */
export interface BodyLimits {
  jsonBytes: number;
  uploadBytes: number;
}

/** The body of `req` in the form its route declares. */
export async function readRequestBody(req: ApiRequest, kind: BodyKind | undefined, limits: BodyLimits): Promise<RequestBody> {
  if (kind === "json") return { kind: "json", ...(await readJsonObject(req, limits.jsonBytes)) };
  if (kind === "invoice" || kind === "any") {
    // The JSON of an invoice is an upload: it takes the upload limit, not the 64 KiB of a JSON request (README "Limits").
    const type = mediaType(req);
    if (type === "application/json") return { kind: "json", ...(await readJsonObject(req, limits.uploadBytes)) };
    if (kind === "invoice" && type !== "multipart/form-data") {
      throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be multipart/form-data or application/json", { expected: "multipart/form-data, application/json" });
    }
    if (kind === "any" && type !== "multipart/form-data" && type !== "application/xml" && type !== "text/xml") {
      throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be multipart/form-data, application/xml or application/json", { expected: "multipart/form-data, application/xml, application/json" });
    }
  }
  if (kind === "upload" || kind === "any") {
    // An upload as multipart (the `xml` part), or the XML itself: read as the one part `xml` of a form.
    const type = mediaType(req);
    if (type === "application/xml" || type === "text/xml") {
      return { kind: "multipart", parts: [{ name: "xml", filename: null, contentType: type, headers: {}, body: await readBody(req, limits.uploadBytes) }] };
    }
    return { kind: "multipart", parts: await readMultipartBody(req, limits.uploadBytes) };
  }
  if (kind === "multipart" || kind === "invoice") return { kind: "multipart", parts: await readMultipartBody(req, limits.uploadBytes) };
  return { kind: "none" };
}

/** The parts of a multipart/form-data body. */
export async function readMultipartBody(req: ApiRequest, uploadLimit: number): Promise<MultipartPart[]> {
  const cl = req.header("content-length");
  try {
    const boundary = parseBoundary(req.header("content-type"));
    return await parseMultipart(req.body, boundary, { bodyBytes: uploadLimit, parts: MULTIPART_PARTS }, cl !== null && /^\d+$/.test(cl) ? Number(cl) : null);
  } catch (caught) {
    const e = toApiError(caught);
    // The rest of the body is unread: closing is cheaper and safer than draining up to the limit.
    if (e instanceof ApiError) throw new ApiError({ code: e.code, status: e.status }, e.message, e.details, { ...e.headers, connection: "close" });
    throw caught;
  }
}

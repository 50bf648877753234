// Reads a body that is not JSON (an OTLP export: protobuf or JSON bytes; a skills upload: a zip
// or a SKILL.md) for routes that declare `rawBody`: its media type must be one the route takes
// (else 415), its bytes within the route's limit (else 413), and where the route takes it,
// `Content-Encoding: gzip` is undone within the decoded limit (else 413; a corrupt stream → 400).
import { gunzip } from "node:zlib";
import { z } from "zod";
import { promisify } from "node:util";
import { readLimited } from "./json-body";
import { ProblemError, problems } from "./problem";

const gunzipAsync = promisify(gunzip);

/**
 * The declaration: each media type the route takes with what it holds (for the OpenAPI document),
 * and whether gzip is accepted, up to how many decoded bytes.
 */
export type RawBodyOptions = { media: Readonly<Record<string, string>>; gzipDecodedLimit?: number };
export type RawBody = { type: string; bytes: Uint8Array };

/** What `body` declares for such a route: the bytes read, with their media type. */
export const rawBytes = z.custom<RawBody>((v) => typeof v === "object" && v !== null && (v as RawBody).bytes instanceof Uint8Array);

/** Other names senders use for a declared media type. */
const ALIASES: Record<string, string> = { "application/x-zip-compressed": "application/zip" };

/** The media type without parameters, lowercased. */
export const mediaType = (header: string | null) => (header ?? "").split(";")[0].trim().toLowerCase();

export const mediaTypesOf = (opts: RawBodyOptions) => Object.keys(opts.media);

export async function readRawBody(req: Request, opts: RawBodyOptions, limit: number): Promise<RawBody> {
  const sent = mediaType(req.headers.get("content-type"));
  const type = ALIASES[sent] ?? sent;
  if (!Object.hasOwn(opts.media, type)) {
    throw new ProblemError("unsupported_media_type", `The request body must be sent as Content-Type: ${mediaTypesOf(opts).join(" or ")}.`);
  }
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw problems.tooLarge(limit);
  const bytes = await readLimited(req, limit);
  const encoding = (req.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding === "identity" || encoding === "") return { type, bytes };
  const limitDecoded = opts.gzipDecodedLimit;
  if (encoding !== "gzip" || limitDecoded === undefined) {
    throw new ProblemError("unsupported_media_type", limitDecoded === undefined ? "Content-Encoding must be absent." : "Content-Encoding must be gzip or absent.");
  }
  try {
    // zlib inflates on the thread pool; the bytes are its buffer, not a copy of it.
    const inflated = await gunzipAsync(bytes, { maxOutputLength: limitDecoded });
    return { type, bytes: new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.byteLength) };
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw problems.tooLarge(limitDecoded);
    throw problems.validation("The gzip-encoded body could not be decompressed.");
  }
}

// Reads a body that is not JSON (an OTLP export: protobuf or JSON bytes; a skills upload: a zip
// or a SKILL.md) for routes that declare `rawBody`: its media type must be one the route takes
// (else 415) and its bytes within the route's limit (else 413). A route that declares a decoded
// limit takes `Content-Encoding: gzip`, and gets the bytes as sent with `gzip` set: it inflates
// them within that limit itself (the OTLP decoder does, on its own thread: lib/otlp/decoder.ts).
import { z } from "zod";
import { readLimited } from "./json-body";
import { ProblemError, problems } from "./problem";

/**
 * The declaration: each media type the route takes with what it holds (for the OpenAPI document),
 * and whether gzip is accepted, up to how many decoded bytes (the route enforces it as it inflates).
 */
export type RawBodyOptions = { media: Readonly<Record<string, string>>; gzipDecodedLimit?: number };
/** The bytes as sent; `gzip` when they are gzip-encoded (only where the route declares a decoded limit). */
export type RawBody = { type: string; bytes: Uint8Array; gzip: boolean };

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
  if (encoding === "identity" || encoding === "") return { type, bytes, gzip: false };
  if (encoding !== "gzip" || opts.gzipDecodedLimit === undefined) {
    throw new ProblemError("unsupported_media_type", opts.gzipDecodedLimit === undefined ? "Content-Encoding must be absent." : "Content-Encoding must be gzip or absent.");
  }
  return { type, bytes, gzip: true };
}

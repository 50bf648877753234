// Reads a body that is not JSON (an OTLP export: protobuf or JSON bytes) for routes that declare
// `rawBody`: its media type must be one the route takes (else 415), its bytes within the route's
// limit (else 413), and `Content-Encoding: gzip` is undone within the decoded limit (else 413;
// a corrupt stream → 400).
import { gunzip } from "node:zlib";
import { promisify } from "node:util";
import { readLimited } from "./json-body";
import { ProblemError, problems } from "./problem";

const gunzipAsync = promisify(gunzip);

export type RawBodyOptions = { types: readonly string[]; decodedLimit: number };
export type RawBody = { type: string; bytes: Uint8Array };

/** The media type without parameters, lowercased. */
export const mediaType = (header: string | null) => (header ?? "").split(";")[0].trim().toLowerCase();

export async function readRawBody(req: Request, opts: RawBodyOptions, limit: number): Promise<RawBody> {
  const type = mediaType(req.headers.get("content-type"));
  if (!opts.types.includes(type)) {
    throw new ProblemError("unsupported_media_type", `The request body must be sent as Content-Type: ${opts.types.join(" or ")}.`);
  }
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw problems.tooLarge(limit);
  const bytes = await readLimited(req, limit);
  const encoding = (req.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding === "identity" || encoding === "") return { type, bytes };
  if (encoding !== "gzip") throw new ProblemError("unsupported_media_type", "Content-Encoding must be gzip or absent.");
  try {
    return { type, bytes: new Uint8Array(await gunzipAsync(bytes, { maxOutputLength: opts.decodedLimit })) };
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw problems.tooLarge(opts.decodedLimit);
    throw problems.validation("The gzip-encoded body could not be decompressed.");
  }
}

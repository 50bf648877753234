// Reads a JSON body with a byte limit and rejects text Postgres cannot store (NUL, lone
// surrogates) and pathological nesting before any schema or database sees it.
import { findUnstorableText, MAY_HOLD_UNSTORABLE } from "../db/storable-text";
import { problems } from "./problem";

/** application/json or a `+json` type, with any parameters (charset). */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

export async function readJsonBody(req: Request, limitBytes: number): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  // A form or text/plain body is what a cross-site form can send without a CORS preflight.
  if (declared !== 0 && !JSON_TYPE.test(req.headers.get("content-type") ?? "")) throw problems.notJson();
  if (Number.isFinite(declared) && declared > limitBytes) throw problems.tooLarge(limitBytes);
  const bytes = await readLimited(req, limitBytes);
  if (bytes.length === 0) throw problems.validation("The request body is empty; a JSON object is expected.");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw problems.validation("The request body is not valid UTF-8.");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw problems.validation(`The request body is not valid JSON: ${(e as Error).message}`);
  }
  // Valid JSON in valid UTF-8 can only spell a NUL or a lone surrogate as a \u escape, so a body
  // without such escapes needs only the nesting check (the common case, and the cheap one).
  const bad = findUnstorableText(value, "", 0, MAY_HOLD_UNSTORABLE.test(text));
  if (bad) throw problems.validation("The request body contains values that cannot be stored.", [bad]);
  return value;
}

/** The body's bytes; over `limit` → 413 without reading the rest. */
export async function readLimited(req: Request, limit: number): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      throw problems.tooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

// Every agent-API answer the integration tests receive (through `call` in ./http.ts) is checked
// against its operation's declaration in lib/api/v1/contract.ts: a status the operation does
// not declare, a body its schema refuses, or a field the schema does not name fails the test,
// so the served OpenAPI document stays true. Requests to undeclared paths or methods (tests of
// unknown routes) are not checked.
import { z } from "zod";
import { NDJSON, v1, type Operation } from "@/lib/api/v1/contract";
import { repliesOf } from "@/lib/api/v1/openapi";

const declared = Object.values(v1 as Record<string, Operation>).map((op) => ({
  op,
  pattern: new RegExp(`^${op.path.replace(/\./g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`),
  /** Literal segments win over parameters where two templates match. */
  literal: op.path.replace(/\{[^}]+\}/g, "").length,
}));

export function operationFor(method: string, pathAndQuery: string): Operation | undefined {
  const path = new URL(pathAndQuery, "http://localhost").pathname;
  const matches = declared.filter((d) => d.op.method === method.toUpperCase() && d.pattern.test(path));
  return matches.sort((a, b) => b.literal - a.literal)[0]?.op;
}

/** Throws when the answer is not one the contract declares for this operation (`text`: the raw body, for JSON-lines answers). */
export function checkReply(method: string, pathAndQuery: string, status: number, body: unknown, text?: string) {
  const op = operationFor(method, pathAndQuery);
  if (!op) return;
  const where = `${method.toUpperCase()} ${op.path} → ${status}`;
  const reply = repliesOf(op)[status];
  if (!reply) throw new Error(`${where}: the contract declares no such answer (lib/api/v1/contract.ts)`);
  // A file answer (an archive): its bytes are the tests' own business.
  if (reply.contentType) return;
  if (reply.mediaType === NDJSON) {
    if (text === undefined) throw new Error(`${where}: a JSON-lines answer needs its text to be checked`);
    for (const [i, line] of text.split("\n").filter(Boolean).entries()) checkBody(`${where} line ${i + 1}`, reply.schema, JSON.parse(line));
    return;
  }
  checkBody(where, reply.schema, body);
}

function checkBody(where: string, schema: z.ZodType, body: unknown) {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(`${where}: the body does not match its declared schema:\n${z.prettifyError(parsed.error)}`);
  const extra = undeclared(body, parsed.data);
  if (extra.length) throw new Error(`${where}: fields the contract does not declare: ${extra.join(", ")}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Paths of fields in `sent` that parsing dropped: zod objects strip keys they do not name. */
function undeclared(sent: unknown, kept: unknown, at = ""): string[] {
  if (Array.isArray(sent) && Array.isArray(kept)) return sent.flatMap((v, i) => undeclared(v, kept[i], `${at}/${i}`));
  if (isObject(sent) && isObject(kept)) {
    return Object.keys(sent).flatMap((k) => (k in kept ? undeclared(sent[k], kept[k], `${at}/${k}`) : [`${at}/${k}`]));
  }
  return [];
}

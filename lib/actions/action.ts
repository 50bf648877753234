// The one wrapper for the console's server actions: session, access (lib/auth/access.ts, the
// read-only flag included), zod input, an audit context, and errors as a typed result the
// component can show. Cross-origin calls: Next.js refuses an action whose Origin does not match
// the Host (x-forwarded-host) before running it (500, nothing runs); it lets a call without
// Origin through, so a foreign Referer, or neither header, is refused here, as route handlers refuse it.
import "server-only";
import { randomUUID } from "node:crypto";
import { headers } from "next/headers";
import type { z } from "zod";
import type { Actor } from "../auth/actor";
import { denial, refusal, type Scope } from "../auth/access";
import { crossOrigin, ORIGIN_REFUSAL } from "../auth/origin";
import { sessionActor } from "../auth/session";
import { clientHashOf } from "../audit/client-hash";
import { db } from "../db/client";
import { rememberWrite } from "../db/read-your-writes";
import { findUnstorableText } from "../db/storable-text";
import type { AuditContext } from "../audit/record";
import { DomainError, type ErrorKind, type FieldError } from "../errors";
import { PATH_ID } from "../path-id";

export type ActionError = { kind: ErrorKind | "unauthorized"; message: string; fields?: FieldError[] };
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ActionError };
export type ActionContext = { actor: Extract<Actor, { type: "user" }>; audit: AuditContext };

const fail = (kind: ActionError["kind"], message: string, fields?: FieldError[]): ActionResult<never> => ({
  ok: false,
  error: fields?.length ? { kind, message, fields } : { kind, message },
});

/** Each action's scope and input schema, so tests can enumerate them (the fuzzer, the access matrix). */
const declarations = new WeakMap<object, { scope: Scope; input: z.ZodType }>();
export const actionDeclaration = (fn: unknown) => (typeof fn === "function" ? declarations.get(fn) : undefined);

export function action<S extends z.ZodType, T>(scope: Scope, input: S, run: (input: z.output<S>, ctx: ActionContext) => Promise<T>) {
  const declared = async (raw: z.input<S>): Promise<ActionResult<T>> => {
    const incoming = await headers();
    const requestId = PATH_ID.test(incoming.get("x-request-id") ?? "") ? incoming.get("x-request-id")! : randomUUID();
    try {
      const foreign = crossOrigin(incoming);
      if (foreign) return fail("forbidden", ORIGIN_REFUSAL[foreign]);
      const actor = await sessionActor();
      if (!actor) return fail("unauthorized", "Sign in to do this.");
      const refused = denial(actor, scope);
      if (refused) return fail("forbidden", refusal(actor, scope, refused).message);
      // As the agent API refuses them: PostgreSQL cannot store a NUL, and the driver would write a
      // lone surrogate as U+FFFD, silently changing the text.
      const unstorable = findUnstorableText(raw);
      if (unstorable) return fail("validation_error", "The input is invalid.", [unstorable]);
      const parsed = input.safeParse(raw);
      if (!parsed.success) {
        const fields = parsed.error.issues.map((i) => ({ path: "/" + i.path.map(String).join("/"), message: i.message }));
        return fail("validation_error", "The input is invalid.", fields);
      }
      const audit: AuditContext = { actor, requestId, clientHash: await clientHashOf(incoming) };
      const data = await run(parsed.data, { actor, audit });
      await rememberWrite(db());
      return { ok: true, data };
    } catch (err) {
      return failure(err, requestId);
    }
  };
  declarations.set(declared, { scope, input });
  return declared;
}

function failure(err: unknown, requestId: string): ActionResult<never> {
  if (err instanceof DomainError) {
    if (err.kind === "unavailable") console.error(`[${requestId}] ${err.name}: ${err.message}`);
    return fail(err.kind, err.message, err.fields);
  }
  // The caller gets no internal detail; the log gets the error's kind and code only, since
  // driver messages can quote stored values.
  const e = err as { name?: string; code?: string };
  console.error(`[${requestId}] unhandled error in a server action: ${e?.name ?? "unknown"}${e?.code ? ` (${e.code})` : ""}`);
  if (process.env.PROCTOR_DEBUG_ERRORS === "1") console.error(err);
  return fail("unavailable", `The service is temporarily unavailable (request ${requestId}).`);
}

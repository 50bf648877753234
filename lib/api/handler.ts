// The one wrapper for every route handler: auth mode and scopes, zod for body, query and
// params, body limits, origin and read-only checks, rate limits, request ids, problem+json.
// Agent API routes pass their operation's declaration (lib/api/v1/contract.ts) as options, and
// what a key bound to a tenant, agents or an evaluator may reach is enforced here from it: by the
// request's address, by its body, and by the record its path names by id. Handlers never check
// reach themselves.
import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { db } from "../db/client";
import { rememberWrite } from "../db/read-your-writes";
import type { Actor } from "../auth/actor";
import { authorize, type Scope } from "../auth/access";
import { authenticateApiKey } from "../auth/api-keys";
import { reachesAgent, reachRefusal, type Reach } from "../auth/key-reach";
import { sessionActor } from "../auth/session";
import { AuditUnavailableError, type AuditContext } from "../audit/record";
import { clientAddressOf, clientHashOf } from "../audit/client-hash";
import { crossOrigin, ORIGIN_REFUSAL } from "../auth/origin";
import { readJsonBody } from "./json-body";
import { readRawBody, type RawBodyOptions } from "./raw-body";
import { unstorableValues } from "./request-hygiene";
import { DomainError } from "../errors";
import { ProblemError, problemFromDomain, problemResponse, problems } from "./problem";
import { takeToken } from "./rate-limit";
import { zodProblem } from "./zod-errors";
import { recordRefusal, type RecordReach } from "./v1/reach";
import { PATH_ID } from "../path-id";

export const ONE_MIB = 1024 * 1024;

/** none: public. session: console users. apiKey: agents. any: either. */
export type AuthMode = "none" | "session" | "apiKey" | "any";

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export type RouteOptions<B, Q, P> = {
  auth: AuthMode;
  /** What the caller must be allowed (lib/auth/access.ts); required unless auth is "none". */
  access?: Scope;
  body?: B;
  /**
   * How a body that fails `body` is described: "The <name> is invalid.", with error paths
   * relative to the key `within` when given. Default: the request body, from its root.
   */
  bodyErrors?: { name: string; within?: string };
  /** An absent body means `{}`. */
  bodyOptional?: true;
  /**
   * The body is bytes of these media types, not JSON (an OTLP export, a skills upload): `body`
   * validates `{type, bytes}` (lib/api/raw-body.ts), gzip already undone where accepted.
   */
  rawBody?: RawBodyOptions;
  query?: Q;
  params?: P;
  maxBodyBytes?: number;
  /** Requests per second per key (burst = 2× per second). Default 200 for API keys. */
  rateLimit?: number;
  /**
   * The tenant and agent the request's address names (path, query): a key bound to others is
   * refused with 403 before its body is read (lib/auth/key-reach.ts).
   */
  reach?: (input: { params: Out<P>; query: Out<Q> }) => Reach;
  /** The same, for what only the body names (a ledger scope, an evaluator): checked once it is parsed. */
  reachFromBody?: (input: { params: Out<P>; query: Out<Q>; body: Out<B> }) => Reach;
  /**
   * The record the path names by its own id, whose agent a key bound to agents must reach:
   * `{ skill: "skill_id" }` (lib/api/v1/reach.ts). Another agent's record answers 404 with the
   * words of a missing one; checked once the body is parsed, right before the handler.
   */
  reachByRecord?: RecordReach<Out<P>>;
};

export type RouteContext<B, Q, P> = {
  req: Request;
  body: Out<B>;
  query: Out<Q>;
  params: Out<P>;
  actor: Actor | null;
  /**
   * Whether the caller may see records of an agent, for what a handler finds by content rather
   * than by address (a persona of any agent, OTLP spans naming their agents): records of agents
   * it does not reach are left out, not refused.
   */
  reaches: (agentId: string) => boolean;
  requestId: string;
  audit: AuditContext;
};

type Handler<B, Q, P> = (ctx: RouteContext<B, Q, P>) => Promise<Response | unknown>;
type NextCtx = { params: Promise<Record<string, string | string[]>> };

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function route<B extends Schema | undefined = undefined, Q extends Schema | undefined = undefined, P extends Schema | undefined = undefined>(
  opts: RouteOptions<B, Q, P>,
  handler: Handler<B, Q, P>,
) {
  return async (req: Request, nextCtx?: NextCtx): Promise<Response> => {
    const incoming = req.headers.get("x-request-id");
    const requestId = incoming && PATH_ID.test(incoming) ? incoming : randomUUID();
    try {
      // Who calls comes first: an anonymous write is a 401 whatever its headers say.
      const actor = await authenticate(req, opts);
      // Agents send no Origin; a browser (cookie) caller's write must say where it comes from.
      if (MUTATING.has(req.method)) checkOrigin(req, { requireSource: !bearerOf(req) });
      if (actor?.type === "api_key") {
        const wait = await takeToken(db(), actor.id, opts.rateLimit ?? 200, (opts.rateLimit ?? 200) * 2);
        if (wait > 0) throw problems.rateLimited(wait);
      }
      const rawParams = (await nextCtx?.params) ?? {};
      const url = new URL(req.url);
      checkAddress(rawParams, url.searchParams);
      const params = parseWith(opts.params, rawParams, "path parameters");
      const query = parseWith(opts.query, Object.fromEntries(url.searchParams), "query string");
      // A key bound elsewhere is refused before its body is read when the address names what it
      // may not reach.
      if (opts.reach) {
        const refused = reachRefusal(actor, opts.reach({ params, query } as { params: Out<P>; query: Out<Q> }));
        if (refused) throw refused;
      }
      const body = opts.body
        ? parseWith(opts.body, await readBody(req, opts), opts.bodyErrors?.name ?? "request body", opts.bodyErrors?.within)
        : undefined;
      if (opts.reachFromBody) {
        const refused = reachRefusal(actor, opts.reachFromBody({ params, query, body } as { params: Out<P>; query: Out<Q>; body: Out<B> }));
        if (refused) throw refused;
      }
      if (opts.reachByRecord) {
        const hidden = await recordRefusal(actor, opts.reachByRecord as RecordReach, params as Record<string, unknown>);
        if (hidden) throw hidden;
      }
      const reaches = (agentId: string) => reachesAgent(actor, agentId);
      const audit: AuditContext = { actor, requestId, clientHash: await clientHash(req) };
      const result = await handler({ req, body, query, params, actor, reaches, requestId, audit } as RouteContext<B, Q, P>);
      // A console user's change: that session's pages wait for the replica to replay it.
      if (actor?.type === "user" && MUTATING.has(req.method) && !(result instanceof Response && result.status >= 400)) await rememberWrite(db());
      if (result instanceof Response) {
        result.headers.set("x-request-id", requestId);
        return result;
      }
      return Response.json(result, { headers: { "x-request-id": requestId, "cache-control": "no-store" } });
    } catch (err) {
      return errorResponse(err, requestId);
    }
  };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "cache-control": "no-store", ...headers } });
}

function parseWith(schema: Schema | undefined, value: unknown, where: string, within?: string) {
  if (!schema) return undefined;
  const r = schema.safeParse(value);
  if (!r.success) throw zodProblem(where, r.error, within);
  return r.data;
}

async function readBody(req: Request, opts: RouteOptions<unknown, unknown, unknown>): Promise<unknown> {
  const limit = opts.maxBodyBytes ?? ONE_MIB;
  if (opts.rawBody) return readRawBody(req, opts.rawBody, limit);
  if (!opts.bodyOptional) return readJsonBody(req, limit);
  // A DELETE sent without a body carries neither length nor chunked encoding (fetch sends none).
  const bodiless = !req.headers.has("content-length") && !req.headers.has("transfer-encoding");
  if (req.headers.get("content-length") === "0" || !req.body || bodiless) return {};
  return readJsonBody(req, limit).catch((e) => {
    if ((e as { detail?: string }).detail?.startsWith("The request body is empty")) return {};
    throw e;
  });
}

/** Path parameters and query values are checked before any schema or query sees them (lib/api/request-hygiene.ts). */
function checkAddress(params: Record<string, string | string[]>, query: URLSearchParams) {
  const values = Object.entries(params).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]));
  const bad = unstorableValues([...values, ...query]);
  if (bad.length) throw problems.validation("The request address holds characters that cannot be used.", bad);
}

const bearerOf = (req: Request) => req.headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];

async function authenticate(req: Request, opts: RouteOptions<unknown, unknown, unknown>): Promise<Actor | null> {
  if (opts.auth === "none") return null;
  const bearer = bearerOf(req);
  let actor: Actor | null = null;
  if (bearer && opts.auth !== "session") {
    const found = await authenticateApiKey(db(), bearer, clientAddressOf(req.headers)?.slice(0, 100) ?? null);
    if (found === "expired") throw problems.keyExpired();
    if (!found) throw problems.unauthorized("The API key is unknown or revoked.");
    actor = found;
  } else if (opts.auth !== "apiKey") {
    actor = await sessionActor();
  }
  if (!actor) throw problems.unauthorized();
  if (!opts.access) throw new Error("route(): a route with authentication must declare its access scope");
  authorize(actor, opts.access);
  return actor;
}

/** Cross-site writes are refused, and browser writes that name no source (lib/auth/origin.ts). */
export function checkOrigin(req: Request, opts: { requireSource: boolean } = { requireSource: true }) {
  const why = crossOrigin(req.headers, opts);
  if (why) throw problems.forbidden(ORIGIN_REFUSAL[why]);
}

export const clientHash = (req: Request): Promise<string | null> => clientHashOf(req.headers);

export function errorResponse(err: unknown, requestId: string): Response {
  if (err instanceof ProblemError) return problemResponse(err, requestId);
  if (err instanceof AuditUnavailableError) console.error(`[${requestId}] audit write failed; change refused`);
  if (err instanceof DomainError) return problemResponse(problemFromDomain(err), requestId);
  // The caller gets no internal detail; the log gets the error's kind and code only, since
  // driver messages can quote stored values (private text never goes to logs).
  const e = err as { name?: string; code?: string };
  console.error(`[${requestId}] unhandled error: ${e?.name ?? "unknown"}${e?.code ? ` (${e.code})` : ""}`);
  if (process.env.PROCTOR_DEBUG_ERRORS === "1") console.error(err);
  return problemResponse(problems.unavailable(), requestId);
}

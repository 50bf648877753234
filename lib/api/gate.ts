// The gate in front of Next.js: scripts/start.ts passes every request through it before Next sees
// it, because some checks cannot wait for Next. Next answers a path it cannot decode with a bare
// 500, and when the proxy runs it copies a request body (up to 10 MB, twice) before the proxy
// can look at the caller, so an anonymous flood of large bodies would fill memory.
// Here, before anything reads the body:
// - the address: path segments and query values must decode (lib/api/request-hygiene.ts), else
//   400 problem+json and a log line; a page instead drops the filters it cannot read;
// - the body: over the largest limit any route has → 413; a body from a caller with neither a
//   current session (an ended one counts as none) nor (on the agent API) a bearer key → 401
//   without reading it, except the
//   sign-in forms, which must declare a small Content-Length (Node enforces it as a hard cap);
// - the headers every response carries (nosniff, referrer policy, no framing, HSTS over https);
//   pages get their nonce-based Content-Security-Policy from proxy.ts;
// - under /api, a body-less error the framework writes (405 for a method a route lacks, a bare
//   404 or 500) becomes problem+json;
// - a server action call (a POST naming `Next-Action`): an Origin that is malformed, `null` or
//   another host → 403 (Next would answer 500), and a 500 Next answers it → 400: the action
//   wrapper (lib/actions/action.ts) turns every error of an action's own into a typed result,
//   so Next answers 500 only when it cannot decode the call.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { randomUUID } from "node:crypto";
import { secureCookies } from "../auth/cookies";
import { crossOrigin, ORIGIN_REFUSAL } from "../auth/origin";
import { sessionToken } from "../auth/session-token";
import { ProblemError, problemBody, problems, type ProblemCode } from "./problem";
import { checkQuery, pathProblem } from "./request-hygiene";
import { BATCH_BODY_BYTES, SKILL_UPLOAD_BYTES } from "./v1/limits";
import { OTLP_TRACES_PATH, otlpStatusBody } from "./otlp";

/** The largest body any route reads: a skills upload (a workflow batch is the largest JSON body). */
export const MAX_BODY_BYTES = Math.max(BATCH_BODY_BYTES, SKILL_UPLOAD_BYTES);
/** What an anonymous caller may send a body to: the sign-in forms, which are small. */
const PUBLIC_FORMS = /^\/api\/auth\//;
export const PUBLIC_FORM_BYTES = 64 * 1024;

const HSTS = "max-age=31536000; includeSubDomains";
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Framework errors without a body under /api, and what they become. */
const BARE_ERRORS: Record<number, [ProblemCode, string]> = {
  400: ["validation_error", "The request is malformed."],
  404: ["not_found", "There is no such route."],
  405: ["method_not_allowed", "This route does not take this method."],
  500: ["unavailable", "The service is temporarily unavailable."],
};

export type GateOptions = {
  trustProxy: boolean;
  publicUrl?: string;
  /** Whether the session a JWT names still counts (lib/auth/sessions.ts#checkSession). */
  sessionCounts: (sessionId: unknown) => Promise<boolean>;
};

/** Returns a handler that answers the request itself (and resolves true) or leaves it to Next. */
export function requestGate(opts: GateOptions) {
  const httpsPublic = secureCookies({ NEXTAUTH_URL: opts.publicUrl });
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    const api = path === "/api" || path.startsWith("/api/");
    const https = httpsPublic || ("encrypted" in req.socket && Boolean(req.socket.encrypted)) || (opts.trustProxy && req.headers["x-forwarded-proto"] === "https");
    setSecurityHeaders(res, api, https);
    // An OTLP exporter is answered in its protocol's terms, whatever the gate refuses.
    const refuseHere = (err: ProblemError, log: boolean) => (path === OTLP_TRACES_PATH ? refuseOtlp(res, err, req.headers["content-type"]) : refuse(res, err, log));
    try {
      const badPath = pathProblem(path);
      if (badPath) return refuse(res, problems.validation("The request path is malformed.", [badPath]), true);
      const query = checkQuery(q < 0 ? "" : url.slice(q + 1));
      if (query.problems.length > 0) {
        const read = req.method === "GET" || req.method === "HEAD";
        if (api || !read) return refuseHere(problems.validation("The query string holds characters that cannot be used.", query.problems), true);
        res.writeHead(307, { location: query.cleaned ? `${path}?${query.cleaned}` : path }).end();
        return true;
      }
      const body = await bodyRefusal(req, path, opts.sessionCounts);
      if (body) return refuseHere(body, false);
      const action = !api && req.method === "POST" && typeof req.headers["next-action"] === "string";
      const foreign = action && req.headers.origin !== undefined ? crossOrigin(nodeHeaders(req)) : null;
      if (foreign) return refuse(res, problems.forbidden(ORIGIN_REFUSAL[foreign]), false);
      if (action) replaceFrameworkErrors(res, (status) => (status === 500 ? problems.validation("The server action call could not be decoded.") : null));
    } catch (err) {
      console.error(`request gate failed: ${(err as Error)?.name ?? "unknown"}`);
      return refuse(res, problems.unavailable(), false);
    }
    if (api) replaceFrameworkErrors(res, bareErrorProblem);
    return false;
  };
}

/** Node's request headers as lib/auth/origin.ts reads them. */
const nodeHeaders = (req: IncomingMessage) => ({ get: (name: string) => [req.headers[name]].flat()[0] ?? null });

function setSecurityHeaders(res: ServerResponse, api: boolean, https: boolean) {
  res.setHeader("X-Content-Type-Options", "nosniff");
  // Same-origin writes may still name their source by Referer (lib/auth/origin.ts); nothing leaks cross-site.
  res.setHeader("Referrer-Policy", "same-origin");
  res.setHeader("X-Frame-Options", "DENY");
  if (api) res.setHeader("Content-Security-Policy", API_CSP);
  if (https) res.setHeader("Strict-Transport-Security", HSTS);
}

async function bodyRefusal(req: IncomingMessage, path: string, sessionCounts: GateOptions["sessionCounts"]): Promise<ProblemError | null> {
  const length = req.headers["content-length"];
  const chunked = req.headers["transfer-encoding"] !== undefined;
  const declared = length === undefined ? NaN : Number(length);
  if (!chunked && (length === undefined || declared === 0)) return null;
  if (declared > MAX_BODY_BYTES) return problems.tooLarge(MAX_BODY_BYTES);
  // The route wrapper checks an agent's key before it reads the body, and reads within the route's limit.
  if (path.startsWith("/api/v1/") && /^Bearer\s/i.test(req.headers.authorization ?? "")) return null;
  if (await signedIn(req, sessionCounts)) return null;
  if (PUBLIC_FORMS.test(path)) return declared <= PUBLIC_FORM_BYTES ? null : problems.tooLarge(PUBLIC_FORM_BYTES);
  return problems.unauthorized();
}

/** A session cookie that decodes under this instance's secret and whose session still counts. */
async function signedIn(req: IncomingMessage, sessionCounts: GateOptions["sessionCounts"]): Promise<boolean> {
  const header = req.headers.cookie;
  if (!header) return false;
  const cookies = new Map<string, string>();
  for (const part of header.split(/;\s*/)) {
    const eq = part.indexOf("=");
    if (eq > 0) cookies.set(part.slice(0, eq), part.slice(eq + 1));
  }
  const token = await sessionToken(cookies);
  return token !== null && (await sessionCounts(token.sid));
}

/**
 * What Node's own parser refuses before any handler runs (a head over 16 KiB, a malformed request
 * line) is a problem too, written on the socket, which then closes; Node's default is a bare 4xx.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex) {
  if (!socket.writable || err.code === "ECONNRESET") return void socket.destroy();
  const problem = err.code === "HPE_HEADER_OVERFLOW"
    ? new ProblemError("headers_too_large", "The request's headers exceed 16 KiB.")
    : problems.validation("The request could not be parsed.");
  const requestId = randomUUID();
  const body = JSON.stringify(problemBody(problem.code, problem.detail, requestId));
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\ncontent-type: application/problem+json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** Answers with a problem, without reading the body (Node discards what is left of it). */
function refuse(res: ServerResponse, err: ProblemError, log: boolean): true {
  const requestId = randomUUID();
  if (log) console.warn(`[${requestId}] refused a malformed request address: ${err.errors?.map((e) => e.message).join("; ") ?? err.detail}`);
  const body = JSON.stringify(problemBody(err.code, err.detail, requestId, err.errors));
  res.writeHead(err.status, { "content-type": "application/problem+json", "x-request-id": requestId, "cache-control": "no-store", ...err.headers });
  res.end(body);
  return true;
}

/** An OTLP exporter is answered with the google.rpc.Status body its protocol defines (lib/api/otlp.ts). */
function refuseOtlp(res: ServerResponse, err: ProblemError, requestType: string | undefined): true {
  const { type, body } = otlpStatusBody(requestType, err.code, err.detail);
  res.writeHead(err.status, { "content-type": type, "x-request-id": randomUUID(), "cache-control": "no-store", ...err.headers });
  res.end(body);
  return true;
}

/** An error the framework writes under /api without a JSON body (Next answers a method a route lacks with writeHead(405) and no body). */
function bareErrorProblem(status: number, type: unknown): ProblemError | null {
  const bare = BARE_ERRORS[status];
  // A JSON body, or the protobuf Status an OTLP route answers with, is an answer, not a bare error.
  if (!bare || /json|application\/x-protobuf/.test(String(type ?? ""))) return null;
  // A framework 500 is answered as the API's 503 `unavailable` (a 5xx of the agent API carries no internal text).
  return new ProblemError(bare[0], bare[1]);
}

/**
 * Replaces an answer the framework writes by the problem `problemFor` gives for its status and
 * content type, whichever of writeHead, write or end sends the head; what the framework meant as
 * the body is dropped.
 */
function replaceFrameworkErrors(res: ServerResponse, problemFor: (status: number, type: unknown) => ProblemError | null) {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  let problem: string | null = null;
  /** Sends the problem's head when this status and content type make the answer a bare error. */
  const replaced = (status: number, type: unknown): boolean => {
    const err = res.headersSent ? null : problemFor(status, type);
    if (!err) return false;
    const requestId = randomUUID();
    if (status >= 500) console.error(`[${requestId}] the framework answered ${status}; answered ${err.status} ${err.code}`);
    problem = JSON.stringify(problemBody(err.code, err.detail, requestId));
    writeHead(err.status, { "content-type": "application/problem+json", "content-length": Buffer.byteLength(problem), "x-request-id": requestId, "cache-control": "no-store" });
    return true;
  };
  const pending = () => problem === null && !res.headersSent && replaced(res.statusCode, res.getHeader("content-type"));
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const given = rest.find((r): r is Record<string, unknown> => typeof r === "object" && r !== null && !Array.isArray(r));
    const givenType = given && Object.entries(given).find(([k]) => k.toLowerCase() === "content-type")?.[1];
    return replaced(status, givenType ?? res.getHeader("content-type")) ? res : writeHead(status, ...rest);
  }) as ServerResponse["writeHead"];
  res.write = ((...args: unknown[]) => (pending() || problem !== null ? true : write(...args))) as ServerResponse["write"];
  res.end = ((...args: unknown[]) => {
    if (!pending() && problem === null) return end(...args);
    return end(problem, args.find((a) => typeof a === "function"));
  }) as ServerResponse["end"];
}

// The proxy (Next 16's name for middleware; it runs on Node.js), the first line of access
// control: anonymous page views go to /login; any other anonymous request (an API or console
// JSON route, a server action, any write) gets 401 problem+json. Every page and route checks the
// caller again on the server. Pages also get their Content-Security-Policy here, with a fresh
// script nonce per request: Next.js reads it from the request's CSP header and puts it on its own
// scripts; the root layout puts it on its one inline script. Pages also get their own address
// (CONSOLE_URL_HEADER): the console frame scopes the sidebar's counts by it.
// (Checks that must run before Next reads a request at all are in lib/api/gate.ts.)
import { NextResponse, type NextRequest } from "next/server";
import { getToken } from "next-auth/jwt";
import { secureCookies } from "./lib/auth/cookies";
import { CONSOLE_URL_HEADER } from "./lib/console/agent-scope";

const PUBLIC_PATHS = [/^\/login$/, /^\/api\/auth\//, /^\/api\/health$/, /^\/api\/v1\/openapi\.json$/, /^\/_next\//, /^\/favicon\.ico$/, /^\/(icon\.svg|manifest\.webmanifest)$/];

/** Route handlers outside /api: they answer JSON, so an anonymous call is a 401, not a redirect to sign in. */
export const CONSOLE_JSON_ROUTES = /^\/persona-evolution\/(state|action)$/;

export async function proxy(req: NextRequest) {
  const { pathname, search } = req.nextUrl;
  if (PUBLIC_PATHS.some((p) => p.test(pathname))) return pass(req);
  // Agent API calls carry a bearer key; the route wrapper verifies it.
  if (pathname.startsWith("/api/v1/") && req.headers.get("authorization")) return NextResponse.next();
  const token = await getToken({ req, secret: process.env.NEXTAUTH_SECRET, secureCookie: secureCookies() });
  if (token) return pass(req);
  const api = pathname === "/api" || pathname.startsWith("/api/");
  const pageView = (req.method === "GET" || req.method === "HEAD") && !api && !CONSOLE_JSON_ROUTES.test(pathname);
  if (!pageView) {
    return new NextResponse(
      JSON.stringify({
        type: "https://proctor.dev/problems/unauthorized",
        title: "Authentication required",
        status: 401,
        detail: "A valid session or API key is required.",
        code: "unauthorized",
        request_id: crypto.randomUUID(),
      }),
      { status: 401, headers: { "content-type": "application/problem+json", "cache-control": "no-store" } },
    );
  }
  const login = new URL("/login", req.url);
  login.searchParams.set("next", pathname + search);
  return NextResponse.redirect(login);
}

/** Lets the request through; a page gets its nonce and policy. */
function pass(req: NextRequest) {
  const { pathname, search, protocol } = req.nextUrl;
  if (pathname.startsWith("/api/") || pathname.startsWith("/_next/")) return NextResponse.next();
  const nonce = btoa(crypto.randomUUID());
  const policy = contentSecurityPolicy(nonce, protocol === "https:" || secureCookies());
  const headers = new Headers(req.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", policy);
  headers.set(CONSOLE_URL_HEADER, pathname + search);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("content-security-policy", policy);
  return res;
}

/**
 * Scripts only from this origin with this request's nonce (and what they load: strict-dynamic);
 * no inline script without it, no framing. Styles allow inline attributes (React's style props);
 * they cannot run code. Development needs eval for React's error overlays.
 */
function contentSecurityPolicy(nonce: string, https: boolean): string {
  const dev = process.env.NODE_ENV === "development";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

// The agent API and the health check authenticate in the route wrapper itself (an unauthenticated
// call gets the same 401 problem+json there); skipping the proxy saves its per-request cost
// on the hot ingestion path.
export const config = { matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg$|manifest.webmanifest$|api/v1/|api/health$).*)"] };

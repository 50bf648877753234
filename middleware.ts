// First line of access control: anonymous page requests go to /login, anonymous API
// requests get 401 problem+json. Every page and route checks the caller again on the server.
import { NextResponse, type NextRequest } from "next/server";
import { getToken } from "next-auth/jwt";
import { secureCookies } from "./lib/auth/cookies";

const PUBLIC_PATHS = [/^\/login$/, /^\/api\/auth\//, /^\/api\/health$/, /^\/api\/v1\/openapi\.json$/, /^\/_next\//, /^\/favicon\.ico$/];

export async function middleware(req: NextRequest) {
  const { pathname, search } = req.nextUrl;
  if (PUBLIC_PATHS.some((p) => p.test(pathname))) return NextResponse.next();
  // Agent API calls carry a bearer key; the route wrapper verifies it.
  if (pathname.startsWith("/api/v1/") && req.headers.get("authorization")) return NextResponse.next();
  const token = await getToken({ req, secret: process.env.NEXTAUTH_SECRET, secureCookie: secureCookies() });
  if (token) return NextResponse.next();
  if (pathname.startsWith("/api/")) {
    return new NextResponse(
      JSON.stringify({
        type: "https://proctor.dev/problems/unauthorized",
        title: "Authentication required",
        status: 401,
        detail: "A valid session or API key is required.",
        code: "unauthorized",
        request_id: crypto.randomUUID(),
      }),
      { status: 401, headers: { "content-type": "application/problem+json" } },
    );
  }
  const login = new URL("/login", req.url);
  login.searchParams.set("next", pathname + search);
  return NextResponse.redirect(login);
}

// The agent API and the health check authenticate in the route wrapper itself (an unauthenticated
// call gets the same 401 problem+json there); skipping the middleware saves its per-request cost
// on the hot ingestion path.
export const config = { matcher: ["/((?!_next/static|_next/image|favicon.ico|api/v1/|api/health$).*)"] };

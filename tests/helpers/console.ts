// Console helpers for tests: users created through the real console action, and a credentials
// login that can come from a chosen loopback address (127.0.0.x) for per-address throttling.
import http from "node:http";
import { callAction } from "./actions";
import type { Caller } from "./http";

export async function createConsoleUser(baseUrl: string, admin: Caller, user: { email: string; role: "ADMIN" | "VIEWER"; password: string }) {
  const r = await callAction({ baseUrl }, admin, "lib/actions/users.ts#createUser", user);
  if (r.kind !== "ok") throw new Error(`creating ${user.email} failed: ${r.kind} ${r.error?.message}`);
  return r.data.user as { id: string; email: string; role: string };
}

type RawResponse = { status: number; setCookies: string[]; headers: http.IncomingHttpHeaders; body: string };

function request(url: string, opts: { method: string; headers: Record<string, string>; body?: string; localAddress?: string }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method, headers: opts.headers, localAddress: opts.localAddress }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, setCookies: res.headers["set-cookie"] ?? [], headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

const pairs = (cookies: string[]) => cookies.map((c) => c.split(";")[0]);

/**
 * A real next-auth credentials sign-in from `localAddress` (default 127.0.0.1). Returns the
 * callback's status and body and, when it succeeded, a caller carrying the session cookie.
 */
export async function loginFrom(baseUrl: string, email: string, password: string, localAddress = "127.0.0.1") {
  return signInWithForm(baseUrl, [["email", email], ["password", password]], localAddress);
}

/** A credentials sign-in posting exactly these form fields (in order, repeats kept) besides the CSRF token, to `path`. */
export async function signInWithForm(baseUrl: string, fields: [string, string][], localAddress = "127.0.0.1", path = "/api/auth/callback/credentials") {
  const csrf = await request(`${baseUrl}/api/auth/csrf`, { method: "GET", headers: {}, localAddress });
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const res = await request(`${baseUrl}${path}`, {
    method: "POST",
    localAddress,
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: pairs(csrf.setCookies).join("; "), origin: baseUrl },
    body: new URLSearchParams([["csrfToken", csrfToken], ...fields, ["json", "true"]]).toString(),
  });
  const session = res.setCookies.some((c) => /next-auth\.session-token=[^;]+/.test(c));
  const caller: Caller = { headers: { cookie: [...pairs(csrf.setCookies), ...pairs(res.setCookies)].join("; "), origin: baseUrl } };
  return { status: res.status, body: res.body, headers: res.headers, setCookies: res.setCookies, session, caller };
}

/** next-auth's sign-out, as the console's menu does it: with the caller's CSRF token (`everywhere`: "Sign out everywhere"). */
export async function signOut(baseUrl: string, caller: Caller, opts: { everywhere?: boolean } = {}) {
  const csrf = await request(`${baseUrl}/api/auth/csrf`, { method: "GET", headers: { cookie: caller.headers.cookie } });
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const cookie = [caller.headers.cookie, ...pairs(csrf.setCookies)].join("; ");
  return request(`${baseUrl}/api/auth/signout`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: baseUrl },
    body: new URLSearchParams({ csrfToken, json: "true", ...(opts.everywhere ? { everywhere: "true" } : {}) }).toString(),
  });
}

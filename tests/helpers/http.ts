// HTTP helpers for tests: API-key calls and a real next-auth credentials login.
import { checkReply } from "./contract-check";

export type Caller = { headers: Record<string, string> };

/**
 * A JSON body as tests read it: they reach into replies of every shape (checkReply has already
 * held each one to its route's declared schema), and restating each shape would only repeat it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests' one untyped JSON, for the reason above
export type Json = any;

export const withKey = (key: string): Caller => ({ headers: { authorization: `Bearer ${key}` } });
export const anonymous: Caller = { headers: {} };

export async function call(baseUrl: string, caller: Caller, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) {
  const res = await fetch(baseUrl + path, {
    method,
    redirect: "manual",
    headers: {
      ...caller.headers,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...extra,
    },
    // Text and bytes (a file upload: the caller names its Content-Type in `extra`) go as they are.
    body: body === undefined ? undefined : typeof body === "string" || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  checkReply(method, path, res.status, json, text);
  return { status: res.status, headers: res.headers, json, text };
}

function cookiesOf(res: Response): string[] {
  return res.headers.getSetCookie().map((c) => c.split(";")[0]);
}

/** The caller with the cookies a response set (`Set-Cookie` values), as a browser keeps them. */
export function withCookies(caller: Caller, setCookies: string[]): Caller {
  const jar = new Map((caller.headers.cookie ?? "").split("; ").filter(Boolean).map((c) => [c.slice(0, c.indexOf("=")), c] as const));
  for (const c of setCookies.map((s) => s.split(";")[0])) jar.set(c.slice(0, c.indexOf("=")), c);
  return { headers: { ...caller.headers, cookie: [...jar.values()].join("; ") } };
}

/** Logs in through next-auth's credentials callback and returns a caller with the session cookie. */
export async function login(baseUrl: string, email: string, password: string): Promise<Caller & { status: number }> {
  const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const jar = cookiesOf(csrfRes);
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; "), origin: baseUrl },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }).toString(),
  });
  const all = [...jar, ...cookiesOf(res)];
  // Browsers send Origin on writes; the console refuses cross-origin ones.
  return { status: res.status, headers: { cookie: all.join("; "), origin: baseUrl } };
}

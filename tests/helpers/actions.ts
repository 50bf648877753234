// Calls the console's server actions over real HTTP, as the browser does: a POST to a page with
// the action's id in `Next-Action` and its arguments encoded as a React reply (for JSON-able
// arguments, the JSON array of them), answered as an RSC stream whose root row holds the result.
// Action ids come from the build's server-reference-manifest.json, which names each action's
// file and export.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { ActionError } from "../../lib/actions/action";
import type { Caller, Json } from "./http";

type Manifest = { node: Record<string, { filename?: string; exportedName?: string; workers: Record<string, unknown> }> };

const root = path.resolve(import.meta.dirname, "../..");
let ids: Map<string, { id: string; page: string }> | null = null;

/** "lib/actions/users.ts#createUser" → the action's id and a page that bundles it. */
export function actionTarget(name: string) {
  if (!ids) {
    const file = path.join(root, process.env.PROCTOR_DIST_DIR || ".next", "server/server-reference-manifest.json");
    const manifest = JSON.parse(readFileSync(file, "utf8")) as Manifest;
    ids = new Map();
    for (const [id, a] of Object.entries(manifest.node)) {
      // A page that bundles the action, static ones first; its URL follows from the entry name
      // (route groups dropped, a dynamic segment filled with "-": the page is not rendered).
      const pages = Object.keys(a.workers).filter((w) => w.startsWith("app/") && w.endsWith("/page"));
      const page = pages.find((w) => !w.includes("[")) ?? pages[0];
      if (a.filename && a.exportedName && page) {
        const url = page.slice(3, -5).replace(/\/\([^)]*\)/g, "").replace(/\[[^\]]+\]/g, "-");
        ids.set(`${a.filename}#${a.exportedName}`, { id, page: url || "/" });
      }
    }
  }
  const found = ids.get(name);
  if (!found) throw new Error(`no server action ${name} in the build (known: ${[...ids.keys()].join(", ")})`);
  return found;
}

/** React's reply encoding of plain JSON values: strings starting with "$" are escaped. */
const encodeReply = (args: unknown[]) =>
  JSON.stringify(args, (_k, v) => (typeof v === "string" && v.startsWith("$") ? `$${v}` : v === undefined ? "$undefined" : v));

/** The RSC rows of a response: `<hex id>:<json>\n` or `<hex id>:T<hex byte length>,<text>`. */
function rows(body: Buffer): Map<string, unknown> {
  const out = new Map<string, unknown>();
  let i = 0;
  while (i < body.length) {
    const colon = body.indexOf(0x3a, i);
    if (colon < 0) break;
    const id = body.subarray(i, colon).toString();
    if (body[colon + 1] === 0x54 /* T */) {
      const comma = body.indexOf(0x2c, colon);
      const len = parseInt(body.subarray(colon + 2, comma).toString(), 16);
      out.set(id, body.subarray(comma + 1, comma + 1 + len).toString());
      i = comma + 1 + len;
      continue;
    }
    const end = body.indexOf(0x0a, colon);
    const line = body.subarray(colon + 1, end < 0 ? body.length : end).toString();
    if (/^[{["\d-tfn]/.test(line)) out.set(id, JSON.parse(line));
    i = end < 0 ? body.length : end + 1;
  }
  return out;
}

function resolve(v: unknown, all: Map<string, unknown>): unknown {
  if (typeof v === "string" && v.startsWith("$")) {
    if (v.startsWith("$$")) return v.slice(1);
    if (v === "$undefined") return undefined;
    if (v.startsWith("$D")) return v.slice(2);
    if (v.startsWith("$n")) return BigInt(v.slice(2));
    const ref = v.match(/^\$@?([0-9a-f]+)$/);
    if (ref) return resolve(all.get(ref[1]), all);
    return v;
  }
  if (Array.isArray(v)) return v.map((x) => resolve(x, all));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x, all)]));
  return v;
}

export type ActionCall<T = Json> = {
  /** The HTTP status of the POST itself (303/307 when the proxy sent the caller to sign in). */
  httpStatus: number;
  /** "ok", the refusal's kind, "unauthorized" when the caller was sent to sign in, "rejected" when Next.js refused to run the action. */
  kind: "ok" | ActionError["kind"] | "rejected";
  data: T;
  error: ActionError | null;
  text: string;
  /** Sent as x-request-id: the audit row of this call carries it. */
  requestId: string;
  /** The answer's Set-Cookie values (withCookies in ./http.ts keeps them for the next call). */
  setCookies: string[];
};

export async function callAction<T = Json>(server: { baseUrl: string }, caller: Caller, name: string, input?: unknown, extra: Record<string, string> = {}): Promise<ActionCall<T>> {
  const { id, page } = actionTarget(name);
  const requestId = randomUUID();
  const res = await fetch(server.baseUrl + page, {
    method: "POST",
    redirect: "manual",
    headers: { ...caller.headers, accept: "text/x-component", "content-type": "text/plain;charset=UTF-8", "next-action": id, "x-request-id": requestId, ...extra },
    body: encodeReply(input === undefined ? [] : [input]),
  });
  const body = Buffer.from(await res.arrayBuffer());
  const text = body.toString();
  const setCookies = res.headers.getSetCookie();
  // The proxy answers an anonymous action 401 problem+json (a page view would be sent to sign in).
  const login = res.status === 401 || (res.status >= 300 && res.status < 400 && (res.headers.get("location") ?? "").includes("/login"));
  if (login) return { httpStatus: res.status, kind: "unauthorized", data: undefined as T, error: null, text, requestId, setCookies };
  // A refusal before Next.js runs the action (lib/api/gate.ts) is problem+json, not RSC rows.
  const all = (res.headers.get("content-type") ?? "").includes("text/x-component") ? rows(body) : new Map<string, unknown>();
  const rootRow = all.get("0") as { a?: unknown } | undefined;
  const result = res.ok && rootRow && "a" in rootRow ? (resolve(rootRow.a, all) as { ok: boolean; data?: T; error?: ActionError }) : null;
  if (!result) return { httpStatus: res.status, kind: "rejected", data: undefined as T, error: null, text, requestId, setCookies };
  return result.ok
    ? { httpStatus: res.status, kind: "ok", data: result.data as T, error: null, text, requestId, setCookies }
    : { httpStatus: res.status, kind: result.error!.kind, data: undefined as T, error: result.error!, text, requestId, setCookies };
}

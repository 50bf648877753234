// Browser-side calls to the console's own routes: JSON in, JSON out, and the server's
// problem+json message surfaced as an Error the UI can show verbatim.
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly errors: { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}

export async function fetchJson<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? "GET",
      headers: init.body === undefined ? {} : { "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError("The server could not be reached. Check your connection and try again.", 0);
  }
  const text = await res.text();
  const data = text ? safeParse(text) : null;
  if (!res.ok) {
    const p = (data ?? {}) as { detail?: string; code?: string; errors?: { path: string; message: string }[] };
    const fields = p.errors?.map((e) => `${e.path}: ${e.message}`).join("; ");
    throw new ApiError([p.detail ?? `Request failed (${res.status}).`, fields].filter(Boolean).join(" — "), res.status, p.code, p.errors);
  }
  return data as T;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

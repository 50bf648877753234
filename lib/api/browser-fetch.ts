// Browser-side reads of the console's own routes (changes go through server actions): JSON
// out, and the server's problem+json message surfaced as an Error the UI can show verbatim.
export async function fetchJson<T>(path: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { credentials: "same-origin" });
  } catch {
    throw new Error("The server could not be reached. Check your connection and try again.");
  }
  const text = await res.text();
  const data = text ? safeParse(text) : null;
  if (!res.ok) {
    const p = (data ?? {}) as { detail?: string; errors?: { path: string; message: string }[] };
    const fields = p.errors?.map((e) => `${e.path}: ${e.message}`).join("; ");
    throw new Error([p.detail ?? `Request failed (${res.status}).`, fields].filter(Boolean).join(" — "));
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

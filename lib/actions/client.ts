// Browser side of the console's server actions: a refused result becomes an Error carrying
// the server's message (and the fields it names), so useMutation's onError can show it as is.
import type { ActionError, ActionResult } from "./action";

export class ActionFailure extends Error {
  constructor(readonly error: ActionError) {
    super([error.message, error.fields?.map((f) => `${f.path}: ${f.message}`).join("; ")].filter(Boolean).join(" — "));
  }
}

export async function unwrap<T>(result: Promise<ActionResult<T>>): Promise<T> {
  let r: ActionResult<T>;
  try {
    r = await result;
  } catch {
    throw new ActionFailure({ kind: "unavailable", message: "The server could not be reached. Check your connection and try again." });
  }
  if (!r.ok) throw new ActionFailure(r.error);
  return r.data;
}

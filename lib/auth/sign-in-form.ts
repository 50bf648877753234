// The credentials sign-in form, parsed once. The route throttles on the email parsed here and
// hands next-auth a form rebuilt from the same values, so the email that is throttled is the
// email that authenticates (otherwise a form with two `email` fields could be throttled on the
// first and signed in with the last). A field given twice is refused outright.
import { z } from "zod";
import { Validation } from "../errors";

const FIELDS = ["email", "password", "csrfToken", "callbackUrl", "json"] as const;

export const signInFormSchema = z.object({
  /** Normalized as accounts are stored: the throttle and the lookup see the same string. */
  email: z.string().max(320).trim().toLowerCase(),
  password: z.string().max(1024),
  csrfToken: z.string().max(256).optional(),
  callbackUrl: z.string().max(2048).optional(),
  json: z.string().max(8).optional(),
});

export type SignInForm = z.output<typeof signInFormSchema>;

/** The form of a credentials sign-in, from a urlencoded or JSON body. Other fields are dropped. */
export function parseSignInForm(contentType: string | null, body: string): SignInForm {
  const type = (contentType ?? "").toLowerCase();
  const json = type.includes("application/json");
  if (!json && !type.includes("application/x-www-form-urlencoded")) {
    throw new Validation("A sign-in form is sent as application/x-www-form-urlencoded or application/json.");
  }
  const raw = json ? fromJson(body) : fromUrlEncoded(body);
  const parsed = signInFormSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Validation(
      "The sign-in form is invalid.",
      parsed.error.issues.map((i) => ({ path: "/" + i.path.map(String).join("/"), message: i.message })),
    );
  }
  return parsed.data;
}

function fromUrlEncoded(body: string): Record<string, string> {
  const params = new URLSearchParams(body);
  const form: Record<string, string> = {};
  for (const name of FIELDS) {
    const values = params.getAll(name);
    if (values.length > 1) throw new Validation(`The sign-in form has more than one '${name}' field.`, [{ path: `/${name}`, message: "given more than once" }]);
    if (values.length === 1) form[name] = values[0];
  }
  return form;
}

function fromJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new Validation("The sign-in form is not valid JSON.");
  }
}

/** The body next-auth reads: exactly the parsed values. */
export function signInFormBody(form: SignInForm): string {
  const params = new URLSearchParams();
  for (const name of FIELDS) if (form[name] !== undefined) params.set(name, form[name]);
  return params.toString();
}

// The forms next-auth reads, parsed once. The route throttles on the email parsed here and hands
// next-auth a form rebuilt from the same values, so the email that is throttled is the email that
// authenticates (otherwise a form with two `email` fields could be throttled on the first and
// signed in with the last). A field given twice is refused outright. Other actions (sign-out,
// single sign-on, the session) get the same treatment, so a body next-auth cannot read is a 400
// here rather than its 500.
import { z } from "zod";
import { Validation } from "../errors";

const FIELDS = ["email", "password", "csrfToken", "callbackUrl", "json", "everywhere"] as const;

/** Control characters have no place in an email, and PostgreSQL refuses NUL in text. */
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

const common = {
  csrfToken: z.string().max(256).optional(),
  callbackUrl: z.string().max(2048).optional(),
  json: z.string().max(8).optional(),
};

export const signInFormSchema = z.object({
  /** Normalized as accounts are stored: the throttle and the lookup see the same string. */
  email: z.string().max(320).regex(NO_CONTROL, { error: "must not hold control characters" }).trim().toLowerCase(),
  password: z.string().max(1024),
  ...common,
});

/** What every other POST to next-auth may carry (sign-out, single sign-on's start, the session). */
export const authFormSchema = z.object({
  ...common,
  /** On a sign-out: end every session of the account ("Sign out everywhere"), not only this one. */
  everywhere: z.literal("true").optional(),
});

export type SignInForm = z.output<typeof signInFormSchema>;
type AuthForm = Partial<Record<(typeof FIELDS)[number], string>>;

/** A form of next-auth's, from a urlencoded or JSON body (an empty body is an empty form). Other fields are dropped. */
export function parseAuthForm<S extends z.ZodType<AuthForm>>(schema: S, contentType: string | null, body: string): z.output<S> {
  const type = (contentType ?? "").toLowerCase();
  const json = type.includes("application/json");
  if (body.length > 0 && !json && !type.includes("application/x-www-form-urlencoded")) {
    throw new Validation("A form is sent as application/x-www-form-urlencoded or application/json.");
  }
  const raw = body.length === 0 ? {} : json ? fromJson(body) : fromUrlEncoded(body);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new Validation(
      "The form is invalid.",
      parsed.error.issues.map((i) => ({ path: "/" + i.path.map(String).join("/"), message: i.message })),
    );
  }
  return parsed.data;
}

export const parseSignInForm = (contentType: string | null, body: string): SignInForm => parseAuthForm(signInFormSchema, contentType, body);

function fromUrlEncoded(body: string): Record<string, string> {
  const params = new URLSearchParams(body);
  const form: Record<string, string> = {};
  for (const name of FIELDS) {
    const values = params.getAll(name);
    if (values.length > 1) throw new Validation(`The form has more than one '${name}' field.`, [{ path: `/${name}`, message: "given more than once" }]);
    if (values.length === 1) form[name] = values[0];
  }
  return form;
}

function fromJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new Validation("The form is not valid JSON.");
  }
}

/** The body next-auth reads: exactly the parsed values. */
export function authFormBody(form: AuthForm): string {
  const params = new URLSearchParams();
  for (const name of FIELDS) if (form[name] !== undefined) params.set(name, form[name]);
  return params.toString();
}

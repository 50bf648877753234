// The sign-in form is parsed once; the route throttles on and authenticates with these values.
import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors";
import { parseSignInForm, authFormBody } from "@/lib/auth/sign-in-form";

const FORM = "application/x-www-form-urlencoded";

describe("sign-in form", () => {
  it("normalizes the email as accounts are stored and rebuilds exactly the parsed fields", () => {
    const form = parseSignInForm(`${FORM}; charset=UTF-8`, "email=+Admin%40Test.Local+&password=p%20w&csrfToken=t&json=true&extra=x");
    expect(form).toEqual({ email: "admin@test.local", password: "p w", csrfToken: "t", json: "true" });
    expect(new URLSearchParams(authFormBody(form)).toString()).toBe("email=admin%40test.local&password=p+w&csrfToken=t&json=true");
  });

  it("refuses a form naming a field twice (throttled on one, signed in with the other)", () => {
    for (const body of ["email=decoy%40x.test&email=admin%40test.local&password=p", "email=a%40b.c&password=1&password=2"]) {
      expect(() => parseSignInForm(FORM, body)).toThrow(DomainError);
    }
  });

  it("takes JSON once too, and refuses other content types and non-string values", () => {
    expect(parseSignInForm("application/json", '{"email":"A@B.C","password":"x"}').email).toBe("a@b.c");
    expect(() => parseSignInForm("application/json", '{"email":["a@b.c","d@e.f"],"password":"x"}')).toThrow(DomainError);
    expect(() => parseSignInForm("text/plain", "email=a%40b.c&password=x")).toThrow(DomainError);
    expect(() => parseSignInForm(null, "email=a%40b.c&password=x")).toThrow(DomainError);
    expect(() => parseSignInForm(FORM, "password=x")).toThrow(DomainError);
  });
});

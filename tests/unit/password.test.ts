// Passwords: a sign-in does one scrypt whatever the account (unknown, deactivated, without a
// password, wrong or right password), so its duration does not tell which emails have accounts.
// The scrypt calls are counted with async_hooks: each one is a SCRYPTREQUEST resource in Node.
import { createHook } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { hashPassword, passwordSignIn, verifyPassword } from "@/lib/auth/password";

async function scryptsDuring<T>(run: () => Promise<T>): Promise<{ result: T; scrypts: number }> {
  let scrypts = 0;
  const hook = createHook({ init: (_id, type) => void (type === "SCRYPTREQUEST" && scrypts++) }).enable();
  try {
    return { result: await run(), scrypts };
  } finally {
    hook.disable();
  }
}

describe("password sign-in", () => {
  it("does one scrypt for every kind of account and signs in only the active one with the right password", async () => {
    const passwordHash = await hashPassword("the-right-password");
    const active = { id: "u1", active: true, passwordHash };
    const cases: [string, { id: string; active: boolean; passwordHash: string | null } | null, string, boolean][] = [
      ["unknown account", null, "the-right-password", false],
      ["deactivated account", { ...active, active: false }, "the-right-password", false],
      ["account without a password (single sign-on)", { ...active, passwordHash: null }, "the-right-password", false],
      ["account with a malformed hash", { ...active, passwordHash: "md5$abc" }, "the-right-password", false],
      ["wrong password", active, "a-wrong-password", false],
      ["right password", active, "the-right-password", true],
    ];
    for (const [name, user, password, signsIn] of cases) {
      const { result, scrypts } = await scryptsDuring(() => passwordSignIn(user, password));
      expect(scrypts, name).toBe(1);
      expect(result !== null, name).toBe(signsIn);
    }
  }, 60_000);

  it("never accepts a password against a missing or malformed hash", async () => {
    for (const stored of [null, undefined, "", "scrypt$1$2", "plain-text"]) {
      const { result, scrypts } = await scryptsDuring(() => verifyPassword("anything", stored));
      expect(result).toBe(false);
      expect(scrypts).toBe(1);
    }
  }, 60_000);
});

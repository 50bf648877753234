// What a forget keeps of an account id: HMAC-SHA256 under PROCTOR_FORGET_KEY, a key that lives
// outside the database (npm start generates it into the data dir, beside NEXTAUTH_SECRET), so a
// dump or a copy of the database alone cannot tell whether a given id was ever forgotten, nor
// which kept runs were its. Every process of one instance needs the same key.
import { createHmac } from "node:crypto";

export class ForgetKeyMissing extends Error {
  constructor() {
    super("PROCTOR_FORGET_KEY is not set: forgotten accounts are recognised by it (npm start generates one into the data dir; workers need the same value)");
  }
}

export function forgetKey(): Buffer {
  const key = process.env.PROCTOR_FORGET_KEY;
  if (!key) throw new ForgetKeyMissing();
  return Buffer.from(key, "utf8");
}

const hmac = (key: Buffer, text: string) => createHmac("sha256", key).update(text).digest("hex");

/** The forget mark's key of an account: the full HMAC, stable for the account. */
export function forgottenAccount(userId: string, key: Buffer = forgetKey()): string {
  return hmac(key, `forget\u0000${userId}`);
}

/**
 * What the kept runs, classes and skills of the account name it by after its `mark`-th forget:
 * one value per forget, so each forget's runs count as one account (distinct-account gates stay
 * exact) and never merge with an earlier forget's, and no other table can be joined to it.
 */
export function forgottenAs(userId: string, mark: number, key: Buffer = forgetKey()): string {
  return `forgotten:${hmac(key, `forgotten-runs\u0000${userId}\u0000${mark}`).slice(0, 20)}`;
}

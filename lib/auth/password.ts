// scrypt password hashes: "scrypt$N$r$p$salt$hash" (base64url), verified in constant time.
// Every verification costs one scrypt, also when there is no usable hash (unknown account,
// single-sign-on user): otherwise a sign-in's duration tells which emails have accounts.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";

const N = 16384, R = 8, P = 1, KEYLEN = 32;

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { N, r: R, p: P });
  return ["scrypt", N, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** A hash of a random password nobody knows, with the parameters of hashPassword. */
const DUMMY_HASH = "scrypt$16384$8$1$ZQqdCoE-drJ2-L6A7NiLIA$CmFdgopSNlmURSLvlhEUh3Brs0Wj78IsfRvy_ZOs-Us";

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  let parts = (stored ?? "").split("$");
  const usable = parts.length === 6 && parts[0] === "scrypt";
  if (!usable) parts = DUMMY_HASH.split("$");
  const [, n, r, p, salt, hash] = parts;
  const expected = Buffer.from(hash, "base64url");
  const key = await scrypt(password, Buffer.from(salt, "base64url"), expected.length, {
    N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024,
  });
  return usable && key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * The account a password signs in, or null: unknown, deactivated, without a password or a
 * wrong one. One scrypt in every case, so how long it takes tells nothing about the account.
 */
export async function passwordSignIn<U extends { active: boolean; passwordHash: string | null }>(user: U | null, password: string): Promise<U | null> {
  const matches = await verifyPassword(password, user?.passwordHash);
  return user && user.active && matches ? user : null;
}

export function randomPassword(): string {
  return randomBytes(15).toString("base64url");
}

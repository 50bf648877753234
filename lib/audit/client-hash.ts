// The client address behind a request as a keyed pseudonym: audit rows and login throttling
// can tell clients apart without storing their addresses.
import { createHmac } from "node:crypto";
import { db } from "../db/client";
import { pseudonymKey } from "../auth/instance-secret";

/** The client's address (the launcher sets X-Forwarded-For to the socket's unless PROCTOR_TRUST_PROXY=1). */
export function clientAddressOf(headers: Pick<Headers, "get">): string | null {
  return headers.get("x-forwarded-for")?.split(",")[0]?.trim() || headers.get("x-real-ip") || null;
}

export async function clientHashOf(headers: Pick<Headers, "get">): Promise<string | null> {
  const ip = clientAddressOf(headers);
  if (!ip) return null;
  return createHmac("sha256", await pseudonymKey(db())).update(`client\u0000${ip}`).digest("hex").slice(0, 16);
}

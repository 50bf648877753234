// Where a webhook may be sent: public unicast addresses only, unless an admin allows a host or a
// range by configuration. The check runs on the addresses the host resolves to (a name can point
// anywhere, and `127.1` or `0x7f000001` are loopback too), when an endpoint is saved and again
// at each delivery, whose connection then goes to the addresses checked (./send.ts): a name that
// resolves elsewhere between the check and the connection (DNS rebinding) reaches nothing new.
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { Validation } from "../errors";

type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type TargetPolicy = { hosts: ReadonlySet<string>; ranges: readonly [Address, number][] };
export type ResolvedTarget = { address: string; family: 4 | 6 };
/** Resolves a host name to every address it has (the system resolver, as a connection would). */
export type Resolver = (host: string) => Promise<ResolvedTarget[]>;

/** Entries read from PROCTOR_WEBHOOK_ALLOWED_TARGETS (more are ignored). */
const MAX_ALLOWED_ENTRIES = 100;

export const TARGET_NOT_ALLOWED =
  "the host resolves to a loopback, private, link-local or otherwise internal address (an admin may allow it with PROCTOR_WEBHOOK_ALLOWED_TARGETS)";
export const TARGET_UNRESOLVED = "the host name could not be resolved";

/**
 * PROCTOR_WEBHOOK_ALLOWED_TARGETS: comma-separated host names (matched exactly, whatever they
 * resolve to), addresses and CIDR ranges that may be reached although they are internal.
 */
export function targetPolicyFromEnv(env: Record<string, string | undefined> = process.env): TargetPolicy {
  const hosts = new Set<string>();
  const ranges: [Address, number][] = [];
  for (const raw of (env.PROCTOR_WEBHOOK_ALLOWED_TARGETS ?? "").split(",").slice(0, MAX_ALLOWED_ENTRIES)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (ipaddr.isValidCIDR(entry)) ranges.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry)) {
      const a = ipaddr.process(entry);
      ranges.push([a, a.kind() === "ipv4" ? 32 : 128]);
    } else hosts.add(entry);
  }
  return { hosts, ranges };
}

/** Whether a connection to this address is allowed: public unicast, or in an allowed range. */
export function addressAllowed(address: string, policy: TargetPolicy): boolean {
  if (!ipaddr.isValid(address)) return false;
  // IPv4-mapped IPv6 (::ffff:10.0.0.1) is classified as the IPv4 address it carries.
  const a = ipaddr.process(address);
  if (a.range() === "unicast") return true;
  return policy.ranges.some(([net, bits]) => net.kind() === a.kind() && a.match(net, bits));
}

const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })) as ResolvedTarget[];

/** The URL's host without IPv6 brackets, as the URL parser normalized it (`127.1` → `127.0.0.1`). */
const hostOf = (url: string) => new URL(url).hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();

/**
 * The addresses a delivery to `url` may connect to, or why there are none. Every address the
 * host resolves to must be allowed: one internal address among public ones refuses the URL.
 */
export async function resolveWebhookTarget(
  url: string,
  policy: TargetPolicy,
  resolve: Resolver = systemResolver,
): Promise<{ ok: true; addresses: ResolvedTarget[] } | { ok: false; reason: string }> {
  const host = hostOf(url);
  if (ipaddr.isValid(host)) {
    const family = ipaddr.parse(host).kind() === "ipv4" ? 4 : 6;
    return addressAllowed(host, policy) ? { ok: true, addresses: [{ address: host, family }] } : { ok: false, reason: TARGET_NOT_ALLOWED };
  }
  let addresses: ResolvedTarget[];
  try {
    addresses = await resolve(host);
  } catch {
    return { ok: false, reason: TARGET_UNRESOLVED };
  }
  if (addresses.length === 0) return { ok: false, reason: TARGET_UNRESOLVED };
  if (policy.hosts.has(host) || addresses.every((a) => addressAllowed(a.address, policy))) return { ok: true, addresses };
  return { ok: false, reason: TARGET_NOT_ALLOWED };
}

/** Refuses an endpoint's URL (a validation error on /url) whose host may not be reached. */
export async function assertWebhookTargetAllowed(url: string, policy: TargetPolicy = targetPolicyFromEnv()): Promise<void> {
  const target = await resolveWebhookTarget(url, policy);
  if (!target.ok) throw new Validation(`This webhook URL is not allowed: ${target.reason}.`, [{ path: "/url", message: target.reason }]);
}

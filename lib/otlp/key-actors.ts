// Who acts when a trace's assembly declares an agent or grows its toolbox: the ingest key whose
// export first staged the trace (otlp_traces.api_key_id), named as the key is in every audit row.
// A trace staged without one (before keys were recorded) acts as the system.
import { Prisma } from "../db/generated/client";
import { queryRows, type Db } from "../db/prisma";
import type { AuditContext } from "../audit/record";
import type { ApiScope } from "../auth/actor";

/** The audit context of each trace's key, by trace id (traces without a known key are absent). */
export async function keyActors(db: Db, traces: { trace_id: string; api_key_id: string | null }[]): Promise<Map<string, AuditContext>> {
  const ids = [...new Set(traces.flatMap((t) => t.api_key_id ?? []))];
  if (ids.length === 0) return new Map();
  const keys = await queryRows<{ id: string; name: string; prefix: string; scopes: string[] }>(
    db,
    Prisma.sql`SELECT id, name, prefix, scopes FROM api_keys WHERE id = ANY(${ids}::text[])`,
  );
  const byId = new Map(keys.map((k) => [k.id, k]));
  const out = new Map<string, AuditContext>();
  for (const t of traces) {
    const k = t.api_key_id ? byId.get(t.api_key_id) : undefined;
    if (k) out.set(t.trace_id, { actor: { type: "api_key", id: k.id, label: `${k.name} (pk_${k.prefix})`, scopes: k.scopes as ApiScope[] }, requestId: "otlp", clientHash: null });
  }
  return out;
}

// Helpers for the review-page tests: runs of arbitrary tool paths sent in one batch, and a
// Prisma client on the test server's database for calling the review queries directly.
import { expect } from "vitest";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { call } from "./http";
import { admin } from "./learning";
import type { TestServer } from "./server";

let seq = 0;

export type PathRuns = { tools: string[]; n: number; failures?: number; query?: (i: number) => string; userId?: string; createdAt?: (i: number) => string };

/** n runs of one tool path (the last `failures` of them failed), each with its own query by default. */
export async function postPath(server: TestServer, agentId: string, p: PathRuns): Promise<string> {
  const workflows = Array.from({ length: p.n }, (_, i) => ({
    workflow_id: `rv-${++seq}`,
    query: p.query ? p.query(i) : `Question ${seq} about ${p.tools.join(" ")}`,
    steps: p.tools.map((t) => ({ tool: t, arguments: { ref: `r${seq}` }, result: { ok: true } })),
    outcome: i >= p.n - (p.failures ?? 0) ? "failure" : "success",
    ...(p.userId ? { user_id: p.userId } : {}),
    ...(p.createdAt ? { created_at: p.createdAt(i) } : {}),
  }));
  const r = await call(server.baseUrl, admin, "POST", `/api/v1/agents/${agentId}/workflows/batch`, { workflows });
  expect(r.status, r.text).toBe(207);
  const hashes = new Set(r.json.results.map((x: { status: number; canonical_hash: string }) => {
    expect(x.status).toBe(201);
    return x.canonical_hash;
  }));
  expect(hashes.size).toBe(1);
  return [...hashes][0] as string;
}

export function reviewDb(server: TestServer): Db {
  return createPrismaClient(server.databaseUrl, 2);
}

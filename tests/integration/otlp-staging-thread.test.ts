// Large OTLP exports are decoded and staged on a thread of their own (lib/otlp/staging-thread.ts),
// driven here in-process against a fresh database: what it stages, the refusals it passes back
// with their kinds, and a thread whose heap runs out, which refuses that export as too large and
// is replaced for the next one. What the thread spares the main thread (no /api/health stall) is
// measured by `npm run bench:hostile`, not asserted.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { isDomainError } from "@/lib/errors";
import { MAX_SPANS_PER_EXPORT, OTLP_DECODED_BYTES } from "@/lib/otlp/limits";
import { StagingThread } from "@/lib/otlp/staging-thread";
import { openDomainDatabase, type DomainDatabase } from "../helpers/domain-database";
import { filledExport, minimalSpans } from "../helpers/hostile-otlp";
import { jsonExport, protobufExport, recordAgentTrace } from "../helpers/otlp";

let database: DomainDatabase;
let db: Db;
const threads: StagingThread[] = [];
const thread = (heapMb?: number) => threads[threads.push(new StagingThread(heapMb)) - 1];

beforeAll(async () => {
  database = await openDomainDatabase();
  // The thread's database: its environment is a copy of this one when it starts.
  vi.stubEnv("DATABASE_URL", database.url);
  db = createPrismaClient(database.url, 2);
});
afterAll(async () => {
  await Promise.all(threads.map((t) => t.close()));
  await db?.$disconnect();
  await database?.close();
});

const trace = (agentId: string, query: string) =>
  recordAgentTrace({ agentId, query, calls: [{ tool: "lookup_order", args: { order_id: "A1" }, result: { status: "paid" } }], at: Date.now() - 60_000 });
/** Staged invocation spans naming `agentId` (one per trace of the helpers'). */
const stagedInvocations = async (agentId: string) =>
  (await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM otlp_spans WHERE attributes->>'gen_ai.agent.id' = ${agentId}`)[0].n;
const refusalOf = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => (isDomainError(e) ? e.kind : `not a domain error: ${String(e)}`));

describe("the OTLP staging thread", () => {
  it("stages protobuf and JSON exports; the caller's bytes move to the thread", async () => {
    const staging = thread();
    const inputs = [
      { json: false, bytes: new Uint8Array(protobufExport(trace("thread-proto", "Where is order A1?"))), actor: null },
      { json: true, bytes: new Uint8Array(jsonExport(trace("thread-json", "Where is order A2?"))), actor: null },
    ];
    const sizes = inputs.map((b) => b.bytes.byteLength);
    const staged = await Promise.all(inputs.map((input) => staging.stage(input)));
    // Each trace: the invocation, two chats and the tool call.
    for (const s of staged) expect(s).toEqual({ stored: 4, rejected: 0, errorMessage: "" });
    for (const agent of ["thread-proto", "thread-json"]) expect(await stagedInvocations(agent)).toBe(1);
    // Moved, not copied: the buffers here are detached.
    expect(sizes.every((n) => n > 0)).toBe(true);
    expect(inputs.map((b) => b.bytes.byteLength)).toEqual([0, 0]);
  });

  it("passes the decoder's refusals back with their kinds, and stages nothing of them", async () => {
    const staging = thread();
    expect(await refusalOf(staging.stage({ json: false, bytes: new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0x0f]), actor: null }))).toBe("validation_error");
    expect(await refusalOf(staging.stage({ json: true, bytes: new Uint8Array(Buffer.from("{x")), actor: null }))).toBe("validation_error");
    const tooMany = Buffer.from(JSON.stringify(minimalSpans(MAX_SPANS_PER_EXPORT + 1)));
    expect(await refusalOf(staging.stage({ json: true, bytes: new Uint8Array(tooMany), actor: null }))).toBe("payload_too_large");
    // A key bound to another agent: the span that would make its run is refused, counted, not staged.
    const bound = { type: "api_key" as const, id: "k1", label: "bound", scopes: ["ingest" as const], binding: { tenant: null, agents: ["someone-else"], evaluatorId: null } };
    const refused = await staging.stage({ json: true, bytes: new Uint8Array(jsonExport(trace("thread-unbound", "Where is order B1?"))), actor: bound });
    expect(refused).toMatchObject({ stored: 3, rejected: 1 });
    expect(refused.errorMessage).toContain("not bound to agent 'thread-unbound'");
    expect(await stagedInvocations("thread-unbound")).toBe(0);
  });

  it("refuses an export its heap cannot hold as too large, and starts a new thread for the next", async () => {
    // 48 MiB holds the thread and a small export, not the largest accepted JSON export (it needs
    // about 64; the default, STAGING_THREAD_HEAP_MB, holds two of them).
    const staging = thread(48);
    const largest = filledExport("thread-largest", 1000, OTLP_DECODED_BYTES - 512 * 1024, jsonExport);
    expect(await refusalOf(staging.stage({ json: true, bytes: new Uint8Array(largest), actor: null }))).toBe("payload_too_large");
    expect(await stagedInvocations("thread-largest")).toBe(0);
    const next = await staging.stage({ json: true, bytes: new Uint8Array(jsonExport(trace("thread-after", "Where is order C1?"))), actor: null });
    expect(next).toMatchObject({ stored: 4, rejected: 0 });
    expect(await stagedInvocations("thread-after")).toBe(1);
  });
});

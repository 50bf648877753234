// The promotion gates' one definition, class_gate_failures, on the database itself (PGlite and
// PostgreSQL): each gate's boundary, the planner inlining it (so the class list stays one plan
// over its indexes), and the engine's eligibility, the classes API page and the review list's
// status all taking it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { Prisma } from "@/lib/db/generated/client";
import { DEFAULT_LEARNING_CONFIG } from "@/lib/learning/agents/config";
import { classVerdictOf, evaluateClasses } from "@/lib/learning/classes/class-gates";
import { listClasses } from "@/lib/learning/classes/trajectory-classes";
import { GATE_BIT } from "@/lib/learning/classes/gates";
import { listReviewClasses } from "@/lib/learning/review/class-list";
import { openDomainDatabase } from "../helpers/domain-database";
import { testDatabase } from "../helpers/server";

let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  const opened = await openDomainDatabase();
  const url = opened.url;
  close = opened.close;
  db = createPrismaClient(url, 2);
});
afterAll(async () => {
  await db?.$disconnect();
  await close?.();
});

const now = new Date("2026-11-30T12:00:00Z");
const DAY_MS = 86_400_000;
const daysAgo = (d: number) => new Date(now.getTime() - d * DAY_MS);
const cfg = DEFAULT_LEARNING_CONFIG; // 5 runs, 80 %, 2 distinct queries, 3 distinct accounts (pooled scope), 30 days

type Stats = { covered?: boolean; executions?: number; successes?: number; distinctQueries?: number; distinctUsers?: number; lastSeen?: Date | null };
const full = (s: Stats) => ({ covered: false, executions: 5, successes: 5, distinctQueries: 3, distinctUsers: 0, lastSeen: daysAgo(0), ...s });

async function failures(s: Stats, at: Date = now, minDistinctUsers = cfg.min_distinct_users): Promise<number> {
  const v = full(s);
  const [row] = await db.$queryRaw<{ f: number }[]>`
    SELECT class_gate_failures(${v.covered}, ${v.executions}::int, ${v.successes}::int, ${v.distinctQueries}::int, ${v.distinctUsers}::int, ${v.lastSeen}::timestamptz,
      ${cfg.min_executions}::int, ${cfg.min_success_rate}::float8, ${cfg.min_distinct_queries}::int, ${minDistinctUsers}::int,
      ${cfg.max_days_since_last_seen}::int, ${at}::timestamptz) AS f`;
  return row.f;
}

/** Stores one trajectory class per entry (statistics completed by `full`) and returns the rows. */
async function seedClasses(agentId: string, classes: [string, Stats, ...unknown[]][]) {
  const rows = classes.map(([hash, s]) => {
    const v = full(s);
    return {
      agentId,
      userScope: "",
      canonicalHash: hash,
      tools: ["lookup_order"],
      executions: v.executions,
      successes: v.successes,
      distinctQueries: v.distinctQueries,
      distinctUsers: v.distinctUsers,
      firstSeen: daysAgo(60),
      lastSeen: v.lastSeen!,
    };
  });
  await db.trajectoryClass.createMany({ data: rows.map((r) => ({ ...r, signature: {} })) });
  return rows;
}

describe(`class_gate_failures (${testDatabase()})`, () => {
  it("is 0 when every gate passes, and sets one bit per failed gate", async () => {
    expect(await failures({})).toBe(0);
    expect(await failures({ covered: true })).toBe(GATE_BIT.coverage);
    expect(await failures({ executions: 4, successes: 4 })).toBe(GATE_BIT.executions);
    expect(await failures({ executions: 100, successes: 79 })).toBe(GATE_BIT.success_rate);
    expect(await failures({ distinctQueries: 1 })).toBe(GATE_BIT.distinct_queries);
    expect(await failures({ lastSeen: daysAgo(45) })).toBe(GATE_BIT.recency);
    expect(await failures({ executions: 2, successes: 1, distinctQueries: 1, lastSeen: null })).toBe(
      GATE_BIT.executions | GATE_BIT.success_rate | GATE_BIT.distinct_queries | GATE_BIT.recency,
    );
  });

  it("passes each gate at exactly its minimum; a class without runs fails the rate", async () => {
    expect(await failures({ executions: 10, successes: 8 })).toBe(0);
    expect(await failures({ executions: 5, distinctQueries: 2 })).toBe(0);
    expect(await failures({ executions: 0, successes: 0 })).toBe(GATE_BIT.executions | GATE_BIT.success_rate);
  });

  it("gates distinct accounts only when some ran the class: none, or at least the minimum, pass", async () => {
    expect(await failures({ distinctUsers: 0 })).toBe(0);
    expect(await failures({ distinctUsers: 2 })).toBe(GATE_BIT.distinct_users);
    expect(await failures({ distinctUsers: 3 })).toBe(0);
    // The per-account scope passes threshold 0: a class is one account's.
    expect(await failures({ distinctUsers: 1 }, now, 0)).toBe(0);
  });

  it("counts recency in whole days of 24 h, whatever the session's time zone", async () => {
    expect(await failures({ lastSeen: daysAgo(30.9) })).toBe(0);
    expect(await failures({ lastSeen: daysAgo(31) })).toBe(GATE_BIT.recency);
    expect(await failures({ lastSeen: new Date(now.getTime() + DAY_MS) })).toBe(0);
    // Across a daylight-saving change (2026-11-01 in New York) a calendar day is 25 h; the gate's
    // is 24 h. (Times as ISO text: the driver would send a Date in the session's zone.)
    const iso = (d: Date) => d.toISOString();
    const [row] = await db.$transaction([
      db.$executeRaw`SET LOCAL TIME ZONE 'America/New_York'`,
      db.$queryRaw<{ fresh: number; stale: number }[]>`
        SELECT class_gate_failures(false, 5, 5, 3, 0, ${iso(new Date(now.getTime() - 31 * DAY_MS + 1))}::timestamptz, 5, 0.8, 2, 3, 30, ${iso(now)}::timestamptz) AS fresh,
               class_gate_failures(false, 5, 5, 3, 0, ${iso(daysAgo(31))}::timestamptz, 5, 0.8, 2, 3, 30, ${iso(now)}::timestamptz) AS stale`,
    ]).then(([, rows]) => rows);
    expect(row).toEqual({ fresh: 0, stale: GATE_BIT.recency });
  });

  it("is inlined by the planner: the plan has the expression, not a function call", async () => {
    const plan = await db.$queryRaw<{ "QUERY PLAN": string }[]>(Prisma.sql`
      EXPLAIN (VERBOSE, COSTS OFF)
      SELECT class_gate_failures(false, c.executions, c.successes, c.distinct_queries, c.distinct_users, c.last_seen, 5, 0.8, 2, 3, 30, now()) FROM trajectory_classes c`);
    const text = plan.map((r) => r["QUERY PLAN"]).join("\n");
    expect(text).toContain("trajectory_classes");
    expect(text).not.toContain("class_gate_failures");
  });
});

describe(`the engine and the review list decide through it (${testDatabase()})`, () => {
  it("agree at each gate's boundary", async () => {
    await db.agent.create({ data: { id: "gates", name: "Gates" } });
    const classes: [string, Stats, boolean][] = [
      ["rate-at-min", { executions: 10, successes: 8 }, true],
      ["rate-below", { executions: 100, successes: 79 }, false],
      ["runs-at-min", { executions: 5, distinctQueries: 2 }, true],
      ["runs-below", { executions: 4, successes: 4 }, false],
      ["fresh-30.9d", { lastSeen: daysAgo(30.9) }, true],
      ["stale-31d", { lastSeen: daysAgo(31) }, false],
      ["one-query", { distinctQueries: 1 }, false],
      ["two-accounts", { distinctUsers: 2 }, false],
      ["three-accounts", { distinctUsers: 3 }, true],
    ];
    const rows = await seedClasses("gates", classes);

    const engine = await evaluateClasses(db, cfg, rows, now);
    // The status filter is the list's SQL classification (the rows' chips are the engine's).
    const ready = await listReviewClasses(db, { agent: "gates", status: "ready", sort: "status", page: 1, page_size: 100 }, now);
    const readyInSql = new Set(ready.rows.map((r) => r.canonicalHash));
    for (const [i, [hash, , eligible]] of classes.entries()) {
      expect(engine[i].verdict.eligible, hash).toBe(eligible);
      expect(readyInSql.has(hash), hash).toBe(eligible);
    }
  });
});

describe(`the classes API page decides through it in its one statement (${testDatabase()})`, () => {
  it("with the agent's stored thresholds and a retired class's window, as the engine does", async () => {
    // Stored thresholds differ from the defaults (5 runs, 2 distinct queries); the rest default.
    await db.agent.create({ data: { id: "tuned", name: "Tuned", learning: { min_executions: 3, min_distinct_queries: 1 } } });
    const tuned = { ...cfg, min_executions: 3, min_distinct_queries: 1 };
    const classes: [string, Stats][] = [
      ["three-runs", { executions: 3, successes: 3, distinctQueries: 1 }],
      ["two-runs", { executions: 2, successes: 2, distinctQueries: 1 }],
      ["one-account", { distinctUsers: 1 }],
      ["retired", { executions: 50, successes: 50 }],
      ["covered", {}],
    ];
    const rows = await seedClasses("tuned", classes);
    const skill = (hash: string, status: "DEMOTED" | "SHADOW", demotedAt: Date | null) => ({
      agentId: "tuned", userScope: "", name: hash, description: "", preconditions: [], tools: [], queries: [], content: "",
      status, sourceCanonicalHash: hash, sourceWorkflowIds: [], baseline: {}, recentOutcomes: [], reviewFlags: [], embedding: [],
      embedderId: "test", demotedAt, demotionReason: demotedAt ? "drift" : null,
    });
    // Retired a day ago with no run since: its stored statistics would pass, its window does not.
    await db.skill.createMany({ data: [skill("retired", "DEMOTED", daysAgo(1)), skill("covered", "SHADOW", null)] });

    const page = await listClasses(db, "tuned", { limit: 10 }, now);
    const byHash = new Map(page.classes.map((c) => [c.canonical_hash, c]));
    const engine = await evaluateClasses(db, tuned, rows, now);
    for (const e of engine) expect(byHash.get(e.row.canonicalHash), e.row.canonicalHash).toMatchObject(classVerdictOf(e));

    expect(byHash.get("three-runs")!.eligible).toBe(true);
    expect(byHash.get("two-runs")!.gates.find((g) => g.name === "executions")).toMatchObject({ passed: false, detail: "2 / 3 runs" });
    expect(byHash.get("one-account")).toMatchObject({ distinct_users: 1, eligible: false });
    expect(byHash.get("one-account")!.gates.find((g) => g.name === "distinct_users")).toMatchObject({ passed: false, detail: "1 / 3 distinct accounts" });
    const retired = byHash.get("retired")!;
    expect(retired.window_start).toBe(daysAgo(1).toISOString());
    expect(retired.eligible).toBe(false);
    expect(retired.gates.find((g) => g.name === "executions")).toMatchObject({ passed: false, detail: "0 / 3 runs since retirement" });
    expect(byHash.get("covered")!.gates.find((g) => g.name === "coverage")!.passed).toBe(false);
  });
});

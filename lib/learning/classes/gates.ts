// The promotion gates' verdict as reviewers and reports read it, and the ranking score. Which
// gates pass is decided in SQL by class_gate_failures (prisma/migrations/*_class_gate_function),
// the one definition the review list's status uses too; this module words that verdict.
import { distinctUsersThreshold, type LearningConfig } from "../agents/config";

export const GATE_NAMES = ["coverage", "executions", "success_rate", "distinct_queries", "distinct_users", "recency"] as const;
export type GateName = (typeof GATE_NAMES)[number];

/** The bit class_gate_failures sets for each failed gate. */
export const GATE_BIT: Record<GateName, number> = { coverage: 1, executions: 2, success_rate: 4, distinct_queries: 8, distinct_users: 32, recency: 16 };

/** `detail` is what a reviewer reads; `reason` (failed gates only) is the engine's report text. */
export type GateResult = { name: GateName; passed: boolean; detail: string; reason?: string };

export type GateStats = {
  executions: number;
  successes: number;
  distinctQueries: number;
  /** Distinct accounts among the successful runs (0: none carried an account). */
  distinctUsers: number;
  firstSeen: Date | null;
  lastSeen: Date | null;
};

export type GateVerdict = {
  gates: GateResult[];
  eligible: boolean;
  /** The first failed gate's reason, in gate order; null when eligible. */
  reason: string | null;
  /** class_gate_failures' bits, as given. */
  failures: number;
};

const DAY_MS = 86_400_000;

const pct = (r: number) => `${Math.round(r * 100)}%`;

export const successRate = (s: Pick<GateStats, "executions" | "successes">) => (s.executions > 0 ? s.successes / s.executions : 0);

const gate = (name: GateName, passed: boolean, detail: string, reason: string): GateResult => (passed ? { name, passed, detail } : { name, passed, detail, reason });

/**
 * The distinct-accounts gate as a reviewer reads it: under the per-account scope it does not
 * apply (a class is one account's), a class none of whose successful runs carried an account is
 * gated as before, and a pooled class with accounts needs min_distinct_users of them.
 */
function distinctUsersGate(stats: GateStats, config: LearningConfig, passed: boolean, windowNote: string): GateResult {
  const min = distinctUsersThreshold(config);
  const n = stats.distinctUsers;
  const detail =
    min === 0
      ? `${n} ${n === 1 ? "account" : "accounts"} (per-account scope: not gated)`
      : n === 0
        ? `no account on the successful runs${windowNote} (not gated)`
        : `${n} / ${min} distinct accounts${windowNote}`;
  return gate("distinct_users", passed, detail, `distinct_users ${n} < ${min}`);
}

/**
 * All gates, in order: coverage, executions, success rate, distinct queries, distinct accounts, recency, each
 * passed unless `failures` (class_gate_failures of these statistics) has its bit. Every gate is
 * reported (reviewers see each verdict); the class is eligible only when none failed.
 * `since` is set when the statistics are the window after a demotion or deprecation.
 */
export function evaluateGates(stats: GateStats, config: LearningConfig, opts: { failures: number; since?: Date | null; now: Date }): GateVerdict {
  const passed = (name: GateName) => (opts.failures & GATE_BIT[name]) === 0;
  const windowNote = opts.since ? " since retirement" : "";
  const rate = successRate(stats);
  const age = stats.lastSeen ? Math.max(0, Math.floor((opts.now.getTime() - stats.lastSeen.getTime()) / DAY_MS)) : null;
  const gates: GateResult[] = [
    gate("coverage", passed("coverage"), passed("coverage") ? "no live skill" : "already covered by a live skill", "already covered by a live skill"),
    gate("executions", passed("executions"), `${stats.executions} / ${config.min_executions} runs${windowNote}`, `executions ${stats.executions} < ${config.min_executions}`),
    gate(
      "success_rate",
      passed("success_rate"),
      stats.executions > 0 ? `${pct(rate)} (need ${pct(config.min_success_rate)})` : `— (need ${pct(config.min_success_rate)})`,
      `success_rate ${rate.toFixed(2)} < ${config.min_success_rate}`,
    ),
    gate("distinct_queries", passed("distinct_queries"), `${stats.distinctQueries} distinct (need ${config.min_distinct_queries})`, `distinct_queries ${stats.distinctQueries} < ${config.min_distinct_queries}`),
    distinctUsersGate(stats, config, passed("distinct_users"), windowNote),
    age === null
      ? gate("recency", passed("recency"), "no timestamps", "no timestamps on runs")
      : gate("recency", passed("recency"), `last seen ${age}d ago (within ${config.max_days_since_last_seen}d)`, `stale: last seen ${age}d ago`),
  ];
  const failed = gates.find((g) => !g.passed);
  return { gates, eligible: !failed, reason: failed?.reason ?? null, failures: opts.failures };
}

/**
 * success_rate × ln(1 + executions) × 0.5^(days_since / halflife). Only eligible classes are
 * ranked, so the score can never rescue a failed gate.
 */
export function rankScore(stats: GateStats, config: LearningConfig, now: Date): number {
  const days = stats.lastSeen ? Math.max(0, (now.getTime() - stats.lastSeen.getTime()) / DAY_MS) : 0;
  return successRate(stats) * Math.log1p(stats.executions) * Math.pow(0.5, days / config.recency_halflife_days);
}

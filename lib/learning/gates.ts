// The promotion gates and the ranking score, as pure functions of a class's statistics.
// The classes API, "Distill now" and the promotion cycle all decide through this one module.
import type { LearningConfig } from "./config";

export type GateName = "coverage" | "executions" | "success_rate" | "distinct_queries" | "recency";

/** `detail` is what a reviewer reads; `reason` (failed gates only) is the engine's report text. */
export type GateResult = { name: GateName; passed: boolean; detail: string; reason?: string };

export type GateStats = {
  executions: number;
  successes: number;
  distinctQueries: number;
  firstSeen: Date | null;
  lastSeen: Date | null;
};

export type GateVerdict = {
  gates: GateResult[];
  eligible: boolean;
  /** The first failed gate's reason, in gate order; null when eligible. */
  reason: string | null;
};

const DAY_MS = 86_400_000;

const pct = (r: number) => `${Math.round(r * 100)}%`;

export const successRate = (s: Pick<GateStats, "executions" | "successes">) => (s.executions > 0 ? s.successes / s.executions : 0);

/**
 * All gates, in order: coverage, executions, success rate, distinct queries, recency. Every gate
 * is evaluated (reviewers see each verdict); the class is eligible only when all pass.
 * `since` is set when the statistics are the window after a demotion or deprecation.
 */
export function evaluateGates(
  stats: GateStats,
  config: LearningConfig,
  opts: { covered: boolean; since?: Date | null; now: Date },
): GateVerdict {
  const windowNote = opts.since ? " since retirement" : "";
  const rate = successRate(stats);
  const gates: GateResult[] = [];

  gates.push(
    opts.covered
      ? { name: "coverage", passed: false, detail: "already covered by a live skill", reason: "already covered by a live skill" }
      : { name: "coverage", passed: true, detail: "no live skill" },
  );

  const execOk = stats.executions >= config.min_executions;
  gates.push({
    name: "executions",
    passed: execOk,
    detail: `${stats.executions} / ${config.min_executions} runs${windowNote}`,
    ...(execOk ? {} : { reason: `executions ${stats.executions} < ${config.min_executions}` }),
  });

  const rateOk = stats.executions > 0 && rate >= config.min_success_rate;
  gates.push({
    name: "success_rate",
    passed: rateOk,
    detail: stats.executions > 0 ? `${pct(rate)} (need ${pct(config.min_success_rate)})` : `— (need ${pct(config.min_success_rate)})`,
    ...(rateOk ? {} : { reason: `success_rate ${rate.toFixed(2)} < ${config.min_success_rate}` }),
  });

  const queriesOk = stats.distinctQueries >= config.min_distinct_queries;
  gates.push({
    name: "distinct_queries",
    passed: queriesOk,
    detail: `${stats.distinctQueries} distinct (need ${config.min_distinct_queries})`,
    ...(queriesOk ? {} : { reason: `distinct_queries ${stats.distinctQueries} < ${config.min_distinct_queries}` }),
  });

  if (!stats.lastSeen) {
    gates.push({ name: "recency", passed: false, detail: "no timestamps", reason: "no timestamps on runs" });
  } else {
    const age = Math.max(0, Math.floor((opts.now.getTime() - stats.lastSeen.getTime()) / DAY_MS));
    const fresh = age <= config.max_days_since_last_seen;
    gates.push({
      name: "recency",
      passed: fresh,
      detail: `last seen ${age}d ago (within ${config.max_days_since_last_seen}d)`,
      ...(fresh ? {} : { reason: `stale: last seen ${age}d ago` }),
    });
  }

  const failed = gates.find((g) => !g.passed);
  return { gates, eligible: !failed, reason: failed?.reason ?? null };
}

/**
 * success_rate × ln(1 + executions) × 0.5^(days_since / halflife). Only eligible classes are
 * ranked, so the score can never rescue a failed gate.
 */
export function rankScore(stats: GateStats, config: LearningConfig, now: Date): number {
  const days = stats.lastSeen ? Math.max(0, (now.getTime() - stats.lastSeen.getTime()) / DAY_MS) : 0;
  return successRate(stats) * Math.log1p(stats.executions) * Math.pow(0.5, days / config.recency_halflife_days);
}

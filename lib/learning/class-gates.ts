// Annotates trajectory-class statistics with the engine's verdict: gates, eligibility,
// ranking score and the live skill. Owned by the continual-learning engine.
import type { Db } from "../db/prisma";
import type { LearningConfig } from "./config";

export type ClassStatsRow = {
  agentId: string;
  userScope: string;
  canonicalHash: string;
  tools: string[];
  executions: number;
  successes: number;
  distinctQueries: number;
  firstSeen: Date;
  lastSeen: Date;
};

export type Gate = { name: "coverage" | "executions" | "success_rate" | "distinct_queries" | "recency"; passed: boolean; detail: string };

export type ClassVerdict = {
  eligible: boolean;
  score: number;
  gates: Gate[];
  live_skill: { skill_id: string; status: string } | null;
};

export async function annotateClasses(
  _db: Db,
  _config: LearningConfig,
  rows: ClassStatsRow[],
  _now: Date,
): Promise<ClassVerdict[]> {
  // Filled in by the continual-learning engine (issue 3).
  return rows.map(() => ({ eligible: false, score: 0, gates: [], live_skill: null }));
}

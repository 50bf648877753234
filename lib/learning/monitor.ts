// Called by ingestion, inside the ingestion transaction, for every newly stored run.
// Owned by the continual-learning engine: write-time stamping of runs covered by an ACTIVE
// skill, skill outcome monitoring (activations, deviations, drift), and the shadow-evaluation
// outbox. Must stay cheap: indexed statements only, no scans, no LLM.
import type { Tx } from "../db/prisma";

export type StoredRun = {
  id: string;
  workflowId: string;
  agentId: string;
  userId: string | null;
  userScope: string;
  canonicalHash: string | null;
  stepCount: number;
  query: string;
  outcome: "SUCCESS" | "FAILURE";
  skillsActivated: string[];
  createdAt: Date;
};

export async function afterRunsStored(_tx: Tx, _agentId: string, _runs: StoredRun[]): Promise<void> {
  // Filled in by the continual-learning engine (issue 3).
}

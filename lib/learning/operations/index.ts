// Every state change of the learning engine, by name. Each takes (db, input, by): a typed
// input object and the audit context of who acts; its audit row commits with the change.
export { activateSkill, type ActivateSkillInput } from "./activate-skill";
export { declareAgent, type DeclareAgentInput } from "./declare-agent";
export { deleteAgent, type AgentDeletion, type DeleteAgentInput } from "./delete-agent";
export { observeAgent, type ObserveAgentInput } from "./observe-agent";
export { demoteSkill, type DemoteSkillInput } from "./demote-skill";
export { distillClass, type DistillClassInput } from "./distill-class";
export { importMemorizz, type ImportMemorizzInput, type ImportMemorizzReport } from "./import-memorizz";
export { importSkills, type ImportSkillsInput, type ImportSkillsResult } from "./import-skills";
export { deadJobParams, retryShadowJob, type RetryShadowJobInput } from "./retry-shadow-job";
export { runPromotionCycle, type RunPromotionCycleInput } from "./run-promotion-cycle";
export { qualificationBody, startSkillQualification, type StartSkillQualificationInput } from "./start-skill-qualification";
export { updateLearningConfig, type UpdateLearningConfigInput } from "./update-learning-config";

// Ingestion: the agents' hot path, not audited (an ingest key's runs are their own record).
// Its code stays beside its SQL in lib/learning/capture/ingest.ts and lib/learning/capture/conversations.ts,
// where the statements and their benchmark figures are kept together; it keeps the signature
// (db, agentId, body) it is benchmarked with.
export { ingestWorkflow as recordWorkflowRun, ingestWorkflows as recordWorkflowBatch } from "../capture/ingest";
export { ingestConversation as recordConversation, ingestConversations as recordConversations } from "../capture/conversations";

// Every state change of the learning engine, by name. Each takes (db, input, by): a typed
// input object and the audit context of who acts; its audit row commits with the change.
export { activateSkill, type ActivateSkillInput } from "./activate-skill";
export { declareAgent, type DeclareAgentInput } from "./declare-agent";
export { deleteAgent, type AgentDeletion, type DeleteAgentInput } from "./delete-agent";
export { observeAgent, type ObserveAgentInput } from "./observe-agent";
export { demoteSkill, type DemoteSkillInput } from "./demote-skill";
export { rejectSkill, type RejectSkillInput } from "./reject-skill";
export { decideSkills, type DecideSkillsInput, type DecideSkillsResult } from "./decide-skills";
export { distillClass, type DistillClassInput } from "./distill-class";
export { importMemorizz, type ImportMemorizzInput, type ImportMemorizzReport } from "./import-memorizz";
export { importSkills, type ImportSkillsInput, type ImportSkillsResult } from "./import-skills";
export { runPromotionCycle, type RunPromotionCycleInput } from "./run-promotion-cycle";
export { qualificationBody, startSkillQualification, type StartSkillQualificationInput } from "./start-skill-qualification";
export { updateLearningConfig, type UpdateLearningConfigInput } from "./update-learning-config";

// Ingestion is the agents' hot path and is not audited (an ingest key's runs are their own record).
// It lives in the capture stage beside its SQL, with the (db, agentId, body) signature that
// `npm run bench:ingest` measures.
export { ingestWorkflow, ingestWorkflows } from "../capture/ingest";
export { ingestConversation, ingestConversations } from "../capture/conversations";

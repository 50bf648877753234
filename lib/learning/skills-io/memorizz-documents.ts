// MemoRizz export files: a JSON array or JSON Lines of workflow documents (memory type
// WORKFLOW_MEMORY) and skill documents (SKILLBOX), read
// into typed records with their line (or array item) number, or refused with the reason. Pure:
// the operation (../operations/import-memorizz.ts) decides what is new and writes it.
import { z } from "zod";
import { findUnstorableText } from "../../db/storable-text";
import { parseTimestamp } from "../capture/canonical";
import { referenceHash, referenceSignature, toolOfStepKey } from "./memorizz-reference-hash";
import type { SignatureUnit } from "../capture/canonical";

const lower = (v: unknown) => (typeof v === "string" ? v.trim().toLowerCase() : v);
const text = z.string().max(100_000);
const id = z.string().trim().min(1).max(256);
const optionalId = id.nullable().optional();
const when = z.string().max(64).nullable().optional().refine((v) => v === null || v === undefined || parseTimestamp(v) !== null, "not an ISO-8601 time");
const count = z.number().int().min(0).default(0);
/** A provider record id: text, or MongoDB's extended JSON `{"$oid": …}`. */
const recordId = z.union([id, z.object({ $oid: id }).transform((o) => o.$oid)]).optional();

const workflowDocument = z.looseObject({
  workflow_id: id.optional(),
  _id: recordId,
  agent_id: optionalId,
  user_id: optionalId,
  name: text.optional(),
  description: text.optional(),
  steps: z.record(z.string().max(300), z.unknown()),
  outcome: z.preprocess(lower, z.enum(["success", "failure"])).default("success"),
  user_query: text.nullable().optional(),
  canonical_hash: z.string().regex(/^[0-9a-f]{64}$/, "not a sha256 hex digest").nullable().optional(),
  skills_activated: z.array(id).default([]),
  shadow_evaluations: z.array(z.unknown()).default([]),
  created_at: when,
});

const skillDocument = z.looseObject({
  skill_id: id,
  name: z.string().trim().min(1).max(300),
  description: text.default(""),
  content: z.string().trim().min(1).max(100_000),
  preconditions: z.array(text).default([]),
  tools_used: z.array(z.string().trim().min(1).max(256)).default([]),
  queries: z.array(text).default([]),
  agent_id: optionalId,
  user_id: optionalId,
  source_canonical_hash: id,
  source_workflow_ids: z.array(id).default([]),
  status: z.preprocess(lower, z.enum(["candidate", "shadow", "active", "deprecated", "demoted"])).default("candidate"),
  version: z.number().int().min(1).default(1),
  created_at: when,
  promoted_at: when,
  demoted_at: when,
  demotion_reason: z.string().max(2000).nullable().optional(),
  // A legacy document without it loads as user; any other value is refused, as MemoRizz does.
  injection_role: z.preprocess(lower, z.enum(["user", "developer"], { error: "injection_role must be user or developer" }).nullable().optional()),
  baseline: z.record(z.string(), z.unknown()).default({}),
  stats: z
    .looseObject({
      activations: count,
      successes: count,
      failures: count,
      deviations: count,
      last_activated_at: when,
      recent_outcomes: z.array(z.boolean()).default([]),
      shadow: z.record(z.string(), z.unknown()).optional(),
    })
    .default({ activations: 0, successes: 0, failures: 0, deviations: 0, recent_outcomes: [] }),
});

export type MemorizzStep = { tool: string; arguments?: unknown; result?: unknown; error?: unknown; timestamp?: unknown };

export type MemorizzWorkflow = {
  kind: "workflow";
  line: number;
  agentId: string | null;
  workflowId: string;
  userId: string | null;
  query: string;
  steps: MemorizzStep[];
  outcome: "SUCCESS" | "FAILURE";
  signature: SignatureUnit[];
  canonicalHash: string | null;
  skillsActivated: string[];
  shadowEvaluations: unknown[];
  createdAt: Date | null;
  document: Record<string, unknown>;
};

export type MemorizzSkill = {
  kind: "skill";
  line: number;
  agentId: string | null;
  doc: z.output<typeof skillDocument>;
};

export type MemorizzDocument = MemorizzWorkflow | MemorizzSkill;
export type Refusal = { line: number; reason: string };

/** The documents of a file, each with its line (JSON Lines) or item number (a JSON array). */
export function readMemorizzFile(content: string): { documents: MemorizzDocument[]; refused: Refusal[] } {
  const documents: MemorizzDocument[] = [];
  const refused: Refusal[] = [];
  for (const { line, value, error } of records(content)) {
    if (error) refused.push({ line, reason: error });
    else {
      const r = readDocument(value, line);
      if ("reason" in r) refused.push(r);
      else documents.push(r);
    }
  }
  return { documents, refused };
}

type Item = { line: number; value?: unknown; error?: string };

function records(content: string): Item[] {
  const body = content.replace(/^\uFEFF/, "");
  if (body.trimStart().startsWith("[")) {
    try {
      const items: unknown = JSON.parse(body);
      if (Array.isArray(items)) return items.map((value, i) => ({ line: i + 1, value }));
    } catch (e) {
      return [{ line: 1, error: `not a JSON array: ${(e as Error).message}` }];
    }
  }
  return body.split(/\r?\n/).flatMap((raw, i): Item[] => {
    if (raw.trim() === "") return [];
    try {
      return [{ line: i + 1, value: JSON.parse(raw) as unknown }];
    } catch (e) {
      return [{ line: i + 1, error: `not JSON: ${(e as Error).message}` }];
    }
  });
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function readDocument(value: unknown, line: number): MemorizzDocument | Refusal {
  if (!isMap(value)) return { line, reason: "not a JSON object" };
  const unstorable = findUnstorableText(value);
  if (unstorable) return { line, reason: `${unstorable.path}: ${unstorable.message}` };
  const type = typeof value.memory_type === "string" ? value.memory_type.toUpperCase() : null;
  if (type === "SKILLBOX" || (type === null && "skill_id" in value)) return readSkill(value, line);
  if (type === "WORKFLOW_MEMORY" || (type === null && "steps" in value)) return readWorkflow(value, line);
  return { line, reason: "neither a workflow (WORKFLOW_MEMORY) nor a skill (SKILLBOX) document" };
}

function firstIssue(error: z.ZodError): string {
  const i = error.issues[0];
  return `${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}`;
}

/** A document time (validated ISO-8601; without an offset it is UTC) as a Date, or null. */
export const timeOf = (v: string | null | undefined) => (v ? new Date(parseTimestamp(v)!) : null);

function readWorkflow(value: Record<string, unknown>, line: number): MemorizzWorkflow | Refusal {
  const r = workflowDocument.safeParse(value);
  if (!r.success) return { line, reason: firstIssue(r.error) };
  const d = r.data;
  const workflowId = d.workflow_id ?? d._id;
  if (!workflowId) return { line, reason: "no workflow_id or _id" };
  const signature = referenceSignature(d.steps);
  const hash = referenceHash(signature);
  // The hash is kept only when it is the one the reference's rules give for these steps.
  if (d.canonical_hash && d.canonical_hash !== hash) {
    return { line, reason: `canonical_hash ${d.canonical_hash.slice(0, 12)} does not match its steps (the reference rules give ${hash?.slice(0, 12) ?? "none"})` };
  }
  const steps = Object.entries(d.steps).map(([key, raw]): MemorizzStep => {
    const s = isMap(raw) ? raw : {};
    return { tool: toolOfStepKey(key), arguments: s.arguments, result: s.result, error: s.error ?? null, timestamp: s.timestamp };
  });
  return {
    kind: "workflow",
    line,
    agentId: d.agent_id ?? null,
    workflowId,
    userId: d.user_id ?? null,
    query: d.user_query ?? "",
    steps,
    outcome: d.outcome === "failure" ? "FAILURE" : "SUCCESS",
    signature,
    canonicalHash: hash,
    skillsActivated: d.skills_activated,
    shadowEvaluations: d.shadow_evaluations,
    createdAt: timeOf(d.created_at),
    document: value,
  };
}

function readSkill(value: Record<string, unknown>, line: number): MemorizzSkill | Refusal {
  const r = skillDocument.safeParse(value);
  if (!r.success) return { line, reason: firstIssue(r.error) };
  return { kind: "skill", line, agentId: r.data.agent_id ?? null, doc: r.data };
}

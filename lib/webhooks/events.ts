// The events a webhook endpoint can subscribe to. Emitted by webhook_enqueue() (see the
// webhooks migration): skill lifecycle, ledger decisions and dead jobs by triggers, readiness
// (lib/learning/shadow/evaluate.ts) and persona proposals (lib/persona/operations/reflect-persona.ts) through
// ./emit. Payload data holds ids, names and statuses only.
import { z } from "zod";

export const WEBHOOK_EVENTS = [
  { type: "skill.shadow_created", label: "Skill created in shadow" },
  { type: "skill.ready_for_review", label: "Skill ready for review (readiness met)" },
  { type: "skill.activated", label: "Skill activated" },
  { type: "skill.demoted", label: "Skill demoted" },
  { type: "skill.deprecated", label: "Skill deprecated" },
  { type: "skill.rejected", label: "Skill rejected in review" },
  { type: "persona_proposal.created", label: "Persona proposal created" },
  { type: "ledger_procedure.qualified", label: "Ledger procedure qualified" },
  { type: "ledger_procedure.suspended", label: "Ledger procedure suspended" },
  { type: "job.dead", label: "Background job dead" },
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number]["type"];

export const webhookEventType = z.enum(WEBHOOK_EVENTS.map((e) => e.type) as [WebhookEventType, ...WebhookEventType[]]);

export const isWebhookEventType = (s: string): s is WebhookEventType => WEBHOOK_EVENTS.some((e) => e.type === s);

// How the settings page presents each learning configuration key: its section, label, input
// kind and meaning, read from ./config-fields.json (page copy, kept as data like a messages
// file). Labels are distinct across sections (a reviewer reads one field at a time). Every key
// of the schema appears exactly once (a unit test checks it).
// Browser-safe: the form validates with the same schema before the server does again.
import { z } from "zod";
import { learningConfigSchema, type LearningConfig } from "../agents/config";
import configCopy from "./config-fields.json";

const FIELD_KINDS = ["int", "number", "rate", "nullable-rate", "nullable-int", "boolean", "text", "choice"] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

/** A "choice" field's values (the schema's enum), each with its wording. */
export type ConfigOption = { value: string; label: string };

export type ConfigField = { key: keyof LearningConfig; label: string; kind: FieldKind; help: string; options?: ConfigOption[] };

export type ConfigGroup = { id: string; title: string; description: string; fields: ConfigField[] };

/** Keys the authority selector edits (shown together, not as plain fields). */
export const AUTHORITY_KEYS = ["skill_injection_role", "require_shadow", "shadow_evaluation_enabled", "auto_activate", "require_qualification"] as const;

const configField = z.object({
  key: learningConfigSchema.keyof(),
  label: z.string().min(1),
  kind: z.enum(FIELD_KINDS),
  help: z.string().min(1),
  options: z.array(z.object({ value: z.string().min(1), label: z.string().min(1) })).min(2).optional(),
});

/** The sections in page order; the copy is data (./config-fields.json), checked here on load. */
export const CONFIG_GROUPS: ConfigGroup[] = z
  .array(z.object({ id: z.string().min(1), title: z.string().min(1), description: z.string().min(1), fields: z.array(configField) }))
  .parse(configCopy);

/** Every field by key, for wording errors and counting changes. */
export const CONFIG_FIELDS: ReadonlyMap<string, ConfigField> = new Map(CONFIG_GROUPS.flatMap((g) => g.fields).map((f) => [f.key as string, f]));

// The Agent Skills format (a folder per skill holding SKILL.md: YAML frontmatter `name`,
// `description`, optional `license`, `compatibility`, `metadata`, `allowed-tools`, then Markdown).
// A distilled skill is exported from our own SKILL.md, whose frontmatter is name, description,
// preconditions and tools (../distill/skill-md.ts): our fields ride in `metadata` (string values,
// as the format requires). An imported SKILL.md is checked against the specification and kept as
// it came.
import { stringify } from "yaml";
import { MAX_FRONTMATTER_ALIASES, parseSkillMd, sections } from "../distill/skill-md";
import { trimEdges } from "../../text/trim-edges";

export const NAME_MAX = 64;
export const DESCRIPTION_MAX = 1024;
export const COMPATIBILITY_MAX = 500;
/** Lowercase letters, digits and single hyphens, not at either end. */
const NAME_RULE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const FALLBACK_NAME = "skill";

export type ExportedSkill = {
  id: string;
  name: string;
  description: string;
  preconditions: string[];
  tools: string[];
  content: string;
  version: number;
  authority: "user" | "developer";
  baselineSuccessRate: number | null;
  sourceClass: string;
};

/** `name` as an Agent Skills name: lower-cased, runs of other characters as one hyphen, at most 64 characters. */
export function agentSkillName(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-");
  return trimName(trimEdges(slug, HYPHEN)) || FALLBACK_NAME;
}

const HYPHEN = /-/;
const trimName = (s: string, max = NAME_MAX) => trimEdges(s.slice(0, max), HYPHEN, "end");

/**
 * One distinct name per skill, in the order given (callers sort, so the result is the same for the
 * same skills): the first skill keeps its derived name, later ones with the same name get `-2`,
 * `-3`… (the base cut short to keep 64 characters), skipping names already taken and `reserved`.
 */
export function uniqueAgentSkillNames(names: readonly string[], reserved: ReadonlySet<string> = new Set()): string[] {
  const taken = new Set<string>(reserved);
  return names.map((raw) => {
    const base = agentSkillName(raw);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${trimName(base, NAME_MAX - String(n).length - 1)}-${n}`;
    taken.add(name);
    return name;
  });
}

export const isAgentSkillName = (name: string) => name.length <= NAME_MAX && NAME_RULE.test(name);

/** The whole SKILL.md for `skill` under the Agent Skills name `name`. */
export function toAgentSkillMd(skill: ExportedSkill, name: string): string {
  const parsed = parseSkillMd(skill.content);
  const body = parsed ? parsed.body : skill.content;
  const description = skill.description.length > DESCRIPTION_MAX ? `${skill.description.slice(0, DESCRIPTION_MAX - 1)}…` : skill.description;
  const metadata: Record<string, string> = {
    id: skill.id,
    version: String(skill.version),
    authority: skill.authority,
    "baseline-success-rate": skill.baselineSuccessRate === null ? "" : String(skill.baselineSuccessRate),
    "source-class": skill.sourceClass,
  };
  if (skill.preconditions.length) metadata.preconditions = skill.preconditions.join("\n");
  const frontmatter = { name, description, metadata, ...(skill.tools.length ? { "allowed-tools": skill.tools.join(" ") } : {}) };
  return `---\n${stringify(frontmatter, { lineWidth: 0 })}---\n${body}`;
}

/** The top-level frontmatter fields of the Agent Skills specification. */
export const SPEC_FIELDS: ReadonlySet<string> = new Set(["name", "description", "license", "allowed-tools", "metadata", "compatibility"]);
/** Proctor's own SKILL.md fields (a skill copied from the console): read, not warned about. */
const OWN_FIELDS: ReadonlySet<string> = new Set(["preconditions", "tools"]);
/** Lines of a "When to use" section read as applicability, and their length. */
const WHEN_TO_USE_LINES = 40;
const WHEN_TO_USE_LINE_CHARS = 300;

/**
 * An imported SKILL.md: `content` is the text exactly as imported (what is injected), `tools` the
 * names its `allowed-tools` declares (runtime tools such as `Bash Read` as well as this agent's),
 * `whenToUse` the lines of a "When to use" section, and `warnings` what a reviewer should know
 * (unknown frontmatter fields, metadata values that are not strings).
 */
export type ImportedSkillMd = {
  name: string;
  description: string;
  preconditions: string[];
  tools: string[];
  whenToUse: string[];
  body: string;
  content: string;
  warnings: string[];
};

const text = (v: unknown) => (v === undefined || v === null ? "" : typeof v === "string" ? v.trim() : String(v).trim());
const lines = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(text).filter(Boolean) : text(v).split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
const toolNames = (v: unknown): string[] => (Array.isArray(v) ? v.map(text) : text(v).split(/[\s,]+/)).filter(Boolean);

/**
 * A SKILL.md checked against the Agent Skills specification, never against Proctor's distilled
 * sections: `name` 1-64 of a-z, 0-9 and single inner hyphens, equal to `folder` (the folder it came
 * from; null for a lone SKILL.md), `description` 1-1024 characters, `compatibility` at most 500,
 * `metadata` a mapping, `allowed-tools` a list of names. Fields outside the specification are kept
 * (the text is stored as it came) and warned about. Proctor's own `tools` and `preconditions`
 * (a SKILL.md copied from the console), and `metadata.preconditions` (an exported one), are read too.
 */
export function fromAgentSkillMd(raw: string, folder: string | null): { ok: true; skill: ImportedSkillMd } | { ok: false; reasons: string[] } {
  const parsed = parseSkillMd(raw.replace(/^\uFEFF/, ""));
  if (!parsed) return { ok: false, reasons: [`frontmatter failed to parse (SKILL.md starts with a --- YAML mapping --- block; its aliases expand to at most ${MAX_FRONTMATTER_ALIASES} nodes)`] };
  const f = parsed.fields;
  const reasons: string[] = [];
  const name = text(f.name);
  const description = text(f.description);
  if (!name) reasons.push("frontmatter missing 'name'");
  else if (!isAgentSkillName(name)) reasons.push(`name must be at most ${NAME_MAX} characters of a-z, 0-9 and single inner hyphens`);
  else if (folder !== null && folder !== name) reasons.push(`name '${name}' does not match its folder '${folder.slice(0, 80)}'`);
  if (!description) reasons.push("frontmatter missing 'description'");
  else if (description.length > DESCRIPTION_MAX) reasons.push(`description exceeds ${DESCRIPTION_MAX} characters`);
  if (f.compatibility !== undefined && f.compatibility !== null && (typeof f.compatibility !== "string" || !f.compatibility.trim())) reasons.push("compatibility must be a non-empty string");
  else if (text(f.compatibility).length > COMPATIBILITY_MAX) reasons.push(`compatibility exceeds ${COMPATIBILITY_MAX} characters`);
  const metadata = f.metadata;
  if (metadata !== undefined && metadata !== null && (typeof metadata !== "object" || Array.isArray(metadata))) reasons.push("metadata must be a mapping");
  const allowed = f["allowed-tools"];
  if (allowed !== undefined && allowed !== null && typeof allowed !== "string" && !Array.isArray(allowed)) reasons.push("allowed-tools must be a space-delimited list");
  if (reasons.length) return { ok: false, reasons };

  const warnings: string[] = [];
  const unknown = Object.keys(f).filter((k) => !SPEC_FIELDS.has(k) && !OWN_FIELDS.has(k));
  if (unknown.length) warnings.push(`frontmatter fields outside the Agent Skills specification, kept as imported: ${unknown.map((k) => k.slice(0, 60)).join(", ")}`);
  const meta = (metadata ?? {}) as Record<string, unknown>;
  const nonString = Object.keys(meta).filter((k) => typeof meta[k] !== "string");
  if (nonString.length) warnings.push(`metadata values that are not strings (the specification maps strings to strings): ${nonString.map((k) => k.slice(0, 60)).join(", ")}`);
  const tools = [...new Set([...toolNames(allowed), ...parsed.frontmatter.tools])];
  const preconditions = [...new Set([...lines(meta.preconditions), ...parsed.frontmatter.preconditions])];
  return { ok: true, skill: { name, description, preconditions, tools, whenToUse: whenToUse(parsed.body), body: parsed.body, content: raw, warnings } };
}

/** "When to use …" or "When to apply …", not "When not to use …" (three tests: a lookahead is beyond a ReDoS checker's proof). */
const isWhenToUseTitle = (title: string) => /^when\b/i.test(title) && !/\bnot\b/i.test(title) && /\b(?:use|apply)\b/i.test(title);

/** The lines of the body's "When to use …" (or "When to apply …") section, list markers removed, "When NOT…" lines left out. */
export function whenToUse(body: string): string[] {
  const section = sections(body).find((s) => isWhenToUseTitle(s.title));
  if (!section) return [];
  return section.text
    .split(/\r?\n/)
    .map((l) => l.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "").replace(/[*_`]/g, "").trim())
    .filter((l) => l && !/^#/.test(l) && !/^when not\b/i.test(l))
    .slice(0, WHEN_TO_USE_LINES)
    .map((l) => l.slice(0, WHEN_TO_USE_LINE_CHARS));
}

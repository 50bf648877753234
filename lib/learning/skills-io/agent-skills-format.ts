// The Agent Skills format (a folder per skill holding SKILL.md: YAML frontmatter `name`,
// `description`, optional `license`, `compatibility`, `metadata`, `allowed-tools`, then Markdown)
// to and from our own SKILL.md, whose frontmatter is name, description, preconditions and tools
// (./../skill-md.ts). Our fields ride in `metadata` (string values, as the format requires);
// preconditions go there too so that an exported skill passes the validation gate again on import.
import { stringify } from "yaml";
import { parseSkillMd, printFrontmatter } from "../distill/skill-md";

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
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return trimName(slug) || FALLBACK_NAME;
}

const trimName = (s: string, max = NAME_MAX) => s.slice(0, max).replace(/-+$/, "");

/**
 * One distinct name per skill, in the order given (callers sort, so the result is the same for the
 * same skills): the first skill keeps its derived name, later ones with the same name get `-2`,
 * `-3`… (the base cut short to keep 64 characters), skipping names already taken.
 */
export function uniqueAgentSkillNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
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

export type ImportedSkillMd = { name: string; description: string; preconditions: string[]; tools: string[]; body: string; content: string };

const text = (v: unknown) => (v === undefined || v === null ? "" : typeof v === "string" ? v.trim() : String(v).trim());
const lines = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(text).filter(Boolean) : text(v).split(/\r?\n/).map((l) => l.trim()).filter(Boolean);

/**
 * A SKILL.md in the Agent Skills format, checked against the format's rules, as our SKILL.md
 * (`content`: our frontmatter, the same body). `folder`: the folder it came from, which the
 * format requires to equal its name. Our own frontmatter (`tools`, `preconditions`) is read
 * too, so a SKILL.md copied from the console imports as well.
 */
export function fromAgentSkillMd(raw: string, folder: string | null): { ok: true; skill: ImportedSkillMd } | { ok: false; reasons: string[] } {
  const parsed = parseSkillMd(raw.replace(/^\uFEFF/, ""));
  if (!parsed) return { ok: false, reasons: ["frontmatter failed to parse"] };
  const f = parsed.fields;
  const reasons: string[] = [];
  const name = text(f.name);
  const description = text(f.description);
  if (!name) reasons.push("frontmatter missing 'name'");
  else if (!isAgentSkillName(name)) reasons.push(`name must be at most ${NAME_MAX} characters of a-z, 0-9 and single inner hyphens`);
  else if (folder !== null && folder !== name) reasons.push(`name '${name}' does not match its folder '${folder.slice(0, 80)}'`);
  if (!description) reasons.push("frontmatter missing 'description'");
  else if (description.length > DESCRIPTION_MAX) reasons.push(`description exceeds ${DESCRIPTION_MAX} characters`);
  if (text(f.compatibility).length > COMPATIBILITY_MAX) reasons.push(`compatibility exceeds ${COMPATIBILITY_MAX} characters`);
  const metadata = f.metadata;
  if (metadata !== undefined && metadata !== null && (typeof metadata !== "object" || Array.isArray(metadata))) reasons.push("metadata must be a mapping");
  const allowed = f["allowed-tools"];
  if (allowed !== undefined && allowed !== null && typeof allowed !== "string" && !Array.isArray(allowed)) reasons.push("allowed-tools must be a space-delimited list");
  if (reasons.length) return { ok: false, reasons };

  const meta = (metadata ?? {}) as Record<string, unknown>;
  const tools = [...new Set([...(Array.isArray(allowed) ? allowed.map(text) : text(allowed).split(/\s+/)), ...parsed.frontmatter.tools].filter(Boolean))];
  const preconditions = [...new Set([...lines(meta.preconditions), ...parsed.frontmatter.preconditions])];
  const content = `${printFrontmatter({ name, description, preconditions, tools })}\n${parsed.body}`;
  return { ok: true, skill: { name, description, preconditions, tools, body: parsed.body, content } };
}

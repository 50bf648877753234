// SKILL.md reading and writing: the frontmatter is YAML (Agent Skills format), read and printed
// with the `yaml` library; the Markdown sections are what the validation gate and the
// deterministic judge look at.
import { parseDocument, stringify } from "yaml";
import { splitFrontmatter } from "./skill-md-split";
import { trimEdges } from "../../text/trim-edges";

export type Frontmatter = {
  name: string;
  description: string;
  preconditions: string[];
  tools: string[];
};

type Fields = Record<string, unknown>;
export type ParsedSkill = { frontmatter: Frontmatter; fields: Fields; body: string };

const asList = (v: unknown): string[] =>
  v === undefined || v === null ? [] : Array.isArray(v) ? v.map((x) => String(x ?? "").trim()).filter((x) => x !== "") : String(v).trim() === "" ? [] : [String(v).trim()];
const asText = (v: unknown): string => (v === undefined || v === null ? "" : Array.isArray(v) ? v.join(" ") : String(v)).trim();

/** YAML aliases a frontmatter may expand (the `yaml` library's default): a billion-laughs document is refused, not expanded. */
export const MAX_FRONTMATTER_ALIASES = 100;

/** The frontmatter as plain data, or null for invalid YAML and for aliases expanding beyond the limit. */
function frontmatterFields(frontmatter: string): unknown {
  const doc = parseDocument(frontmatter);
  if (doc.errors.length) return null;
  try {
    return doc.toJS({ maxAliasCount: MAX_FRONTMATTER_ALIASES });
  } catch (e) {
    if (e instanceof ReferenceError) return null;
    throw e;
  }
}

/** null without the `---` frontmatter `---` body structure, or when the frontmatter is not a YAML mapping. */
export function parseSkillMd(content: string): ParsedSkill | null {
  const split = splitFrontmatter(content);
  if (!split) return null;
  const fields = frontmatterFields(split.frontmatter);
  if (!fields || typeof fields !== "object" || Array.isArray(fields)) return null;
  const f = fields as Fields;
  return {
    fields: f,
    body: split.body,
    frontmatter: { name: asText(f.name), description: asText(f.description), preconditions: asList(f.preconditions), tools: asList(f.tools) },
  };
}

/** The frontmatter block with its `---` fences; values that need quoting are quoted, lines are never folded. */
export function printFrontmatter(fm: Frontmatter): string {
  return `---\n${stringify(fm, { lineWidth: 0 })}---`;
}

type Section = { title: string; level: number; text: string };

/** An ATX heading's opening; its title and closing hashes are cut by string code (the one pattern for the whole line was cubic). */
const HEADING = /^(#{1,6})\s/;
const HASH = /#/;

/** Markdown sections of the body: each heading with the text up to the next heading of the same or a higher level. */
export function sections(body: string): Section[] {
  const lines = body.split(/\r?\n/);
  const heads: { title: string; level: number; line: number }[] = [];
  lines.forEach((l, line) => {
    const h = HEADING.exec(l);
    if (h) heads.push({ title: trimEdges(l.slice(h[1].length).trim(), HASH, "end").trim(), level: h[1].length, line });
  });
  return heads.map((h, idx) => {
    const end = heads.slice(idx + 1).find((n) => n.level <= h.level);
    return { title: h.title, level: h.level, text: lines.slice(h.line + 1, end ? end.line : lines.length).join("\n") };
  });
}

const norm = (s: string) => s.toLowerCase().replace(/[^a-z ]+/g, " ").replace(/\s+/g, " ").trim();

export function findSection(body: string, title: string): Section | undefined {
  const want = norm(title);
  return sections(body).find((s) => norm(s.title) === want);
}

/** Backticked targets after "call"/"calling", in document order. */
export function calledTools(text: string): string[] {
  return [...text.matchAll(/\bcall(?:ing)?\s+`([^`\n]+)`/gi)].map((m) => m[1].trim());
}

/** Identifier tokens (letters, digits, `_`, not starting with a digit). */
export function identifierTokens(text: string): string[] {
  return text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
}

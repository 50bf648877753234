// SKILL.md reading: YAML-style frontmatter (a tolerant subset: scalars, block scalars, inline
// `[a, b]` lists and dash lists, quotes stripped) and the Markdown sections the validation
// gate and the deterministic judge look at.

export type Frontmatter = {
  name: string;
  description: string;
  preconditions: string[];
  tools: string[];
};

export type ParsedSkill = { frontmatter: Frontmatter; fields: Record<string, string | string[]>; body: string };

const FRONTMATTER = /^\s*---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n([\s\S]*))?$/;

function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'")))) return t.slice(1, -1).trim();
  return t;
}

function inlineList(s: string): string[] {
  return s
    .slice(1, -1)
    .split(",")
    .map(unquote)
    .filter((x) => x !== "");
}

/** Parses the frontmatter block into scalars and lists. */
export function parseFrontmatterBlock(block: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const lines = block.split(/\r?\n/);
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const m = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    i++;
    if (!m) continue;
    const key = m[1];
    const rest = m[2].trim();
    if (rest === "" || rest === "|" || rest === ">" || rest === "|-" || rest === ">-") {
      // A dash list or an indented block scalar follows.
      const items: string[] = [];
      const text: string[] = [];
      while (i < lines.length && (/^\s+\S/.test(lines[i]) || /^-\s/.test(lines[i]) || lines[i].trim() === "")) {
        const l = lines[i];
        i++;
        if (l.trim() === "") continue;
        const dash = /^\s*-\s+(.*)$/.exec(l);
        if (dash && rest === "") items.push(unquote(dash[1]));
        else text.push(l.trim());
      }
      out[key] = items.length ? items.filter((x) => x !== "") : text.join(rest.startsWith("|") ? "\n" : " ");
    } else if (rest.startsWith("[") && rest.endsWith("]")) {
      out[key] = inlineList(rest);
    } else {
      out[key] = unquote(rest);
    }
  }
  return out;
}

const asList = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : v.trim() === "" ? [] : [v.trim()];
const asText = (v: string | string[] | undefined): string => (v === undefined ? "" : Array.isArray(v) ? v.join(" ") : v).trim();

/** null when the document does not have the `---` frontmatter `---` body structure. */
export function parseSkillMd(content: string): ParsedSkill | null {
  const m = FRONTMATTER.exec(content);
  if (!m) return null;
  const fields = parseFrontmatterBlock(m[1]);
  return {
    fields,
    body: m[2] ?? "",
    frontmatter: {
      name: asText(fields.name),
      description: asText(fields.description),
      preconditions: asList(fields.preconditions),
      tools: asList(fields.tools),
    },
  };
}

type Section = { title: string; level: number; text: string };

/** Markdown sections of the body: each heading with the text up to the next heading of the same or a higher level. */
export function sections(body: string): Section[] {
  const lines = body.split(/\r?\n/);
  const heads: { title: string; level: number; line: number }[] = [];
  lines.forEach((l, line) => {
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(l);
    if (h) heads.push({ title: h[2].trim(), level: h[1].length, line });
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

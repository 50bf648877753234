// The `---` frontmatter `---` body split of a SKILL.md. Its own module (no YAML library) so the
// browser's Markdown view can show the frontmatter without shipping the parser.

const FRONTMATTER = /^\s*---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n([\s\S]*))?$/;

/** null when the document does not have the `---` frontmatter `---` body structure. */
export function splitFrontmatter(content: string): { frontmatter: string; body: string } | null {
  const m = FRONTMATTER.exec(content);
  return m ? { frontmatter: m[1], body: m[2] ?? "" } : null;
}

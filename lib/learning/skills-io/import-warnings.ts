// The review warnings an imported skill carries (skill_imports.warnings): what the import found
// and did not refuse. `format`: frontmatter outside the specification; `tools`: allowed-tools this
// agent does not declare; `mentions`: names in the body that are no declared tool; `size`: a
// SKILL.md over the agent's content cap; `scan`: a finding of the script scan, with file and line.
import { z } from "zod";
import type { ScanRule } from "./script-scan";

export const IMPORT_WARNING_KINDS = ["format", "tools", "mentions", "size", "scan"] as const;

export type ImportWarning = {
  kind: (typeof IMPORT_WARNING_KINDS)[number];
  message: string;
  rule?: ScanRule;
  file?: string;
  line?: number;
};

const stored = z.object({
  kind: z.enum(IMPORT_WARNING_KINDS),
  message: z.string(),
  rule: z.string().optional(),
  file: z.string().optional(),
  line: z.number().int().optional(),
});

/** The stored warnings as written by the import; rows that do not read as one are left out. */
export function importWarningsOf(json: unknown): ImportWarning[] {
  return (Array.isArray(json) ? json : []).flatMap((w) => {
    const r = stored.safeParse(w);
    return r.success ? [r.data as ImportWarning] : [];
  });
}

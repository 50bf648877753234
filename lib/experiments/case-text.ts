// Held-out cases pasted in the console's create form: JSON Lines (one case object a line) or a
// YAML (or JSON) list of case objects. Only the shape is read here; the server validates each
// case (lib/experiments/schemas.ts). Browser-safe.
import { parse } from "yaml";

export type ParsedCases = { ok: true; cases: Record<string, unknown>[] } | { ok: false; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function parseCases(text: string): ParsedCases {
  const lines = text.split(/\r?\n/).map((l, i) => ({ l: l.trim(), n: i + 1 })).filter((x) => x.l !== "");
  if (lines.length === 0) return { ok: false, message: "Enter at least one case." };
  // JSON Lines: every line is one object (a YAML list never starts with "{").
  if (lines.every((x) => x.l.startsWith("{"))) {
    const cases: Record<string, unknown>[] = [];
    for (const { l, n } of lines) {
      try {
        const v: unknown = JSON.parse(l);
        if (!isObject(v)) return { ok: false, message: `Line ${n} is not a case object.` };
        cases.push(v);
      } catch (e) {
        return { ok: false, message: `Line ${n} is not valid JSON: ${(e as Error).message}` };
      }
    }
    return { ok: true, cases };
  }
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    return { ok: false, message: `The cases are neither JSON Lines nor valid YAML: ${(e as Error).message.split("\n")[0]}` };
  }
  if (!Array.isArray(doc)) return { ok: false, message: "YAML cases must be a list (each item starting with “- ”)." };
  const bad = doc.findIndex((v) => !isObject(v));
  if (bad >= 0) return { ok: false, message: `Item ${bad + 1} of the list is not a case object.` };
  return { ok: true, cases: doc as Record<string, unknown>[] };
}

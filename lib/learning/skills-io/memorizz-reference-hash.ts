// MemoRizz's trajectory identity (its canonicalization, rule version 1 here), for documents
// imported from it: the tool from the step key (`Step <n>: <tool>`), top-level argument keys
// only, an `errored` flag instead of an error class, timestamp order (to the microsecond) when
// every step has one, retries folded. Imported runs keep this hash, stored with
// canonical_version 1, so `learning:backfill-hashes` can move them to the current rules.
import { createHash } from "node:crypto";
import { compareCodePoints, parseTimestamp, pythonJson, type SignatureUnit } from "../capture/canonical";

export const REFERENCE_CANONICAL_VERSION = 1;


// MemoRizz's own pattern allows blanks before the colon ("Step 1 : lookup_order").
const STEP_KEY = /^Step\s+\d+\s*:\s*(.*)$/s;
const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export const toolOfStepKey = (key: string) => (STEP_KEY.exec(key.trim())?.[1] ?? key).trim();

/**
 * A step's ISO-8601 timestamp in microseconds since the epoch (MemoRizz's datetime precision,
 * where a Date keeps milliseconds), or null; digits past the sixth are ignored.
 */
export function timestampMicros(value: unknown): number | null {
  const ms = parseTimestamp(value);
  if (ms === null) return null;
  const fraction = /\.(\d+)/.exec(value as string)?.[1] ?? "";
  return Math.floor(ms / 1000) * 1_000_000 + Number(fraction.slice(0, 6).padEnd(6, "0"));
}

/** The signature units of a `steps` map, in the reference's order, retries folded. */
export function referenceSignature(steps: Record<string, unknown>): SignatureUnit[] {
  const entries = Object.entries(steps).map(([key, raw], index) => {
    const step = isMap(raw) ? raw : {};
    return {
      index,
      tool: toolOfStepKey(key),
      arg_keys: isMap(step.arguments) ? Object.keys(step.arguments).map(String).sort(compareCodePoints) : [],
      errored: step.error !== null && step.error !== undefined && step.error !== "",
      at: timestampMicros(step.timestamp),
    };
  });
  if (entries.length > 0 && entries.every((e) => e.at !== null)) entries.sort((a, b) => a.at! - b.at! || a.index - b.index);
  const units: SignatureUnit[] = [];
  for (const e of entries) {
    const prev = units[units.length - 1];
    if (prev && prev.errored && prev.tool === e.tool && prev.arg_keys.join("\u0000") === e.arg_keys.join("\u0000")) {
      prev.retry_count += 1;
      prev.errored = e.errored;
      continue;
    }
    units.push({ tool: e.tool, arg_keys: e.arg_keys, errored: e.errored, retry_count: 1 });
  }
  return units;
}

/** sha256 of the sorted-key compact JSON of [{arg_keys, errored, tool}]; null without steps. */
export function referenceHash(signature: readonly SignatureUnit[]): string | null {
  if (signature.length === 0) return null;
  const units = signature.map((u) => ({ arg_keys: u.arg_keys, errored: u.errored, tool: u.tool }));
  return createHash("sha256").update(pythonJson(units), "utf8").digest("hex");
}

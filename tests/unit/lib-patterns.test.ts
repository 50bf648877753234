// Every regular expression in lib/ runs in linear time: recheck (a ReDoS checker, its pure-JS
// backend: no binary, no JVM, nothing downloaded) checks each pattern the TypeScript parser finds
// in lib's sources, so a vulnerable pattern added anywhere fails here. User-supplied patterns are
// not RegExps: experiments run them in RE2JS (lib/experiments/answer-pattern.ts).
//
// The checker takes minutes over all patterns in pure JS, so the patterns it proved safe are
// recorded in lib-patterns.safe.json (with recheck's version): only a pattern not recorded there
// (new, or its text changed) is checked on each run. Its verdicts do not depend on the clock, so
// a recorded one stays true. PROCTOR_RECORD_PATTERNS=1 rewrites the record after a full check.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { check, type Diagnostics } from "recheck";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { collectLibPatterns } from "../helpers/lib-patterns";

const root = path.resolve(import.meta.dirname, "../..");
const recordFile = path.join(import.meta.dirname, "lib-patterns.safe.json");
const recheckVersion = (JSON.parse(readFileSync(path.join(root, "node_modules/recheck/package.json"), "utf8")) as { version: string }).version;
type SafeRecord = { recheck: string; safe: string[] };

/**
 * The automaton checker decides a pattern by analysis (a proof); what it cannot model (lookaround)
 * or cannot finish in two minutes (a few large case-insensitive patterns) is fuzzed from a fixed
 * seed, bounded by step counts and not by the clock, so its verdict is the same on every run.
 */
async function verdict(source: string, flags: string): Promise<Diagnostics> {
  const proved = await check(source, flags, { checker: "automaton", timeout: 120_000 });
  if (proved.status !== "unknown" || (proved.error.kind !== "unsupported" && proved.error.kind !== "timeout")) return proved;
  return check(source, flags, { checker: "fuzz", randomSeed: 0, timeout: null, attackTimeout: null, incubationTimeout: null, recallTimeout: null, seedingTimeout: null });
}

describe("regular expressions in lib", () => {
  const { patterns, unresolved } = collectLibPatterns(root);
  const distinct = new Map(patterns.map((p) => [`/${p.source}/${p.flags}`, p]));
  const recording = process.env.PROCTOR_RECORD_PATTERNS === "1";
  const record = JSON.parse(readFileSync(recordFile, "utf8")) as SafeRecord;
  const provedSafe = new Set(!recording && record.recheck === recheckVersion ? record.safe : []);
  beforeAll(() => {
    vi.stubEnv("RECHECK_BACKEND", "pure");
  });

  it("are all constants the parser can read (no RegExp built from run-time text)", () => {
    expect(patterns.length).toBeGreaterThan(100);
    expect(unresolved).toEqual([]);
  });

  it("are all safe from super-linear backtracking", { timeout: 3_600_000 }, async () => {
    const unsafe: string[] = [];
    for (const [text, p] of distinct) {
      if (provedSafe.has(text)) continue;
      const d = await verdict(p.source, p.flags);
      if (d.status === "safe") provedSafe.add(text);
      else unsafe.push(`${p.where} ${text}: ${d.status} (${d.status === "vulnerable" ? `${d.complexity.type}, attack ${JSON.stringify(d.attack.pattern)}` : d.error.kind})`);
    }
    if (recording) writeFileSync(recordFile, JSON.stringify({ recheck: recheckVersion, safe: [...distinct.keys()].filter((t) => provedSafe.has(t)).sort() }, null, 2) + "\n");
    expect(unsafe).toEqual([]);
  });
});

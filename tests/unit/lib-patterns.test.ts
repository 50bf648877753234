// Every regular expression in lib/ runs in linear time: recheck (a ReDoS checker, its pure-JS
// backend: no binary, no JVM, nothing downloaded) checks each pattern the TypeScript parser finds
// in lib's sources, so a vulnerable pattern added anywhere fails here. User-supplied patterns are
// not RegExps: experiments run them in RE2JS (lib/experiments/answer-pattern.ts).
//
// Only a proof counts: recheck's automaton checker, with no clock (timeout null) and its work
// bounded by sizes (PARAMS), so a verdict is the same on every machine and under any load. A
// pattern it cannot prove (a lookaround, an automaton over the size bound) fails and is rewritten.
// The proofs take about half a minute over all patterns in pure JS, so the patterns proved safe
// are recorded in lib-patterns.safe.json with recheck's version and PARAMS: only a pattern not
// recorded there (new, or its text changed) is checked on each run. PROCTOR_RECORD_PATTERNS=1
// rewrites the record after a full check.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { check, type Diagnostics } from "recheck";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { collectLibPatterns } from "../helpers/lib-patterns";

const root = path.resolve(import.meta.dirname, "../..");
const recordFile = path.join(import.meta.dirname, "lib-patterns.safe.json");
const recheckVersion = (JSON.parse(readFileSync(path.join(root, "node_modules/recheck/package.json"), "utf8")) as { version: string }).version;
/**
 * The automaton checker only (the fuzzer finds attacks, it proves nothing), no clock, and an
 * automaton of at most maxNFASize states: the largest pattern in lib needs about 3,800 and proves
 * in seconds; a larger one is "unsupported" (rewrite it), never minutes of checking.
 */
const PARAMS = { checker: "automaton", timeout: null, maxNFASize: 5_000, maxPatternSize: 1_500, maxRepeatCount: 30 } as const;
type SafeRecord = { recheck: string; params: typeof PARAMS; safe: string[] };

const describeVerdict = (d: Diagnostics) =>
  d.status === "safe" ? "safe" : d.status === "vulnerable" ? `vulnerable (${d.complexity.type}, attack ${JSON.stringify(d.attack.pattern)})` : `unknown (${d.error.kind}${"message" in d.error ? `: ${d.error.message}` : ""})`;

describe("regular expressions in lib", () => {
  const { patterns, unresolved } = collectLibPatterns(root);
  const distinct = new Map(patterns.map((p) => [`/${p.source}/${p.flags}`, p]));
  const recording = process.env.PROCTOR_RECORD_PATTERNS === "1";
  const record = JSON.parse(readFileSync(recordFile, "utf8")) as SafeRecord;
  const current = record.recheck === recheckVersion && JSON.stringify(record.params) === JSON.stringify(PARAMS);
  const provedSafe = new Set(!recording && current ? record.safe : []);
  beforeAll(() => {
    vi.stubEnv("RECHECK_BACKEND", "pure");
  });

  it("are all constants the parser can read (no RegExp built from run-time text)", () => {
    expect(patterns.length).toBeGreaterThan(100);
    expect(unresolved).toEqual([]);
  });

  it("are all proved safe from super-linear backtracking", { timeout: 600_000 }, async () => {
    const unsafe: string[] = [];
    for (const [text, p] of distinct) {
      if (provedSafe.has(text)) continue;
      const d = await check(p.source, p.flags, PARAMS);
      if (d.status === "safe") provedSafe.add(text);
      else unsafe.push(`${p.where} ${text}: ${describeVerdict(d)}`);
    }
    if (recording) {
      const safe = [...distinct.keys()].filter((t) => provedSafe.has(t)).sort();
      writeFileSync(recordFile, JSON.stringify({ recheck: recheckVersion, params: PARAMS, safe } satisfies SafeRecord, null, 2) + "\n");
    }
    expect(unsafe).toEqual([]);
  });

  it("are recorded only while lib still has them, proved by this recheck with these parameters", () => {
    const saved = JSON.parse(readFileSync(recordFile, "utf8")) as SafeRecord;
    expect({ recheck: saved.recheck, params: saved.params }).toEqual({ recheck: recheckVersion, params: PARAMS });
    expect(saved.safe.filter((text) => !distinct.has(text))).toEqual([]);
  });
});

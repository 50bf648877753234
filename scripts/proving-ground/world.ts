// The proving ground's world: task families (an intent, paraphrased requests, a correct tool
// procedure per account segment and period), accounts, the toolbox, and the harms planted at
// known rates. Everything is derived from the seed through `draw`, a keyed uniform: the same key
// gives the same number in every arm, so arms differ only by the skills they were given.
import { createHash } from "node:crypto";

export type WorldSize = { families: number; rounds: number; runsPerRound: number; probesPerFamily: number; accounts: number };

/** Full run, --quick, and the test's tiny world. */
export const SIZES = {
  full: { families: 24, rounds: 20, runsPerRound: 120, probesPerFamily: 3, accounts: 600 },
  quick: { families: 8, rounds: 8, runsPerRound: 48, probesPerFamily: 3, accounts: 160 },
  tiny: { families: 4, rounds: 8, runsPerRound: 32, probesPerFamily: 3, accounts: 40 },
} satisfies Record<string, WorldSize>;

/** A uniform number in [0, 1) for a key (sha256 of the seed and the key's parts). */
export function draw(seed: number, ...key: (string | number)[]): number {
  const hex = createHash("sha256").update(`${seed}|${key.join("|")}`).digest("hex");
  return parseInt(hex.slice(0, 13), 16) / 2 ** 52;
}

export const pick = <T>(items: readonly T[], u: number): T => items[Math.min(items.length - 1, Math.floor(u * items.length))];

const VERBS = ["refund", "cancel", "track", "upgrade", "reschedule", "transfer", "renew", "replace"];
const NOUNS = ["order", "subscription", "booking", "device", "membership"];
const SHARED_TOOLS = ["verify_identity", "notify_customer", "add_note"];
/** The tool removed mid-run and the one that replaces it. */
export const REMOVED_TOOL = { removed: "check_device_eligibility", replacement: "check_device_warranty" };

const TRAIN_TEMPLATES = [
  "please {verb} my {noun} {id}",
  "I need to {verb} {noun} {id}",
  "can you {verb} the {noun} {id} for me",
  "{verb} {noun} {id} today",
  "help me {verb} my {noun} {id}",
  "I would like to {verb} {noun} number {id}",
];
/** Paraphrases only the held-out probes use. */
const HELD_OUT_TEMPLATES = ["could you {verb} {noun} {id} please", "my {noun} {id} needs you to {verb} it"];

export type Harm = "judge_noise" | "segment" | "regime_change" | "tool_removal" | null;

export type Family = {
  index: number;
  verb: string;
  noun: string;
  intent: string;
  /** The unaided model's rate of choosing the right procedure. */
  base: number;
  procedure: string[];
  /** The wrong procedure the unaided model falls back to most often. */
  habit: string[];
  harm: Harm;
  /** judge_noise: the judge cannot tell success here and says "success" 90 % of the time. */
  lenientJudge: boolean;
  /** segment: what accounts of the legacy segment need instead. */
  legacyProcedure: string[] | null;
  /** regime_change / tool_removal: from this round the correct procedure is `laterProcedure`. */
  changeRound: number | null;
  laterProcedure: string[] | null;
};

export type Account = { id: string; legacy: boolean };

export type World = {
  seed: number;
  size: WorldSize;
  families: Family[];
  accounts: Account[];
  /** Imported skills: their family and whether the procedure they carry is wrong. */
  imports: { family: number; wrong: boolean }[];
  importRound: number;
};

function procedureFor(verb: string, noun: string, shape: number): string[] {
  const act = `${verb}_${noun}`;
  const find = `find_${noun}`;
  const check = `check_${noun}_eligibility`;
  return [
    [find, act, "notify_customer"],
    ["verify_identity", find, act],
    [find, check, act],
    ["verify_identity", find, check, act, "notify_customer"],
  ][shape];
}

/** The correct procedure with one required step left out (the step just before the action, or the first). */
function withoutAStep(procedure: string[], verb: string, noun: string): string[] {
  const at = procedure.indexOf(`${verb}_${noun}`);
  const drop = at > 0 ? at - 1 : 0;
  return procedure.filter((_, i) => i !== drop);
}

/** After a regime change the action needs a step it did not: eligibility first, else identity, else a note. */
function afterRegimeChange(procedure: string[], verb: string, noun: string): string[] {
  const act = `${verb}_${noun}`;
  const check = `check_${noun}_eligibility`;
  if (!procedure.includes(check)) return procedure.flatMap((t) => (t === act ? [check, t] : [t]));
  if (!procedure.includes("verify_identity")) return ["verify_identity", ...procedure];
  return [...procedure, "add_note"];
}

export function buildWorld(seed: number, size: WorldSize): World {
  const change = Math.floor(size.rounds / 2);
  const removal = Math.floor((size.rounds * 5) / 8);
  const families: Family[] = [];
  for (let f = 0; f < size.families; f++) {
    const verb = VERBS[Math.floor(f / NOUNS.length) % VERBS.length];
    const noun = NOUNS[f % NOUNS.length];
    const procedure = procedureFor(verb, noun, Math.floor(draw(seed, "shape", f) * 4));
    // Harms (shares stated in docs/proving-ground.md): families using the tool that is removed
    // mid-run; else by position: every 6th family's judge is lenient (offset 1), every 8th
    // (offset 3) has a legacy segment, every 7th (offset 2) changes regime.
    const harm: Harm = procedure.includes(REMOVED_TOOL.removed)
      ? "tool_removal"
      : f % 6 === 1 ? "judge_noise" : f % 8 === 3 ? "segment" : f % 7 === 2 ? "regime_change" : null;
    // Base rates spread from weak (0.10) to strong (0.80); a segment family is strong (its
    // majority procedure is then worse than the unaided model for the whole family).
    const base = harm === "segment" ? 0.75 + 0.1 * draw(seed, "base", f) : 0.1 + 0.7 * draw(seed, "base", f);
    const legacyProcedure = harm === "segment" ? [...procedure.filter((t) => t !== "notify_customer"), "add_note"] : null;
    const laterProcedure =
      harm === "regime_change"
        ? afterRegimeChange(procedure, verb, noun)
        : harm === "tool_removal"
          ? procedure.map((t) => (t === REMOVED_TOOL.removed ? REMOVED_TOOL.replacement : t))
          : null;
    families.push({
      index: f,
      verb,
      noun,
      intent: `${verb} ${noun}`,
      base,
      procedure,
      habit: withoutAStep(procedure, verb, noun),
      harm,
      lenientJudge: harm === "judge_noise",
      legacyProcedure,
      changeRound: harm === "regime_change" ? change : harm === "tool_removal" ? removal : null,
      laterProcedure,
    });
  }
  const accounts = Array.from({ length: size.accounts }, (_, a) => ({ id: `acct-${String(a).padStart(5, "0")}`, legacy: draw(seed, "legacy", a) < 0.3 }));
  // A quarter as many imports as families, 40 % of them carrying the family's habitual wrong procedure.
  const imports = Array.from({ length: Math.max(2, Math.round(size.families / 4)) }, (_, i) => ({
    family: Math.floor(draw(seed, "import", i) * size.families),
    wrong: i % 5 < 2,
  })).filter((x, i, all) => all.findIndex((y) => y.family === x.family) === i);
  return { seed, size, families, accounts, imports, importRound: 1 };
}

/** The procedure that succeeds for this account in this round. */
export function trueProcedure(family: Family, account: Account, round: number): string[] {
  if (family.changeRound !== null && round >= family.changeRound && family.laterProcedure) return family.laterProcedure;
  if (family.legacyProcedure && account.legacy) return family.legacyProcedure;
  return family.procedure;
}

/** The agent's toolbox in a round (the removed tool leaves it, its replacement joins). */
export function toolbox(world: World, round: number): string[] {
  const removed = world.families.some((f) => f.harm === "tool_removal" && f.changeRound !== null && round >= f.changeRound);
  const tools = new Set<string>(SHARED_TOOLS);
  for (const f of world.families) {
    for (const t of [...f.procedure, ...(f.legacyProcedure ?? []), ...(f.laterProcedure ?? []), `find_${f.noun}`, `check_${f.noun}_eligibility`]) tools.add(t);
  }
  if (removed) tools.delete(REMOVED_TOOL.removed);
  else tools.delete(REMOVED_TOOL.replacement);
  return [...tools].sort();
}

export type Request = { family: Family; account: Account; query: string; key: string };

function phrase(template: string, family: Family, id: string): string {
  return template.replace("{verb}", family.verb).replace("{noun}", family.noun).replace("{id}", id);
}

/** The fleet's i-th request of a round: a family, an account (each account has few runs), a paraphrase. */
export function fleetRequest(world: World, round: number, i: number): Request {
  const { seed } = world;
  const family = pick(world.families, draw(seed, "family", round, i));
  const account = pick(world.accounts, draw(seed, "account", round, i));
  const id = `R${Math.floor(draw(seed, "id", round, i) * 90000) + 10000}`;
  return { family, account, query: phrase(pick(TRAIN_TEMPLATES, draw(seed, "template", round, i)), family, id), key: `run:${round}:${i}` };
}

/** A held-out probe: every family, unseen paraphrases, accounts drawn afresh (never recorded as runs). */
export function probeRequest(world: World, round: number, family: Family, k: number): Request {
  const { seed } = world;
  const account = pick(world.accounts, draw(seed, "probe-account", round, family.index, k));
  const id = `H${Math.floor(draw(seed, "probe-id", round, family.index, k) * 90000) + 10000}`;
  return { family, account, query: phrase(pick(HELD_OUT_TEMPLATES, draw(seed, "probe-template", round, family.index, k)), family, id), key: `probe:${round}:${family.index}:${k}` };
}

/** A held-out evaluation case for the ledger's evaluator (its own key space). */
export function caseRequest(world: World, family: Family, label: string, k: number): Request {
  const { seed } = world;
  const account = pick(world.accounts, draw(seed, "case-account", label, k));
  const id = `E${Math.floor(draw(seed, "case-id", label, k) * 90000) + 10000}`;
  return { family, account, query: phrase(pick(HELD_OUT_TEMPLATES, draw(seed, "case-template", label, k)), family, id), key: `case:${label}:${k}` };
}

/**
 * The world's own lookup from a text to the family it is about (the evaluator's test harness
 * knows its tasks): the family whose verb and noun both occur, or null.
 */
export function familyOfText(world: World, text: string): Family | null {
  const words = new Set(text.toLowerCase().split(/[^a-z]+/));
  return world.families.find((f) => words.has(f.verb) && words.has(f.noun)) ?? null;
}

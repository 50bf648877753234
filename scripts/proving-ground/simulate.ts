// One arm through the world's rounds. Each round: the world's events (imports, a tool removed),
// the fleet's runs (skills asked for with the SDK's withSkills, the model acting on the text it
// got, the judged outcome recorded with recordRun, sent in batches), the worker's shadow
// evaluations drained, one promotion cycle, the reviewer's decisions and the evaluator's
// monitoring, then the held-out probes (asked for skills like the fleet, never recorded).
// A round's context requests all precede its runs' ingestion, so no request races a demotion.
import { Proctor } from "../../packages/sdk/src/index.ts";
import pg from "pg";
import { Api, type SkillView } from "./api.ts";
import type { Arm } from "./arms.ts";
import { judged } from "./judge.ts";
import { Library, tokensOf } from "./library.ts";
import { act } from "./model.ts";
import { monitor, newReviewer, review } from "./reviewer.ts";
import { fleetRequest, probeRequest, toolbox, trueProcedure, type Request, type World } from "./world.ts";

export type Connection = { baseUrl: string; databaseUrl: string; adminKey: string; evaluatorKey: string };

export type ArmResult = {
  arm: Arm;
  /** Held-out probe outcomes per round (true success, the same probes in every arm). */
  outcomes: boolean[][];
  runs: number;
  exposedRuns: number;
  tokens: number;
  activations: number;
  harmfulActivations: number;
  toDemote: { runs: number; evaluations: number }[];
  neverDemoted: number;
  candidates: number;
  harmfulCandidates: number;
  helpfulNeverActivated: number;
  decisions: number;
  evaluations: number;
  seconds: number;
};

const SYSTEM = "You are the support agent. Use the tools to resolve the customer's request.";
const CONCURRENCY = 4;

async function pool<T, R>(items: T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return out;
}

/** The oracle's library: the procedure right for this account now, written as a skill would be. */
export function oracleText(request: Request, round: number): string {
  const steps = trueProcedure(request.family, request.account, round).map((t, i) => `${i + 1}. Call \`${t}\` with its required arguments`);
  return `# ${request.family.intent}\n\n## Procedure\n${steps.join("\n")}\n`;
}

function probes(world: World, round: number): Request[] {
  return world.families.flatMap((f) => Array.from({ length: world.size.probesPerFamily }, (_, k) => probeRequest(world, round, f, k)));
}

/** Floor and oracle: the same probes and fleet size, no server. */
export function localArm(world: World, arm: Arm): ArmResult {
  const started = performance.now();
  const oracle = arm.name === "oracle";
  const outcomes: boolean[][] = [];
  let tokens = 0;
  for (let round = 0; round < world.size.rounds; round++) {
    outcomes.push(probes(world, round).map((p) => act(world, p, round, oracle ? oracleText(p, round) : null).success));
    if (oracle) for (let i = 0; i < world.size.runsPerRound; i++) tokens += tokensOf(oracleText(fleetRequest(world, round, i), round));
  }
  const runs = world.size.rounds * world.size.runsPerRound;
  return {
    arm, outcomes, runs, exposedRuns: 0, tokens,
    activations: 0, harmfulActivations: 0, toDemote: [], neverDemoted: 0, candidates: 0, harmfulCandidates: 0, helpfulNeverActivated: 0,
    decisions: 0, evaluations: 0, seconds: (performance.now() - started) / 1000,
  };
}

function importedSkill(world: World, i: number): string {
  const { family: f, wrong } = world.imports[i];
  const family = world.families[f];
  const procedure = wrong ? family.habit : family.procedure;
  const name = `${family.verb}-${family.noun}-playbook`;
  return [
    "---",
    `name: ${name}`,
    `description: Use when a customer asks to ${family.verb} their ${family.noun}.`,
    "---",
    `# ${family.verb} ${family.noun}`,
    "",
    "## When to use",
    `When a customer asks to ${family.verb} a ${family.noun}.`,
    "",
    "## Procedure",
    ...procedure.map((t, n) => `${n + 1}. Call \`${t}\` with the values from the request.`),
    "",
  ].join("\n");
}

/** Waits until the worker has no queued or running shadow evaluation (of the runs just stored). */
async function workerIdle(sql: pg.Pool) {
  for (;;) {
    const { rows } = await sql.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE kind = 'shadow_evaluation' AND status IN ('PENDING', 'RUNNING')");
    if (rows[0].n === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function serverArm(world: World, arm: Arm, conn: Connection, tag: string, log: (line: string) => void, verbose = false): Promise<ArmResult> {
  const started = performance.now();
  const learning = arm.learning!;
  const agentId = `${tag}-${arm.name}`;
  const api = new Api(conn.baseUrl, conn.adminKey, conn.evaluatorKey);
  const proctor = new Proctor({ baseUrl: conn.baseUrl, apiKey: conn.adminKey, batchSize: 100, flushIntervalMs: 0 });
  const sql = new pg.Pool({ connectionString: conn.databaseUrl, max: 1 });
  const library = new Library(world);
  const reviewer = newReviewer();
  const declare = (round: number) =>
    proctor.declareAgent(agentId, { name: `Proving ground: ${arm.label}`, tools: toolbox(world, round).map((name) => ({ name, description: name.replaceAll("_", " ") })), learning });
  const outcomes: boolean[][] = [];
  let runs = 0;
  let exposedRuns = 0;
  let tokens = 0;
  const ask = (r: Request) => proctor.withSkills(agentId, { userId: r.account.id, query: r.query, messages: [{ role: "system", content: SYSTEM }] });
  const injectedText = (ctx: Awaited<ReturnType<typeof ask>>) =>
    ctx.skillsActivated.length ? ctx.messages.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))).join("\n") : null;
  let skills: SkillView[] = [];
  try {
    await declare(0);
    for (let round = 0; round < world.size.rounds; round++) {
      if (round > 0 && toolbox(world, round).join() !== toolbox(world, round - 1).join()) await declare(round);
      if (round === world.importRound) for (let i = 0; i < world.imports.length; i++) await api.importSkill(agentId, importedSkill(world, i));
      skills = await api.skills(agentId);
      library.observe(skills, round, reviewer.evaluationsBySkill);

      const requests = Array.from({ length: world.size.runsPerRound }, (_, i) => fleetRequest(world, round, i));
      const contexts = await pool(requests, ask);
      // Each run its own instant, in order (a millisecond apart, just past): runs of one batch
      // would otherwise share the transaction's time, and the samples a distiller reads (the
      // latest successes) would be picked among equals in no fixed order.
      const startedAt = Date.now() - requests.length;
      for (const [i, request] of requests.entries()) {
        const ctx = contexts[i];
        const attempt = act(world, request, round, injectedText(ctx));
        runs++;
        library.received(ctx.skillsActivated);
        if (ctx.skillsActivated.some((id) => library.harmfulFor(id, request.family.index, round))) exposedRuns++;
        tokens += ctx.skillsActivated.reduce((n, id) => n + (library.skills.get(id)?.tokens ?? 0), 0);
        const outcome = judged(world, request, attempt);
        proctor.recordRun(agentId, {
          workflow_id: `${agentId}-${request.key}`,
          user_id: request.account.id,
          query: request.query,
          steps: attempt.steps,
          ...(outcome ? { outcome } : {}),
          skills_activated: ctx.skillsActivated,
          created_at: new Date(startedAt + i).toISOString(),
        });
      }
      const report = await proctor.flush();
      if (report.failed.length) throw new Error(`runs not stored: ${report.failed[0].error.message}`);
      await workerIdle(sql);
      await api.promotionCycle(agentId);
      await workerIdle(sql);
      skills = await api.skills(agentId);
      await review(api, world, arm.name, learning, reviewer, skills, round);
      skills = await api.skills(agentId);
      if (arm.monitoringCases) {
        await monitor(api, world, arm.name, reviewer, skills, round, arm.monitoringCases);
        skills = await api.skills(agentId);
      }
      library.observe(skills, round, reviewer.evaluationsBySkill);

      const probeRequests = probes(world, round);
      const probeContexts = await pool(probeRequests, ask);
      const solved = probeRequests.map((p, i) => act(world, p, round, injectedText(probeContexts[i])).success);
      if (verbose && round === world.size.rounds - 1) {
        for (const [i, p] of probeRequests.entries()) {
          log(`    probe "${p.query}" (family ${p.family.index}) → ${probeContexts[i].skills.map((k) => `${k.name}@${k.similarity.toFixed(3)}`).join(", ") || "none"}`);
        }
      }
      outcomes.push(solved);
      const active = skills.filter((s) => s.status === "active").length;
      log(`  ${arm.name} round ${round + 1}/${world.size.rounds}: held-out ${(solved.filter(Boolean).length / solved.length).toFixed(3)}, ${active} active of ${skills.length} skills`);
    }
    if (verbose) {
      for (const s of skills) {
        const info = library.info(s, world.size.rounds - 1);
        log(`    ${s.status.padEnd(10)} ${s.name} v${s.version} family ${info.family ?? "-"} [${info.procedure.join(">")}] ${library.harmful(info, info.createdRound) ? "HARMFUL" : "helpful"} ready=${s.readiness.ready} ${s.readiness.reasons.join("; ")} ${s.review_flags.join("; ")} ${s.demotion_reason ?? ""}`);
      }
    }
  } finally {
    await proctor.shutdown();
    await sql.end();
  }
  const c = library.candidates();
  return {
    arm, outcomes, runs, exposedRuns, tokens,
    activations: library.activations, harmfulActivations: library.harmfulActivations, toDemote: library.toDemote, neverDemoted: library.neverDemoted(),
    candidates: c.candidates, harmfulCandidates: c.harmful, helpfulNeverActivated: c.helpfulNeverActivated,
    decisions: reviewer.decisions, evaluations: reviewer.evaluations, seconds: (performance.now() - started) / 1000,
  };
}

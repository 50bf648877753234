// `npm run proving-ground` (-- --quick, -- --json, -- --seed N, -- --svg <file>, -- --verbose: each arm's skills at its end, -- --arms a,b: only these server arms): does a library
// governed by Proctor make an agent better, and how often does it let a harmful skill through?
// A seeded, deterministic simulation (docs/proving-ground.md) against a Proctor started for it:
// embedded PGlite by default, or a fresh database on the PostgreSQL server of DATABASE_URL
// (dropped afterwards). It drives the console through the SDK, the admin API and the worker only;
// the one direct read is the jobs table's queue length, to wait for the worker between rounds.
// Prints a table and PASS/FAIL per target (exit code 1 on a FAIL of the full run); --json prints the figures as
// JSON on stdout (progress on stderr). Needs a production build (PROCTOR_DIST_DIR selects it).
import { writeFileSync } from "node:fs";
import { createApiKey } from "../../lib/auth/api-keys.ts";
import { createPrismaClient } from "../../lib/db/prisma.ts";
import { ADMIN_KEY, startTestServer } from "../../tests/helpers/server.ts";
import { ensureBuild } from "../bench/measure.ts";
import { ARMS } from "./arms.ts";
import { chart } from "./chart.ts";
import { pct, targets, type Figures } from "./figures.ts";
import { provingGround } from "./run.ts";
import { SIZES } from "./world.ts";

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const json = flag("--json");
const sizeName = flag("--quick") ? "quick" : "full";
const size = SIZES[sizeName];
const seed = Number(option("--seed") ?? 29);
const svg = option("--svg");
const log = (line: string) => (json ? process.stderr : process.stdout).write(line + "\n");

const started = performance.now();
ensureBuild();
if (process.env.DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.DATABASE_URL;
const kind = process.env.DATABASE_URL ? "postgres" : "pglite";
const server = await startTestServer({ kind, dedicated: true, env: { PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "", PROCTOR_EMBEDDINGS_MODEL: "" } });
try {
  const prisma = createPrismaClient(server.databaseUrl, 1);
  const evaluatorKey = (await createApiKey(prisma, { name: "proving-ground evaluator", scopes: ["ledger:evaluate"], evaluatorId: "proctor-paired-evaluator" })).secret;
  await prisma.$disconnect();
  log(`proving ground: ${sizeName} world (${size.families} families, ${size.rounds} rounds of ${size.runsPerRound} runs, ${size.probesPerFamily} held-out probes per family and round, ${size.accounts} accounts), seed ${seed}, ${kind}`);
  const { arms } = await provingGround({ size, seed, tag: "pg", connection: { baseUrl: server.baseUrl, databaseUrl: server.databaseUrl, adminKey: ADMIN_KEY, evaluatorKey }, log, verbose: flag("--verbose"), only: option("--arms")?.split(",") });
  // The targets compare arms: with --arms some are missing, and there is no verdict.
  const verdicts = arms.length === ARMS.length ? targets(arms) : [];
  const seconds = Math.round((performance.now() - started) / 1000);
  if (svg) writeFileSync(svg, chart(arms, `Held-out success per round (${sizeName} world, seed ${seed})`));
  if (json) console.log(JSON.stringify({ world: { size: sizeName, ...size, seed, database: kind }, arms, targets: verdicts, seconds }, null, 2));
  printTable(arms, seconds);
  // The targets are meant for the full world; --quick is a smoke run whose verdicts only inform.
  if (sizeName === "quick") log("  (--quick: a smoke run; the targets hold the full run)");
  for (const t of verdicts) log(`  ${t.ok ? "PASS" : "FAIL"}  ${t.name}: ${t.figure}`);
  process.exitCode = sizeName === "quick" || (verdicts.length && verdicts.every((t) => t.ok)) ? 0 : 1;
} finally {
  await server.stop();
}

function printTable(arms: Figures[], seconds: number) {
  const rows = arms.map((f) => [
    f.label,
    `${f.held_out_success.toFixed(3)} [${f.held_out_success_ci95[0].toFixed(3)}, ${f.held_out_success_ci95[1].toFixed(3)}]`,
    `${f.uplift >= 0 ? "+" : ""}${f.uplift.toFixed(3)}`,
    pct(f.oracle_share),
    String(f.activations),
    pct(f.harmful_activation_rate),
    pct(f.harmful_exposure),
    `${f.runs_to_demote_p50 ?? "–"} / ${f.runs_to_demote_max ?? "–"}${f.harmful_never_demoted ? ` (+${f.harmful_never_demoted} never)` : ""}`,
    String(f.helpful_never_activated),
    f.reviewer_decisions_per_1k_runs.toFixed(1),
    f.tokens_per_run.toFixed(0),
  ]);
  const head = ["arm", "held-out (last ¼, 95 % CI)", "uplift", "of oracle", "activations", "harmful act.", "exposure", "runs→demote p50/max", "helpful never", "decisions/1k", "tokens/run"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join(" | ");
  log("\n" + line(head));
  log(widths.map((w) => "-".repeat(w)).join("-|-"));
  for (const r of rows) log(line(r));
  log(`\nwall time ${seconds} s\n`);
}

// The payload classes of `npm run bench:hostile` (./hostile.ts): what each sends, and the checks
// on the answers that show the server refused or stored what it should. Payloads are built in
// `prepare` (outside the measured window); `run` sends them.
import http from "node:http";
import { gzipSync } from "node:zlib";
import type pg from "pg";
import { HOSTILE_TEXT } from "../../tests/helpers/hostile-text.ts";
import { jsonExport, protobufExport } from "../../tests/helpers/otlp.ts";
import { bigAttributeTrace, deepArgumentsTrace, DEEP_ARGUMENTS, filledExport, FILLED_TOOLS, mergeExports, minimalSpans, protobufOf, tallTrace, traceJson, agentRequest, type OtlpJson } from "../../tests/helpers/hostile-otlp.ts";
import { ADMIN_EMAIL } from "../../tests/helpers/server.ts";
import { MAX_ATTRIBUTE_VALUE_BYTES, MAX_SPANS_PER_EXPORT, OTLP_DECODED_BYTES } from "../../lib/otlp/limits.ts";
import { ADDRESS_FAILURE_LIMIT } from "../../lib/auth/login-throttle.ts";
import { pool, sleep } from "./measure.ts";

export type Context = { baseUrl: string; adminKey: string; ingestKey: string; sql: pg.Pool; quick: boolean };
export type Check = { name: string; ok: boolean; figure: string };
export type PayloadClass = { name: string; what: string; prepare(ctx: Context): Promise<() => Promise<Check[]>> };

type Answer = { status: number; text: string };
/**
 * One request; its answer as the server gave it. A server may answer a refusal (413) before the
 * body is sent and close the connection: the answer counts, the write error after it doesn't.
 * No answer at all is status 0 with the error's code.
 */
function send(ctx: Context, method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}, key = ctx.adminKey): Promise<Answer> {
  const url = new URL(ctx.baseUrl);
  const all: Record<string, string | number> = { authorization: `Bearer ${key}`, ...(body !== undefined ? { "content-type": "application/json", "content-length": Buffer.byteLength(body) } : {}), ...headers };
  return new Promise((resolve) => {
    let answered = false;
    // A connection per request: a kept-alive socket the server closes as it is reused would pass for a refusal.
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers: all, timeout: 600_000, agent: false }, (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on("data", (d: Buffer) => parts.push(d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString("utf8") }));
      res.on("error", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString("utf8") }));
    });
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", (e: NodeJS.ErrnoException) => {
      if (!answered) resolve({ status: 0, text: `no answer (${e.code ?? e.message})` });
    });
    req.end(body);
  });
}
const otlp = (ctx: Context, body: Buffer, type: "json" | "protobuf", gzip = true) =>
  send(ctx, "POST", "/api/v1/otlp/v1/traces", gzip ? gzipSync(body) : body, { "content-type": `application/${type === "json" ? "json" : "x-protobuf"}`, ...(gzip ? { "content-encoding": "gzip" } : {}) }, ctx.ingestKey);
const statuses = (answers: Answer[]) => answers.map((a) => (a.status ? a.status : a.text)).join(", ");
const histogram = (answers: Answer[]) => {
  const h = new Map<number, number>();
  for (const a of answers) h.set(a.status, (h.get(a.status) ?? 0) + 1);
  return [...h].sort().map(([s, n]) => `${n} × ${s}`).join(", ");
};
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

export async function declareAgent(ctx: Context, id: string) {
  const r = await send(ctx, "PUT", `/api/v1/agents/${id}`, JSON.stringify({ name: id, tools: FILLED_TOOLS.map((name) => ({ name })) }));
  if (r.status !== 200) throw new Error(`declaring ${id}: ${r.status} ${r.text.slice(0, 300)}`);
}
async function runsOfAgent(ctx: Context, agentId: string): Promise<number> {
  return (await ctx.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM workflows WHERE agent_id = $1", [agentId])).rows[0].n;
}
/** Waits (inside the window: the worker's assembly is part of the cost) until `agentId` holds `n` runs. */
async function runsArrive(ctx: Context, agentId: string, n: number, timeoutMs = 180_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let have = 0;
  while (Date.now() < deadline && (have = await runsOfAgent(ctx, agentId)) < n) await sleep(250);
  return have;
}

export const CLASSES: PayloadClass[] = [
  {
    name: "big export",
    what: `the largest accepted exports (${MAX_SPANS_PER_EXPORT} spans, ~15.5 MiB decoded, gzip JSON and gzip protobuf, at once, through to their runs) and refused ones (240,000 and ${MAX_SPANS_PER_EXPORT + 1} minimal spans in JSON and protobuf, a 256 MiB gzip bomb)`,
    async prepare(ctx) {
      const target = OTLP_DECODED_BYTES - 512 * 1024;
      const traces = MAX_SPANS_PER_EXPORT / 10;
      for (const id of ["hostile-big-json", "hostile-big-proto"]) await declareAgent(ctx, id);
      const json = filledExport("hostile-big-json", traces, target, jsonExport);
      const proto = filledExport("hostile-big-proto", traces, target, protobufExport);
      const refused: [string, Buffer, "json" | "protobuf"][] = [
        ["240,000 minimal spans, JSON", Buffer.from(JSON.stringify(minimalSpans(240_000))), "json"],
        ["240,000 minimal spans, protobuf", protobufOf(minimalSpans(240_000)), "protobuf"],
        [`${MAX_SPANS_PER_EXPORT + 1} minimal spans, JSON`, Buffer.from(JSON.stringify(minimalSpans(MAX_SPANS_PER_EXPORT + 1))), "json"],
        [`${MAX_SPANS_PER_EXPORT + 1} minimal spans, protobuf`, protobufOf(minimalSpans(MAX_SPANS_PER_EXPORT + 1)), "protobuf"],
        ["256 MiB of spaces (gzip bomb)", Buffer.alloc(256 * 2 ** 20, " "), "json"],
      ];
      return async () => {
        const accepted = await Promise.all([otlp(ctx, json, "json"), otlp(ctx, proto, "protobuf")]);
        const refusals: Answer[] = [];
        for (const [, body, type] of refused) refusals.push(await otlp(ctx, body, type));
        const stored = [await runsArrive(ctx, "hostile-big-json", traces), await runsArrive(ctx, "hostile-big-proto", traces)];
        return [
          { name: `largest accepted exports answered 200 (JSON ${mib(json.length)}, protobuf ${mib(proto.length)} decoded)`, ok: accepted.every((a) => a.status === 200), figure: statuses(accepted) },
          { name: "their runs stored", ok: stored.every((n) => n === traces), figure: `${stored.join(" and ")} of ${traces} each` },
          { name: `over the limits answered 413 (${refused.map(([what]) => what).join("; ")})`, ok: refusals.every((a) => a.status === 413), figure: statuses(refusals) },
        ];
      };
    },
  },
  {
    name: "regex bombs",
    what: "runs whose queries are the edge-punctuation and e-mail bombs (a batch of ten and singles), a promotion cycle and a context over them, SKILL.md imports with the cubic heading (2,000 and 4,000 spaces) and the alias bomb, an experiment answer pattern ^(\\w+\\s?)+$ scored against 'a'×26+'!' (stored, report read five times)",
    async prepare(ctx) {
      const agent = "hostile-text";
      await declareAgent(ctx, agent);
      const steps = [{ tool: "lookup_order", arguments: { order_id: "A1" } }, { tool: "issue_refund", arguments: { order_id: "A1" } }];
      const runs = (prefix: string, queries: string[]) => JSON.stringify({ workflows: queries.map((query, i) => ({ workflow_id: `${prefix}-${i}`, query, steps, outcome: "success" })) });
      const punctuation = runs("edge", Array.from({ length: 10 }, () => HOSTILE_TEXT.edgePunctuation));
      const email = runs("email", [HOSTILE_TEXT.emailLocalRun, HOSTILE_TEXT.emailDomainRun].flatMap((run) => [`${run} mail bob@example.com`, run]));
      const skill = (name: string, line: string) => `---\nname: ${name}\ndescription: Refund an order when the customer asks for it.\n---\n# Refund\n${line}\n1. lookup_order\n2. issue_refund\n`;
      const imports = [
        skill("refund-order", "Look the order up first."),
        skill("heading-2000", HOSTILE_TEXT.sectionHeading),
        skill("heading-4000", "# a" + " ".repeat(4_000) + "#x"),
        HOSTILE_TEXT.billionLaughs,
      ];
      const { pattern, answer } = HOSTILE_TEXT.answerPattern;
      return async () => {
        const answers: Answer[] = [];
        answers.push(await send(ctx, "POST", `/api/v1/agents/${agent}/workflows/batch`, punctuation, {}, ctx.ingestKey));
        answers.push(await send(ctx, "POST", `/api/v1/agents/${agent}/workflows/batch`, email, {}, ctx.ingestKey));
        answers.push(await send(ctx, "POST", `/api/v1/agents/${agent}/promotion-cycles`));
        answers.push(await send(ctx, "POST", `/api/v1/agents/${agent}/context`, JSON.stringify({ query: "a" + "!".repeat(19_998) + "a" })));
        const imported: Answer[] = [];
        for (const md of imports) imported.push(await send(ctx, "POST", `/api/v1/agents/${agent}/skills/import`, md, { "content-type": "text/markdown" }));
        const skillId = (JSON.parse(imported[0].text) as { created?: { skill_id: string }[] }).created?.[0]?.skill_id;
        const experiment = await send(ctx, "POST", `/api/v1/agents/${agent}/experiments`, JSON.stringify({
          skill_id: skillId, name: "answer pattern", model: "bench-model",
          arms: [{ name: "baseline", mode: "raw_workflows", n: 1 }, { name: "skill_user", mode: "skill_user" }],
          cases: [{ case_id: "c1", request: "Refund order A1", expected_answer: pattern, answer_match: "regex" }],
        }));
        const experimentId = (JSON.parse(experiment.text) as { experiment_id?: string }).experiment_id;
        const reads: Answer[] = [experiment];
        for (const arm of ["baseline", "skill_user"]) {
          reads.push(await send(ctx, "POST", `/api/v1/experiments/${experimentId}/context`, JSON.stringify({ case_id: "c1", arm })));
          reads.push(await send(ctx, "POST", `/api/v1/experiments/${experimentId}/runs`, JSON.stringify({
            case_id: "c1", arm, steps: [], answer, prompt_tokens: 1, completion_tokens: 1, llm_calls: 1, inference_ms: 1, end_to_end_ms: 1,
          })));
        }
        for (let i = 0; i < 5; i++) reads.push(await send(ctx, "GET", `/api/v1/experiments/${experimentId}/report`));
        const laughs = imported[3].text;
        return [
          { name: "runs, cycle and context answered", ok: answers.every((a) => a.status < 300), figure: statuses(answers) },
          { name: "SKILL.md imports answered 200 (the alias bomb refused as that file's problem)", ok: imported.every((a) => a.status === 200) && /alias/i.test(laughs), figure: statuses(imported) },
          { name: "experiment stored and its report read", ok: reads.every((a) => a.status < 300), figure: statuses(reads) },
        ];
      };
    },
  },
  {
    name: "deep JSON",
    what: `an execute_tool span whose arguments are "["×5000+"]"×5000, a 60-deep trace, a 7 MiB attribute (over the ${mib(MAX_ATTRIBUTE_VALUE_BYTES)} limit) and one just under the limit, over OTLP (JSON and protobuf); a run whose step arguments nest 5,000 deep over the batch API`,
    async prepare(ctx) {
      const agent = "hostile-deep";
      await declareAgent(ctx, agent);
      const exports: [Buffer, "json" | "protobuf"][] = [];
      for (const [body, type] of [
        [mergeExports(deepArgumentsTrace(agent, "deep json"), tallTrace(agent, 60, "tall json")), "json"],
        [mergeExports(deepArgumentsTrace(agent, "deep proto"), tallTrace(agent, 60, "tall proto")), "protobuf"],
        [bigAttributeTrace(agent, 7 * 2 ** 20, "7 MiB"), "json"],
        [bigAttributeTrace(agent, MAX_ATTRIBUTE_VALUE_BYTES - 1024, "just under"), "protobuf"],
      ] as [OtlpJson, "json" | "protobuf"][])
        exports.push([type === "json" ? Buffer.from(JSON.stringify(body)) : protobufOf(body), type]);
      const deepRun = `{"workflows":[{"workflow_id":"deep-rest","query":"deep","steps":[{"tool":"lookup_order","arguments":{"a":${DEEP_ARGUMENTS}}}]}]}`;
      return async () => {
        const answers: Answer[] = [];
        for (const [body, type] of exports) answers.push(await otlp(ctx, body, type));
        const rest = await send(ctx, "POST", `/api/v1/agents/${agent}/workflows/batch`, deepRun, {}, ctx.ingestKey);
        // Six traces make runs: deep and tall (twice), the 7 MiB span's trace without it, the one under the limit.
        const stored = await runsArrive(ctx, agent, 6);
        return [
          { name: "exports answered 200 (the 7 MiB span refused alone)", ok: answers.every((a) => a.status === 200) && /over \d+ bytes/.test(answers[2].text), figure: statuses(answers) },
          { name: "the deep run answered (stored, or refused as a 4xx)", ok: rest.status < 500, figure: String(rest.status) },
          { name: "the OTLP traces' runs stored", ok: stored >= 6, figure: `${stored} of 6` },
        ];
      };
    },
  },
  {
    name: "poisoned trace",
    what: "one export holding a poisoned trace (deep arguments), a 60-deep trace and 40 good traces of the same agent",
    async prepare(ctx) {
      const agent = "hostile-poison";
      await declareAgent(ctx, agent);
      const good = Array.from({ length: 40 }, (_, i) => traceJson(agentRequest(agent, `Refund order ${i}`)));
      const body = Buffer.from(JSON.stringify(mergeExports(deepArgumentsTrace(agent), tallTrace(agent), ...good)));
      return async () => {
        const answer = await otlp(ctx, body, "json", false);
        const stored = await runsArrive(ctx, agent, 42);
        return [
          { name: "export answered 200", ok: answer.status === 200, figure: String(answer.status) },
          { name: "every trace's run stored (the good ones beside the poisoned)", ok: stored === 42, figure: `${stored} of 42` },
        ];
      };
    },
  },
  {
    name: "flood",
    what: "16 clients posting batches of 1,000 runs for 60 s (15 s with --quick) with the ingest key, then 200 wrong-password sign-ins, 16 at once, half through /callback/credentials/<anything>",
    async prepare(ctx) {
      const agent = "hostile-flood";
      await declareAgent(ctx, agent);
      let n = 0;
      const batch = () =>
        JSON.stringify({
          workflows: Array.from({ length: 1000 }, (_, i) => ({
            workflow_id: `f-${n}-${i}`,
            query: `Please refund order ${n}-${i} for account ${i % 97}`,
            user_id: `acct-${i % 97}`,
            steps: [{ tool: "lookup_order", arguments: { order_id: `${n}-${i}` } }, { tool: "issue_refund", arguments: { order_id: `${n}-${i}`, amount: i } }],
            outcome: i % 5 ? "success" : "failure",
          })),
        });
      const bodies = Array.from({ length: 8 }, () => (n++, batch()));
      const csrf = await fetch(`${ctx.baseUrl}/api/auth/csrf`);
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
      return async () => {
        const seconds = ctx.quick ? 15 : 60;
        const deadline = Date.now() + seconds * 1000;
        const batches: Answer[] = [];
        await Promise.all(
          Array.from({ length: 16 }, async (_, worker) => {
            for (let i = worker; Date.now() < deadline; i += 16) batches.push(await send(ctx, "POST", `/api/v1/agents/${agent}/workflows/batch`, bodies[i % bodies.length], {}, ctx.ingestKey));
          }),
        );
        const logins: Answer[] = [];
        await pool(Array.from({ length: 200 }, (_, i) => i), 16, async (i) => {
          const path = i % 2 ? "/api/auth/callback/credentials" : `/api/auth/callback/credentials/side-door-${i}`;
          const form = new URLSearchParams({ csrfToken, email: i % 4 < 2 ? ADMIN_EMAIL : `nobody-${i}@example.com`, password: `wrong-${i}`, json: "true" });
          const r = await fetch(ctx.baseUrl + path, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: ctx.baseUrl }, body: form.toString() });
          logins.push({ status: r.status, text: await r.text() });
        });
        const passed = logins.filter((a) => a.status !== 429).length;
        return [
          { name: `batches answered without a 5xx (${batches.length} in ${seconds} s)`, ok: batches.length > 0 && batches.every((a) => a.status < 500), figure: histogram(batches) },
          { name: `sign-ins: no 5xx, at most ${ADDRESS_FAILURE_LIMIT} reach the password check (the rest 429)`, ok: logins.every((a) => a.status < 500) && passed <= ADDRESS_FAILURE_LIMIT, figure: histogram(logins) },
        ];
      };
    },
  },
];

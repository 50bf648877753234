// Skills in and out (README "Sending runs", Agent Skills): an agent's skills exported as an Agent Skills zip
// and imported into another agent as SHADOW skills at user authority, with the same SKILL.md
// body; the same text again is a duplicate; a refused archive writes nothing; MemoRizz documents
// import with their reference hashes, statuses and demotion history, and a second run imports none.
// Both databases: the import's SQL (skill and class writes, the archive
// gate's reads) runs on each.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { strToU8, unzipSync, zipSync, type Zippable } from "fflate";
import { parse } from "yaml";
import { parseSkillMd } from "@/lib/learning/distill/skill-md";
import { checkReply } from "../helpers/contract-check";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server";
import { call, withKey } from "../helpers/http";
import { changedTables, rowCounter, type RowCounts } from "../helpers/row-counts";
import { runScript } from "../helpers/scripts";
import { createPrismaClient } from "@/lib/db/prisma";
import { systemAuditContext } from "@/lib/audit/record";
import { readMemorizzFile } from "@/lib/learning/skills-io/memorizz-documents";
import { importMemorizz } from "@/lib/learning/operations";

const key = withKey(ADMIN_KEY);
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/memorizz.jsonl");
const TOOLS = [
  { name: "lookup_order", description: "Find an order", parameters: { type: "object", properties: { order_id: { type: "string" } } } },
  { name: "issue_refund", description: "Refund an order", parameters: { type: "object", properties: { order_id: { type: "string" }, amount: { type: "number" } } } },
];
let server: TestServer;
let counts: () => Promise<RowCounts>;
let original: { skill_id: string; content: string; version: number; source_canonical_hash: string };
let archive: Uint8Array;

const putAgent = (id: string) => call(server.baseUrl, key, "PUT", `/api/v1/agents/${id}`, { name: id, tools: TOOLS, learning: { require_shadow: false, auto_activate: true } });
const importInto = (agent: string, body: Uint8Array | string, type = "application/zip") =>
  call(server.baseUrl, key, "POST", `/api/v1/agents/${agent}/skills/import`, body, { "content-type": type });

async function exportFrom(agent: string, status?: string) {
  const p = `/api/v1/agents/${agent}/skills/export${status ? `?status=${status}` : ""}`;
  const res = await fetch(server.baseUrl + p, { headers: key.headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  // A refusal is problem+json, checked against the contract like every answer.
  checkReply("GET", p, res.status, res.ok ? null : JSON.parse(new TextDecoder().decode(bytes)));
  return { status: res.status, type: res.headers.get("content-type"), bytes };
}

beforeAll(async () => {
  server = await startTestServer();
  counts = await rowCounter(server.sql);
  for (const id of ["src", "dst", "mz"]) expect((await putAgent(id)).status).toBe(200);
  const runs = Array.from({ length: 6 }, (_, i) => ({
    workflow_id: `r-${i}`,
    query: i % 2 ? `Refund order B${i}` : `Please refund my order C${i}`,
    steps: [
      { tool: "lookup_order", arguments: { order_id: `X${i}` } },
      { tool: "issue_refund", arguments: { order_id: `X${i}`, amount: 12.5 } },
    ],
    outcome: "success",
  }));
  const stored = await call(server.baseUrl, key, "POST", "/api/v1/agents/src/workflows/batch", { workflows: runs });
  expect(stored.json.results.map((r: { status: number }) => r.status), stored.text).toEqual(Array(6).fill(201));
  const cycle = await call(server.baseUrl, key, "POST", "/api/v1/agents/src/promotion-cycles");
  expect(cycle.json.promoted.length, cycle.text).toBe(1);
  original = (await call(server.baseUrl, key, "GET", `/api/v1/skills/${cycle.json.promoted[0]}`)).json;
});

afterAll(async () => {
  await server?.stop();
});

describe("Agent Skills export", () => {
  it("zips each active skill as <name>/SKILL.md with the format's frontmatter and our fields in metadata", async () => {
    const res = await exportFrom("src");
    expect(res.status).toBe(200);
    expect(res.type).toBe("application/zip");
    archive = res.bytes;
    const files = unzipSync(archive);
    const paths = Object.keys(files);
    expect(paths).toHaveLength(1);
    const [folder, file] = paths[0].split("/");
    expect(file).toBe("SKILL.md");
    const text = new TextDecoder().decode(files[paths[0]]);
    const fm = parse(text.split("\n---\n")[0].replace(/^---\n/, ""));
    expect(fm.name).toBe(folder);
    expect(fm.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(fm.name.length).toBeLessThanOrEqual(64);
    expect(fm.metadata).toMatchObject({ id: original.skill_id, version: String(original.version), authority: "user", "source-class": original.source_canonical_hash });
    expect(fm["allowed-tools"].split(" ").sort()).toEqual(["issue_refund", "lookup_order"]);
    expect(parseSkillMd(text)!.body).toBe(parseSkillMd(original.content)!.body);
  });

  it("filters by status and refuses an unknown agent", async () => {
    expect(Object.keys(unzipSync((await exportFrom("src", "shadow")).bytes))).toHaveLength(0);
    expect((await exportFrom("nobody")).status).toBe(404);
  });
});

describe("Agent Skills import", () => {
  it("round-trips into another agent as a shadow skill at user authority with the same body, once", async () => {
    const r = await importInto("dst", archive);
    expect(r.status, r.text).toBe(200);
    expect(r.json.refused).toEqual([]);
    expect(r.json.created).toHaveLength(1);
    const skill = (await call(server.baseUrl, key, "GET", `/api/v1/skills/${r.json.created[0].skill_id}`)).json;
    expect(skill).toMatchObject({ agent_id: "dst", status: "shadow", injection_role: "user" });
    expect(parseSkillMd(skill.content)!.body).toBe(parseSkillMd(original.content)!.body);

    // The same text again, as the zip or as its one SKILL.md: a duplicate, nothing new.
    const before = await counts();
    const again = await importInto("dst", archive);
    expect(again.json).toMatchObject({ created: [], duplicates: [{ skill_id: skill.skill_id }] });
    const md = Object.values(unzipSync(archive))[0];
    const single = await importInto("dst", md, "text/markdown");
    expect(single.json).toMatchObject({ created: [], duplicates: [{ skill_id: skill.skill_id }] });
    const after = await counts();
    expect(changedTables(before, after)).toEqual(["audit_events"]);

    const audit = await server.sql.query("SELECT details FROM audit_events WHERE action = 'skills.imported' ORDER BY id");
    expect(audit.rows.map((a) => a.details.created.length)).toEqual([1, 0, 0]);
    expect(JSON.stringify(audit.rows)).not.toContain("Procedure");
  });

  it("refuses, per file, a SKILL.md that fails the validation gate or the format's rules", async () => {
    // A run of the importing agent: its values stand in for source runs in the leak check.
    const run = await call(server.baseUrl, key, "POST", "/api/v1/agents/dst/workflows", {
      workflow_id: "dst-1",
      query: "Refund order ORD-99321",
      steps: [{ tool: "lookup_order", arguments: { order_id: "ORD-99321" } }],
    });
    expect(run.status, run.text).toBe(201);
    const md = new TextDecoder().decode(Object.values(unzipSync(archive))[0]);
    const zip = zipSync({
      "leaks-a-value/SKILL.md": strToU8(`${md.replace(/^name: .*$/m, "name: leaks-a-value")}\nFor example order ORD-99321.\n`),
      "uses-other-tool/SKILL.md": strToU8(md.replace(/^name: .*$/m, "name: uses-other-tool").replace("allowed-tools: ", "allowed-tools: delete_account ")),
      "Bad_Name/SKILL.md": strToU8(md.replace(/^name: .*$/m, "name: Bad_Name")),
      "elsewhere/SKILL.md": strToU8(md.replace(/^name: .*$/m, "name: other-name")),
      "elsewhere/references/notes.md": strToU8("notes"),
    });
    const before = await counts();
    const r = await importInto("dst", zip);
    expect(r.status, r.text).toBe(200);
    expect(r.json.created).toEqual([]);
    const reasons = Object.fromEntries(r.json.refused.map((f: { file: string; reasons: string[] }) => [f.file, f.reasons.join("; ")]));
    expect(reasons["leaks-a-value/SKILL.md"]).toContain("literal value leaked into skill: 'ORD-99321'");
    expect(reasons["uses-other-tool/SKILL.md"]).toContain("tool not found in toolbox: delete_account");
    expect(reasons["Bad_Name/SKILL.md"]).toContain("name must be");
    expect(reasons["elsewhere/SKILL.md"]).toContain("does not match its folder");
    expect(r.json.ignored).toEqual(["elsewhere/references/notes.md"]);
    expect(changedTables(before, await counts())).toEqual(["audit_events"]);
  });

  it("answers 400 and writes nothing for an archive that escapes its folders, links, or is too big", async () => {
    const ok = Object.values(unzipSync(archive))[0];
    const zip = (files: Zippable) => zipSync(files);
    const SYMLINK = 0o120777 << 16;
    const bomb = zipSync({ "big/SKILL.md": new Uint8Array(11 * 1024 * 1024) }, { level: 9 });
    const bad: Record<string, Uint8Array> = {
      "a .. path": zip({ "../evil/SKILL.md": ok }),
      "an absolute path": zip({ "/etc/evil/SKILL.md": ok }),
      "a file outside a skill folder": zip({ "a/SKILL.md": ok, "run.sh": strToU8("rm -rf /") }),
      "a symbolic link": zip({ "a/SKILL.md": ok, "a/link": [strToU8("/etc/passwd"), { os: 3, attrs: SYMLINK }] }),
      "over 10 MB uncompressed": bomb,
      "a size that lies": understate(bomb),
      "over 10 MB compressed": new Uint8Array(10 * 1024 * 1024 + 1),
      "not a zip": strToU8("just text"),
    };
    const before = await counts();
    for (const [what, body] of Object.entries(bad)) {
      const r = await importInto("dst", body);
      expect(r.status, `${what}: ${r.text}`).toBe(400);
      expect(r.headers.get("content-type"), what).toBe("application/problem+json");
    }
    expect(changedTables(before, await counts())).toEqual([]);
  });

  it("takes a zip or a SKILL.md only, for a declared agent", async () => {
    expect((await importInto("dst", "{}", "application/json")).status).toBe(415);
    const md = Object.values(unzipSync(archive))[0];
    expect((await importInto("nobody", md, "text/markdown")).status).toBe(404);
  });
});

/** The zip with its one entry's uncompressed size declared as 100 bytes (local and central headers). */
function understate(zip: Uint8Array): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let i = 0; i < out.length - 4; i++) {
    const sig = view.getUint32(i, true);
    if (sig === 0x04034b50) view.setUint32(i + 22, 100, true);
    if (sig === 0x02014b50) view.setUint32(i + 24, 100, true);
  }
  return out;
}

describe("MemoRizz import", () => {
  const lines = readFileSync(FIXTURE, "utf8").split("\n");
  const doc = (n: number) => JSON.parse(lines[n - 1]);

  it("imports workflows with their reference hashes and skills with status, version, baseline and demotion history", async () => {
    const r = runScript(server, "scripts/learning/import-memorizz.ts", FIXTURE);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("workflows: 5 imported, 0 already imported; skills: 2 imported, 0 already imported; refused: 5");
    for (const [line, reason] of [[6, "does not match its steps"], [7, "not JSON"], [10, "injection_role must be user or developer"], [11, "agent_id is null"], [12, "unknown agent 'ghost'"]] as const) {
      expect(r.stdout).toMatch(new RegExp(`^line ${line}: refused: .*${reason}`, "m"));
    }

    const runs = await server.sql.query("SELECT workflow_id, canonical_hash, canonical_version, user_scope, promoted_skill_id FROM workflows WHERE agent_id = 'mz' ORDER BY workflow_id");
    const byId = Object.fromEntries(runs.rows.map((w) => [w.workflow_id, w]));
    for (const n of [1, 2, 3, 5]) {
      const d = doc(n);
      expect(byId[d.workflow_id ?? d._id.$oid]).toMatchObject({ canonical_hash: d.canonical_hash, canonical_version: 1 });
    }
    // Line 4 has no hash of its own: the one the reference's rules give (the same path as line 1).
    expect(byId["wf-4"]).toMatchObject({ canonical_hash: doc(1).canonical_hash, user_scope: "acct-1" });
    const cls = await server.sql.query("SELECT executions, successes FROM trajectory_classes WHERE agent_id = 'mz' AND user_scope = '' AND canonical_hash = $1", [doc(1).canonical_hash]);
    expect(cls.rows).toEqual([{ executions: 3, successes: 3 }]);

    const active = doc(8);
    const skill = (await call(server.baseUrl, key, "GET", `/api/v1/skills/${active.skill_id}`)).json;
    expect(skill).toMatchObject({ agent_id: "mz", status: "active", version: active.version, baseline: active.baseline, stats: { activations: active.stats.activations } });
    // The active skill covers its class's runs (stamped), as one promoted here would.
    expect(runs.rows.filter((w) => w.promoted_skill_id === active.skill_id)).toHaveLength(3);

    const demoted = doc(9);
    expect((await call(server.baseUrl, key, "GET", `/api/v1/skills/${demoted.skill_id}`)).json).toMatchObject({
      status: "demoted",
      version: 1,
      demotion_reason: demoted.demotion_reason,
      demoted_at: new Date(`${demoted.demoted_at}Z`).toISOString(),
    });
    const events = await server.sql.query("SELECT event, reason, at FROM skill_events WHERE skill_id = $1 ORDER BY at", [demoted.skill_id]);
    expect(events.rows.map((e) => e.event)).toEqual(["skill_candidate_created", "skill_activated", "skill_demoted"]);
    expect(events.rows[2]).toMatchObject({ reason: demoted.demotion_reason, at: new Date(`${demoted.demoted_at}Z`) });
  });

  it("imports nothing the second time", async () => {
    // The script's operation in-process this time (the script itself ran above).
    const db = createPrismaClient(server.databaseUrl, 1);
    const before = await counts();
    try {
      const read = readMemorizzFile(readFileSync(FIXTURE, "utf8"));
      const report = await importMemorizz(db, { documents: read.documents }, systemAuditContext("import:memorizz"));
      expect(report).toMatchObject({ workflows: { imported: 0, already: 5 }, skills: { imported: 0, already: 2 } });
      expect(read.refused.length + report.refused.length).toBe(5);
    } finally {
      await db.$disconnect();
    }
    expect(changedTables(before, await counts())).toEqual([]);
  });
});

// Skills in and out (README "Sending runs", Agent Skills): an agent's skills exported as an Agent Skills zip
// and imported into another agent as SHADOW skills at user authority, with the same SKILL.md;
// the same folder again is a duplicate; what the specification forbids is refused per folder and
// tool mismatches are warnings; a refused archive writes nothing; folders of our fixture skills
// (scripts, references, binary assets) import, export byte for byte and import again identically,
// their scripts need a named confirmation to activate, and, active, they reach an identified
// account asking for what they do; MemoRizz documents import with their reference hashes, statuses
// and demotion history, and a second run imports none.
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
import { readArchive } from "@/lib/learning/skills-io/archive";
import { sha256Hex as sha256 } from "@/lib/learning/skills-io/skill-folder";
import { fixtureFiles, fixtureSkillNames, zipSkills } from "../helpers/agent-skills";

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
    // Kept as it came: the exported text, final newline included.
    expect(skill.content).toBe(new TextDecoder().decode(md));
    const after = await counts();
    expect(changedTables(before, after)).toEqual(["audit_events"]);

    const audit = await server.sql.query("SELECT details FROM audit_events WHERE action = 'skills.imported' ORDER BY id");
    expect(audit.rows.map((a) => a.details.created.length)).toEqual([1, 0, 0]);
    expect(JSON.stringify(audit.rows)).not.toContain("Procedure");
  });

  it("refuses, per folder, what the specification forbids, writing nothing for it", async () => {
    const md = new TextDecoder().decode(Object.values(unzipSync(archive))[0]);
    const zip = zipSync({
      "Bad_Name/SKILL.md": strToU8(md.replace(/^name: .*$/m, "name: Bad_Name")),
      "elsewhere/SKILL.md": strToU8(md.replace(/^name: .*$/m, "name: other-name")),
      "elsewhere/references/notes.md": strToU8("notes"),
      "no-description/SKILL.md": strToU8("---\nname: no-description\n---\nbody\n"),
    });
    const before = await counts();
    const r = await importInto("dst", zip);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ created: [], duplicates: [], ignored: [] });
    const reasons = Object.fromEntries(r.json.refused.map((f: { file: string; reasons: string[] }) => [f.file, f.reasons.join("; ")]));
    expect(reasons["Bad_Name/SKILL.md"]).toContain("name must be");
    expect(reasons["elsewhere/SKILL.md"]).toContain("does not match its folder");
    expect(reasons["no-description/SKILL.md"]).toContain("frontmatter missing 'description'");
    expect(changedTables(before, await counts())).toEqual(["audit_events"]);
  });

  it("warns, never refuses, about tools outside the toolbox and names in the body; values of the agent's runs are not checked", async () => {
    // A run of the importing agent: a distilled skill could not name its values; an imported one is not held to that.
    const run = await call(server.baseUrl, key, "POST", "/api/v1/agents/dst/workflows", {
      workflow_id: "dst-1",
      query: "Refund order ORD-99321",
      steps: [{ tool: "lookup_order", arguments: { order_id: "ORD-99321" } }],
    });
    expect(run.status, run.text).toBe(201);
    const md = new TextDecoder().decode(Object.values(unzipSync(archive))[0]);
    const zip = zipSync({
      "uses-other-tool/SKILL.md": strToU8(
        `${md.replace(/^name: .*$/m, "name: uses-other-tool").replace("allowed-tools: ", "allowed-tools: delete_account ")}\nFor example order ORD-99321: run \`sync_playwright()\`.\n`,
      ),
    });
    const r = await importInto("dst", zip);
    expect(r.status, r.text).toBe(200);
    expect(r.json.refused).toEqual([]);
    expect(r.json.created).toHaveLength(1);
    const [created] = r.json.created;
    expect(created.warnings).toEqual([
      "allowed-tools names tools this agent does not declare: delete_account",
      expect.stringMatching(/^the body names code that is not a declared tool: .*sync_playwright/),
    ]);
    const skill = (await call(server.baseUrl, key, "GET", `/api/v1/skills/${created.skill_id}`)).json;
    // Only the toolbox's tools are the skill's tools: activation and tool removal read them.
    expect(skill.tools.sort()).toEqual(["issue_refund", "lookup_order"]);
    expect(skill.review_warnings.map((w: { kind: string }) => w.kind)).toEqual(["tools", "mentions"]);
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

describe("Agent Skills folders (tests/fixtures/agent-skills)", () => {
  const names = fixtureSkillNames();
  const folders = names.map((name) => ({ name, files: fixtureFiles(name) }));
  const byPath = <T extends { path: string }>(xs: T[]) => [...xs].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const shape = (files: { path: string; bytes: Uint8Array; executable: boolean }[]) => byPath(files).map((f) => [f.path, f.bytes.length, sha256(f.bytes), f.executable]);
  const getSkill = async (id: string) => (await call(server.baseUrl, key, "GET", `/api/v1/skills/${id}`)).json;
  const activate = (id: string, body: object) => call(server.baseUrl, key, "POST", `/api/v1/skills/${id}/activate`, body);
  let created: Record<string, { skill_id: string; files: number; scripts: string[]; warnings: string[] }>;
  let exported: Uint8Array;

  it("imports six folders as shadow skills at user authority, every file kept with its sha256, scripts marked, the scan's findings as warnings", async () => {
    expect(names).toHaveLength(6);
    expect((await putAgent("folders")).status).toBe(200);
    const r = await importInto("folders", zipSkills(folders));
    expect(r.status, r.text).toBe(200);
    expect(r.json.refused).toEqual([]);
    created = Object.fromEntries(r.json.created.map((c: { name: string }) => [c.name, c]));
    expect(Object.keys(created).sort()).toEqual(names);
    for (const f of folders) {
      const skill = await getSkill(created[f.name].skill_id);
      expect(skill).toMatchObject({ status: "shadow", injection_role: "user", imported_folder: { name: f.name } });
      expect(skill.files.map((x: { path: string; size: number; sha256: string; executable: boolean }) => [x.path, x.size, x.sha256, x.executable])).toEqual(shape(f.files));
      // What is injected is SKILL.md as it came (CRLF lines, no final newline, fields outside the specification).
      expect(skill.content).toBe(new TextDecoder().decode(f.files.find((x) => x.path === "SKILL.md")!.bytes));
      expect(created[f.name].files).toBe(f.files.length);
    }
    expect(created["browser-smoke-test"].scripts).toEqual(["scripts/run_server.py", "scripts/smoke.js"]);
    expect(created["brand-style"].scripts).toEqual([]);
    const brand = await getSkill(created["brand-style"].skill_id);
    expect(brand.files.find((x: { path: string }) => x.path === "assets/logo.png")).toMatchObject({ text: false, script: false });
    expect(created["browser-smoke-test"].warnings).toContain("allowed-tools names tools this agent does not declare: Bash, Read, Write");
    expect((await getSkill(created["browser-smoke-test"].skill_id)).tools).toEqual(["lookup_order"]);
    expect(created["release-notes"].warnings).toContain("frontmatter fields outside the Agent Skills specification, kept as imported: tags");
    expect(created["api-scaffold"].warnings).toContain("scripts/install.sh:4: runs a download in a shell: curl -fsSL https://get.routegen.dev/install.sh | sh");
    const scan = (await getSkill(created["support-diagnostics"].skill_id)).review_warnings.filter((w: { kind: string }) => w.kind === "scan");
    expect(scan.map((w: { file: string; line: number; rule: string }) => [w.file, w.line, w.rule])).toEqual([
      ["scripts/collect.py", 11, "encoded-blob"],
      ["scripts/collect.py", 31, "credentials"],
      ["scripts/collect.py", 36, "environment-dump"],
      ["scripts/collect.py", 38, "send-to-host"],
    ]);
    for (const benign of ["release-notes", "chart-maker", "brand-style", "browser-smoke-test"]) {
      expect((await getSkill(created[benign].skill_id)).review_warnings.filter((w: { kind: string }) => w.kind === "scan"), benign).toEqual([]);
    }
  });

  it("exports every folder byte for byte, executable bits included, and the export imports as the same folders", async () => {
    const res = await exportFrom("folders", "shadow");
    expect(res.status).toBe(200);
    exported = res.bytes;
    const out = await readArchive(exported);
    expect(out.map((f) => f.folder).sort()).toEqual(names);
    for (const f of folders) {
      const e = out.find((x) => x.folder === f.name)!;
      expect(shape(e.files), f.name).toEqual(shape(f.files));
      for (const file of f.files) expect(Buffer.compare(e.files.find((x) => x.path === file.path)!.bytes, file.bytes), file.path).toBe(0);
    }

    expect((await putAgent("folders-2")).status).toBe(200);
    const again = await importInto("folders-2", exported);
    expect(again.json.refused).toEqual([]);
    expect(again.json.created).toHaveLength(6);
    for (const c of again.json.created) {
      const [first, second] = [await getSkill(created[c.name].skill_id), await getSkill(c.skill_id)];
      expect(second.imported_folder).toEqual(first.imported_folder);
      expect(second.files).toEqual(first.files);
      expect(second.content).toBe(first.content);
    }
    const twice = await readArchive((await exportFrom("folders-2", "shadow")).bytes);
    for (const e of twice) expect(shape(e.files)).toEqual(shape(out.find((x) => x.folder === e.folder)!.files));
    // The same folders into the first agent again: duplicates, nothing new.
    const dup = await importInto("folders", exported);
    expect(dup.json.created).toEqual([]);
    expect(dup.json.duplicates.map((d: { skill_id: string }) => d.skill_id).sort()).toEqual(Object.values(created).map((c) => c.skill_id).sort());
  });

  it("activates a skill that bundles scripts only when confirm_scripts names exactly them", async () => {
    const id = created["browser-smoke-test"].skill_id;
    const scripts = created["browser-smoke-test"].scripts;
    for (const confirm of [undefined, ["scripts/smoke.js"], [...scripts, "SKILL.md"]]) {
      const r = await activate(id, confirm ? { confirm_scripts: confirm } : {});
      expect(r.status, r.text).toBe(409);
      expect(r.json.code).toBe("invalid_state");
      expect(r.json.detail).toContain("scripts/run_server.py, scripts/smoke.js");
      expect(r.json.errors).toEqual(scripts.map((p) => ({ path: "/confirm_scripts", message: p })));
    }
    expect((await getSkill(id)).status).toBe("shadow");
    const ok = await activate(id, { confirm_scripts: [...scripts].reverse(), reason: "read both scripts" });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.status).toBe("active");
    const audit = await server.sql.query("SELECT details FROM audit_events WHERE action = 'skill.activated' AND target_id = $1", [id]);
    expect(audit.rows.map((a) => a.details.confirmed_scripts)).toEqual([scripts]);
    // No scripts, nothing to confirm.
    expect((await activate(created["brand-style"].skill_id, {})).status).toBe(200);
  });

  it("reaches an identified account asking for what an active imported skill does", async () => {
    for (const name of ["release-notes", "chart-maker", "api-scaffold", "support-diagnostics"]) {
      const r = await activate(created[name].skill_id, { confirm_scripts: created[name].scripts });
      expect(r.status, `${name}: ${r.text}`).toBe(200);
    }
    const asks: [string, string][] = [
      ["release-notes", "Write the release notes for version 3.2"],
      ["browser-smoke-test", "Test my web app running on localhost"],
      ["chart-maker", "Make a bar chart of this CSV"],
      ["api-scaffold", "Scaffold a REST API server in TypeScript"],
      ["brand-style", "Make this document follow the brand guidelines"],
      ["support-diagnostics", "Support asked me for a diagnostics bundle"],
    ];
    for (const [name, query] of asks) {
      const r = await call(server.baseUrl, key, "POST", "/api/v1/agents/folders/context", { query, user_id: "acct-alice" });
      expect(r.status, r.text).toBe(200);
      expect(r.json.skills.map((s: { name: string }) => s.name), query).toEqual([name]);
    }
    const unrelated = await call(server.baseUrl, key, "POST", "/api/v1/agents/folders/context", { query: "Where is my order Z9?", user_id: "acct-alice" });
    expect(unrelated.json.skills).toEqual([]);
  });
});

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

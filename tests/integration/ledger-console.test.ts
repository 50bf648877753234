// The ledger's console pages (read-only, admins only) and the ledger API's session rules,
// against the real server: the procedures table with its filters, and a procedure page with
// the proposal, the qualification chart, the failed gates, decisions and evaluations.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_KEY, ADMIN_PASSWORD, startTestServer, type TestServer } from "../helpers/server";
import { call, login, withKey, type Caller } from "../helpers/http";
import { createConsoleUser } from "../helpers/console";
import { evaluatorKeys } from "../helpers/keys";
import { fixtureEvaluation, fixtureProposal, ledgerClient, recordRange, SCOPE, type LedgerClient } from "../helpers/ledger";

let server: TestServer;
let ledger: LedgerClient;
let admin: Caller;
let viewer: Caller;

const rejected = { ...SCOPE, environment: "console/rejected" };
const active = { ...SCOPE, environment: "console/active" };
const qs = (o: Record<string, string | number>) => new URLSearchParams(Object.entries(o).map(([k, v]) => [k, String(v)])).toString();
const page = async (who: Caller, path: string) => call(server.baseUrl, who, "GET", path);
/** Visible text of a page: React separates adjacent text nodes with comment markers. */
const text = (html: string) => html.replace(/<!-- -->/g, "").replace(/&amp;/g, "&").replace(/&#x27;/g, "'");

beforeAll(async () => {
  server = await startTestServer();
  admin = await login(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  ledger = ledgerClient(server.baseUrl, withKey(ADMIN_KEY), evaluatorKeys(server, admin));
  await createConsoleUser(server.baseUrl, admin, { email: "ledger-viewer@test.local", role: "VIEWER", password: "viewer-password-1" });
  viewer = await login(server.baseUrl, "ledger-viewer@test.local", "viewer-password-1");

  // Rejected on quality: high relative gain (bound ≈ 0.1135 > 0.05), mean utility 0.65 < 0.7.
  expect((await ledger.propose(rejected, fixtureProposal({ task: "refund-order" }))).status).toBe(201);
  await recordRange(ledger, rejected, "procedure-1", 0, 31, (k) =>
    fixtureEvaluation(k, "qualification", { candidate_utility: 0.65, evidence_ref: k === 0 ? "proctor:workflow:run-0" : `eval:held-out-${k}` }),
  );
  expect((await ledger.propose(active, fixtureProposal({ id: "procedure-2" }))).status).toBe(201);
  await recordRange(ledger, active, "procedure-2", 0, 31);
  await recordRange(ledger, active, "procedure-2", 32, 33, (k) => fixtureEvaluation(k, "monitoring", { candidate_utility: 0 }));
});
afterAll(async () => {
  await server?.stop();
});

describe(`ledger console (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("lists procedures with state, progress, mean, bound, streak and violations; filters by state, task and scope", async () => {
    const all = await page(admin, "/ledger");
    expect(all.status).toBe(200);
    const html = text(all.text);
    expect(html).toContain("Evidence ledger");
    expect(html).toContain("procedure-1");
    expect(html).toContain("procedure-2");
    expect(html).toContain("32 / 32");
    expect(html).toContain("0.650"); // mean improvement of the rejected one
    expect(html).toContain("0.114"); // its bound, 0.65 − 0.5365
    expect(html).toContain("2 / 3"); // the active one's failure streak
    const onlyRejected = text((await page(admin, "/ledger?state=rejected")).text);
    expect(onlyRejected).toContain("procedure-1");
    expect(onlyRejected).not.toContain("procedure-2");
    expect(text((await page(admin, "/ledger?task=refund-order")).text)).not.toContain("procedure-2");
    const byScope = text((await page(admin, `/ledger?${qs({ environment: "console/active" })}`)).text);
    expect(byScope).toContain("procedure-2");
    expect(byScope).not.toContain("procedure-1");
    expect(text((await page(admin, "/ledger?state=suspended")).text)).toContain("No procedures match these filters");
  });

  it("shows a rejected procedure's failed gate, chart, decisions and paginated evaluations with trace links", async () => {
    const path = `/ledger/procedure?${qs({ ...rejected, id: "procedure-1" })}`;
    const r = await page(admin, path);
    expect(r.status).toBe(200);
    const html = text(r.text);
    expect(html).toContain("which gates failed");
    expect(html).toContain("Quality: mean candidate utility 0.6500 is below min_candidate_utility 0.7.");
    expect(html).not.toContain("Improvement: lower bound");
    expect(html).not.toContain("Resources:");
    expect(html).toMatch(/<svg[^>]*role="img"/);
    expect((html.match(/<polyline/g) ?? []).length).toBe(2);
    expect(html).toContain("decision at n = 32");
    expect(html).toContain("Read the observed state before choosing an action.");
    expect(html).toContain("episode:training-1");
    expect(html).toContain("Fixed evaluation budget failed one or more promotion gates");
    expect(html).toContain("triggered by case");
    expect(html).toContain('href="/workflows/runs/run-0"');
    expect(html).toContain("1–25 of 32");
    const second = text((await page(admin, `${path}&page=2`)).text);
    expect(second).toContain("26–32 of 32");
    expect(second).toContain("case-31");
    expect(second).not.toContain("case-3<");
  });

  it("shows an active procedure's decision and monitoring streak without a gate section", async () => {
    const html = text((await page(admin, `/ledger/procedure?${qs({ ...active, id: "procedure-2" })}`)).text);
    expect(html).not.toContain("which gates failed");
    expect(html).toContain("Fixed evaluation budget passed utility, improvement and resource gates");
    expect(html).toContain("2 / 3");
  });

  it("answers 404 for an unknown or malformed procedure address", async () => {
    expect((await page(admin, `/ledger/procedure?${qs({ ...active, id: "missing" })}`)).status).toBe(404);
    expect((await page(admin, `/ledger/procedure?${qs({ tenant: " ", agent: "a", environment: "e", id: "x" })}`)).status).toBe(404);
  });

  it("does not show the ledger to viewers, in pages or through the API", async () => {
    expect((await page(viewer, "/ledger")).status).toBe(403);
    expect((await page(viewer, `/ledger/procedure?${qs({ ...active, id: "procedure-2" })}`)).status).toBe(403);
    const api = await call(server.baseUrl, viewer, "GET", `/api/v1/ledger/procedures/procedure-2?${qs(active)}`);
    expect(api.status).toBe(403);
    expect((await call(server.baseUrl, admin, "GET", `/api/v1/ledger/procedures/procedure-2?${qs(active)}`)).status).toBe(200);
  });

  it("is read-only for console sessions: evaluators write with API keys", async () => {
    const r = await call(server.baseUrl, admin, "POST", "/api/v1/ledger/procedures/procedure-2/evaluations", { scope: active, ...fixtureEvaluation(40, "monitoring") });
    expect(r.status).toBe(401);
    expect((await ledger.get(active, "procedure-2")).json.monitoring_count).toBe(2);
  });
});

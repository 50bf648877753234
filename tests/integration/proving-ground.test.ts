// The proving ground (scripts/proving-ground, docs/proving-ground.md) on a tiny world against
// the real console: the same seed twice gives identical tables (the simulation and every
// decision the console makes for it are deterministic), and the arms are ordered as they must
// be: no learning ≤ the recommended rollout ≤ the oracle library. The full run's figures and
// targets are npm run proving-ground's (docs/proving-ground.md).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../lib/auth/api-keys";
import { createPrismaClient } from "../../lib/db/prisma";
import { provingGround } from "../../scripts/proving-ground/run";
import { SIZES } from "../../scripts/proving-ground/world";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let evaluatorKey: string;

beforeAll(async () => {
  server = await startTestServer({ env: { PROCTOR_LLM_BASE_URL: "", PROCTOR_LLM_API_KEY: "" } });
  const prisma = createPrismaClient(server.databaseUrl, 1);
  evaluatorKey = (await createApiKey(prisma, { name: "proving-ground evaluator", scopes: ["ledger:evaluate"], evaluatorId: "proctor-paired-evaluator" })).secret;
  await prisma.$disconnect();
});
afterAll(() => server?.stop());

describe("proving ground", () => {
  it("gives the same table for the same seed, and orders floor ≤ recommended ≤ oracle", async () => {
    const connection = { baseUrl: server.baseUrl, databaseUrl: server.databaseUrl, adminKey: ADMIN_KEY, evaluatorKey };
    // The arms the ordering needs (the other server arms run the same code with other settings);
    // without the seconds each arm took (the one figure that is measured, not simulated).
    const table = async (tag: string) =>
      (await provingGround({ size: SIZES.tiny, seed: 7, connection, tag, only: ["recommended"] })).arms.map(({ seconds: _, ...f }) => f);
    const first = await table("pga");
    const second = await table("pgb");
    expect(second).toEqual(first);
    const success = Object.fromEntries(first.map((f) => [f.arm, f.held_out_success]));
    expect(success.floor).toBeLessThanOrEqual(success.recommended);
    expect(success.recommended).toBeLessThanOrEqual(success.oracle);
    // The recommended rollout learned something: an activation, and the world's harms met it.
    const recommended = first.find((f) => f.arm === "recommended")!;
    expect(recommended.activations).toBeGreaterThan(0);
    expect(recommended.candidates).toBeGreaterThan(recommended.activations);
  }, 300_000);
});

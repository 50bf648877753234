// The keyed forget marks migration on a database an older release left behind: its forget marks
// held plain account ids (account_forgets). The migration runner's keyed step moves them under the
// account's HMAC (PROCTOR_FORGET_KEY) and drops the old table; without the key it refuses and
// changes nothing; run again it does nothing; the domain's checks find the moved marks.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import pg from "pg";
import { applyMigrations, listMigrations } from "@/scripts/db/migrate";
import { createPrismaClient, type Db } from "@/lib/db/prisma";
import { forgottenAccount } from "@/lib/accounts/forget-key";
import { forgetMark } from "@/lib/persona/forget-mark";
import { openDomainDatabase, type DomainDatabase } from "../helpers/domain-database";

const MIGRATION = "20261203133732_keyed_forget_marks";
const PLAIN = ["acct-old-forgotten-1", "acct-old-forgotten-2"];

let database: DomainDatabase;
let sql: pg.Client;
let db: Db;

beforeAll(async () => {
  database = await openDomainDatabase({ migrate: false });
  await applyMigrations(database.url, { through: listMigrations().filter((m) => m < MIGRATION).at(-1) });
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  await sql.query(`INSERT INTO account_forgets (user_id, mark, forgotten_at) VALUES ($1, 1, '2026-11-01T10:00:00Z'), ($2, 3, '2026-11-02T10:00:00Z')`, PLAIN);
});
afterAll(async () => {
  await db?.$disconnect();
  await sql?.end();
  await database?.close();
});

const tableExists = async (name: string) => (await sql.query(`SELECT to_regclass($1) IS NOT NULL AS e`, [name])).rows[0].e as boolean;
const marks = async () => (await sql.query(`SELECT account, mark, forgotten_at FROM account_forget_marks ORDER BY mark`)).rows;

describe(`keyed forget marks migration (${process.env.PROCTOR_TEST_DB ?? "pglite"})`, () => {
  it("without the key refuses and leaves the plain marks where they were", async () => {
    vi.stubEnv("PROCTOR_FORGET_KEY", "");
    try {
      await expect(applyMigrations(database.url)).rejects.toThrow(/PROCTOR_FORGET_KEY/);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(await tableExists("account_forgets")).toBe(true);
    expect((await sql.query(`SELECT count(*)::int AS n FROM account_forgets`)).rows[0].n).toBe(2);
    expect(await marks()).toEqual([]);
  });

  it("moves the marks under the account's HMAC, drops the plain table, and does nothing the second time", async () => {
    expect(process.env.PROCTOR_FORGET_KEY).toBeTruthy();
    await applyMigrations(database.url);
    expect(await tableExists("account_forgets")).toBe(false);
    const moved = await marks();
    expect(moved).toEqual([
      { account: forgottenAccount(PLAIN[0]), mark: 1, forgotten_at: new Date("2026-11-01T10:00:00Z") },
      { account: forgottenAccount(PLAIN[1]), mark: 3, forgotten_at: new Date("2026-11-02T10:00:00Z") },
    ]);
    expect(JSON.stringify(moved)).not.toContain("acct-old");

    expect(await applyMigrations(database.url)).toEqual([]);
    expect(await marks()).toEqual(moved);

    // The domain's check of the mark (a reflection's) finds the moved marks by the account id.
    db = createPrismaClient(database.url, 1);
    expect(await db.$transaction((tx) => forgetMark(tx, PLAIN[1]))).toBe(3);
    expect(await db.$transaction((tx) => forgetMark(tx, "acct-never-forgotten"))).toBe(0);
  });
});

// Prisma's official WASM schema engine, loaded by hand: its ESM entry imports a .wasm file,
// which Node cannot import. This lets migrations run with no native engine and no network.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";

const require = createRequire(import.meta.url);

export type SchemaEngine = {
  diff(params: unknown): Promise<{ exitCode: number; stdout: string | null }>;
  applyMigrations(input: unknown): Promise<{ appliedMigrationNames: string[] }>;
  free(): void;
};

type Bindings = { SchemaEngine: { new: (o: unknown, log: () => void, adapter: unknown) => Promise<SchemaEngine> } };
let bindings: Promise<Bindings> | undefined;

// The module keeps the instance in module state, so it is instantiated once per process.
async function loadBindings(): Promise<Bindings> {
  const bgPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const bg = await import(pathToFileURL(bgPath).href);
  const wasm = new WebAssembly.Module(readFileSync(path.join(path.dirname(bgPath), "schema_engine_bg.wasm")));
  const instance = new WebAssembly.Instance(wasm, { "./schema_engine_bg.js": bg });
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
  // Where a panic's message goes; without it a panic surfaces as an unrelated TypeError.
  const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(m: string): void } };
  g.PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (m: string) => console.error(`schema engine panic: ${m}`) };
  return bg as Bindings;
}

/** `onNotice` hears what migration scripts RAISE NOTICE (e.g. how many rows a data migration changed). */
/**
 * `close()` frees the engine and ends its connections: the engine's migration advisory lock is
 * a session lock it never unlocks, so it is held until its connection closes.
 */
export async function openSchemaEngine(
  connectionString: string,
  schemaText: string,
  onNotice?: (message: string) => void,
): Promise<SchemaEngine & { close(): Promise<void> }> {
  const bg = await (bindings ??= loadBindings());
  const pools: pg.Pool[] = [];
  const factory = bindMigrationAwareSqlAdapterFactory(wholeScriptAdapter(new PrismaPg({ connectionString }), onNotice, pools));
  const log = () => {};
  const engine = await bg.SchemaEngine.new({ datamodels: [["schema.prisma", schemaText]] }, log, factory);
  return Object.assign(engine, {
    async close() {
      engine.free();
      await Promise.all(pools.map((pool) => pool.end().catch(() => {})));
    },
  });
}

type ScriptAdapter = { executeScript(script: string): Promise<void>; client: pg.Pool; onError(e: unknown): never };

/**
 * adapter-pg runs a migration script by splitting it on every ";", which breaks function
 * bodies (the audit trigger). Send the script whole instead, as `prisma migrate deploy`
 * does: Postgres runs a multi-statement simple query in one implicit transaction. The notices it
 * raises go to `onNotice`. Each connected adapter's pool goes into `pools`, for close().
 */
function wholeScriptAdapter(factory: PrismaPg, onNotice: ((message: string) => void) | undefined, pools: pg.Pool[]): PrismaPg {
  const patch = (adapter: unknown) => {
    const a = adapter as ScriptAdapter;
    pools.push(a.client);
    a.executeScript = async (script: string) => {
      // Only what a script RAISEs itself (PL/pgSQL names itself in `where`), not the server's own
      // "already exists, skipping" / "does not exist, skipping".
      const notice = (n: { message?: string; where?: string }) => {
        if (n.where?.includes("PL/pgSQL")) onNotice?.(n.message ?? "");
      };
      const conn = await a.client.connect().catch((error) => a.onError(error));
      conn.on("notice", notice);
      try {
        await conn.query(script);
      } catch (error) {
        a.onError(error);
      } finally {
        conn.off("notice", notice);
        conn.release();
      }
    };
    return adapter;
  };
  const connect = factory.connect.bind(factory);
  const connectToShadowDb = factory.connectToShadowDb.bind(factory);
  factory.connect = async () => patch(await connect()) as Awaited<ReturnType<PrismaPg["connect"]>>;
  factory.connectToShadowDb = async () => patch(await connectToShadowDb()) as Awaited<ReturnType<PrismaPg["connectToShadowDb"]>>;
  return factory;
}

// The embedded default database: PGlite (WASM Postgres) served on a loopback port so the app
// always speaks the Postgres wire protocol through the same adapter as a real server.
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

export type EmbeddedDatabase = { url: string; port: number; close(): Promise<void> };

/** dataDir undefined → in-memory (tests, migration diffs). One process owns a data directory. */
export async function startEmbeddedDatabase(dataDir?: string, port = 0): Promise<EmbeddedDatabase> {
  const db = await PGlite.create(dataDir ? { dataDir } : undefined);
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port, maxConnections: 20 });
  await server.start();
  const address = server.getServerConn();
  const actualPort = Number(address.split(":").pop());
  return {
    url: `postgresql://postgres@127.0.0.1:${actualPort}/postgres?sslmode=disable`,
    port: actualPort,
    async close() {
      await server.stop();
      await db.close();
    },
  };
}

// The embedded default database: PGlite (WASM Postgres) served on a loopback port so the app
// always speaks the Postgres wire protocol through the same adapter as a real server.
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

export type EmbeddedDatabase = { url: string; port: number; close(): Promise<void> };

/** dataDir undefined → in-memory (tests, migration diffs). One process owns a data directory. */
export async function startEmbeddedDatabase(dataDir?: string, port = 0): Promise<EmbeddedDatabase> {
  // PGlite keeps its shared buffers inside the server process's WASM memory, next to Node's
  // heap: 32 MB instead of Postgres's 128 MB keeps the console's peak RSS well under 1 GiB
  // (pages beyond them are read back through the file system, from the OS page cache).
  const startParams = [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"];
  const db = await PGlite.create(dataDir ? { dataDir, startParams } : { startParams });
  const server = new PGLiteSocketServer({ db: batchAware(db), host: "127.0.0.1", port, maxConnections: 20 });
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

// Frontend message types of the extended query protocol; Sync ends a batch, as do a simple
// Query and Terminate.
const BATCH_MESSAGES = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48]); // P B D E C H
const BATCH_ENDS = new Set([0x53, 0x51, 0x58]); // S Q X

/**
 * PGlite is one backend session shared by every socket connection, and pglite-socket (0.2.17)
 * interleaves connections message by message unless one is inside a transaction. Between two
 * connections' Parse/Bind/Execute that mixes up the unnamed statement and portal ("portal does
 * not exist", one query's parameters bound to another's statement). This view reports an open
 * extended-protocol batch as "in a transaction", so the server keeps serving that connection
 * until its Sync, exactly as it already does for transactions.
 */
function batchAware(db: PGlite): PGlite {
  let batchOpen = false;
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "isInTransaction") return () => batchOpen || target.isInTransaction();
      if (prop === "execProtocolRawStream") {
        return (message: Uint8Array, options: Parameters<PGlite["execProtocolRawStream"]>[1]) => {
          if (BATCH_MESSAGES.has(message[0])) batchOpen = true;
          else if (BATCH_ENDS.has(message[0])) batchOpen = false;
          return target.execProtocolRawStream(message, options);
        };
      }
      // The server's clean-up for a connection that left mid-transaction (a ROLLBACK) also
      // ends a batch it left open.
      if (prop === "exec") {
        return (query: string, options?: Parameters<PGlite["exec"]>[1]) => {
          batchOpen = false;
          return target.exec(query, options);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

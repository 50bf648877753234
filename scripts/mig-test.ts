import { startEmbeddedDatabase } from "/work/main/lib/db/embedded.ts";
import { applyMigrations } from "/work/main/scripts/db/migrate.ts";
const db = await startEmbeddedDatabase();
console.log(await applyMigrations(db.url));
console.log(await applyMigrations(db.url));
await db.close();

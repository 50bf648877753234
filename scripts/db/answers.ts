// Whether a database answers at `connectionString` now (a running console's embedded database
// behind its embedded.url, for scripts that must not open the data directory beside it).
import pg from "pg";

export async function answers(connectionString: string): Promise<boolean> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

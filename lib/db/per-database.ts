// A process cache of what was read from a database belongs to that database's client: one
// process may hold several (the console's primary and its read replica, a script next to a
// running console, a test worker opening one file's database after another's), and an entry read
// through one must never answer for another.
import type { Db } from "./prisma";

/** `make()`'s value for `database`, made on first use and dropped with the client. */
export function perDatabase<T>(make: () => T): (database: Db) => T {
  const values = new WeakMap<Db, T>();
  return (database) => {
    let value = values.get(database);
    if (value === undefined) values.set(database, (value = make()));
    return value;
  };
}

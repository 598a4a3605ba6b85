/**
 * A Kysely dialect whose connections are adjusted in place: the one way the store changes how
 * queries reach the database (./store-text.ts, ./sqlite-busy.ts) without a driver of its own.
 */
import type { DatabaseConnection, Dialect, Driver } from "kysely";

/** The driver's own lending, as it was before the patch. */
export interface DriverLending {
  acquire: () => Promise<DatabaseConnection>;
  release: (connection: DatabaseConnection) => Promise<void>;
}

/**
 * `dialect` whose every connection `patchConnection` adjusts once, the first time the driver lends
 * it out, and whose driver `patchDriver` may adjust as it is made. The driver keeps its own
 * objects, which it needs for transactions and releasing them.
 */
export function patchedDialect(
  dialect: Dialect,
  patchConnection: (connection: DatabaseConnection, lending: DriverLending) => void,
  patchDriver?: (driver: Driver) => void,
): Dialect {
  const patched = new WeakSet<DatabaseConnection>();
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => {
      const driver = dialect.createDriver();
      const lending: DriverLending = {
        acquire: driver.acquireConnection.bind(driver),
        release: driver.releaseConnection.bind(driver),
      };
      driver.acquireConnection = async () => {
        const connection = await lending.acquire();
        if (!patched.has(connection)) {
          patchConnection(connection, lending);
          patched.add(connection);
        }
        return connection;
      };
      patchDriver?.(driver);
      return driver;
    },
  };
}

// Driver adapters for the Prisma 6.19.3 CLI (prisma/*.config.ts with engine: "js").
// Use ONLY in prisma/*.config.ts; the app itself uses the stock PrismaPg / PrismaBetterSQLite3.
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { parse } from "pg-connection-string";

// ---------------------------------------------------------------------------------------------
// PostgreSQL: workarounds for @prisma/adapter-pg 6.19.3 under the JS schema engine.
//
// 1) prisma/prisma#27403 (open in 6.19.x): Prisma's JS schema engine (used by
// `prisma migrate deploy/status/diff`, `db push` when prisma.config.ts has engine: "js")
// queries pg_catalog columns of type `name` (OID 19) and `"char"` (OID 18), which @prisma/adapter-pg
// cannot map ("Column type 'name' could not be deserialized from the database"). We report such
// columns as `text` (OID 25) / `text[]` (1009). The values are already plain strings (arrays
// are still parsed by the adapter). App queries never touch these types; harmless there.
// 2) PrismaPg.connectToShadowDb() does `new Pool({ ...config, database: shadowName })`, but
// pg lets `connectionString` override `database`, so the "shadow" DB would be the real one
// (`migrate diff --from-migrations`, `migrate dev` fail with "relation already exists").
// So we pass discrete host/port/user/password/database fields, never connectionString.
// 3) The shadow DB is dropped before its pool is closed, so `DROP DATABASE` fails with
// "is being accessed by other users"; we add WITH (FORCE) (PostgreSQL >= 13) and swallow the
// resulting "terminating connection due to administrator command" (57P01) on the killed
// idle connection (its pool has no error listener, so it would crash the CLI).
// 4) executeScript() splits migration.sql on every ";" - breaks on ';' inside string literals or
// $$ function bodies ("unterminated quoted string"). We send the whole script in one simple-protocol
// query instead (PostgreSQL runs a multi-statement simple query as one implicit transaction).
const SHADOW_DROP = /^DROP DATABASE "prisma_migrate_shadow_db_[0-9a-f-]+"$/;
const REMAP: Record<number, number> = { 18: 25, 19: 25, 1002: 1009, 1003: 1009 };

function fixFields<T>(res: T): T {
  for (const r of Array.isArray(res) ? res : [res]) {
    const fields = (r as { fields?: { dataTypeID: number }[] } | undefined)?.fields;
    if (fields) for (const f of fields) f.dataTypeID = REMAP[f.dataTypeID] ?? f.dataTypeID;
  }
  return res;
}

export class NameAsTextClient extends pg.Client {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override emit(event: string | symbol, ...args: any[]): boolean {
    if (event === "error") {
      if ((args[0] as { code?: string } | undefined)?.code === "57P01") this.killedByAdmin = true;
      if (this.killedByAdmin) return true; // also swallows the follow-up "Connection terminated unexpectedly"
    }
    return super.emit(event, ...args);
  }
  private killedByAdmin = false;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    if (typeof args[0] === "string" && SHADOW_DROP.test(args[0])) args[0] += " WITH (FORCE)";
    const last = args[args.length - 1];
    if (typeof last === "function") {
      args[args.length - 1] = (err: unknown, res: unknown) => last(err, err ? res : fixFields(res));
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      return (super.query as any)(...args);
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const out = (super.query as any)(...args);
    return out && typeof out.then === "function" ? out.then(fixFields) : out;
  }
}

/** pg.PoolConfig for the CLI adapter; a config object, not a Pool (see 2). */
function pgConfigForPrisma(connectionString: string): pg.PoolConfig {
  const { host, port, user, password, database, ssl, options, application_name } = parse(connectionString);
  return {
    host: host ?? undefined,
    port: port ? Number(port) : undefined,
    user,
    password,
    database: database ?? undefined,
    ssl: ssl as pg.PoolConfig["ssl"],
    options,
    application_name,
    Client: NameAsTextClient,
  };
}

type PgAdapter = Awaited<ReturnType<PrismaPg["connect"]>>;
function wholeScript(adapter: PgAdapter): PgAdapter {
  adapter.executeScript = async (script: string) => {
    try {
      await adapter.underlyingDriver().query(script);
    } catch (e) {
      (adapter as unknown as { onError(e: unknown): never }).onError(e); // maps to Prisma's error kinds
    }
  };
  return adapter;
}

export class PrismaPgForCli extends PrismaPg {
  constructor(connectionString: string) {
    super(pgConfigForPrisma(connectionString));
  }
  override async connect() {
    return wholeScript(await super.connect());
  }
  override async connectToShadowDb() {
    return wholeScript(await super.connectToShadowDb());
  }
}

// ---------------------------------------------------------------------------------------------
// SQLite: workaround for @prisma/adapter-better-sqlite3 6.19.3 under the JS schema engine:
// when replaying migrations into the shadow DB (`migrate diff --from-migrations`, `migrate dev`)
// the JS schema engine sends each whole migration.sql through executeRaw(), which uses
// better-sqlite3's prepare() and rejects multi-statement SQL ("P3006 ... External error id#0").
// For argument-less SQL on the shadow DB we use executeScript() (db.exec) instead.
export class PrismaBetterSQLite3ForCli extends PrismaBetterSQLite3 {
  override async connectToShadowDb() {
    const adapter = await super.connectToShadowDb();
    const executeRaw = adapter.executeRaw.bind(adapter);
    adapter.executeRaw = async (query) => {
      if (query.args.length > 0) return executeRaw(query);
      await adapter.executeScript(query.sql);
      return 0;
    };
    return adapter;
  }
}

/**
 * A fresh test database on the engine under test, with its URL on PostgreSQL: the leader locks of the chain jobs
 * open their own connection to it.
 */
import { type Database, openDatabase } from "../../src/db/client.js";
import { createScratchPostgres, createTestDatabase, testEngine } from "../db.js";

export async function createEngineDatabase(): Promise<{ database: Database; url: string | null }> {
  if (testEngine !== "postgres") return { database: await createTestDatabase(), url: null };
  const scratch = await createScratchPostgres();
  const database = await openDatabase({ databaseUrl: scratch.url, dataDir: null, poolSize: 20 });
  return {
    url: scratch.url,
    database: {
      ...database,
      close: async () => {
        await database.close();
        await scratch.drop();
      },
    },
  };
}

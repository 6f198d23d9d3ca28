/** A new DATA_DIR's cluster created by a child process: usable afterwards; a failure or a timeout says so. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, expect, it } from "vitest";
import { createClusterApart, hasCluster } from "./pglite-cluster.js";

const scratch = mkdtempSync(join(tmpdir(), "sp-cluster-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it("creates a cluster the server's PGlite then opens and writes to", async () => {
  const dir = join(scratch, "data");
  expect(hasCluster(dir)).toBe(false);
  await createClusterApart(dir);
  expect(hasCluster(dir)).toBe(true);
  const db = new PGlite({ dataDir: dir });
  try {
    await db.exec("create table t (n int); insert into t values (41), (1)");
    const { rows } = await db.query<{ total: number }>("select sum(n)::int as total from t");
    expect(rows).toEqual([{ total: 42 }]);
  } finally {
    await db.close();
  }
});

it("rejects with the child's error when the directory cannot hold a cluster", async () => {
  const file = join(scratch, "a-file");
  writeFileSync(file, "not a directory");
  await expect(createClusterApart(join(file, "data"))).rejects.toThrow(
    /^creating the embedded database in .*a-file\/data failed \(exit 1\): ./,
  );
});

it("kills a child that outlives its time and says so", async () => {
  const dir = join(scratch, "slow");
  await expect(createClusterApart(dir, 50)).rejects.toThrow(/failed \(killed by SIGKILL after 50 ms\)/);
});

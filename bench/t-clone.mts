import { PGlite } from "@electric-sql/pglite";
import { pgliteTemplate } from "../test/db-template.js";
let t = performance.now();
const base = new PGlite({ loadDataDir: pgliteTemplate()! });
await base.waitReady;
console.log("load", (performance.now() - t) | 0);
for (let i = 0; i < 3; i++) {
  t = performance.now();
  const c = await base.clone();
  await c.query("select count(*) from users");
  console.log("clone", (performance.now() - t) | 0);
  await c.close();
}
t = performance.now();
const c2 = new PGlite({ loadDataDir: pgliteTemplate()! });
await c2.query("select 1");
console.log("load again", (performance.now() - t) | 0);

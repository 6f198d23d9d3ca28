/**
 * Loaded into the service with `--import` by `bench/probe-reads.ts --heap-profile DIR`: V8's sampling heap
 * profiler (one sample every 8 KiB allocated, on average), started on SIGUSR1 and written on SIGUSR2 to
 * `$HEAP_PROFILE_DIR/heap-<pid>.heapprofile` (renamed into place once complete, so a reader waiting for that name
 * never reads half a file). Samples of objects that a garbage collection later freed are kept, so the profile says
 * which code allocates (what the collector's work comes from), not which code holds memory.
 * Read it with `npx tsx bench/heap-sites.ts FILE`, or in Chrome DevTools' Memory panel.
 */
import { renameSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";

const dir = process.env.HEAP_PROFILE_DIR;
if (!dir) throw new Error("heap-sampler: set HEAP_PROFILE_DIR to the folder its profiles go to");
const file = join(dir, `heap-${process.pid}.heapprofile`);
const session = new Session();
session.connect();

/** A failure here is the bench's, not the service's: said on stderr, and the service keeps running. */
const report = (error: unknown) => process.stderr.write(`heap-sampler: ${String(error)}\n`);

process.on("SIGUSR1", () => {
  session
    .post("HeapProfiler.enable")
    .then(() =>
      session.post("HeapProfiler.startSampling", {
        samplingInterval: 8192,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      }),
    )
    .catch(report);
});

process.on("SIGUSR2", () => {
  session
    .post("HeapProfiler.stopSampling")
    .then(({ profile }) => {
      writeFileSync(`${file}.partial`, JSON.stringify(profile));
      renameSync(`${file}.partial`, file);
    })
    .catch(report);
});

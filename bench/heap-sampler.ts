/**
 * Loaded into the service with `--import` by `bench/probe-reads.ts --heap-profile DIR`: V8's sampling heap
 * profiler (one sample every 8 KiB allocated, on average), started on SIGUSR1 and written on SIGUSR2 to
 * `$HEAP_PROFILE_DIR/heap-<pid>.heapprofile`. Samples of objects that a garbage collection later freed are kept,
 * so the profile says which code allocates (what the collector's work comes from), not which code holds memory.
 * Read it with `npx tsx bench/heap-sites.ts FILE`, or in Chrome DevTools' Memory panel.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { join } from "node:path";

const dir = process.env.HEAP_PROFILE_DIR;
if (!dir) throw new Error("heap-sampler: set HEAP_PROFILE_DIR to the folder its profiles go to");
const session = new Session();
session.connect();

function post(method: string, params: object = {}): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as never)));
  });
}

/** A failure here is the bench's, not the service's: said on stderr, and the service keeps running. */
const report = (error: unknown) => process.stderr.write(`heap-sampler: ${String(error)}\n`);

process.on("SIGUSR1", () => {
  post("HeapProfiler.enable")
    .then(() =>
      post("HeapProfiler.startSampling", {
        samplingInterval: 8192,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      }),
    )
    .catch(report);
});

process.on("SIGUSR2", () => {
  post("HeapProfiler.stopSampling")
    .then(({ profile }) => {
      writeFileSync(join(dir!, `heap-${process.pid}.heapprofile`), JSON.stringify(profile));
    })
    .catch(report);
});

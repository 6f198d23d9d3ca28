/**
 * Runs background jobs on a fixed pause: each job runs, then waits `intervalMs`, then runs again; never two runs
 * of one job at once. A failed run is logged and the job carries on at its next turn. `stop` cancels the waits
 * and resolves once the runs in progress have finished.
 */
export interface PollingJob {
  name: string;
  intervalMs: number;
  run(): Promise<unknown>;
}

export interface JobLog {
  error(details: object, message: string): void;
}

export interface RunningJobs {
  stop(): Promise<void>;
}

export function startJobs(jobs: PollingJob[], log: JobLog): RunningJobs {
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();

  const schedule = (job: PollingJob, delayMs: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (stopped) return;
      const run = job
        .run()
        .catch((err: unknown) => log.error({ err, job: job.name }, "background job failed"))
        .then(() => {
          inFlight.delete(run);
          if (!stopped) schedule(job, job.intervalMs);
        });
      inFlight.add(run);
    }, delayMs);
    timers.add(timer);
  };
  for (const job of jobs) schedule(job, 0);

  return {
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.all([...inFlight]);
    },
  };
}

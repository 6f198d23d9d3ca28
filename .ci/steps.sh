# Sourced by .ci/run: `step BUDGET COMMAND...` runs one CI step, bounded, and leaves nothing running behind it.
#
# - The step runs under coreutils `timeout`, which puts it in a process group of its own: past BUDGET seconds the
#   whole group gets SIGTERM, then SIGKILL 20 s later, and the step fails with what was running at that moment.
# - Once the step ends, whatever it started and left in its group is named and killed. A step that fails half-way
#   (a bench stopped by an exception, say) could otherwise leave a server running that holds this script's output
#   open, and whoever reads that output would wait for it until their own time limit, with nothing printed.
# - A step's wall time is printed after it and kept in `timings` for the summary at the end.
timings=()

step() {
  local budget=$1
  shift
  local start=$SECONDS rc=0
  timeout --kill-after=20 "$budget" "$@" &
  local group=$!
  trap 'kill -TERM -- "-$group" 2>/dev/null; exit 130' INT TERM
  wait "$group" || rc=$?
  trap - INT TERM
  # Named before they go, so that a step which leaks a process shows it even when it passes. Processes that have
  # exited and wait to be reaped (state Z: esbuild's, after every step that ran tsx) are not listed.
  local left
  left=$(pgrep -a -r R,S,D,T,t -g "$group" 2>/dev/null || true)
  if [[ -n $left ]]; then
    echo "ci step: $* left these running, killed:"
    echo "$left" | cut -c1-200
  fi
  kill -KILL -- "-$group" 2>/dev/null || true
  timings+=("$(printf '%5d s  %s' $((SECONDS - start)) "$*")")
  echo "ci step: $* took $((SECONDS - start)) s"
  if ((rc == 124 || rc == 137)); then
    echo "ci step: $* outlived its budget of $budget s: stopped"
    step_diagnostics
  fi
  if ((rc != 0)); then
    echo "ci step: $* failed (exit $rc)"
    print_timings
    exit "$rc"
  fi
}

print_timings() {
  printf "ci steps (wall time):\n"
  printf "%s\n" "${timings[@]}"
  printf "%5d s  in all\n" "$SECONDS"
}

# What a stuck step leaves to look at: the processes, the machine's load and disk, the database's sessions.
step_diagnostics() {
  echo "--- processes"
  ps -eo pid,ppid,pgid,etime,time,stat,args --forest | cut -c1-200 || true
  echo "--- load, memory, disk"
  uptime || true
  free -m || true
  df -h . /tmp || true
  if [[ -n "${DATABASE_URL:-}" ]]; then
    echo "--- PostgreSQL sessions"
    timeout 10 psql "$DATABASE_URL" -Atc \
      "select pid, datname, state, now() - query_start, left(query, 120) from pg_stat_activity where pid <> pg_backend_pid()" ||
      true
  fi
}

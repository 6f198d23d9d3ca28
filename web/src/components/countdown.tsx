/**
 * Countdown: time left in the live week (before the season: time until it starts), ticking every second.
 * It counts from the server's `now` (meta) plus the time elapsed on this page, so a wrong device clock does not
 * shift it; when it reaches zero it asks for fresh meta once.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { Meta } from "../api";
import { formatDuration } from "../format";
import { When } from "./values";

export function Countdown(props: { meta: Meta; loadedAt: number; onElapsed: () => void }) {
  const { meta, loadedAt, onElapsed } = props;
  const [tick, setTick] = useState(() => performance.now());
  useEffect(() => {
    const id = setInterval(() => setTick(performance.now()), 1000);
    return () => clearInterval(id);
  }, []);

  const live = meta.weeks.find((w) => w.week === meta.currentWeek);
  const before = !meta.seasonStarted;
  const target = before ? (meta.weeks[0]?.startsAt ?? meta.countdown.endsAt) : meta.countdown.endsAt;
  const serverNow = Date.parse(meta.now) + (tick - loadedAt);
  const seconds = Math.max(0, Math.ceil((Date.parse(target) - serverNow) / 1000));

  const reported = useRef(false);
  useEffect(() => {
    if (seconds === 0 && !reported.current) {
      reported.current = true;
      onElapsed();
    }
  }, [seconds, onElapsed]);

  const title = before ? "Season starts in" : `${live?.label ?? "This week"} ends in`;
  return (
    <section class="card countdown" aria-labelledby="countdown-title">
      <h2 id="countdown-title" class="card-title">
        {title}
      </h2>
      <p class="timer" role="timer" aria-live="off">
        <time dateTime={target}>{seconds > 0 ? formatDuration(seconds) : "Ended"}</time>
      </p>
      <p class="muted small">
        {before ? "Starts " : "Ends "}
        <When iso={target} />
      </p>
    </section>
  );
}

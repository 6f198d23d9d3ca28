/** WeekRail: every week of the season so far (and the next), with its status; the selected one is marked. */
import { useEffect, useRef } from "preact/hooks";
import type { LadderType, RailWeek, WeekStatus } from "../api";
import { formatLocal, formatUtc, formatWeekSpan } from "../format";
import { weekly } from "../routes";
import { type Navigate, RouteLink } from "./route-link";

export const STATUS_TEXT: Record<WeekStatus, string> = {
  live: "Live",
  ended: "Ended",
  finalized: "Finalized",
  upcoming: "Upcoming",
};

export function WeekRail(props: {
  weeks: RailWeek[];
  selectedWeek: number;
  type: LadderType;
  onNavigate: Navigate;
}) {
  const { weeks, selectedWeek, type, onNavigate } = props;
  const railRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    // On a narrow screen the rail scrolls sideways: keep the selected week in sight.
    const rail = railRef.current;
    const el = rail?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!el || !rail) return;
    const hidden =
      el.offsetLeft < rail.scrollLeft || el.offsetLeft + el.offsetWidth > rail.scrollLeft + rail.clientWidth;
    if (hidden) rail.scrollLeft = el.offsetLeft - (rail.clientWidth - el.offsetWidth) / 2;
  }, [selectedWeek]);
  return (
    <nav class="rail" aria-label="Weeks">
      <ol ref={railRef}>
        {weeks.map((w) => {
          const selected = w.week === selectedWeek;
          return (
            <li key={w.week}>
              <RouteLink
                class={`rail-week${selected ? " is-selected" : ""}`}
                to={weekly(w.week, type)}
                onNavigate={onNavigate}
                aria-current={selected ? "page" : undefined}
                data-week={w.week}
              >
                <span class="rail-label">{w.label}</span>
                <span class={`status status-${w.status}`}>{STATUS_TEXT[w.status]}</span>
                <span
                  class="rail-dates"
                  title={`${formatLocal(w.startsAt)} to ${formatLocal(w.endsAt)} your time (${formatUtc(w.startsAt)} to ${formatUtc(w.endsAt)})`}
                >
                  {formatWeekSpan(w.startsAt, w.endsAt)}
                </span>
              </RouteLink>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

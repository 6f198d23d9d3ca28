/**
 * MyStatusCard: where the signed-in player stands in the selected week and what it takes to move — Champions
 * ("Qualified — rank N" / "Not qualified", the prize, the SP to the top-10 line and to the paid ranks),
 * Qualification (rank, movement since the previous week, "X SP to reach the top-25 line (Y SP)"), and the outlook
 * for next week. Signed out, it says what signing in gives and opens the sign-in panel.
 */
import type { ComponentChildren } from "preact";
import { useAccount } from "../account";
import type { LadderType, Meta, MyStatus as MyStatusData, RailWeek, Via } from "../api";
import { formatSp, ordinal } from "../format";
import { pageOfRank, weekly } from "../routes";
import { rankMovement, spToReach } from "../standing";
import type { Resource } from "../use-resource";
import { type Navigate, RouteLink } from "./route-link";
import { Usdc } from "./values";

/** The SP at the lines of the selected week's ladders (null when there is no such line yet). */
export interface Lines {
  qualificationSp: number | null;
  championsSp: number | null;
  /** The SP at the last paid rank (rank 5) of Champions. */
  paidSp: number | null;
}

const viaText = (via: Via) =>
  via === "champions"
    ? "via the Champions top 10"
    : via === "qualification"
      ? "via the Qualification top 25"
      : "";

/** Where a Champions place came from: the previous week's Qualification top 25 or Champions top 10. */
const placeFrom = (via: Via, previousLabel: string) =>
  via === "champions"
    ? `place kept from the ${previousLabel} Champions top 10`
    : via === "qualification"
      ? `place earned in the ${previousLabel} Qualification top 25`
      : "";

export function MyStatusCard(props: {
  me: Resource<MyStatusData> & { reload: () => void };
  previous: Resource<MyStatusData> | null;
  lines: Resource<Lines>;
  meta: Meta;
  onNavigate: Navigate;
}) {
  const { session, user, openSignIn } = useAccount();
  if (session.status === "checking" || session.status === "signing-in") {
    return (
      <Card>
        <p class="muted" aria-busy="true">
          {session.status === "checking" ? "Checking your session…" : "Signing you in…"}
        </p>
      </Card>
    );
  }
  if (!user) {
    return (
      <Card>
        <p>Sign in to play, and to see whether you qualified, your ranks and what it takes to move up.</p>
        <button type="button" class="button button-primary" onClick={openSignIn}>
          Sign in
        </button>
      </Card>
    );
  }
  return (
    <Card>
      <StatusBody {...props} />
    </Card>
  );
}

function Card(props: { children: ComponentChildren }) {
  return (
    <section class="card me" aria-labelledby="me-title">
      <h2 id="me-title" class="card-title">
        My status
      </h2>
      {props.children}
    </section>
  );
}

/** A link to the ladder page holding `rank`, which scrolls to and marks the player's row. */
function ShowMe(props: { week: number; type: LadderType; rank: number; onNavigate: Navigate }) {
  return (
    <RouteLink
      class="small show-me"
      to={weekly(props.week, props.type, pageOfRank(props.rank))}
      hash="#me"
      onNavigate={props.onNavigate}
    >
      Show in ladder
    </RouteLink>
  );
}

function Movement(props: {
  previous: Resource<MyStatusData> | null;
  rank: number | null;
  weeks: RailWeek[];
}) {
  const { previous, rank, weeks } = props;
  if (previous?.status !== "ok") return null;
  const label = weeks.find((w) => w.week === previous.data.week)?.label ?? `Week ${previous.data.week}`;
  const m = rankMovement(previous.data.qualification.rank, rank);
  if (m.kind === "none") return null;
  const text =
    m.kind === "new"
      ? `new: unranked in ${label}`
      : m.kind === "same"
        ? `same rank as in ${label}`
        : `${m.kind} ${m.places} since ${label} (${ordinal(previous.data.qualification.rank!)})`;
  return (
    <span class={`movement movement-${m.kind}`} data-testid="rank-movement">
      <span aria-hidden="true">{m.kind === "up" ? "▲ " : m.kind === "down" ? "▼ " : ""}</span>
      {text}
    </span>
  );
}

/** "X SP to reach the top-N line (Y SP)", or null when already there or there is no line. */
function ToLine(props: { mySp: number; lineSp: number | null; what: string; testId: string }) {
  const missing = spToReach(props.mySp, props.lineSp);
  if (missing === null || missing === 0) return null;
  return (
    <span class="to-line" data-testid={props.testId}>
      {`${formatSp(missing)} to reach ${props.what} (${formatSp(props.lineSp!)})`}
    </span>
  );
}

function StatusBody(props: {
  me: Resource<MyStatusData> & { reload: () => void };
  previous: Resource<MyStatusData> | null;
  lines: Resource<Lines>;
  meta: Meta;
  onNavigate: Navigate;
}) {
  const { me, previous, lines, meta, onNavigate } = props;
  const { weeks, constants } = meta;
  if (me.status === "loading" || me.status === "idle") {
    return (
      <p class="muted" aria-busy="true">
        Loading your status…
      </p>
    );
  }
  if (me.status === "error") {
    return (
      <div role="alert">
        <p class="error-text">{`Couldn't load your status: ${me.error.message}`}</p>
        <button type="button" class="button" onClick={me.reload}>
          Try again
        </button>
      </div>
    );
  }
  const s = me.data;
  const c = s.champions;
  const q = s.qualification;
  const live = s.provisional;
  const line = lines.status === "ok" ? lines.data : null;
  const nextLabel = weeks.find((w) => w.week === s.nextWeek.week)?.label ?? `Week ${s.nextWeek.week}`;
  const projected = live ? " (projected)" : "";
  const previousLabel = weeks.find((w) => w.week === s.week - 1)?.label ?? `Week ${s.week - 1}`;
  const qCut = constants.qualificationCutoff;
  const cCut = constants.championsCutoff;

  let champions: ComponentChildren;
  if (!c.enabled) {
    champions = (
      <>
        <span class="status-line">Champions starts in Week 1</span>
        <span class="muted small">{`Finish in the ${s.label} Qualification top ${qCut} to play it.`}</span>
      </>
    );
  } else if (c.eligible) {
    champions = (
      <>
        <span class="status-line status-good" data-testid="champions-status">
          {c.rank === null ? "Qualified — not ranked yet" : `Qualified — rank ${c.rank}`}
        </span>
        <span class="muted small">
          {`${formatSp(c.competitiveSp)}${c.eligibleVia ? ` · ${placeFrom(c.eligibleVia, previousLabel)}` : ""}`}
        </span>
        {c.prizeUsdc && (
          <span class="prize-line">
            Prize <Usdc amount={c.prizeUsdc} />
            {projected}
          </span>
        )}
        {live && line && (
          <>
            <ToLine
              mySp={c.competitiveSp}
              lineSp={line.paidSp}
              what={`${ordinal(constants.paidRanks)} place, the last paid rank`}
              testId="to-paid-line"
            />
            <ToLine
              mySp={c.competitiveSp}
              lineSp={line.championsSp}
              what={`the top-${cCut} line`}
              testId="to-champions-line"
            />
          </>
        )}
        {live && (
          <span class="muted small">{`Stay in the Champions top ${cCut} (or the Qualification top ${qCut}) to keep your place for ${nextLabel}.`}</span>
        )}
        {c.rank !== null && <ShowMe week={s.week} type="champions" rank={c.rank} onNavigate={onNavigate} />}
      </>
    );
  } else {
    champions = (
      <>
        <span class="status-line status-bad" data-testid="champions-status">
          Not qualified
        </span>
        <span class="muted small">
          {`You did not earn a Champions place for ${s.label}. ${live ? `The ${s.label} Qualification top ${qCut} play ${nextLabel} Champions.` : ""}`}
        </span>
      </>
    );
  }

  return (
    <dl class="status-list">
      <div>
        <dt>{`${s.label} Champions`}</dt>
        <dd>{champions}</dd>
      </div>
      <div>
        <dt>{`${s.label} Qualification`}</dt>
        <dd>
          <span class="status-line" data-testid="qualification-status">
            {q.rank === null ? "Not ranked yet" : `Rank ${q.rank}`}
          </span>
          <Movement previous={previous} rank={q.rank} weeks={weeks} />
          <span class="muted small">
            {`${formatSp(q.competitiveSp)}${q.rank === null ? "" : q.withinCutoff ? ` · inside the top ${qCut}` : ` · outside the top ${qCut}`}`}
          </span>
          {live && line && (
            <ToLine
              mySp={q.competitiveSp}
              lineSp={line.qualificationSp}
              what={`the top-${qCut} line`}
              testId="to-qualification-line"
            />
          )}
          {live && line && line.qualificationSp === null && (
            <span class="to-line">{`Fewer than ${qCut} players are ranked: any competitive SP puts you in the top ${qCut}.`}</span>
          )}
          {live && q.rank === null && (
            <span class="muted small">
              {`Win a prediction on an event kicking off in ${s.label} to get ranked. `}
              <RouteLink to={{ page: "play", sport: null, league: null }} onNavigate={onNavigate}>
                Play now
              </RouteLink>
            </span>
          )}
          {q.rank !== null && (
            <ShowMe week={s.week} type="qualification" rank={q.rank} onNavigate={onNavigate} />
          )}
        </dd>
      </div>
      <div>
        <dt>{`${nextLabel} Champions${projected}`}</dt>
        <dd>
          <span
            class={`status-line ${s.nextWeek.eligible ? "status-good" : ""}`}
            data-testid="next-week-status"
          >
            {s.nextWeek.eligible
              ? `${live ? "On track to qualify" : "Qualified"} ${viaText(s.nextWeek.via)}`
              : live
                ? "Not on track to qualify yet"
                : "Not qualified"}
          </span>
        </dd>
      </div>
    </dl>
  );
}

/**
 * MyStatus: sign-in with a browser wallet, then the player's standing in the selected week: Champions
 * ("Qualified — rank N" / "Not qualified"), Qualification rank, and the projection for next week.
 */
import type { ComponentChildren } from "preact";
import type { LadderType, MyStatus as MyStatusData, RailWeek, User, Via } from "../api";
import { formatSp, formatUsdc, shortWallet } from "../format";
import type { Resource } from "../use-resource";
import { PAGE_SIZE } from "../view-state";
import { type Navigate, ViewLink } from "./view-link";

export type Session =
  | { status: "checking" }
  | { status: "signed-out"; error: string | null }
  | { status: "signing-in" }
  | { status: "signed-in"; user: User; error: string | null }
  | { status: "signing-out"; user: User };

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
  session: Session;
  me: Resource<MyStatusData> & { reload: () => void };
  weeks: RailWeek[];
  walletAvailable: boolean;
  onSignIn: () => void;
  onSignOut: () => void;
  onNavigate: Navigate;
}) {
  const { session, me, weeks, walletAvailable, onSignIn, onSignOut, onNavigate } = props;

  if (session.status === "checking") {
    return (
      <Card>
        <p class="muted" aria-busy="true">
          Checking your session…
        </p>
      </Card>
    );
  }
  if (session.status === "signed-out" || session.status === "signing-in") {
    const busy = session.status === "signing-in";
    return (
      <Card>
        <p>Sign in with your wallet to see whether you qualified, your ranks and next week's outlook.</p>
        <button type="button" class="button button-primary" onClick={onSignIn} disabled={busy}>
          {busy ? "Check your wallet…" : "Sign in with wallet"}
        </button>
        {!walletAvailable && !busy && <p class="muted small">No browser wallet detected on this page.</p>}
        {session.status === "signed-out" && session.error && (
          <p class="error-text" role="alert">
            {session.error}
          </p>
        )}
      </Card>
    );
  }

  const user = session.user;
  const signingOut = session.status === "signing-out";
  return (
    <Card>
      <div class="who">
        <span class="who-name" title={user.wallet ?? undefined}>
          {user.wallet ? shortWallet(user.wallet) : user.displayName}
        </span>
        <button type="button" class="button button-small" onClick={onSignOut} disabled={signingOut}>
          {signingOut ? "Signing out…" : "Sign out"}
        </button>
      </div>
      {session.status === "signed-in" && session.error && (
        <p class="error-text" role="alert">
          {session.error}
        </p>
      )}
      <StatusBody me={me} weeks={weeks} onNavigate={onNavigate} />
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

/** A link to the ladder page holding `rank` (pages of 50; ties sharing a rank all sit from that position on). */
function ShowMe(props: { week: number; type: LadderType; rank: number; onNavigate: Navigate }) {
  const page = Math.floor((props.rank - 1) / PAGE_SIZE) + 1;
  return (
    <ViewLink class="small" view={{ week: props.week, type: props.type, page }} onNavigate={props.onNavigate}>
      Show in ladder
    </ViewLink>
  );
}

function StatusBody(props: {
  me: Resource<MyStatusData> & { reload: () => void };
  weeks: RailWeek[];
  onNavigate: Navigate;
}) {
  const { me, weeks, onNavigate } = props;
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
  const nextLabel = weeks.find((w) => w.week === s.nextWeek.week)?.label ?? `Week ${s.nextWeek.week}`;
  const projected = s.provisional ? " (projected)" : "";
  const previousLabel = weeks.find((w) => w.week === s.week - 1)?.label ?? `Week ${s.week - 1}`;

  let champions: ComponentChildren;
  if (!c.enabled) {
    champions = <span class="status-line">Champions starts in Week 1</span>;
  } else if (c.eligible) {
    champions = (
      <>
        <span class="status-line status-good" data-testid="champions-status">
          {c.rank === null ? "Qualified — not ranked yet" : `Qualified — rank ${c.rank}`}
        </span>
        <span class="muted small">
          {`${formatSp(c.competitiveSp)}${c.eligibleVia ? ` · ${placeFrom(c.eligibleVia, previousLabel)}` : ""}`}
        </span>
        {c.prizeUsdc && <span class="prize-line">{`Prize ${formatUsdc(c.prizeUsdc)}${projected}`}</span>}
        {c.rank !== null && <ShowMe week={s.week} type="champions" rank={c.rank} onNavigate={onNavigate} />}
      </>
    );
  } else {
    champions = (
      <>
        <span class="status-line status-bad" data-testid="champions-status">
          Not qualified
        </span>
        <span class="muted small">{`You did not earn a Champions place for ${s.label}.`}</span>
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
          <span class="muted small">
            {`${formatSp(q.competitiveSp)}${q.rank === null ? "" : q.withinCutoff ? " · inside the top 25" : " · outside the top 25"}`}
          </span>
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
              ? `${s.provisional ? "On track to qualify" : "Qualified"} ${viaText(s.nextWeek.via)}`
              : s.provisional
                ? "Not on track to qualify yet"
                : "Not qualified"}
          </span>
        </dd>
      </div>
    </dl>
  );
}

/** RoutePage: the page the route names — the weekly competition (default), play, my bets, rewards, the all-time
 * leaderboard, the profile or how it works. */
import { BetsPage } from "./pages/bets";
import { HowPage } from "./pages/how";
import { LeaderboardPage } from "./pages/leaderboard";
import { PlayPage } from "./pages/play";
import { ProfilePage } from "./pages/profile";
import { RewardsPage } from "./pages/rewards";
import { WeeklyPage } from "./pages/weekly";
import type { Route } from "./routes";
import type { ServerMeta } from "./use-server-meta";

export function RoutePage(props: {
  route: Route;
  meta: ServerMeta;
  onNavigate: (next: Route, hash?: string) => void;
  onReplace: (next: Route) => void;
}) {
  const { route, meta, onNavigate: navigate, onReplace: replaceRoute } = props;
  switch (route.page) {
    case "play":
      return <PlayPage route={route} onNavigate={navigate} onReplace={replaceRoute} />;
    case "bets":
      return <BetsPage route={route} onNavigate={navigate} />;
    case "rewards":
      return <RewardsPage onNavigate={navigate} />;
    case "leaderboard":
      return <LeaderboardPage route={route} onNavigate={navigate} />;
    case "profile":
      return <ProfilePage meta={meta} onNavigate={navigate} />;
    case "how":
      return <HowPage meta={meta} onNavigate={navigate} />;
    default:
      return <WeeklyPage route={route} meta={meta} onNavigate={navigate} onReplace={replaceRoute} />;
  }
}

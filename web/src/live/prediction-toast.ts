/**
 * What the page tells a player when the live stream says one of his bets changed (`prediction`), pure: "Your bet
 * on Liverpool (Liverpool v Everton) won 215 credits." with a link to claim it, "… lost.", "… was void: …"; a
 * USDC bet confirmed or rejected on-chain. Null for a change not worth a message (a bet still pending).
 */
import type { PredictionStatus } from "../api";
import { formatCredits, formatUsdc } from "../format";

export interface Toast {
  id: string;
  text: string;
  tone: "good" | "bad" | "warn" | "info";
  /** A link to "My bets" filtered by this status, with its text; null for none. */
  action: { text: string; status: PredictionStatus | null } | null;
}

export function predictionToast(
  change: {
    predictionId: string;
    status: PredictionStatus;
    payout: number | null;
    payoutUsdc: string | null;
  },
  /** `Liverpool (Liverpool v Everton)`, or null when the bet is not known to the page. */
  pick: string | null,
): Toast | null {
  const bet = pick ? `Your bet on ${pick}` : "Your bet";
  const id = `prediction-${change.predictionId}-${change.status}`;
  const amount =
    change.payoutUsdc !== null
      ? formatUsdc(change.payoutUsdc)
      : change.payout !== null
        ? formatCredits(change.payout)
        : null;
  switch (change.status) {
    case "won":
      return {
        id,
        tone: "good",
        text: amount ? `${bet} won ${amount}.` : `${bet} won.`,
        action: { text: "Claim your winnings", status: "won" },
      };
    case "lost":
      return { id, tone: "info", text: `${bet} lost.`, action: null };
    case "void":
      return {
        id,
        tone: "warn",
        text: `${bet} was void: your stake is yours to claim back.`,
        action: { text: "Get your stake back", status: "void" },
      };
    case "open":
      return { id, tone: "good", text: `${bet} is confirmed on-chain.`, action: null };
    case "rejected":
      return {
        id,
        tone: "bad",
        text: `${bet} was rejected on-chain: your stake is yours to claim back.`,
        action: { text: "See my bets", status: "rejected" },
      };
    default:
      return null;
  }
}

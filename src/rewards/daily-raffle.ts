/**
 * The daily raffle: every player who placed a prediction during a UTC day takes part in that day's draw, held
 * once the day has ended. The draw records a random seed; the winner follows from it (raffle-rules.ts) and gets
 * RAFFLE SP once (externalId `raffle:<day>`).
 */
import { randomBytes } from "node:crypto";
import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { appendSpEntry } from "../ledger/ledger.js";
import { activeUsersBetween, placedPredictionBetween } from "../predictions/predictions.js";
import type { Season } from "../shared/season.js";
import { dayBounds, utcDay } from "./day-rules.js";
import { pickRaffleWinner } from "./raffle-rules.js";
import { findRaffle, insertRaffle } from "./rewards.repository.js";

export interface RaffleDeps {
  db: Db;
  clock: Clock;
  season: Season;
  prizeSp: number;
}

export async function getDailyRaffle(deps: RaffleDeps, userId: bigint | null) {
  const now = deps.clock.now();
  const day = utcDay(now);
  const { start, end } = dayBounds(day);
  if (userId === null) return { date: day, eligible: false, reason: "Sign in to take part", drawAt: end };
  const eligible = await placedPredictionBetween(deps.db, userId, start, end);
  return {
    date: day,
    eligible,
    reason: eligible ? null : "Place at least one prediction today to enter",
    drawAt: end,
  };
}

export async function drawDailyRaffle(deps: RaffleDeps, input: { day: string }) {
  const now = deps.clock.now();
  const { start, end } = dayBounds(input.day);
  if (now.getTime() < end.getTime())
    throw new AppError("CONFLICT", `The raffle of ${input.day} is drawn after the day ends`);
  const earlier = await findRaffle(deps.db, input.day);
  if (earlier) return { raffle: earlier, alreadyDrawn: true };
  return deps.db.transaction(async (tx) => {
    const entrants = await activeUsersBetween(tx, start, end);
    const seed = randomBytes(32).toString("hex");
    const winner = pickRaffleWinner(seed, input.day, entrants);
    const raffle = await insertRaffle(tx, {
      day: input.day,
      seed,
      eligibleCount: entrants.length,
      winnerUserId: winner === null ? null : BigInt(winner),
      prizeSp: deps.prizeSp,
      drawnAt: now,
    });
    if (!raffle) return { raffle: (await findRaffle(tx, input.day))!, alreadyDrawn: true };
    if (winner !== null && deps.prizeSp > 0) {
      await appendSpEntry(tx, deps.season, {
        userId: BigInt(winner),
        type: "RAFFLE",
        amount: deps.prizeSp,
        eventId: null,
        externalId: `raffle:${input.day}`,
      });
    }
    return { raffle, alreadyDrawn: false };
  });
}

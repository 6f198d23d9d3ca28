/**
 * The daily raffle pick, pure and verifiable: with the recorded seed and the day, anyone holding the list of
 * eligible user ids (ascending) recomputes the winner as entrants[sha256(seed ":" day) mod n].
 */
import { createHash } from "node:crypto";
import { compareUserIds } from "../shared/ids.js";

export function pickRaffleWinner(seedHex: string, day: string, entrants: readonly string[]): string | null {
  if (entrants.length === 0) return null;
  const ordered = [...entrants].sort(compareUserIds);
  const digest = createHash("sha256").update(`${seedHex}:${day}`).digest("hex");
  const index = Number(BigInt(`0x${digest}`) % BigInt(ordered.length));
  return ordered[index]!;
}

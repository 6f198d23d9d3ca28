import { createSpClient, ok, signInWithWallet } from "@sp/sdk";
import { privateKeyToAccount } from "viem/accounts";

/** Sign in with a wallet, list the open events, bet 100 credits on the first outcome, read my standing. */
export async function quickstart(baseUrl: string, privateKey: `0x${string}`) {
  const sp = createSpClient({ baseUrl });
  const user = await signInWithWallet(sp, privateKeyToAccount(privateKey));

  const { items } = await ok(sp.GET("/api/available-events", { params: { query: { limit: 5 } } }));
  const [event] = items;
  const market = event?.markets[0];
  const outcome = market?.outcomes[0];
  if (!event || !market || !outcome) throw new Error("no open event to bet on");

  const body = { eventId: event.id, market: market.key, outcome: outcome.key, stake: 100 };
  const { prediction, balance } = await ok(sp.POST("/api/pred2earn/bet-placed", { body }));
  const me = await ok(sp.GET("/api/competition/me"));
  return { sp, user, event, prediction, balance, me };
}

/**
 * PrizePayout: the payout section of a finalized week's prize card. The week's Merkle root (what the prize
 * distributor pays against; anyone can rebuild it from the published leaves), the total paid to the winners, and
 * for the signed-in winner their prize with a "Claim" button (the browser wallet sends the claim with the proof
 * the service gave) or "Claimed" once the chain shows it.
 */
import { useMemo, useState } from "preact/hooks";
import { useAccount, usePlayerResource } from "../account";
import { api, type MyStatus, type PrizeClaim } from "../api";
import { claimPrize } from "../betting/prize-claim";
import { storedWalletId } from "../session/stored";
import { useBrowserWallets } from "../session/wallets";
import type { Resource } from "../use-resource";
import { useResource } from "../use-resource";
import { Usdc } from "./values";

export function PrizePayout(props: { week: number; me: Resource<MyStatus> }) {
  const { week, me } = props;
  const tree = useResource(["prize-tree", week], () => api.prizeTree(week));
  const claim = me.status === "ok" ? me.data.prizeClaim : null;
  return (
    <div class="payout" data-testid="prize-payout">
      <h3 class="card-subtitle">Payout</h3>
      {tree.status === "ok" ? (
        tree.data.root === null ? (
          <p class="muted small">No prize to pay on-chain for this week.</p>
        ) : (
          <>
            <p class="small">
              {"Prizes on-chain: "}
              <Usdc amount={tree.data.totalUsdc} testId="payout-total" />
              {` in ${tree.data.leaves.length} claim${tree.data.leaves.length === 1 ? "" : "s"}.`}
            </p>
            <p class="small root-line">
              {"Merkle root "}
              <code class="root" data-testid="prize-root" title={tree.data.root}>
                {tree.data.root}
              </code>
            </p>
          </>
        )
      ) : tree.status === "error" ? (
        <p class="error-text small">{`Couldn't load the payout: ${tree.error.message}`}</p>
      ) : (
        <p class="muted small" aria-busy="true">
          Loading the payout…
        </p>
      )}
      {claim && <MyPrize claim={claim} />}
    </div>
  );
}

function MyPrize(props: { claim: PrizeClaim }) {
  const { claim } = props;
  const { changed } = useAccount();
  const wallets = useBrowserWallets();
  const wallet = useMemo(
    () => wallets.find((w) => w.id === storedWalletId()) ?? wallets[0] ?? null,
    [wallets],
  );
  const distributor = usePlayerResource(["prize-distributor"], api.prizeDistributor);
  const [state, setState] = useState<
    { kind: "idle" } | { kind: "busy"; text: string } | { kind: "sent" } | { kind: "error"; message: string }
  >({ kind: "idle" });

  if (claim.awaitingWallet || claim.paidInWeek !== null) {
    return (
      <p class="small" data-testid="my-prize">
        {"Your prize "}
        <Usdc amount={claim.amountUsdc} />
        {claim.paidInWeek !== null
          ? ` is paid with Week ${claim.paidInWeek}'s prizes: claim it there.`
          : " waits for a wallet: sign in with one to have it paid with the next week's prizes."}
      </p>
    );
  }
  const claimed = claim.claimed || state.kind === "sent";
  const target = distributor.status === "ok" ? distributor.data : null;
  const onClaim = async () => {
    if (!wallet || !target) return;
    setState({ kind: "busy", text: "Confirm the claim in your wallet…" });
    try {
      await claimPrize({
        provider: wallet.provider,
        distributor: target,
        claim,
        onSent: () => setState({ kind: "busy", text: "Claim sent: waiting for it to be mined…" }),
      });
      setState({ kind: "sent" });
      changed();
    } catch (err) {
      setState({ kind: "error", message: err instanceof Error ? err.message : String(err) });
    }
  };
  return (
    <div class="my-prize" data-testid="my-prize">
      <p class="small">
        {"Your prize: "}
        <Usdc amount={claim.amountUsdc} testId="my-prize-amount" />
      </p>
      {claimed ? (
        <p class="success-text" data-testid="prize-claimed">
          Claimed
        </p>
      ) : (
        <>
          <button
            type="button"
            class="button button-primary"
            disabled={!wallet || !target || state.kind === "busy"}
            onClick={onClaim}
          >
            Claim
          </button>
          {!wallet && (
            <p class="muted small">No browser wallet found: the prize is claimed from your wallet.</p>
          )}
          {distributor.status === "ok" && !target && (
            <p class="muted small">Claims open once the prize distributor is published.</p>
          )}
        </>
      )}
      <p class="small" aria-live="polite">
        {state.kind === "busy" ? state.text : ""}
      </p>
      {state.kind === "error" && (
        <p class="error-text small" role="alert">
          {state.message}
        </p>
      )}
    </div>
  );
}

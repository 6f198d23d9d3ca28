/** PlayerCell: a ladder's player cell — the name (wallet on hover), the "You" tag, and the short wallet below. */
import { shortWallet } from "../format";

export function PlayerCell(props: { row: { displayName: string; wallet: string | null }; mine: boolean }) {
  const { row, mine } = props;
  return (
    <td class="col-player">
      <span class="player-line">
        <span class="player-name" title={row.wallet ?? row.displayName}>
          {row.displayName}
        </span>
        {mine && <span class="you-tag">You</span>}
      </span>
      {row.wallet && row.displayName !== shortWallet(row.wallet) && (
        <span class="player-wallet">{shortWallet(row.wallet)}</span>
      )}
    </td>
  );
}

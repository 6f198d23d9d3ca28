/** SessionNotices: under the header, the sign-in panel while it is open and nobody is signed in, and the error of
 * the last session action (e.g. a failed sign-out) while signed in. */
import type { Session } from "../account";
import type { BrowserWallet } from "../session/wallets";
import { SignInPanel } from "./sign-in-panel";

export function SessionNotices(props: {
  session: Session;
  signInOpen: boolean;
  signedIn: boolean;
  wallets: BrowserWallet[];
  onWallet: (wallet: BrowserWallet, inviteCode: string | undefined) => void;
  onIdentity: (inviteCode: string | undefined) => void;
  onClose: () => void;
}) {
  const { session } = props;
  return (
    <>
      {props.signInOpen && !props.signedIn && (
        <div class="wrap sign-in-wrap">
          <SignInPanel
            wallets={props.wallets}
            onWallet={props.onWallet}
            onIdentity={props.onIdentity}
            onClose={props.onClose}
          />
        </div>
      )}
      {session.status === "signed-in" && session.error && (
        <div class="wrap">
          <p class="error-text banner" role="alert">
            {session.error}
          </p>
        </div>
      )}
    </>
  );
}

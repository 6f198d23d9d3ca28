/** SignInPrompt: what a page needs a signed-in player for, and the button that opens the sign-in panel. */
import { useAccount } from "../account";

export function SignInPrompt(props: { what: string }) {
  const { session, openSignIn } = useAccount();
  if (session.status === "checking" || session.status === "signing-in") {
    return (
      <p class="card page-state muted" aria-busy="true">
        {session.status === "checking" ? "Checking your session…" : "Signing you in…"}
      </p>
    );
  }
  return (
    <div class="card page-state">
      <p>{`Sign in to ${props.what}.`}</p>
      <button type="button" class="button button-primary" onClick={openSignIn}>
        Sign in
      </button>
    </div>
  );
}

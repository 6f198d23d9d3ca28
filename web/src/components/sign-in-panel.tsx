/**
 * SignInPanel: every way to sign in that this page can offer — one button per browser wallet found (EIP-6963),
 * the identity provider's button when the service has one — with the invite code of a share link filled in. When
 * there is neither, one plain explanation and no button.
 */
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { useAccount } from "../account";
import { INVITE_CODE, rememberInviteCode, storedInviteCode } from "../session/stored";
import type { BrowserWallet } from "../session/wallets";

export function SignInPanel(props: {
  wallets: BrowserWallet[];
  onWallet: (wallet: BrowserWallet, inviteCode: string | undefined) => void;
  onIdentity: (inviteCode: string | undefined) => void;
  onClose: () => void;
}) {
  const { wallets, onWallet, onIdentity, onClose } = props;
  const { session, providers } = useAccount();
  const [code, setCode] = useState(storedInviteCode);
  const id = useId();
  const panelRef = useRef<HTMLElement>(null);
  useEffect(() => {
    panelRef.current?.focus();
  }, []);

  const oidc = providers?.oidc?.authorizationUrl ? providers.oidc : null;
  const busy = session.status === "signing-in" ? session.method : null;
  const error = session.status === "signed-out" ? session.error : null;
  const cleanCode = code.trim().toUpperCase();
  const codeValid = cleanCode === "" || INVITE_CODE.test(cleanCode);
  const invite = codeValid && cleanCode ? cleanCode : undefined;
  const nothing = wallets.length === 0 && !oidc;

  return (
    <section
      class="card sign-in"
      aria-labelledby={`${id}-title`}
      tabIndex={-1}
      ref={panelRef}
      data-testid="sign-in-panel"
    >
      <div class="sign-in-head">
        <h2 id={`${id}-title`} class="card-title">
          Sign in
        </h2>
        <button type="button" class="button button-small" onClick={onClose}>
          Close
        </button>
      </div>
      {nothing ? (
        <p data-testid="no-sign-in">
          No browser wallet was found on this page, and this service offers no other sign-in. Install a wallet
          extension (such as MetaMask or Rabby), then reload the page.
        </p>
      ) : (
        <>
          <p class="muted">
            New players get free credits to bet with. Your first sign-in creates your account.
          </p>
          <div class="field">
            <label for={`${id}-code`}>Invite code (optional)</label>
            <input
              id={`${id}-code`}
              class="input"
              value={code}
              maxLength={16}
              autoComplete="off"
              autoCapitalize="characters"
              spellcheck={false}
              aria-invalid={!codeValid}
              aria-describedby={`${id}-code-help`}
              onInput={(e) => {
                const value = e.currentTarget.value;
                setCode(value);
                const c = value.trim().toUpperCase();
                rememberInviteCode(INVITE_CODE.test(c) ? c : null);
              }}
            />
            <p id={`${id}-code-help`} class={codeValid ? "muted small" : "error-text small"}>
              {codeValid
                ? "A friend's code links you to them when your account is created."
                : "An invite code is 4 to 16 letters or digits."}
            </p>
          </div>
          <div class="sign-in-methods">
            {wallets.map((w) => (
              <button
                key={w.id}
                type="button"
                class="button button-primary sign-in-method"
                disabled={busy !== null || !codeValid}
                onClick={() => onWallet(w, invite)}
              >
                {w.icon && <img src={w.icon} alt="" width={20} height={20} />}
                {busy === w.id ? "Check your wallet…" : `Sign in with ${w.name}`}
              </button>
            ))}
            {oidc && (
              <button
                type="button"
                class="button sign-in-method"
                disabled={busy !== null || !codeValid}
                onClick={() => onIdentity(invite)}
              >
                {busy === "identity" ? "Signing in…" : `Sign in with ${hostOf(oidc.issuer)}`}
              </button>
            )}
          </div>
          {wallets.length === 0 && (
            <p class="muted small">
              No browser wallet found on this page: to bet in USDC, install a wallet extension and reload.
            </p>
          )}
        </>
      )}
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function hostOf(issuer: string): string {
  try {
    return new URL(issuer).host;
  } catch {
    return "your identity provider";
  }
}

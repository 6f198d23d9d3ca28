/**
 * What the page remembers in localStorage between visits: whether a session probably exists (the session cookie
 * is HttpOnly, so the page cannot see it; without the hint a signed-out visitor never triggers a 401, which
 * browsers log as an error), the invite code of a share link until sign-up, and the wallet the player signed in
 * with (version-2 bets go through it). Storage may be disabled: everything here then just forgets.
 */

const SIGNED_IN = "sp-competition.signed-in";
const INVITE = "sp-competition.invite-code";
const WALLET = "sp-competition.wallet";

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage disabled: nothing is remembered.
  }
}

export const probablySignedIn = (): boolean => read(SIGNED_IN) === "1";
export const rememberSignedIn = (signedIn: boolean): void => write(SIGNED_IN, signedIn ? "1" : null);

/** The referral code format the API accepts. */
export const INVITE_CODE = /^[A-Z0-9]{4,16}$/;

export const storedInviteCode = (): string => read(INVITE) ?? "";
export const rememberInviteCode = (code: string | null): void =>
  write(INVITE, code && INVITE_CODE.test(code) ? code : null);

/**
 * An invite link (`?ref=CODE`) opened the page: keep the code for sign-up and take it out of the address bar, so
 * sharing the page afterwards does not pass the code on.
 */
export function takeInviteFromUrl(): void {
  const url = new URL(location.href);
  const ref = url.searchParams.get("ref");
  if (ref === null) return;
  const code = ref.trim().toUpperCase();
  if (INVITE_CODE.test(code)) rememberInviteCode(code);
  url.searchParams.delete("ref");
  history.replaceState(null, "", `${url.pathname}${url.search}${url.hash}`);
}

export const storedWalletId = (): string | null => read(WALLET);
export const rememberWalletId = (id: string | null): void => write(WALLET, id);

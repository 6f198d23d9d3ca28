/**
 * LiveProvider: the page's live updates (use-live-updates.ts) for everything inside it, through LiveContext: the
 * header's notices (the offline banner, the toasts) and the slip read them. `identity`: the signed-in user's id,
 * null signed out, undefined while the stored session is being checked (no stream yet); a change reconnects.
 */
import type { ComponentChildren } from "preact";
import { LiveContext, useLiveUpdates } from "./use-live-updates";

export function LiveProvider(props: { identity: string | null | undefined; children: ComponentChildren }) {
  const live = useLiveUpdates(props.identity);
  return <LiveContext.Provider value={live}>{props.children}</LiveContext.Provider>;
}

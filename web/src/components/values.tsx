/**
 * How amounts and instants appear everywhere: USDC as money with the exact 6-decimal amount on hover, times in
 * the player's zone with the UTC instant on hover, and live countdowns against the server's clock.
 */
import { useEffect, useState } from "preact/hooks";
import { useAccount } from "../account";
import { exactUsdc, formatDuration, formatLocal, formatUsdc, formatUtc } from "../format";

/** `$2,600.50`, titled `2,600.500000 USDC`. */
export function Usdc(props: { amount: string; class?: string; testId?: string }) {
  return (
    <span
      class={props.class ? `money ${props.class}` : "money"}
      title={exactUsdc(props.amount)}
      data-testid={props.testId}
    >
      {formatUsdc(props.amount)}
    </span>
  );
}

/** `Wed, Nov 25, 19:00` in the player's zone, titled with the UTC instant. */
export function When(props: { iso: string; class?: string }) {
  return (
    <time class={props.class} dateTime={props.iso} title={formatUtc(props.iso)}>
      {formatLocal(props.iso)}
    </time>
  );
}

/** Re-renders every `ms` milliseconds while mounted. */
export function useTick(ms = 1000): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => setTick((n) => n + 1), ms);
    return () => clearInterval(id);
  }, [ms]);
}

/** Seconds from the server's now until `iso` (0 once passed). */
export function useSecondsUntil(iso: string): number {
  const { serverNow } = useAccount();
  useTick();
  return Math.max(0, Math.ceil((Date.parse(iso) - serverNow().getTime()) / 1000));
}

/** `in 3h 04m 05s` counting down to `iso`, then `now`. */
export function CountdownTo(props: { iso: string; class?: string }) {
  const seconds = useSecondsUntil(props.iso);
  return (
    <time class={props.class} dateTime={props.iso} title={formatUtc(props.iso)}>
      {seconds > 0 ? `in ${formatDuration(seconds)}` : "now"}
    </time>
  );
}

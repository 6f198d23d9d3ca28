/** PagerNav: previous / status / next links of a paged list (real links: a page opens in a new tab too). */
import type { Route } from "../routes";
import { type Navigate, RouteLink } from "./route-link";

export function PagerNav(props: {
  label: string;
  status: string;
  prev: Route | null;
  next: Route | null;
  onNavigate: Navigate;
}) {
  const { label, status, prev, next, onNavigate } = props;
  return (
    <nav class="pager" aria-label={label}>
      {prev ? (
        <RouteLink class="button" to={prev} onNavigate={onNavigate} rel="prev">
          ← Previous
        </RouteLink>
      ) : (
        <span class="button" aria-disabled="true">
          ← Previous
        </span>
      )}
      <span class="pager-status">{status}</span>
      {next ? (
        <RouteLink class="button" to={next} onNavigate={onNavigate} rel="next">
          Next →
        </RouteLink>
      ) : (
        <span class="button" aria-disabled="true">
          Next →
        </span>
      )}
    </nav>
  );
}

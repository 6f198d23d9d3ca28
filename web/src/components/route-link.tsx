/**
 * RouteLink: a real link to another view of the app. A plain click changes the view in place through the app's
 * `onNavigate` (the router's history push); modified clicks (new tab, new window) keep the browser's behaviour.
 * The click stops here, so the router's own link handler does not push the same URL a second time.
 */
import type { ComponentChildren } from "preact";
import { type Route, routeHref } from "../routes";

export type Navigate = (route: Route, hash?: string) => void;

export function RouteLink(props: {
  to: Route;
  hash?: string;
  onNavigate: Navigate;
  children: ComponentChildren;
  class?: string;
  rel?: string;
  "aria-current"?: "page";
  "aria-label"?: string;
  "data-week"?: number;
}) {
  const { to, hash, onNavigate, children, ...rest } = props;
  return (
    <a
      {...rest}
      href={routeHref(to, hash)}
      onClick={(e) => {
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        e.stopPropagation();
        onNavigate(to, hash);
      }}
    >
      {children}
    </a>
  );
}

/**
 * The route of the URL (preact-iso's location, read into a typed route by routes.ts), with `navigate` (push) and
 * `replaceRoute` (replace). A new page starts at the top: a link with a hash scrolls to its target instead, and
 * back and forward let the browser restore the position.
 */
import { useCallback, useEffect, useMemo, useRef } from "preact/hooks";
import { useLocation } from "preact-iso";
import { type Route, readRoute, routeHref } from "./routes";

export function useAppRoute() {
  const loc = useLocation();
  const route = useMemo<Route>(() => {
    const u = new URL(loc.url, location.origin);
    return readRoute(u.pathname, u.search);
  }, [loc.url]);
  const routeTo = loc.route;
  const navigate = useCallback((next: Route, hash = "") => routeTo(routeHref(next, hash)), [routeTo]);
  const replaceRoute = useCallback((next: Route) => routeTo(routeHref(next), true), [routeTo]);
  const pushed = (loc as { wasPush?: boolean }).wasPush === true;
  const lastPath = useRef(route.page);
  useEffect(() => {
    if (pushed && !loc.url.includes("#") && lastPath.current !== route.page) scrollTo(0, 0);
    lastPath.current = route.page;
  }, [loc.url]);
  return { route, navigate, replaceRoute };
}

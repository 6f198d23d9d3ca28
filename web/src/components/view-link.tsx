/**
 * ViewLink: a real link to another view of the page (`?week=…&type=…&page=…`). A plain click changes the view
 * in place (history.pushState); modified clicks (new tab, new window) keep the browser's behaviour.
 */
import type { ComponentChildren } from "preact";
import { type ViewState, viewHref } from "../view-state";

export type Navigate = (view: ViewState) => void;

export function ViewLink(props: {
  view: ViewState;
  onNavigate: Navigate;
  children: ComponentChildren;
  class?: string;
  rel?: string;
  "aria-current"?: "page";
  "data-week"?: number;
}) {
  const { view, onNavigate, children, ...rest } = props;
  return (
    <a
      {...rest}
      href={viewHref(view)}
      onClick={(e) => {
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        onNavigate(view);
      }}
    >
      {children}
    </a>
  );
}

/**
 * What the page shows, kept in the URL so a link reproduces it: `?week=3&type=champions&page=2`.
 * A missing week means "the current week"; a missing type means Qualification; a missing page means page 1.
 */
import type { LadderType } from "./api";

export interface ViewState {
  week: number | null;
  type: LadderType;
  page: number;
}

/** Rows per ladder page. */
export const PAGE_SIZE = 50;

const wholeNumber = (s: string | null, min: number): number | null => {
  if (s === null || !/^\d{1,6}$/.test(s)) return null;
  const n = Number(s);
  return n >= min ? n : null;
};

export function readView(search: string): ViewState {
  const p = new URLSearchParams(search);
  return {
    week: wholeNumber(p.get("week"), 0),
    type: p.get("type") === "champions" ? "champions" : "qualification",
    page: wholeNumber(p.get("page"), 1) ?? 1,
  };
}

/** The query string of a view; defaults are left out so the plain `/` stays the live view. */
export function viewHref(v: ViewState): string {
  const p = new URLSearchParams();
  if (v.week !== null) p.set("week", String(v.week));
  if (v.type !== "qualification") p.set("type", v.type);
  if (v.page > 1) p.set("page", String(v.page));
  const s = p.toString();
  return s ? `?${s}` : location.pathname;
}

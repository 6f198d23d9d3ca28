import { describe, expect, it } from "vitest";
import { buildEventBody } from "../../test/factories.js";
import { validateEventEntries } from "./import-events.js";

const body = buildEventBody({ kickoffAt: "2026-11-14T12:30:00.000Z" });

describe("validateEventEntries", () => {
  it("accepts valid entries and splits the id from the body", () => {
    const { entries, errors } = validateEventEntries([{ id: "e1", ...body }]);
    expect(errors).toEqual([]);
    expect(entries).toEqual([{ id: "e1", body }]);
  });

  it("names every problem by entry index", () => {
    const badMarkets = {
      ...body,
      markets: [body.markets[0], body.markets[0]],
    };
    const { entries, errors } = validateEventEntries([
      { id: "ok", ...body },
      { id: "bad id!", ...body, kickoffAt: "tomorrow" },
      "not an object",
      { id: "ok", ...body },
      { id: "dup-market", ...badMarkets },
      { ...body },
    ]);
    expect(entries.map((e) => e.id)).toEqual(["ok"]);
    const fields = errors.map((e) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining(["[1].id", "[1].kickoffAt", "[2]", "[3].id", "[4].markets.1.key", "[5].id"]),
    );
    expect(errors.find((e) => e.field === "[3].id")!.message).toBe("is repeated (first at [0])");
    expect(fields.some((f) => f.startsWith("[0]"))).toBe(false);
  });

  it("names a NUL character or a lone surrogate by entry and field, as the API refuses them", () => {
    // Before: a NUL reached the insert (an INTERNAL error quoting SQL, no entry named); a lone surrogate was stored
    // as U+FFFD.
    const { entries, errors } = validateEventEntries([
      { id: "fine", ...body },
      { id: "nul", ...body, homeTeam: "Arse\u0000nal" },
      { id: "surrogate", ...body, awayTeam: "Chel\ud800sea" },
    ]);
    expect(entries.map((e) => e.id)).toEqual(["fine"]);
    expect(errors.map((e) => e.field)).toEqual(["[1].homeTeam", "[2].awayTeam"]);
  });

  it("refuses anything but an array", () => {
    expect(validateEventEntries({ id: "e1" }).errors).toEqual([
      { field: "file", message: "must be a JSON array of events" },
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { isConnectionLost, isDependencyUnavailable } from "./unavailable.js";

/** An error with a code, as node-postgres and Node's sockets give them. */
const coded = (code: string, message = "x") => Object.assign(new Error(message), { code });
/** Drizzle's wrapping: the driver's error is the cause. */
const wrapped = (cause: unknown) => new Error("Failed query: select 1", { cause });

describe("isDependencyUnavailable", () => {
  it.each([
    ["a refused connection", coded("ECONNREFUSED"), true],
    ["a restart's admin shutdown, wrapped", wrapped(coded("57P01")), true],
    ["a statement timeout", coded("57014"), true],
    ["a serialization failure that outlasted the retries", coded("40001"), true],
    ["too many connections (class 53)", coded("53300"), true],
    ["a broken connection (class 08)", coded("08006"), true],
    ["the pool's wait for a connection", new Error("timeout exceeded when trying to connect"), true],
    ["a unique violation", wrapped(coded("23505")), false],
    ["an application error's code", coded("NOT_FOUND"), false],
    ["a plain error", new Error("boom"), false],
  ])("%s: %s", (_, err, expected) => {
    expect(isDependencyUnavailable(err)).toBe(expected);
  });

  it("looks through five causes, not more", () => {
    let err: unknown = coded("ECONNRESET");
    for (let i = 0; i < 4; i++) err = wrapped(err);
    expect(isDependencyUnavailable(err)).toBe(true);
    expect(isDependencyUnavailable(wrapped(err))).toBe(false);
  });
});

describe("isConnectionLost", () => {
  it.each([
    ["a reset socket", coded("ECONNRESET"), true],
    ["a restart's admin shutdown, wrapped", wrapped(coded("57P01")), true],
    ["a broken connection (class 08)", coded("08006"), true],
    ["the client giving up on a statement, wrapped", wrapped(new Error("Query read timeout")), true],
    ["a connection ended", new Error("Connection terminated unexpectedly"), true],
    [
      "a client that already failed",
      new Error("Client has encountered a connection error and is not queryable"),
      true,
    ],
    // The connection answered each of these: it is fine to use again.
    ["a statement timeout (the server cancelled it and said so)", coded("57014"), false],
    ["a serialization failure", coded("40001"), false],
    ["a unique violation", wrapped(coded("23505")), false],
    ["the server starting up (no session was opened)", coded("57P03"), false],
    [
      "the pool's wait for a connection (none was held)",
      new Error("timeout exceeded when trying to connect"),
      false,
    ],
    ["an application error", coded("NOT_FOUND"), false],
  ])("%s: %s", (_, err, expected) => {
    expect(isConnectionLost(err)).toBe(expected);
  });
});

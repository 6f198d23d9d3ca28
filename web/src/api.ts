/**
 * The page's only door to the server: same-origin `fetch` with the session cookie, unwrapping the
 * `{success, data}` / `{success: false, error, status, code}` envelopes of SPEC §8–9 into data or an ApiError.
 */

export type WeekStatus = "upcoming" | "live" | "ended" | "finalized";
export type LadderType = "qualification" | "champions";
export type Via = "qualification" | "champions" | null;

export interface RailWeek {
  week: number;
  label: string;
  startsAt: string;
  endsAt: string;
  status: WeekStatus;
  provisional: boolean;
  championsEnabled: boolean;
}

export interface Meta {
  now: string;
  currentWeek: number;
  seasonStarted: boolean;
  championsEnabled: boolean;
  countdown: { endsAt: string; secondsRemaining: number };
  constants: {
    qualificationCutoff: number;
    championsCutoff: number;
    paidRanks: number;
    prizeSplitPct: number[];
    weekLengthDays: number;
  };
  weeks: RailWeek[];
}

export interface LadderRow {
  rank: number;
  userId: string;
  displayName: string;
  wallet: string | null;
  competitiveSp: number;
  withinCutoff: boolean;
  prizeUsdc: string | null;
}

export interface Leaderboard {
  week: number;
  type: LadderType;
  label: string;
  championsEnabled: boolean;
  provisional: boolean;
  total: number;
  offset: number;
  limit: number;
  cutoffRank: number;
  cutoffSp: number | null;
  rows: LadderRow[];
}

export interface PrizePool {
  estimatedUsdc: string;
  selectedWeek: number;
  fundingWeekIndex: number | null;
  feeWindowStart: string | null;
  feeWindowEnd: string | null;
  sources: { protocolFeesWeek: string; protocolIncentiveUsdc: string; entries: string };
}

export interface MyStatus {
  week: number;
  label: string;
  provisional: boolean;
  qualification: { rank: number | null; competitiveSp: number; withinCutoff: boolean };
  champions: {
    enabled: boolean;
    eligible: boolean;
    eligibleVia: Via;
    rank: number | null;
    competitiveSp: number;
    withinCutoff: boolean;
    prizeUsdc: string | null;
  };
  nextWeek: { week: number; eligible: boolean; via: Via };
}

export interface User {
  id: string;
  displayName: string;
  wallet: string | null;
}

/** A failed call: the envelope's message and code, or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

async function request<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers:
        body === undefined
          ? { accept: "application/json" }
          : { accept: "application/json", "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("The server could not be reached. Check your connection.", 0, "NETWORK");
  }
  let payload: unknown = null;
  try {
    payload = await res.json();
  } catch {
    payload = null;
  }
  const envelope = payload as { success?: boolean; data?: T; error?: string; code?: string } | null;
  if (res.ok && envelope?.success === true) return envelope.data as T;
  throw new ApiError(
    envelope?.error ?? `The server answered ${res.status}.`,
    res.status,
    envelope?.code ?? "HTTP_ERROR",
  );
}

const query = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

export const api = {
  meta: () => request<Meta>("GET", "/api/competition/meta"),
  leaderboard: (p: { week: number; type: LadderType; offset: number; limit: number }) =>
    request<Leaderboard>("GET", `/api/competition/leaderboard?${query(p)}`),
  prizePool: (week: number) =>
    request<PrizePool>("GET", `/api/competition/prize-pool-estimate?${query({ week })}`),
  me: (week: number) => request<MyStatus>("GET", `/api/competition/me?${query({ week })}`),
  nonce: () => request<{ nonce: string }>("GET", "/api/auth/nonce"),
  signInWithWallet: (message: string, signature: string) =>
    request<{ user: User }>("POST", "/api/auth/wallet", { message, signature }),
  session: () => request<{ user: User }>("GET", "/api/auth/session"),
  logout: () => request<Record<string, never>>("POST", "/api/auth/logout"),
};

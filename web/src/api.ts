/**
 * The page's only door to the server: same-origin `fetch` with the session cookie, unwrapping the
 * `{success, data}` / `{success: false, error, status, code}` envelopes of SPEC §8–9 into data or an ApiError.
 * Every type here comes from the generated OpenAPI types (./api-types.ts, `npm run gen:api`).
 */
import type { paths } from "./api-types";

type Method = "get" | "post";
type Operation<P extends keyof paths, M extends Method> = M extends keyof paths[P] ? paths[P][M] : never;
type JsonOf<R> = R extends { content: { "application/json": infer J } } ? J : never;
type Responses<O> = O extends { responses: infer R } ? { [S in keyof R]: JsonOf<R[S]> }[keyof R] : never;

/** The `data` of an operation's success envelope. */
export type ApiData<P extends keyof paths, M extends Method> = Extract<
  Responses<Operation<P, M>>,
  { success: true }
>["data"];
/** The JSON body of an operation. */
export type ApiBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody: { content: { "application/json": infer B } } } ? B : never;
/** The query parameters of an operation. */
export type ApiQuery<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type Meta = ApiData<"/api/competition/meta", "get">;
export type RailWeek = Meta["weeks"][number];
export type WeekStatus = RailWeek["status"];
export type LadderType = NonNullable<ApiQuery<"/api/competition/leaderboard", "get">["type"]>;
export type Leaderboard = ApiData<"/api/competition/leaderboard", "get">;
export type LadderRow = Leaderboard["rows"][number];
export type PrizePool = ApiData<"/api/competition/prize-pool-estimate", "get">;
export type MyStatus = ApiData<"/api/competition/me", "get">;
export type Via = MyStatus["champions"]["eligibleVia"];
export type PrizeClaim = NonNullable<MyStatus["prizeClaim"]>;
export type PrizeTree = ApiData<"/api/competition/weeks/{week}/prize-tree", "get">;

export type User = ApiData<"/api/auth/session", "get">["user"];
export type Providers = ApiData<"/api/auth/providers", "get">;
export type OidcProvider = NonNullable<Providers["oidc"]>;

export type EventQuery = ApiQuery<"/api/available-events", "get">;
export type EventPage = ApiData<"/api/available-events", "get">;
export type SportEvent = EventPage["items"][number];
export type Market = SportEvent["markets"][number];
export type Outcome = Market["outcomes"][number];

export type BetBody = ApiBody<"/api/pred2earn/bet-placed", "post">;
export type BetPlaced = ApiData<"/api/pred2earn/bet-placed", "post">;
export type OnchainBetBody = ApiBody<"/api/pred2earn/bet-placed-v2", "post">;
export type PredictionStatus = NonNullable<ApiQuery<"/api/user/predictions", "get">["status"]>;
export type PredictionPage = ApiData<"/api/user/predictions", "get">;
export type PredictionItem = PredictionPage["items"][number];
export type Claim = ApiData<"/api/pred2earn/claim-payout", "post">;

export type AllTimePage = ApiData<"/api/leaderboard", "get">;
export type AllTimeRow = AllTimePage["rows"][number];
export type AllTimeUserRow = ApiData<"/api/leaderboard/user-row", "get">;
export type ProfileStats = ApiData<"/api/user/profile-stats", "get">;
export type Referrals = ApiData<"/api/referrals", "get">;
export type Redeemed = ApiData<"/api/referrals", "post">;
export type Raffle = ApiData<"/api/daily-raffle", "get">;
export type ReclaimInfo = ApiData<"/api/reclaim/info", "get">;
export type Reclaimed = ApiData<"/api/reclaim", "post">;

/** The chain version-2 bets are placed on (`GET /api/chain/info`); every field null when no chain is configured. */
export type ChainInfo = ApiData<"/api/chain/info", "get">;
/** A signed odds quote (`POST /api/pred2earn/quote`), handed to the betting contract as is. */
export type SignedQuote = ApiData<"/api/pred2earn/quote", "post">;
export type QuoteBody = ApiBody<"/api/pred2earn/quote", "post">;
export type OnchainBetPlaced = ApiData<"/api/pred2earn/bet-placed-v2", "post">;

/** A failed call: the envelope's message, code and details, or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly details: unknown = undefined,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/**
 * How long a call waits for the server's whole answer before it gives up with a TIMEOUT error (status 0): a stalled
 * connection must not leave a page waiting forever. The server bounds its own work (each statement 5 s), so a
 * healthy answer arrives well within it.
 */
export const REQUEST_TIMEOUT_MS = 20_000;

const timedOut = () =>
  new ApiError(
    `The server did not answer within ${REQUEST_TIMEOUT_MS / 1000} s. Check your connection and try again.`,
    0,
    "TIMEOUT",
  );

const isTimeout = (err: unknown) => err instanceof DOMException && err.name === "TimeoutError";

async function request<T>(
  method: "GET" | "POST",
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<T> {
  let res: Response;
  // One bound for the answer's headers and its body together.
  const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  try {
    res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: {
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...extraHeaders,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (isTimeout(err)) throw timedOut();
    throw new ApiError("The server could not be reached. Check your connection.", 0, "NETWORK");
  }
  let payload: unknown = null;
  try {
    payload = await res.json();
  } catch (err) {
    if (isTimeout(err)) throw timedOut();
    payload = null;
  }
  const envelope = payload as {
    success?: boolean;
    data?: T;
    error?: string;
    code?: string;
    details?: unknown;
  } | null;
  if (res.ok && envelope?.success === true) return envelope.data as T;
  throw new ApiError(
    envelope?.error ?? `The server answered ${res.status}.`,
    res.status,
    envelope?.code ?? "HTTP_ERROR",
    envelope?.details,
  );
}

/** A query string of the given parameters, leaving out undefined ones. */
const query = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
  ).toString();

export const api = {
  meta: () => request<Meta>("GET", "/api/competition/meta"),
  leaderboard: (p: { week: number; type: LadderType; offset: number; limit: number }) =>
    request<Leaderboard>("GET", `/api/competition/leaderboard?${query(p)}`),
  prizePool: (week: number) =>
    request<PrizePool>("GET", `/api/competition/prize-pool-estimate?${query({ week })}`),
  me: (week: number) => request<MyStatus>("GET", `/api/competition/me?${query({ week })}`),
  prizeTree: (week: number) =>
    request<PrizeTree>("GET", `/api/competition/weeks/${encodeURIComponent(String(week))}/prize-tree`),

  providers: () => request<Providers>("GET", "/api/auth/providers"),
  nonce: () => request<ApiData<"/api/auth/nonce", "get">>("GET", "/api/auth/nonce"),
  signInWithWallet: (message: string, signature: string, referralCode?: string) =>
    request<{ user: User }>("POST", "/api/auth/wallet", { message, signature, referralCode }),
  signInWithIdentity: (idToken: string, referralCode?: string) =>
    request<{ user: User }>("POST", "/api/auth/oidc", { idToken, referralCode }),
  session: () => request<{ user: User }>("GET", "/api/auth/session"),
  logout: () => request<Record<string, never>>("POST", "/api/auth/logout"),

  events: (q: EventQuery) => request<EventPage>("GET", `/api/available-events?${query(q)}`),
  event: (id: string) => request<SportEvent>("GET", `/api/events/${encodeURIComponent(id)}`),
  placeBet: (body: BetBody, idempotencyKey: string) =>
    request<BetPlaced>("POST", "/api/pred2earn/bet-placed", body, { "idempotency-key": idempotencyKey }),
  predictions: (q: { status?: PredictionStatus; limit?: number; cursor?: string }) =>
    request<PredictionPage>("GET", `/api/user/predictions?${query(q)}`),
  claim: (predictionId: string) => request<Claim>("POST", "/api/pred2earn/claim-payout", { predictionId }),

  allTime: (offset: number, limit: number) =>
    request<AllTimePage>("GET", `/api/leaderboard?${query({ offset, limit })}`),
  myAllTimeRow: () => request<AllTimeUserRow>("GET", "/api/leaderboard/user-row"),
  profile: () => request<ProfileStats>("GET", "/api/user/profile-stats"),
  referrals: () => request<Referrals>("GET", "/api/referrals"),
  redeemReferrals: () => request<Redeemed>("POST", "/api/referrals"),
  raffle: () => request<Raffle>("GET", "/api/daily-raffle"),
  reclaimInfo: () => request<ReclaimInfo>("GET", "/api/reclaim/info"),
  reclaim: () => request<Reclaimed>("POST", "/api/reclaim"),

  /** The chain of version-2 bets; null when the service has no chain configured. */
  chainInfo: async (): Promise<ChainInfo | null> => {
    const info = await request<ChainInfo>("GET", "/api/chain/info");
    return info.chainId !== null && info.bettingContract !== null && info.usdc !== null ? info : null;
  },
  /** The chain and address of the Champions prize distributor; null when none is configured. */
  prizeDistributor: async (): Promise<{ chainId: number; address: string } | null> => {
    const info = await request<ChainInfo>("GET", "/api/chain/info");
    return info.chainId !== null && info.prizeDistributorAddress !== null
      ? { chainId: info.chainId, address: info.prizeDistributorAddress }
      : null;
  },
  quote: (body: QuoteBody) => request<SignedQuote>("POST", "/api/pred2earn/quote", body),
  reportOnchainBet: (body: OnchainBetBody, idempotencyKey: string) =>
    request<OnchainBetPlaced>("POST", "/api/pred2earn/bet-placed-v2", body, {
      "idempotency-key": idempotencyKey,
    }),
};

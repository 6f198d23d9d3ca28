/** The service's entities under their component names (`components["schemas"][…]` of the generated types). */
import type { components } from "./api-types.js";

type Schemas = components["schemas"];

export type Event = Schemas["Event"];
export type Market = Schemas["Market"];
export type Outcome = Schemas["Outcome"];
export type EventOdds = Schemas["EventOdds"];
export type EventPage = Schemas["EventPage"];
export type Prediction = Schemas["Prediction"];
export type PredictionWithEvent = Schemas["PredictionWithEvent"];
export type PredictionPage = Schemas["PredictionPage"];
export type BetRequest = Schemas["BetRequest"];
export type BetPlaced = Schemas["BetPlaced"];
export type PayoutClaim = Schemas["PayoutClaim"];
export type User = Schemas["User"];
export type CompetitionMeta = Schemas["CompetitionMeta"];
export type LadderPage = Schemas["LadderPage"];
export type LadderRow = Schemas["LadderRow"];
export type MyStanding = Schemas["MyStanding"];
export type PrizePoolEstimate = Schemas["PrizePoolEstimate"];
export type PrizeTree = Schemas["PrizeTree"];
export type AllTimePage = Schemas["AllTimePage"];
export type AllTimeRow = Schemas["AllTimeRow"];
export type ProfileStats = Schemas["ProfileStats"];
export type ChainInfo = Schemas["ChainInfo"];
export type SignedQuote = Schemas["SignedQuote"];

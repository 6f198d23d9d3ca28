/**
 * One table of error codes. Code throws `AppError(code)`; the envelope plugin maps the code to its HTTP status.
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  ODDS_CHANGED: 409,
  ALREADY_CLAIMED: 409,
  NOT_CLAIMABLE: 409,
  INSUFFICIENT_CREDITS: 409,
  EVENT_CLOSED: 409,
  WEEK_NOT_ENDED: 409,
  PREVIOUS_WEEK_NOT_FINALIZED: 409,
  WEEK_NOT_FINALIZED: 409,
  CONFLICT: 409,
  FEES_NOT_INDEXED: 409,
  BETS_NOT_INDEXED: 409,
  INSUFFICIENT_LIQUIDITY: 409,
  BET_MISMATCH: 409,
  QUOTES_UNAVAILABLE: 409,
  PAYOUTS_UNAVAILABLE: 409,
  BET_NOT_FOUND: 404,
  NOT_READY: 503,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

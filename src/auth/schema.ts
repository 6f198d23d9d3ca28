/** Request and response schemas of the sign-in routes. */
import { Type } from "typebox";
import { Nullable } from "../shared/schema-types.js";
import { UserSchema } from "../users/presenters.js";

const ReferralCode = Type.String({
  pattern: "^[A-Z0-9]{4,16}$",
  description: "A referrer's code, linked on the player's first sign-in only",
});

export const WalletSignInBody = Type.Object(
  {
    message: Type.String({
      minLength: 1,
      maxLength: 4096,
      description:
        "An EIP-4361 (Sign-In with Ethereum) message: this service's domain, a fresh nonce of GET " +
        "/api/auth/nonce, an accepted chain id, issued now",
    }),
    signature: Type.String({
      pattern: "^0x[0-9a-fA-F]{130}$",
      description: "The wallet's personal_sign signature of `message`",
    }),
    referralCode: Type.Optional(ReferralCode),
  },
  {
    additionalProperties: false,
    title: "WalletSignIn",
    examples: [
      {
        message:
          "localhost:3000 wants you to sign in with your Ethereum account:\n0x70997970C51812dc3A010C7d01b50e0d17dc79C8\n\nURI: http://localhost:3000\nVersion: 1\nChain ID: 1\nNonce: 3fXbq8hJkQm2rT9w\nIssued At: 2030-01-01T12:00:00.000Z",
        signature: `0x${"ab".repeat(65)}`,
      },
    ],
  },
);

export const NonceResponse = Type.Object(
  {
    nonce: Type.String({ description: "Single use, valid 10 minutes" }),
    domain: Type.String({
      description:
        "The domain (`host[:port]`) the EIP-4361 message should name: the request's host when it is accepted",
    }),
  },
  { title: "Nonce" },
);
export const UserResponse = Type.Object({ user: UserSchema }, { title: "SignedInUser" });

export const OidcSignInBody = Type.Object(
  {
    idToken: Type.String({
      minLength: 1,
      maxLength: 8192,
      description: "An OIDC ID token of the configured issuer, for the configured audience",
    }),
    referralCode: Type.Optional(ReferralCode),
  },
  { additionalProperties: false, title: "OidcSignIn" },
);

export const ProvidersResponse = Type.Object(
  {
    wallet: Type.Object({ chainIds: Type.Array(Type.Integer()) }),
    oidc: Type.Union([
      Type.Object({
        issuer: Type.String(),
        clientId: Type.String(),
        authorizationUrl: Nullable(Type.String()),
        scope: Type.String(),
      }),
      Type.Null(),
    ]),
  },
  { title: "SignInProviders" },
);

export const PayoutAddressBody = Type.Object(
  {
    message: Type.String({
      minLength: 1,
      maxLength: 4096,
      description:
        "An EIP-4361 message naming the payout address, signed by it: this service's domain, a fresh nonce of " +
        "GET /api/auth/nonce, an accepted chain id, issued now",
    }),
    signature: Type.String({
      pattern: "^0x[0-9a-fA-F]{130}$",
      description: "The payout address's personal_sign signature of `message`",
    }),
  },
  { additionalProperties: false, title: "PayoutAddressProof" },
);

export const PayoutAddressResponse = Type.Object(
  {
    address: Nullable(
      Type.String({
        pattern: "^0x[0-9a-fA-F]{40}$",
        description: "Where USDC prizes go (checksummed); null for an identity-only player without one",
      }),
    ),
    verifiedAt: Nullable(
      Type.String({
        format: "date-time",
        description: "When the address was proven; null when it is the sign-in wallet by default",
      }),
    ),
  },
  { title: "PayoutAddress" },
);

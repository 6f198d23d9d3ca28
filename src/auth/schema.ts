/** Request and response schemas of the sign-in routes. */
import { Type } from "typebox";
import { UserSchema } from "../users/presenters.js";

export const WalletSignInBody = Type.Object(
  {
    message: Type.String({ minLength: 1, maxLength: 4096 }),
    signature: Type.String({ pattern: "^0x[0-9a-fA-F]{130}$" }),
    referralCode: Type.Optional(Type.String({ pattern: "^[A-Z0-9]{4,16}$" })),
  },
  { additionalProperties: false },
);

export const NonceResponse = Type.Object({
  nonce: Type.String(),
  /** The domain (`host[:port]`) the EIP-4361 message should name: the request's host when it is accepted. */
  domain: Type.String(),
});
export const UserResponse = Type.Object({ user: UserSchema });

export const OidcSignInBody = Type.Object(
  {
    idToken: Type.String({ minLength: 1, maxLength: 8192 }),
    referralCode: Type.Optional(Type.String({ pattern: "^[A-Z0-9]{4,16}$" })),
  },
  { additionalProperties: false },
);

export const ProvidersResponse = Type.Object({
  wallet: Type.Object({ chainIds: Type.Array(Type.Integer()) }),
  oidc: Type.Union([
    Type.Object({
      issuer: Type.String(),
      clientId: Type.String(),
      authorizationUrl: Type.Union([Type.String(), Type.Null()]),
      scope: Type.String(),
    }),
    Type.Null(),
  ]),
});

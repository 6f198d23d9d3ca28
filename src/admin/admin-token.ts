/** The admin bearer check, shared by the admin routes and the rate limiter (admin requests are not limited). */
import { secretMatches } from "../shared/secrets.js";

/** True when the request carries `Authorization: Bearer <ADMIN_TOKEN>`. */
export function hasAdminToken(authorization: string | undefined, adminToken: string): boolean {
  // The auth scheme is case-insensitive (RFC 9110 §11.1).
  const m = /^Bearer (.+)$/i.exec(authorization ?? "");
  return secretMatches(m?.[1], adminToken);
}

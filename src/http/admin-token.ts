/** The admin bearer check of the HTTP edge, shared by the admin routes and the rate limiter (admin requests are not limited). */
import { bearerMatches } from "../shared/secrets.js";

/** True when the request carries `Authorization: Bearer <ADMIN_TOKEN>`. */
export function hasAdminToken(authorization: string | undefined, adminToken: string): boolean {
  return bearerMatches(authorization, adminToken);
}

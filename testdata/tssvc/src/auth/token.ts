import { Session, isExpired } from "../models/session";

/** How long a login token stays valid, in seconds. */
export const TOKEN_TTL_SECONDS = 15 * 60;

/** Issues a session token for the user, valid for TOKEN_TTL_SECONDS from now. */
export function issueToken(userId: string, now: number): Session {
  const token = `${userId}.${now.toString(36)}`;
  return { token, userId, expiresAt: now + TOKEN_TTL_SECONDS };
}

/** Checks a session at the given time; an expired one is refused. */
export function verifyToken(session: Session, now: number): string {
  if (isExpired(session, now)) {
    throw new Error("token expired");
  }
  return session.userId;
}

/** A login session: who, and until when (seconds since the epoch). */
export interface Session {
  token: string;
  userId: string;
  expiresAt: number;
}

/** Reports whether the session has expired at the given time. */
export function isExpired(session: Session, now: number): boolean {
  return now >= session.expiresAt;
}

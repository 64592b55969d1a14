"""Session tokens."""

from pysvc.models import Session

TOKEN_TTL_SECONDS = 15 * 60
"""How long a login token stays valid, in seconds."""


class TokenExpiredError(Exception):
    """Raised when a session is used after it expired."""


def issue_token(user_id: str, now: int) -> Session:
    """Issues a session token for the user, valid for TOKEN_TTL_SECONDS from now."""
    return Session(token=f"{user_id}.{now:x}", user_id=user_id, expires_at=now + TOKEN_TTL_SECONDS)


def verify_token(session: Session, now: int) -> str:
    """Checks a session at the given time; an expired one is refused."""
    if session.is_expired(now):
        raise TokenExpiredError(session.token)
    return session.user_id

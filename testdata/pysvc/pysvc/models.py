"""The records the service keeps."""

from dataclasses import dataclass, replace
from enum import Enum


class Role(Enum):
    """The role an account holds; admins may manage other accounts."""

    MEMBER = "member"
    ADMIN = "admin"


@dataclass(frozen=True)
class User:
    """An account as the service stores it."""

    id: str
    email: str
    name: str
    role: Role
    password_hash: str
    disabled: bool = False

    def disabled_copy(self) -> "User":
        """The same account, disabled."""
        return replace(self, disabled=True)


@dataclass(frozen=True)
class Session:
    """A login session: who, and until when (seconds since the epoch)."""

    token: str
    user_id: str
    expires_at: int

    def is_expired(self, now: int) -> bool:
        """Reports whether the session has expired at the given time."""
        return now >= self.expires_at


class UserNotFoundError(Exception):
    """Raised when no account matches a lookup."""

    def __init__(self, key: str) -> None:
        super().__init__(f"no user {key}")
        self.key = key


class InvalidEmailError(ValueError):
    """Raised when an e-mail address is not well formed."""


def public_view(user: User) -> dict:
    """A copy of the user safe to send to clients: no password hash."""
    return {"id": user.id, "email": user.email, "name": user.name, "role": user.role.value}

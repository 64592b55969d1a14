"""Where accounts are kept."""

from abc import ABC, abstractmethod
from typing import Dict, Optional

from pysvc.models import User


class DuplicateEmailError(Exception):
    """Raised when saving a user whose e-mail address another account already has."""


class UserRepository(ABC):
    """Account storage. Lookups by e-mail expect a normalized address."""

    @abstractmethod
    def get_by_email(self, email: str) -> Optional[User]:
        """The user with this address, or None."""

    @abstractmethod
    def get_by_id(self, user_id: str) -> Optional[User]:
        """The user with this id, or None."""

    @abstractmethod
    def save(self, user: User) -> None:
        """Stores the user, replacing any with the same id."""


class InMemoryUserRepository(UserRepository):
    """A repository in memory, indexed by id and by e-mail address."""

    def __init__(self) -> None:
        self._by_id: Dict[str, User] = {}
        self._by_email: Dict[str, str] = {}

    def get_by_email(self, email: str) -> Optional[User]:
        user_id = self._by_email.get(email)
        return None if user_id is None else self._by_id.get(user_id)

    def get_by_id(self, user_id: str) -> Optional[User]:
        return self._by_id.get(user_id)

    def save(self, user: User) -> None:
        owner = self._by_email.get(user.email)
        if owner is not None and owner != user.id:
            raise DuplicateEmailError(user.email)
        self._by_id[user.id] = user
        self._by_email[user.email] = user.id

"""The business rules for accounts, written against any UserRepository."""

from pysvc.models import InvalidEmailError, Role, User, UserNotFoundError
from pysvc.password import hash_password, verify_password
from pysvc.repository import UserRepository
from pysvc.util import is_valid_email, normalize_email


class PermissionDeniedError(Exception):
    """Raised when the acting user lacks the permission."""


class UserService:
    """Account operations on top of a repository."""

    def __init__(self, repo: UserRepository, salt: str) -> None:
        self._repo = repo
        self._salt = salt

    def find_by_email(self, email: str) -> User:
        """Finds the user with this e-mail address, ignoring case and surrounding white space."""
        normalized = normalize_email(email)
        if not is_valid_email(normalized):
            raise InvalidEmailError(email)
        user = self._repo.get_by_email(normalized)
        if user is None:
            raise UserNotFoundError(normalized)
        return user

    def register(self, user_id: str, email: str, name: str, password: str) -> User:
        """Creates an account; the e-mail address must be free."""
        normalized = normalize_email(email)
        if not is_valid_email(normalized):
            raise InvalidEmailError(email)
        user = User(
            id=user_id,
            email=normalized,
            name=name,
            role=Role.MEMBER,
            password_hash=hash_password(password, self._salt),
        )
        self._repo.save(user)
        return user

    def authenticate(self, email: str, password: str) -> User:
        """Checks an e-mail address and password; disabled accounts cannot log in."""
        user = self.find_by_email(email)
        if user.disabled or not verify_password(password, self._salt, user.password_hash):
            raise PermissionDeniedError("wrong e-mail or password")
        return user

    def disable(self, actor: User, user_id: str) -> None:
        """Disables an account; only admins may."""
        if actor.role is not Role.ADMIN:
            raise PermissionDeniedError("only admins may disable accounts")
        user = self._repo.get_by_id(user_id)
        if user is None:
            raise UserNotFoundError(user_id)
        self._repo.save(user.disabled_copy())

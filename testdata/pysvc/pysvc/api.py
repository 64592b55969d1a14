"""HTTP handlers over the service, as plain functions of a request dictionary."""

from typing import Callable, Dict, Tuple

from pysvc.auth import issue_token
from pysvc.models import public_view
from pysvc.service import UserService

Response = Tuple[int, dict]


class Handlers:
    """Binds the service to HTTP routes."""

    def __init__(self, users: UserService, clock: Callable[[], int]) -> None:
        self._users = users
        self._clock = clock

    def get_user(self, query: Dict[str, str]) -> Response:
        """GET /users?email=… looks a user up by e-mail address."""
        try:
            user = self._users.find_by_email(query.get("email", ""))
        except Exception as err:  # noqa: BLE001 - every failure is a 404 here
            return 404, {"error": str(err)}
        return 200, public_view(user)

    def login(self, body: Dict[str, str]) -> Response:
        """POST /login checks the credentials and issues a session token."""
        try:
            user = self._users.authenticate(body.get("email", ""), body.get("password", ""))
        except Exception as err:  # noqa: BLE001
            return 401, {"error": str(err)}
        session = issue_token(user.id, self._clock())
        return 200, {"token": session.token, "expires_at": session.expires_at}

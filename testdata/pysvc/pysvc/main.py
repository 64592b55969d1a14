"""Wires the repository, service and handlers together."""

import time

from pysvc.api import Handlers
from pysvc.repository import InMemoryUserRepository
from pysvc.service import UserService


def build_app() -> Handlers:
    """Builds the handlers over an in-memory repository."""
    users = UserService(InMemoryUserRepository(), salt="sample-salt")
    return Handlers(users, clock=lambda: int(time.time()))


if __name__ == "__main__":
    print(build_app().get_user({"email": "ada@example.com"}))

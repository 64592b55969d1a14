import unittest

from pysvc.models import InvalidEmailError
from pysvc.repository import InMemoryUserRepository
from pysvc.service import PermissionDeniedError, UserService


def new_service() -> UserService:
    return UserService(InMemoryUserRepository(), salt="test-salt")


class FindByEmailTest(unittest.TestCase):
    def test_ignores_case_and_space(self) -> None:
        svc = new_service()
        svc.register("u1", "ada@example.com", "Ada", "pw")
        self.assertEqual(svc.find_by_email("  Ada@Example.COM ").id, "u1")

    def test_malformed_address(self) -> None:
        with self.assertRaises(InvalidEmailError):
            new_service().find_by_email("not-an-email")


def test_authenticate_checks_password() -> None:
    svc = new_service()
    svc.register("u1", "ada@example.com", "Ada", "pw")
    try:
        svc.authenticate("ada@example.com", "wrong")
    except PermissionDeniedError:
        return
    raise AssertionError("a wrong password was accepted")

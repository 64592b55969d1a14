from pysvc.auth import TOKEN_TTL_SECONDS, TokenExpiredError, issue_token, verify_token


def test_fresh_token_verifies() -> None:
    session = issue_token("u1", 1000)
    assert verify_token(session, 1000 + TOKEN_TTL_SECONDS - 1) == "u1"


def test_expired_token_is_refused() -> None:
    session = issue_token("u1", 1000)
    try:
        verify_token(session, 1000 + TOKEN_TTL_SECONDS)
    except TokenExpiredError:
        return
    raise AssertionError("an expired token was accepted")

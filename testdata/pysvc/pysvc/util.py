"""Small helpers for e-mail addresses."""


def normalize_email(email: str) -> str:
    """Lower-cases an e-mail address and strips the white space around it."""
    return email.strip().lower()


def is_valid_email(email: str) -> bool:
    """Reports whether the address has one "@" with text on both sides and a dot in the domain."""
    local, sep, domain = email.partition("@")
    if not local or not sep or "@" in domain:
        return False
    return "." in domain and not domain.startswith(".") and not domain.endswith(".")

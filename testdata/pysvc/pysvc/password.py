"""Password digests (FNV-1a; a sample, not a real key derivation function)."""


def hash_password(password: str, salt: str) -> str:
    """A deterministic, salted digest of a password."""
    h = 0x811C9DC5
    for ch in f"{salt}:{password}":
        h ^= ord(ch)
        h = (h * 0x01000193) & 0xFFFFFFFF
    return f"{h:08x}"


def verify_password(password: str, salt: str, digest: str) -> bool:
    """Compares a password with a stored digest."""
    return hash_password(password, salt) == digest

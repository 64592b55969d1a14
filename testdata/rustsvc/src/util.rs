//! Text helpers shared by the models and the service.

/// The longest e-mail address we accept, per RFC 5321.
pub const MAX_EMAIL_LEN: usize = 254;

/// Trims surrounding white space and lower-cases an e-mail address, so that
/// `" Alice@Example.COM "` and `"alice@example.com"` name the same account.
pub fn normalize_email(raw: &str) -> String {
    raw.trim().to_ascii_lowercase()
}

/// A deliberately simple syntax check: one `@`, a non-empty local part and a
/// dotted domain, no white space, and not longer than [`MAX_EMAIL_LEN`].
pub fn is_valid_email(email: &str) -> bool {
    if email.len() > MAX_EMAIL_LEN || email.chars().any(char::is_whitespace) {
        return false;
    }
    let mut parts = email.split('@');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(local), Some(domain), None) => {
            !local.is_empty()
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
        }
        _ => false,
    }
}

/// FNV-1a over the salt and the password bytes. Good enough for a sample
/// service; a real one would use a slow, memory-hard hash.
pub fn hash_password(password: &str, salt: u64) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash = OFFSET;
    for byte in salt.to_le_bytes().iter().chain(password.as_bytes()) {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(PRIME);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_email_trims_and_lowercases() {
        assert_eq!(normalize_email("  Bob@Example.ORG "), "bob@example.org");
    }

    #[test]
    fn is_valid_email_rejects_missing_domain_dot() {
        assert!(!is_valid_email("bob@localhost"));
        assert!(is_valid_email("bob@example.org"));
    }

    #[test]
    fn hash_password_depends_on_salt() {
        assert_ne!(hash_password("pw", 1), hash_password("pw", 2));
    }
}

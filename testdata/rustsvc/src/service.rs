//! The business rules for accounts, written against any [`Store`].

use std::fmt;

use crate::auth::{self, Session};
use crate::models::{Email, Role, User, UserId};
use crate::store::{Store, StoreError};
use crate::util::{self, normalize_email};

/// What the service reports to its callers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServiceError {
    /// No account has this e-mail address or id.
    NotFound(String),
    /// The input was rejected before reaching the store.
    Invalid(String),
    /// The acting user lacks the permission.
    Forbidden,
    /// Wrong password or disabled account.
    BadCredentials,
    /// The store failed.
    Storage(StoreError),
}

impl fmt::Display for ServiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServiceError::NotFound(key) => write!(f, "no user {key}"),
            ServiceError::Invalid(why) => write!(f, "invalid input: {why}"),
            ServiceError::Forbidden => f.write_str("permission denied"),
            ServiceError::BadCredentials => f.write_str("wrong e-mail or password"),
            ServiceError::Storage(err) => write!(f, "storage: {err}"),
        }
    }
}

impl std::error::Error for ServiceError {}

impl From<StoreError> for ServiceError {
    fn from(err: StoreError) -> ServiceError {
        match err {
            StoreError::Duplicate(email) => invalid!("e-mail {email} is taken"),
            other => ServiceError::Storage(other),
        }
    }
}

/// Account operations on top of a store. The salt is mixed into every
/// password hash this service computes.
pub struct UserService<S: Store> {
    store: S,
    salt: u64,
}

impl<S: Store> UserService<S> {
    /// A service over `store`, hashing passwords with `salt`.
    pub fn new(store: S, salt: u64) -> Self {
        UserService { store, salt }
    }

    /// Finds the user with this e-mail address, ignoring case and
    /// surrounding white space.
    pub fn find_by_email(&self, email: &str) -> Result<User, ServiceError> {
        let normalized = normalize_email(email);
        ensure!(util::is_valid_email(&normalized), "malformed e-mail address {email:?}");
        self.store
            .find_user_by_email(&normalized)
            .map_err(|err| match err {
                StoreError::NotFound => ServiceError::NotFound(normalized.clone()),
                other => ServiceError::Storage(other),
            })
    }

    /// Finds the user with this id.
    pub fn get(&self, id: UserId) -> Result<User, ServiceError> {
        self.store.get_user(id).map_err(|err| match err {
            StoreError::NotFound => ServiceError::NotFound(format!("#{id}")),
            other => ServiceError::Storage(other),
        })
    }

    /// Creates an account with the member role.
    pub fn register(&mut self, email: &str, name: &str, password: &str) -> Result<User, ServiceError> {
        let email = Email::parse(email).map_err(|err| invalid!("{err}"))?;
        ensure!(!name.trim().is_empty(), "name must not be empty");
        ensure!(password.len() >= 8, "password must have at least 8 characters");
        let hash = util::hash_password(password, self.salt);
        let mut user = User::new(email, name, Role::Member, hash);
        user.id = self.store.save_user(user.clone())?;
        Ok(user)
    }

    /// Checks the password and opens a session that expires
    /// [`auth::SESSION_TTL_SECS`] after `now`.
    pub fn login(&self, email: &str, password: &str, now: u64) -> Result<Session, ServiceError> {
        let user = match self.find_by_email(email) {
            Ok(user) => user,
            Err(ServiceError::NotFound(_)) => return Err(ServiceError::BadCredentials),
            Err(err) => return Err(err),
        };
        if !user.active || !auth::verify_password(&user, password, self.salt) {
            return Err(ServiceError::BadCredentials);
        }
        Ok(auth::issue_session(&user, now))
    }

    /// Gives the admin role to the user `id`; only admins may do this.
    pub fn promote(&mut self, actor: &User, id: UserId) -> Result<User, ServiceError> {
        if !actor.is_admin() {
            return Err(ServiceError::Forbidden);
        }
        let mut user = self.get(id)?;
        user.role = Role::Admin;
        self.store.save_user(user.clone())?;
        Ok(user)
    }

    /// Disables the user `id`; admins may disable anyone, users themselves.
    pub fn deactivate(&mut self, actor: &User, id: UserId) -> Result<User, ServiceError> {
        if actor.id != id && !actor.is_admin() {
            return Err(ServiceError::Forbidden);
        }
        let mut user = self.get(id)?;
        user.active = false;
        self.store.save_user(user.clone())?;
        Ok(user)
    }

    /// The underlying store, for inspection.
    pub fn store(&self) -> &S {
        &self.store
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::memory::MemoryStore;

    const SALT: u64 = 7;

    fn service_with_alice() -> UserService<MemoryStore> {
        let mut svc = UserService::new(MemoryStore::new(), SALT);
        svc.register("alice@example.com", "Alice", "correct horse").unwrap();
        svc
    }

    #[test]
    fn find_by_email_returns_user() {
        let svc = service_with_alice();
        let user = svc.find_by_email("alice@example.com").unwrap();
        assert_eq!(user.name, "Alice");
        assert_eq!(user.role, Role::Member);
    }

    #[test]
    fn find_by_email_ignores_case_and_spaces() {
        let svc = service_with_alice();
        let user = svc.find_by_email("  ALICE@Example.com ").unwrap();
        assert_eq!(user.email.as_str(), "alice@example.com");
    }

    #[test]
    fn find_by_email_rejects_malformed_address() {
        let svc = service_with_alice();
        let err = svc.find_by_email("alice").unwrap_err();
        assert!(matches!(err, ServiceError::Invalid(_)), "got {err:?}");
    }

    #[test]
    fn find_by_email_reports_storage_failure() {
        let mut svc = service_with_alice();
        svc.store.set_offline(true);
        let err = svc.find_by_email("alice@example.com").unwrap_err();
        assert!(matches!(err, ServiceError::Storage(StoreError::Unavailable(_))));
    }

    #[test]
    fn register_rejects_duplicate_email() {
        let mut svc = service_with_alice();
        let err = svc.register("Alice@example.com", "Other", "password123").unwrap_err();
        assert!(matches!(err, ServiceError::Invalid(_)));
    }

    #[test]
    fn promote_requires_admin() {
        let mut svc = service_with_alice();
        let alice = svc.find_by_email("alice@example.com").unwrap();
        assert_eq!(svc.promote(&alice, alice.id), Err(ServiceError::Forbidden));
    }
}

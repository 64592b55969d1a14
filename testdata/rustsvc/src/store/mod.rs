//! Persistence: the [`Store`] trait that the service is written against, and
//! its in-memory implementation.

pub mod memory;

use std::fmt;

use crate::models::{User, UserId};

/// What a store can fail with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// No user matches the key.
    NotFound,
    /// Another user already has this e-mail address.
    Duplicate(String),
    /// The backing storage cannot be reached.
    Unavailable(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::NotFound => f.write_str("user not found"),
            StoreError::Duplicate(email) => write!(f, "a user with e-mail {email} already exists"),
            StoreError::Unavailable(why) => write!(f, "store unavailable: {why}"),
        }
    }
}

impl std::error::Error for StoreError {}

/// Where users live. Implementations must treat e-mail addresses as already
/// normalised: the service normalises before it asks.
pub trait Store {
    /// Looks a user up by normalised e-mail address.
    fn find_user_by_email(&self, email: &str) -> Result<User, StoreError>;

    /// Looks a user up by id.
    fn get_user(&self, id: UserId) -> Result<User, StoreError>;

    /// Inserts a new user (id 0, an id is assigned) or replaces an existing
    /// one, and returns the id.
    fn save_user(&mut self, user: User) -> Result<UserId, StoreError>;

    /// How many users are stored.
    fn len(&self) -> usize;

    /// Whether the store holds no user at all.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

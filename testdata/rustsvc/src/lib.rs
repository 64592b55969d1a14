//! User accounts for a small service: a pluggable [`Store`], the
//! [`UserService`] business rules on top of it, and login sessions.
//!
//! The crate has no dependencies so that it builds anywhere.

#[macro_use]
mod macros;

pub mod auth;
pub mod models;
pub mod service;
pub mod store;
pub mod util;

pub use models::{Email, Role, User, UserId};
pub use service::{ServiceError, UserService};
pub use store::memory::MemoryStore;
pub use store::{Store, StoreError};

/// The version reported by the command-line front end.
pub const VERSION: &str = "0.1.0";

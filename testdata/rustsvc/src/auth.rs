//! Passwords and login sessions.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::models::{User, UserId};
use crate::util::hash_password;

/// How long a session stays valid, in seconds.
pub const SESSION_TTL_SECS: u64 = 60 * 60;

/// Makes tokens issued in the same second differ.
static TOKEN_COUNTER: AtomicU64 = AtomicU64::new(1);

/// A source of the current time in seconds since the Unix epoch, so that
/// expiry can be tested without sleeping.
pub trait Clock {
    fn now(&self) -> u64;
}

/// The wall clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0)
    }
}

/// A clock that says whatever the test sets.
#[derive(Debug, Default, Clone, Copy)]
pub struct FixedClock(pub u64);

impl Clock for FixedClock {
    fn now(&self) -> u64 {
        self.0
    }
}

/// A logged-in user's bearer token and when it stops being accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub token: String,
    pub user_id: UserId,
    pub expires_at: u64,
}

impl Session {
    /// Whether the session is no longer valid at `now`.
    pub fn is_expired(&self, now: u64) -> bool {
        now >= self.expires_at
    }

    /// Seconds left before expiry, zero once expired.
    pub fn remaining(&self, now: u64) -> u64 {
        self.expires_at.saturating_sub(now)
    }
}

/// Whether `password` matches the user's stored hash under `salt`.
pub fn verify_password(user: &User, password: &str, salt: u64) -> bool {
    hash_password(password, salt) == user.password_hash
}

/// Opens a session for `user` that expires [`SESSION_TTL_SECS`] after `now`.
pub fn issue_session(user: &User, now: u64) -> Session {
    Session {
        token: make_token(user.id, now),
        user_id: user.id,
        expires_at: now + SESSION_TTL_SECS,
    }
}

fn make_token(user_id: UserId, now: u64) -> String {
    let serial = TOKEN_COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{:016x}{:08x}{:08x}", now, user_id, serial)
}

/// Live sessions by token.
#[derive(Debug, Default)]
pub struct SessionRegistry {
    sessions: HashMap<String, Session>,
}

impl SessionRegistry {
    /// Remembers a session.
    pub fn insert(&mut self, session: Session) {
        self.sessions.insert(session.token.clone(), session);
    }

    /// The user behind `token`, when the session exists and has not expired.
    pub fn authenticate(&self, token: &str, clock: &dyn Clock) -> Option<UserId> {
        let session = self.sessions.get(token)?;
        if session.is_expired(clock.now()) {
            return None;
        }
        Some(session.user_id)
    }

    /// Forgets expired sessions and says how many went.
    pub fn purge_expired(&mut self, clock: &dyn Clock) -> usize {
        let now = clock.now();
        let before = self.sessions.len();
        self.sessions.retain(|_, s| !s.is_expired(now));
        before - self.sessions.len()
    }
}

//! A [`Store`] kept in process memory, for tests and the demo binary.

use std::collections::{BTreeMap, HashMap};

use super::{Store, StoreError};
use crate::models::{User, UserId};

/// Users in a map, with a secondary index by e-mail address.
#[derive(Debug, Default)]
pub struct MemoryStore {
    users: BTreeMap<UserId, User>,
    by_email: HashMap<String, UserId>,
    next_id: UserId,
    /// When set, every call fails with [`StoreError::Unavailable`]; lets
    /// tests exercise the service's error paths.
    offline: bool,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore {
            next_id: 1,
            ..MemoryStore::default()
        }
    }

    /// A store holding `users`, which get fresh ids in order.
    pub fn with_users(users: Vec<User>) -> Result<MemoryStore, StoreError> {
        let mut store = MemoryStore::new();
        for user in users {
            store.save_user(user)?;
        }
        Ok(store)
    }

    /// Makes every later call fail, or work again.
    pub fn set_offline(&mut self, offline: bool) {
        self.offline = offline;
    }

    fn check_online(&self) -> Result<(), StoreError> {
        if self.offline {
            return Err(StoreError::Unavailable("memory store switched off".to_string()));
        }
        Ok(())
    }
}

impl Store for MemoryStore {
    fn find_user_by_email(&self, email: &str) -> Result<User, StoreError> {
        self.check_online()?;
        let id = self.by_email.get(email).ok_or(StoreError::NotFound)?;
        self.get_user(*id)
    }

    fn get_user(&self, id: UserId) -> Result<User, StoreError> {
        self.check_online()?;
        self.users.get(&id).cloned().ok_or(StoreError::NotFound)
    }

    fn save_user(&mut self, mut user: User) -> Result<UserId, StoreError> {
        self.check_online()?;
        let key = user.email.as_str().to_string();
        if let Some(&owner) = self.by_email.get(&key) {
            if owner != user.id {
                return Err(StoreError::Duplicate(key));
            }
        }
        if user.id == 0 {
            user.id = self.next_id;
            self.next_id += 1;
        }
        if let Some(old) = self.users.get(&user.id) {
            self.by_email.remove(old.email.as_str());
        }
        self.by_email.insert(key, user.id);
        let id = user.id;
        self.users.insert(id, user);
        Ok(id)
    }

    fn len(&self) -> usize {
        self.users.len()
    }
}

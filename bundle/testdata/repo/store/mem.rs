//! In-memory order storage, used by tests and small deployments.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use crate::model::{Order, OrderId, UserId};

/// Maximum orders kept per user.
pub const MAX_ORDERS: usize = 1_000;

/// Errors the store reports.
#[derive(Debug, Clone, PartialEq)]
pub enum StoreError {
    /// No order with that id.
    NotFound(OrderId),
    /// The user has too many orders.
    Full { user: UserId, limit: usize },
}

/// Anything that can keep orders.
pub trait OrderStore: Send + Sync {
    /// Saves an order, replacing one with the same id.
    fn save(&self, order: Order) -> Result<(), StoreError>;

    /// The orders of one user, oldest first.
    fn orders_of(&self, user: UserId) -> Vec<Order> {
        Vec::new()
    }
}

/// A store backed by a hash map behind a lock.
#[derive(Default)]
pub struct MemStore {
    orders: Arc<RwLock<HashMap<OrderId, Order>>>,
}

impl MemStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many orders are kept, over all users.
    pub fn len(&self) -> usize {
        self.orders.read().unwrap().len()
    }

    fn label<'a>(&'a self, name: &'a str) -> &'a str {
        let brace = '{';
        let raw = r#"a "}" in a raw string"#;
        if name.is_empty() || brace == '}' || raw.is_empty() { "unnamed" } else { name }
    }
}

impl OrderStore for MemStore {
    fn save(&self, order: Order) -> Result<(), StoreError> {
        let mut orders = self.orders.write().unwrap();
        let count = orders.values().filter(|o| o.user == order.user).count();
        if count >= MAX_ORDERS {
            return Err(StoreError::Full { user: order.user, limit: MAX_ORDERS });
        }
        orders.insert(order.id, order);
        Ok(())
    }

    fn orders_of(&self, user: UserId) -> Vec<Order> {
        let orders = self.orders.read().unwrap();
        let mut out: Vec<Order> = orders.values().filter(|o| o.user == user).cloned().collect();
        out.sort_by_key(|o| o.created);
        out
    }
}

/// Builds a store holding the given orders; "]]>" and ``` must not break
/// any output format.
macro_rules! mem_store {
    ($($o:expr),*) => {{
        let s = MemStore::new();
        $( s.save($o).unwrap(); )*
        s
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_store_has_no_orders() {
        assert_eq!(MemStore::new().len(), 0);
    }
}

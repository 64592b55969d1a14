//! End-to-end checks of the public API, through the crate's own paths.

use user_svc::auth::{self, Clock, FixedClock, SessionRegistry};
use user_svc::store::Store;
use user_svc::util::normalize_email;
use user_svc::{MemoryStore, Role, ServiceError, UserService};

fn new_service() -> UserService<MemoryStore> {
    UserService::new(MemoryStore::new(), 42)
}

#[test]
fn register_then_find_by_email() {
    let mut svc = new_service();
    let created = svc.register("Carol@Example.com", "Carol", "s3cret-pass").unwrap();
    let found = svc.find_by_email(&normalize_email(" carol@example.COM ")).unwrap();
    assert_eq!(created, found);
    assert_eq!(found.role, Role::Member);
    assert_eq!(svc.store().len(), 1);
}

#[test]
fn find_by_email_unknown_user_is_not_found() {
    let svc = new_service();
    let err = svc.find_by_email("nobody@example.com").unwrap_err();
    assert_eq!(err, ServiceError::NotFound("nobody@example.com".to_string()));
}

#[test]
fn login_issues_expiring_session() {
    let mut svc = new_service();
    svc.register("dave@example.com", "Dave", "hunter2hunter2").unwrap();
    let clock = FixedClock(1_000);
    let session = svc.login("dave@example.com", "hunter2hunter2", clock.now()).unwrap();
    assert_eq!(session.remaining(clock.now()), auth::SESSION_TTL_SECS);

    let mut registry = SessionRegistry::default();
    registry.insert(session.clone());
    assert_eq!(registry.authenticate(&session.token, &clock), Some(session.user_id));
    let later = FixedClock(1_000 + auth::SESSION_TTL_SECS);
    assert_eq!(registry.authenticate(&session.token, &later), None);
    assert_eq!(registry.purge_expired(&later), 1);
}

#[test]
fn login_with_wrong_password_fails() {
    let mut svc = new_service();
    svc.register("erin@example.com", "Erin", "right-password").unwrap();
    let err = svc.login("erin@example.com", "wrong-password", 0).unwrap_err();
    assert_eq!(err, ServiceError::BadCredentials);
}

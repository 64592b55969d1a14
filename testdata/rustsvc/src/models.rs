//! The account data model: users, their roles and validated e-mail addresses.

use std::fmt;

use crate::util::{is_valid_email, normalize_email};

/// Numeric identifier of a stored user.
pub type UserId = u64;

/// Why a value could not be turned into a model type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelError {
    /// The e-mail address was empty after trimming.
    EmptyEmail,
    /// The e-mail address is not of the form `local@domain.tld`.
    MalformedEmail(String),
    /// The role name is not one of `admin`, `member` or `guest`.
    UnknownRole(String),
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::EmptyEmail => write!(f, "e-mail address is empty"),
            ModelError::MalformedEmail(raw) => write!(f, "malformed e-mail address {raw:?}"),
            ModelError::UnknownRole(name) => write!(f, "unknown role {name:?}"),
        }
    }
}

impl std::error::Error for ModelError {}

/// A validated e-mail address, always stored in normalised (trimmed,
/// lower-case) form so that two spellings of one address compare equal.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Email(String);

impl Email {
    /// Normalises and validates `raw`.
    pub fn parse(raw: &str) -> Result<Email, ModelError> {
        let normalized = normalize_email(raw);
        if normalized.is_empty() {
            return Err(ModelError::EmptyEmail);
        }
        if !is_valid_email(&normalized) {
            return Err(ModelError::MalformedEmail(raw.to_string()));
        }
        Ok(Email(normalized))
    }

    /// The address as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The part after the `@`.
    pub fn domain(&self) -> &str {
        self.0.rsplit('@').next().unwrap_or_default()
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a user is allowed to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Manages other users.
    Admin,
    /// An ordinary account.
    Member,
    /// Read-only access; cannot log in with a password.
    Guest,
}

impl Role {
    /// Every role, from most to least privileged.
    pub const ALL: [Role; 3] = [Role::Admin, Role::Member, Role::Guest];

    /// Parses a role name as written in the command-line front end.
    pub fn parse(name: &str) -> Result<Role, ModelError> {
        match name.trim().to_ascii_lowercase().as_str() {
            "admin" => Ok(Role::Admin),
            "member" => Ok(Role::Member),
            "guest" => Ok(Role::Guest),
            other => Err(ModelError::UnknownRole(other.to_string())),
        }
    }

    /// Whether holders of this role may create, promote or disable users.
    pub fn can_manage_users(self) -> bool {
        matches!(self, Role::Admin)
    }

    /// The lower-case name used in output.
    pub fn name(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Member => "member",
            Role::Guest => "guest",
        }
    }
}

/// A stored account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// Assigned by the store on first save; zero before that.
    pub id: UserId,
    pub email: Email,
    pub name: String,
    pub role: Role,
    /// Salted hash of the password; see [`crate::util::hash_password`].
    pub password_hash: u64,
    /// Disabled users cannot log in.
    pub active: bool,
}

impl User {
    /// A new, active user that has not been saved yet.
    pub fn new(email: Email, name: &str, role: Role, password_hash: u64) -> User {
        User {
            id: 0,
            email,
            name: name.trim().to_string(),
            role,
            password_hash,
            active: true,
        }
    }

    /// Whether the user holds the admin role.
    pub fn is_admin(&self) -> bool {
        self.role.can_manage_users()
    }
}

impl fmt::Display for User {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{} {} <{}> ({})", self.id, self.name, self.email, self.role.name())
    }
}

//! Small macros shared by the service modules.

/// Builds a [`crate::service::ServiceError::Invalid`] from a format string,
/// so that validation failures read like `invalid!("bad email {}", raw)`.
macro_rules! invalid {
    ($($arg:tt)*) => {
        $crate::service::ServiceError::Invalid(format!($($arg)*))
    };
}

/// Returns early with an invalid-input error when a condition does not hold.
macro_rules! ensure {
    ($cond:expr, $($arg:tt)*) => {
        if !$cond {
            return Err(invalid!($($arg)*));
        }
    };
}

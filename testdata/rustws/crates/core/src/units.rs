//! Unit conversions.

/// Square feet in one square metre.
pub const SQ_FEET_PER_SQ_METRE: f64 = 10.763_910_416_709_722;

/// Converts square metres to square feet.
pub fn to_square_feet(square_metres: f64) -> f64 {
    square_metres * SQ_FEET_PER_SQ_METRE
}

/// Rounds to two decimals for display.
pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

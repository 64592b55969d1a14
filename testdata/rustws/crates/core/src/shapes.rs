//! Plane shapes.

use std::f64::consts::PI;

/// Anything with an area and a display name.
pub trait Shape {
    /// Area in square metres.
    fn area(&self) -> f64;
    /// A short name for listings.
    fn name(&self) -> String;
}

/// A circle given by its radius in metres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Circle {
    pub radius: f64,
}

/// An axis-aligned rectangle in metres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub width: f64,
    pub height: f64,
}

impl Rect {
    /// A square with side `side`.
    pub fn square(side: f64) -> Rect {
        Rect { width: side, height: side }
    }
}

impl Shape for Circle {
    fn area(&self) -> f64 {
        PI * self.radius * self.radius
    }

    fn name(&self) -> String {
        format!("circle r={}", self.radius)
    }
}

impl Shape for Rect {
    fn area(&self) -> f64 {
        self.width * self.height
    }

    fn name(&self) -> String {
        format!("rect {}x{}", self.width, self.height)
    }
}

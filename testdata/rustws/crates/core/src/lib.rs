//! Geometry primitives shared by the workspace.

pub mod shapes;
pub mod units;

pub use shapes::Shape;

/// Sums the areas of `shapes`.
pub fn total_area(shapes: &[Box<dyn Shape>]) -> f64 {
    shapes.iter().map(|s| s.area()).sum()
}

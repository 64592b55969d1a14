//! Deterministic automata: a dense table and its sparse encoding.

pub mod dense;
pub mod sparse;

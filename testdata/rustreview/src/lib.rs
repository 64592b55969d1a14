//! Tiny automata over bytes.

pub mod dfa;
pub mod text;

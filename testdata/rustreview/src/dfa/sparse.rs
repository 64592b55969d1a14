/// A sparse transition list: for each state, the bytes that leave it.
pub struct Sparse {
    edges: Vec<Vec<(u8, u16)>>,
}

impl Sparse {
    /// Encodes the rows of a dense table, keeping the non-dead moves.
    pub fn encode(rows: &[[u16; 256]]) -> Sparse {
        let edges = rows
            .iter()
            .map(|row| {
                (0..=255u8)
                    .filter(|b| row[*b as usize] != 0)
                    .map(|b| (b, row[b as usize]))
                    .collect()
            })
            .collect();
        Sparse { edges }
    }

    /// The state after reading `byte` in `state`; 0 is the dead state.
    pub fn next_state(&self, state: u16, byte: u8) -> u16 {
        for (b, to) in &self.edges[state as usize] {
            if *b == byte {
                return *to;
            }
        }
        0
    }
}

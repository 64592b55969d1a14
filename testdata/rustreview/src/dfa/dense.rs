/// A dense transition table: one row of 256 next states per state.
pub struct Table {
    rows: Vec<[u16; 256]>,
}

impl Table {
    /// Builds the table that matches exactly `word`.
    pub fn for_word(word: &[u8]) -> Table {
        let mut rows = vec![[0u16; 256]; word.len() + 1];
        for (i, b) in word.iter().enumerate() {
            rows[i][*b as usize] = (i + 1) as u16;
        }
        Table { rows }
    }

    /// Runs the table over `input`; true when it ends in the last state.
    pub fn accepts(&self, input: &[u8]) -> bool {
        let mut state = 0usize;
        for b in input {
            state = self.rows[state][*b as usize] as usize;
            if state == 0 {
                return false;
            }
        }
        state == self.rows.len() - 1
    }
}

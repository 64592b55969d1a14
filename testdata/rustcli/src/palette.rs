/// How counts are coloured on a terminal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Palette {
    Plain,
    Warm,
    Cool,
}

impl Palette {
    /// The palette called `name` on the command line.
    pub fn named(name: &str) -> Result<Palette, String> {
        match name {
            "plain" => Ok(Palette::Plain),
            "warm" => Ok(Palette::Warm),
            "cool" => Ok(Palette::Cool),
            _ => Err(format!("no palette called {name}")),
        }
    }
}

/// Wraps a line in the palette's escape codes.
pub fn paint(palette: &Palette, line: &str) -> String {
    match palette {
        Palette::Plain => line.to_string(),
        Palette::Warm => format!("\x1b[33m{line}\x1b[0m"),
        Palette::Cool => format!("\x1b[36m{line}\x1b[0m"),
    }
}

use crate::palette::Palette;

/// What the command line asked for.
pub struct Options {
    pub root: String,
    pub max_depth: usize,
    pub palette: Palette,
}

/// Reads the arguments after the program's name.
pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut opts = Options { root: ".".to_string(), max_depth: usize::MAX, palette: Palette::Plain };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--max-depth" => {
                let value = it.next().ok_or("--max-depth needs a number")?;
                opts.max_depth = value.parse().map_err(|_| format!("--max-depth: not a number: {value}"))?;
            }
            "--palette" => {
                let name = it.next().ok_or("--palette needs a name")?;
                opts.palette = Palette::named(name)?;
            }
            other if other.starts_with('-') => return Err(format!("unknown option {other}")),
            root => opts.root = root.to_string(),
        }
    }
    Ok(opts)
}

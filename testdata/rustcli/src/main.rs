mod options;
mod palette;
mod walk;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = match options::parse(&args) {
        Ok(opts) => opts,
        Err(message) => {
            eprintln!("tally: {message}");
            return ExitCode::from(2);
        }
    };
    let counts = walk::count_lines(&opts.root, opts.max_depth);
    for (path, lines) in counts {
        println!("{}", palette::paint(&opts.palette, &format!("{lines:>8} {path}")));
    }
    ExitCode::SUCCESS
}

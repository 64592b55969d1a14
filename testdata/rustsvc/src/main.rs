//! A line-oriented front end: reads commands on standard input and prints
//! one answer per line.
//!
//! ```text
//! register alice@example.com Alice "a long password"
//! find alice@example.com
//! login alice@example.com "a long password"
//! ```

use std::io::{self, BufRead, Write};

use user_svc::auth::{Clock, SessionRegistry, SystemClock};
use user_svc::{MemoryStore, ServiceError, UserService};

/// The commands the front end understands, for `help`.
static COMMANDS: &[&str] = &["register EMAIL NAME PASSWORD", "find EMAIL", "login EMAIL PASSWORD", "whoami TOKEN", "help", "quit"];

struct App {
    service: UserService<MemoryStore>,
    sessions: SessionRegistry,
    clock: SystemClock,
}

impl App {
    fn new(salt: u64) -> App {
        App {
            service: UserService::new(MemoryStore::new(), salt),
            sessions: SessionRegistry::default(),
            clock: SystemClock,
        }
    }

    /// Runs one command line and returns the text to print.
    fn execute(&mut self, line: &str) -> Result<String, ServiceError> {
        let words = split_words(line);
        let args: Vec<&str> = words.iter().map(String::as_str).collect();
        match args.as_slice() {
            ["register", email, name, password] => {
                let user = self.service.register(email, name, password)?;
                Ok(format!("registered {user}"))
            }
            ["find", email] => self.service.find_by_email(email).map(|u| u.to_string()),
            ["login", email, password] => {
                let session = self.service.login(email, password, self.clock.now())?;
                let token = session.token.clone();
                self.sessions.insert(session);
                Ok(token)
            }
            ["whoami", token] => match self.sessions.authenticate(token, &self.clock) {
                Some(id) => self.service.get(id).map(|u| u.to_string()),
                None => Err(ServiceError::BadCredentials),
            },
            ["help"] | [] => Ok(COMMANDS.join("\n")),
            _ => Err(ServiceError::Invalid(format!("unknown command {line:?}; try help"))),
        }
    }
}

/// Splits on white space, keeping double-quoted runs together.
fn split_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

fn run<R: BufRead, W: Write>(input: R, mut output: W, app: &mut App) -> io::Result<()> {
    for line in input.lines() {
        let line = line?;
        if line.trim() == "quit" {
            break;
        }
        match app.execute(&line) {
            Ok(text) => writeln!(output, "{text}")?,
            Err(err) => writeln!(output, "error: {err}")?,
        }
    }
    output.flush()
}

fn main() {
    let salt = std::env::var("USER_SVC_SALT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed);
    let mut app = App::new(salt);
    let stdin = io::stdin();
    if let Err(err) = run(stdin.lock(), io::stdout(), &mut app) {
        eprintln!("user-svc {}: {err}", user_svc::VERSION);
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::split_words;

    #[test]
    fn split_words_keeps_quoted_runs() {
        let got = split_words(r#"login a@b.example "two words""#);
        assert_eq!(got, vec!["login", "a@b.example", "two words"]);
    }
}

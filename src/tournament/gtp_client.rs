//! The controller side of GTP: spawn an engine process, send commands, read responses with a
//! deadline. Used by `tablero match` and by the tests that play against GNU Go.

use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("empty engine command")]
    EmptyCommand,
    #[error("unbalanced quote in engine command {0:?}")]
    Quote(String),
    #[error("cannot start engine {cmd:?}: {source}")]
    Spawn { cmd: String, source: std::io::Error },
    #[error("engine {0}: I/O error: {1}")]
    Io(String, std::io::Error),
    #[error("engine {0} closed its output")]
    Closed(String),
    #[error("engine {name} did not answer {command:?} within {timeout:?}")]
    Timeout {
        name: String,
        command: String,
        timeout: Duration,
    },
    #[error("engine {name} answered {command:?} with an error: {message}")]
    Failure {
        name: String,
        command: String,
        message: String,
    },
    #[error("engine {name} sent a malformed response to {command:?}: {line:?}")]
    Malformed {
        name: String,
        command: String,
        line: String,
    },
}

/// Splits a command line into words: whitespace separates, single and double quotes group.
pub fn split_command(cmd: &str) -> Result<Vec<String>, ClientError> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for ch in cmd.chars() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(ch);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(ClientError::Quote(cmd.to_string()));
    }
    if in_word {
        words.push(cur);
    }
    if words.is_empty() {
        return Err(ClientError::EmptyCommand);
    }
    Ok(words)
}

/// One running GTP engine.
pub struct GtpClient {
    name: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl GtpClient {
    /// Starts `cmd` (split like a shell would, without expansions); stderr is discarded.
    pub fn spawn(name: &str, cmd: &str) -> Result<GtpClient, ClientError> {
        let words = split_command(cmd)?;
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|source| ClientError::Spawn {
                cmd: cmd.to_string(),
                source,
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(ClientError::Closed(name.to_string()));
        };
        Ok(GtpClient {
            name: name.to_string(),
            child,
            stdin,
            stdout: BufReader::new(stdout),
            next_id: 1,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends one command and returns the result text of a `=` response (an error for `?`).
    pub async fn send(&mut self, command: &str, timeout: Duration) -> Result<String, ClientError> {
        let id = self.next_id;
        self.next_id += 1;
        let line = format!("{id} {command}\n");
        let io = |e| ClientError::Io(self.name.clone(), e);
        self.stdin.write_all(line.as_bytes()).await.map_err(io)?;
        self.stdin.flush().await.map_err(io)?;
        match tokio::time::timeout(timeout, self.read_response(command, id)).await {
            Ok(r) => r,
            Err(_) => Err(ClientError::Timeout {
                name: self.name.clone(),
                command: command.to_string(),
                timeout,
            }),
        }
    }

    async fn read_response(&mut self, command: &str, id: u64) -> Result<String, ClientError> {
        let mut first: Option<(bool, String)> = None;
        let mut body = String::new();
        loop {
            let mut line = String::new();
            let n = self
                .stdout
                .read_line(&mut line)
                .await
                .map_err(|e| ClientError::Io(self.name.clone(), e))?;
            if n == 0 {
                return Err(ClientError::Closed(self.name.clone()));
            }
            let line = line.trim_end_matches(['\n', '\r']).to_string();
            match &first {
                None => {
                    if line.trim().is_empty() {
                        continue;
                    }
                    let ok = match line.as_bytes()[0] {
                        b'=' => true,
                        b'?' => false,
                        // GoGui and Sabaki drop lines before a response; so do we.
                        _ => continue,
                    };
                    let rest = &line[1..];
                    let digits = rest.chars().take_while(char::is_ascii_digit).count();
                    if digits > 0 && rest[..digits].parse::<u64>().ok() != Some(id) {
                        return Err(ClientError::Malformed {
                            name: self.name.clone(),
                            command: command.to_string(),
                            line,
                        });
                    }
                    first = Some((ok, rest[digits..].trim().to_string()));
                }
                Some(_) => {
                    if line.is_empty() {
                        break;
                    }
                    body.push('\n');
                    body.push_str(&line);
                }
            }
        }
        let Some((ok, head)) = first else {
            return Err(ClientError::Closed(self.name.clone()));
        };
        let text = format!("{head}{body}");
        if ok {
            Ok(text)
        } else {
            Err(ClientError::Failure {
                name: self.name.clone(),
                command: command.to_string(),
                message: text,
            })
        }
    }

    /// Sends `quit` and waits briefly for the process to end; kills it otherwise.
    pub async fn quit(mut self) {
        let _ = self.send("quit", Duration::from_secs(2)).await;
        if tokio::time::timeout(Duration::from_secs(2), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            split_command(r#"/usr/games/gnugo --mode gtp  --level "1""#).unwrap(),
            ["/usr/games/gnugo", "--mode", "gtp", "--level", "1"]
        );
        assert_eq!(
            split_command("tablero gtp --set 'gtp.name=a b'").unwrap(),
            ["tablero", "gtp", "--set", "gtp.name=a b"]
        );
        assert!(matches!(
            split_command("  "),
            Err(ClientError::EmptyCommand)
        ));
        assert!(matches!(split_command("a 'b"), Err(ClientError::Quote(_))));
    }
}

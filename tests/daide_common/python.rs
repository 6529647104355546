//! The `diplomacy` 1.1.2 (PyPI) server run by `tests/daide_interop/diplomacy_server.py` for
//! one game, as the DAIDE interoperability tests and the Python-server tournament use it.
#![allow(dead_code)] // not every test crate that shares `daide_common` uses it

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader, Lines};
use tokio::process::{Child, ChildStdout};

/// The python server running one game, its output lines and its DAIDE port.
pub struct PythonServer {
    pub child: Child,
    pub lines: Lines<BufReader<ChildStdout>>,
    pub port: u16,
}

impl PythonServer {
    /// Starts the server for one game that ends after `end_year` and waits until it listens.
    pub async fn start(python: &str, end_year: u32) -> Self {
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/daide_interop/diplomacy_server.py"
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let mut child = tokio::process::Command::new(python)
            .arg(script)
            .arg(port.to_string())
            .arg(end_year.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("python starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(stdout).lines();
        let ready = tokio::time::timeout(Duration::from_secs(180), async {
            while let Ok(Some(l)) = lines.next_line().await {
                if l == "READY" {
                    return true;
                }
            }
            false
        })
        .await;
        assert_eq!(ready, Ok(true), "the python server did not start");
        PythonServer { child, lines, port }
    }

    /// A connection to its DAIDE port (retried until it accepts).
    pub async fn connect(&self) -> tokio::net::TcpStream {
        loop {
            match tokio::net::TcpStream::connect(("127.0.0.1", self.port)).await {
                Ok(s) => return s,
                Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
            }
        }
    }
}

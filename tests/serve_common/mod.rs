//! Helpers shared by the tests that run the real `tablero serve`: starting it on free loopback
//! ports and reading back its listeners' addresses, and a blocking GTP client.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// How long the daemon may take to report its addresses.
const STARTUP: Duration = Duration::from_secs(20);

/// The setting that enables the embedded DAIDE server.
pub const DAIDE_ENABLED: &str = "diplomacy.server.enabled=true";

/// A running `tablero serve`; killed when dropped.
pub struct Serve {
    pub child: Child,
    /// The GTP listener's address.
    pub gtp: String,
    /// The GVG-AI line adapter's address.
    pub gvgai: String,
    /// The DAIDE server's address (empty unless `sets` held [`DAIDE_ENABLED`]).
    pub daide: String,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `tablero serve` with every listener on a free loopback port, 9×9, one search thread
/// and the `sets` overrides; returns once it has logged the address of each listener.
pub fn serve(sets: &[&str]) -> Serve {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tablero"));
    cmd.arg("serve");
    let base = [
        "server.gtp_listen=127.0.0.1:0",
        "gvgai.listen=127.0.0.1:0",
        "diplomacy.server.listen=127.0.0.1:0",
        "go.boardsize=9",
        "search.threads=1",
        "log.level=info",
    ];
    for s in base.iter().chain(sets) {
        cmd.args(["--set", s]);
    }
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn tablero serve");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            for (what, marker) in [
                ("gtp", "GTP listening on "),
                ("gvgai", "adapter listening on "),
                ("daide", "DAIDE server listening on "),
            ] {
                if let Some(rest) = line.split(marker).nth(1) {
                    let addr = rest.split_whitespace().next().unwrap_or_default();
                    let _ = tx.send((what, addr.to_string()));
                }
            }
        }
    });
    let want_daide = sets.contains(&DAIDE_ENABLED);
    let (mut gtp, mut gvgai, mut daide) = (String::new(), String::new(), String::new());
    while gtp.is_empty() || gvgai.is_empty() || (want_daide && daide.is_empty()) {
        let (what, addr) = rx
            .recv_timeout(STARTUP)
            .expect("tablero serve reports its addresses");
        match what {
            "gtp" => gtp = addr,
            "gvgai" => gvgai = addr,
            _ => daide = addr,
        }
    }
    Serve {
        child,
        gtp,
        gvgai,
        daide,
    }
}

/// One GTP client over TCP with blocking I/O.
pub struct Client {
    reader: BufReader<TcpStream>,
    pub writer: TcpStream,
}

impl Client {
    pub fn connect(addr: &str) -> Client {
        let stream = TcpStream::connect(addr).expect("connect");
        stream.set_nodelay(true).expect("nodelay");
        let writer = stream.try_clone().expect("clone");
        Client {
            reader: BufReader::new(stream),
            writer,
        }
    }
    pub fn send(&mut self, line: &str) {
        self.writer
            .write_all(format!("{line}\n").as_bytes())
            .expect("send");
    }
    /// The next response without its framing, or `None` on EOF/timeout.
    pub fn recv(&mut self, within: Duration) -> Option<String> {
        self.reader
            .get_ref()
            .set_read_timeout(Some(within))
            .expect("timeout");
        let mut text = String::new();
        loop {
            let mut line = String::new();
            match self.reader.read_line(&mut line) {
                Ok(0) | Err(_) => return None,
                Ok(_) if line == "\n" && !text.is_empty() => return Some(text),
                Ok(_) => text.push_str(line.trim_end_matches('\n')),
            }
        }
    }
    pub fn ask(&mut self, line: &str, within: Duration) -> Option<String> {
        self.send(line);
        self.recv(within)
    }
    /// True once the server closed the connection (within `within`).
    pub fn closed_within(&mut self, within: Duration) -> bool {
        self.reader
            .get_ref()
            .set_read_timeout(Some(within))
            .expect("timeout");
        let mut buf = [0u8; 256];
        loop {
            match self.reader.read(&mut buf) {
                Ok(0) => return true,
                Ok(_) => continue,
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
                Err(_) => return false,
            }
        }
    }
}

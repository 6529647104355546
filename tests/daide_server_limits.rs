//! The embedded DAIDE server (`tablero diplomacy server`, the real binary) under too many
//! clients: `--max-connections` holds the surplus in the listen queue until a slot frees, and
//! running out of file descriptors makes `accept` back off and retry instead of ending the
//! server.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod daide_common;
use daide_common::{IM, connect_and_hello};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `tablero diplomacy server`; killed when dropped.
struct Server {
    child: Child,
    addr: String,
    /// `None` for each "accept failed" line the server logs.
    failures: std::sync::mpsc::Receiver<Option<String>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the server on a free port under `bash -c 'ulimit -n FDS; exec …'` when `fds` is set.
fn server(args: &[&str], fds: Option<u32>) -> Server {
    let bin = env!("CARGO_BIN_EXE_tablero");
    let mut line = format!("exec {bin} diplomacy server --listen 127.0.0.1:0");
    for a in args {
        line.push(' ');
        line.push_str(a);
    }
    if let Some(n) = fds {
        line = format!("ulimit -n {n} && {line}");
    }
    let mut child = Command::new("bash")
        .args(["-c", &line])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn tablero diplomacy server");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(rest) = line.split("DAIDE server listening on ").nth(1) {
                let _ = tx.send(Some(rest.trim().to_string()));
            } else if line.contains("accept failed") {
                let _ = tx.send(None);
            }
        }
    });
    let addr = loop {
        match rx.recv_timeout(Duration::from_secs(20)) {
            Ok(Some(addr)) => break addr,
            Ok(None) => continue,
            Err(e) => panic!("the server reports no address: {e}"),
        }
    };
    Server {
        child,
        addr,
        failures: rx,
    }
}

#[test]
fn connections_beyond_the_limit_wait_for_a_free_slot() {
    let srv = server(&["--max-connections", "2"], None);
    let a = connect_and_hello(&srv.addr, Duration::from_secs(10)).expect("first served");
    let _b = connect_and_hello(&srv.addr, Duration::from_secs(10)).expect("second served");
    // The third is accepted by the kernel but not served while two are open.
    let mut c = TcpStream::connect(&srv.addr).expect("connect");
    c.write_all(&IM).expect("write IM");
    c.set_read_timeout(Some(Duration::from_millis(500)))
        .expect("timeout");
    let mut header = [0u8; 4];
    assert!(
        c.read_exact(&mut header).is_err(),
        "a third client was served"
    );
    drop(a);
    c.set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    c.read_exact(&mut header).expect("served once a slot freed");
    assert_eq!(header[0], 1, "RM");
}

#[test]
fn running_out_of_file_descriptors_does_not_stop_the_server() {
    // 40 descriptors: the runtime and the listener take some, the clients below exhaust the
    // rest, so accept fails with EMFILE while they stay connected.
    let srv = server(&["--max-connections", "1000"], Some(40));
    let mut held = Vec::new();
    for _ in 0..60 {
        if let Ok(s) = TcpStream::connect(&srv.addr) {
            held.push(s);
        }
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        srv_alive(&srv),
        "the server died while out of file descriptors"
    );
    assert!(
        srv.failures.try_iter().any(|f| f.is_none()),
        "accept never failed: the test did not exhaust the descriptors"
    );
    drop(held);
    // Descriptors free again: after the backoff (at most 1 s) the server serves a newcomer.
    let served = (0..20).any(|_| {
        let ok = connect_and_hello(&srv.addr, Duration::from_secs(3)).is_some();
        if !ok {
            std::thread::sleep(Duration::from_millis(200));
        }
        ok
    });
    assert!(served, "no client served after the descriptors were freed");
}

fn srv_alive(srv: &Server) -> bool {
    let pid = srv.child.id();
    std::path::Path::new(&format!("/proc/{pid}")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .unwrap_or_default()
            .contains(") Z ")
}

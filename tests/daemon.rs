//! The daemon with a stand-in echo protocol: port 0 binding, the connection limit, shutdown
//! cancelling sessions, the grace period, and failing sessions.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tablero::config::ServerConfig;
use tablero::daemon::{
    CancellationToken, Daemon, DaemonError, Session, SessionError, SessionHandler, ShutdownReport,
    session_handler,
};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio::time::timeout;

const PATIENCE: Duration = Duration::from_secs(5);

fn server(max_connections: usize, grace_secs: f64) -> ServerConfig {
    ServerConfig {
        gtp_listen: "127.0.0.1:0".into(),
        max_connections,
        shutdown_grace: grace_secs,
        ..ServerConfig::default()
    }
}

/// Echoes lines until EOF or cancellation; counts the sessions that saw the cancellation.
fn echo(cancelled: Arc<AtomicUsize>) -> SessionHandler {
    session_handler(move |session: Session, cancel: CancellationToken| {
        let cancelled = Arc::clone(&cancelled);
        async move {
            let mut lines = BufReader::new(session.reader).lines();
            let mut writer = session.writer;
            loop {
                let line = tokio::select! {
                    line = lines.next_line() => line?,
                    () = cancel.cancelled() => {
                        cancelled.fetch_add(1, Ordering::SeqCst);
                        writer.write_all(b"bye\n").await?;
                        return Ok::<(), SessionError>(());
                    }
                };
                let Some(line) = line else { return Ok(()) };
                writer.write_all(format!("{line}\n").as_bytes()).await?;
            }
        }
    })
}

struct Running {
    addr: std::net::SocketAddr,
    stop: oneshot::Sender<()>,
    task: JoinHandle<ShutdownReport>,
}

async fn start(config: ServerConfig, handler: SessionHandler) -> Running {
    let daemon = Daemon::bind(&config).await.unwrap();
    let addr = daemon.local_addr();
    assert_ne!(addr.port(), 0, "port 0 must resolve to the bound port");
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(daemon.run(handler, async move {
        let _ = stopped.await;
    }));
    Running { addr, stop, task }
}

struct Client {
    lines: tokio::io::Lines<BufReader<tokio::net::tcp::OwnedReadHalf>>,
    writer: tokio::net::tcp::OwnedWriteHalf,
}

impl Client {
    async fn connect(addr: std::net::SocketAddr) -> Client {
        let (reader, writer) = TcpStream::connect(addr).await.unwrap().into_split();
        Client {
            lines: BufReader::new(reader).lines(),
            writer,
        }
    }
    async fn send(&mut self, line: &str) {
        self.writer
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    }
    async fn recv(&mut self, within: Duration) -> Option<Option<String>> {
        timeout(within, self.lines.next_line())
            .await
            .ok()
            .map(|r| r.ok().flatten())
    }
    async fn roundtrip(&mut self, line: &str) {
        self.send(line).await;
        assert_eq!(self.recv(PATIENCE).await, Some(Some(line.to_string())));
    }
}

#[tokio::test]
async fn binds_port_zero_and_serves_independent_sessions() {
    let running = start(server(4, 1.0), echo(Arc::default())).await;
    let mut a = Client::connect(running.addr).await;
    let mut b = Client::connect(running.addr).await;
    a.roundtrip("from a").await;
    b.roundtrip("from b").await;
    a.roundtrip("again a").await;
    drop((a, b));
    running.stop.send(()).unwrap();
    let report = timeout(PATIENCE, running.task).await.unwrap().unwrap();
    assert_eq!(
        report,
        ShutdownReport {
            sessions: 2,
            forced: 0,
            idle_closed: 0
        }
    );
}

#[tokio::test]
async fn max_connections_makes_extra_clients_wait() {
    let running = start(server(2, 1.0), echo(Arc::default())).await;
    let mut a = Client::connect(running.addr).await;
    let mut b = Client::connect(running.addr).await;
    a.roundtrip("a").await;
    b.roundtrip("b").await;

    // The third client connects (kernel backlog) but is not served while two sessions run.
    let mut c = Client::connect(running.addr).await;
    c.send("c").await;
    assert_eq!(
        c.recv(Duration::from_millis(400)).await,
        None,
        "third session must wait"
    );

    // Ending one session frees a slot; the waiting client is served, its line included.
    drop(a);
    assert_eq!(c.recv(PATIENCE).await, Some(Some("c".to_string())));
    b.roundtrip("b still served").await;

    // Still only two at once: a fourth waits while b and c run.
    let mut d = Client::connect(running.addr).await;
    d.send("d").await;
    assert_eq!(
        d.recv(Duration::from_millis(400)).await,
        None,
        "fourth session must wait"
    );
    drop(c);
    assert_eq!(d.recv(PATIENCE).await, Some(Some("d".to_string())));
    running.stop.send(()).unwrap();
    assert_eq!(
        timeout(PATIENCE, running.task)
            .await
            .unwrap()
            .unwrap()
            .sessions,
        4
    );
}

#[tokio::test]
async fn shutdown_cancels_sessions_and_stops_listening() {
    let cancelled = Arc::new(AtomicUsize::new(0));
    let running = start(server(4, 30.0), echo(Arc::clone(&cancelled))).await;
    let mut a = Client::connect(running.addr).await;
    let mut b = Client::connect(running.addr).await;
    a.roundtrip("a").await;
    b.roundtrip("b").await;

    let t0 = Instant::now();
    running.stop.send(()).unwrap();
    for client in [&mut a, &mut b] {
        assert_eq!(client.recv(PATIENCE).await, Some(Some("bye".to_string())));
        assert_eq!(
            client.recv(PATIENCE).await,
            Some(None),
            "socket closed after the session"
        );
    }
    let report = timeout(PATIENCE, running.task).await.unwrap().unwrap();
    assert!(
        t0.elapsed() < Duration::from_secs(10),
        "cooperative sessions end without waiting for the grace period"
    );
    assert_eq!(
        report,
        ShutdownReport {
            sessions: 2,
            forced: 0,
            idle_closed: 0
        }
    );
    assert_eq!(cancelled.load(Ordering::SeqCst), 2);
    assert!(
        TcpStream::connect(running.addr).await.is_err(),
        "listener closed"
    );
}

#[tokio::test]
async fn grace_period_bounds_sessions_that_ignore_cancellation() {
    let stubborn = session_handler(|session: Session, _cancel: CancellationToken| async move {
        let mut reader = session.reader;
        let _writer = session.writer;
        let mut buf = [0u8; 64];
        // Ignores the token; only ends when the peer closes.
        while reader.read(&mut buf).await? > 0 {}
        Ok::<(), std::io::Error>(())
    });
    let running = start(server(4, 0.3), stubborn).await;
    let mut a = Client::connect(running.addr).await;
    a.send("hello").await;
    tokio::time::sleep(Duration::from_millis(100)).await;

    let t0 = Instant::now();
    running.stop.send(()).unwrap();
    let report = timeout(PATIENCE, running.task).await.unwrap().unwrap();
    let took = t0.elapsed();
    assert!(
        took >= Duration::from_millis(250) && took < Duration::from_secs(3),
        "took {took:?}"
    );
    assert_eq!(
        report,
        ShutdownReport {
            sessions: 1,
            forced: 1,
            idle_closed: 0
        }
    );
    assert_eq!(
        a.recv(PATIENCE).await,
        Some(None),
        "forced session's socket is closed"
    );
}

#[tokio::test]
async fn failing_sessions_do_not_stop_the_daemon() {
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&calls);
    let echo_after_first = echo(Arc::default());
    let handler = session_handler(move |session: Session, cancel: CancellationToken| {
        let first = counter.fetch_add(1, Ordering::SeqCst) == 0;
        let echo = Arc::clone(&echo_after_first);
        async move {
            if first {
                return Err::<(), SessionError>("first session fails".into());
            }
            echo(session, cancel).await
        }
    });
    let running = start(server(1, 1.0), handler).await;
    let mut a = Client::connect(running.addr).await;
    assert_eq!(
        a.recv(PATIENCE).await,
        Some(None),
        "failed session closes its socket"
    );
    let mut b = Client::connect(running.addr).await;
    b.roundtrip("served after a failure").await;
    running.stop.send(()).unwrap();
    assert_eq!(
        timeout(PATIENCE, running.task)
            .await
            .unwrap()
            .unwrap()
            .sessions,
        2
    );
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn bind_errors_name_the_address() {
    let running = start(server(1, 0.0), echo(Arc::default())).await;
    let taken = ServerConfig {
        gtp_listen: running.addr.to_string(),
        ..server(1, 0.0)
    };
    match Daemon::bind(&taken).await {
        Err(e @ DaemonError::Bind { .. }) => {
            assert!(e.to_string().contains(&running.addr.to_string()), "{e}")
        }
        other => panic!("expected a bind error, got {other:?}"),
    }
    let bad = ServerConfig {
        gtp_listen: "not an address".into(),
        ..server(1, 0.0)
    };
    assert!(matches!(
        Daemon::bind(&bad).await,
        Err(DaemonError::Config(_))
    ));
    running.stop.send(()).unwrap();
}

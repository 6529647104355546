//! TCP helpers shared by every listener (the daemon's GTP and GVG-AI listeners, the embedded
//! DAIDE server).

use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tracing::{debug, warn};

/// First wait after a failed `accept`; doubled after each further failure.
const ACCEPT_BACKOFF_START: Duration = Duration::from_millis(10);
/// Longest wait between two `accept` attempts.
const ACCEPT_BACKOFF_MAX: Duration = Duration::from_secs(1);

/// Accepts one connection, retrying failed accepts (e.g. out of file descriptors, `EMFILE`)
/// with a capped exponential backoff instead of giving up: the listener stays open and the
/// connections already served go on.
pub async fn accept(listener: &TcpListener) -> (TcpStream, SocketAddr) {
    let mut backoff = ACCEPT_BACKOFF_START;
    loop {
        match listener.accept().await {
            Ok((stream, peer)) => {
                debug!(%peer, "accepted");
                return (stream, peer);
            }
            Err(e) => {
                warn!("accept failed: {e}; retrying in {backoff:?}");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(ACCEPT_BACKOFF_MAX);
            }
        }
    }
}

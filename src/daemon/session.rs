//! One client session as the daemon hands it to a protocol: a reader, a writer, who it is,
//! and the handler type that serves it.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use futures::future::BoxFuture;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::sync::CancellationToken;

pub type BoxReader = Box<dyn AsyncRead + Send + Unpin>;
pub type BoxWriter = Box<dyn AsyncWrite + Send + Unpin>;
/// Whatever error a protocol session ends with; the daemon only logs it.
pub type SessionError = Box<dyn std::error::Error + Send + Sync>;

/// The byte streams of one client plus a label for logs.
pub struct Session {
    pub reader: BoxReader,
    pub writer: BoxWriter,
    /// `IP:PORT` of a TCP peer, or `stdio`.
    pub peer: String,
    /// Sequence number of the session in this process (1, 2, ...), for logs.
    pub id: u64,
}

impl Session {
    /// A TCP connection (Nagle off: GTP is small request/response lines).
    pub fn tcp(stream: tokio::net::TcpStream, peer: std::net::SocketAddr, id: u64) -> Session {
        let peer = peer.to_string();
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(%peer, "cannot set TCP_NODELAY: {e}");
        }
        let (reader, writer) = stream.into_split();
        Session {
            reader: Box::new(reader),
            writer: Box::new(writer),
            peer,
            id,
        }
    }

    /// This process's stdin and stdout (`tablero gtp`).
    pub fn stdio() -> Session {
        Session {
            reader: Box::new(tokio::io::stdin()),
            writer: Box::new(tokio::io::stdout()),
            peer: "stdio".into(),
            id: 0,
        }
    }
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("peer", &self.peer)
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// Serves one session until the peer leaves, the protocol ends it, or the token is cancelled
/// (then it should wind down promptly: stop searches, flush, return).
pub type SessionHandler = Arc<
    dyn Fn(Session, CancellationToken) -> BoxFuture<'static, Result<(), SessionError>>
        + Send
        + Sync,
>;

/// Wraps an async function as a [`SessionHandler`].
pub fn session_handler<F, Fut, E>(f: F) -> SessionHandler
where
    F: Fn(Session, CancellationToken) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<(), E>> + Send + 'static,
    E: Into<SessionError>,
{
    Arc::new(move |session, cancel| {
        let fut = f(session, cancel);
        Box::pin(async move { fut.await.map_err(Into::into) })
    })
}

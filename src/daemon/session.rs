//! One client session as the daemon hands it to a protocol: a reader, a writer, who it is,
//! its [`Activity`] (touched by every read; the protocol marks commands busy), and the handler
//! type that serves it.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use futures::future::BoxFuture;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_util::sync::CancellationToken;

pub use crate::budget::Activity;

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
    /// Network client (the daemon's limits apply) or this process's stdin/stdout.
    pub transport: Transport,
    /// What the daemon's idle policy reads; every read of `reader` touches it.
    pub activity: Activity,
}

/// Where a session's bytes come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    Tcp,
    Stdio,
}

/// A reader that marks its session active whenever bytes (or EOF) arrive.
struct Touching<R> {
    inner: R,
    activity: Activity,
}

impl<R: AsyncRead + Unpin> AsyncRead for Touching<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_read(cx, buf);
        if poll.is_ready() {
            self.activity.touch();
        }
        poll
    }
}

impl Session {
    /// A TCP connection (Nagle off: GTP is small request/response lines).
    pub fn tcp(stream: tokio::net::TcpStream, peer: std::net::SocketAddr, id: u64) -> Session {
        let peer = peer.to_string();
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(%peer, "cannot set TCP_NODELAY: {e}");
        }
        let (reader, writer) = stream.into_split();
        let activity = Activity::new();
        Session {
            reader: Box::new(Touching {
                inner: reader,
                activity: activity.clone(),
            }),
            writer: Box::new(writer),
            peer,
            id,
            transport: Transport::Tcp,
            activity,
        }
    }

    /// This process's stdin and stdout (`tablero gtp`).
    pub fn stdio() -> Session {
        Session {
            reader: Box::new(tokio::io::stdin()),
            writer: Box::new(tokio::io::stdout()),
            peer: "stdio".into(),
            id: 0,
            transport: Transport::Stdio,
            activity: Activity::new(),
        }
    }
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("peer", &self.peer)
            .field("id", &self.id)
            .field("transport", &self.transport)
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

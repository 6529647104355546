//! The network runtime around [`ServerGame`]: the daemon's listener ([`Daemon`]: the
//! connection limit of [`ListenerLimits`], accept errors retried with back-off, the shutdown
//! sequence) runs one session per TCP connection (IM with a timeout, RM, then DMs both ways),
//! and a hub routes connections to games, fires phase deadlines and hands finished games back.

use std::collections::HashMap;
use std::future::Future;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_util::codec::Framed;
use tracing::Instrument;

use super::{ClientId, GameRecord, ListenerLimits, Output, ServerConfig, ServerError, ServerGame};
use crate::daemon::{
    CancellationToken, Daemon, Session, SessionHandler, ShutdownReport, session_handler,
};
use crate::daide::codec::{DaideCodec, ErrorCode, Frame, Role as CodecRole};
use crate::daide::token::{Token, TokenTable};
use crate::diplomacy::Phase;

/// How long a new connection may take to send its IM.
pub const IM_TIMEOUT: Duration = Duration::from_secs(30);

/// How long the connections of [`run_game`] and [`run_server`] get to close once their hub
/// has stopped (a graceful close waits at most 2 s for the client's side); they close in the
/// background, after these functions have returned.
const CLOSE_GRACE: Duration = Duration::from_secs(3);

enum Event {
    Connected(ClientId, mpsc::UnboundedSender<Output>),
    Dm(ClientId, Vec<Token>),
    Gone(ClientId),
}

/// One client: its IM (within [`IM_TIMEOUT`]; a shutdown meanwhile ends it), the RM, then DMs
/// both ways until either side closes. Once the hub has stopped, the messages it queued are
/// sent and the connection closes gracefully.
async fn connection<S>(
    stream: S,
    id: ClientId,
    table: TokenTable,
    events: mpsc::UnboundedSender<Event>,
    cancel: CancellationToken,
) where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let mut framed = Framed::new(stream, DaideCodec::for_role(CodecRole::Server));
    let first = tokio::select! {
        first = tokio::time::timeout(IM_TIMEOUT, framed.next()) => first,
        () = cancel.cancelled() => return,
    };
    match first {
        Err(_) => {
            let _ = framed.send(Frame::Em(ErrorCode::ImTimeout)).await;
            return;
        }
        Ok(Some(Ok(Frame::Im { .. }))) => {}
        Ok(Some(Err(e))) => {
            if let Some(code) = e.em_code() {
                let _ = framed.send(Frame::Em(code)).await;
            }
            return;
        }
        Ok(_) => return,
    }
    if framed.send(Frame::Rm(table)).await.is_err() {
        return;
    }
    let (tx, mut rx) = mpsc::unbounded_channel();
    if events.send(Event::Connected(id, tx)).is_err() {
        return;
    }
    loop {
        tokio::select! {
            frame = framed.next() => match frame {
                Some(Ok(Frame::Dm(t))) => {
                    // If the game task is gone, keep going: its last messages
                    // are still queued in `rx`, which then ends.
                    let _ = events.send(Event::Dm(id, t));
                }
                Some(Ok(Frame::Fm)) | Some(Ok(Frame::Em(_))) | None => break,
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    if let Some(code) = e.em_code() {
                        let _ = framed.send(Frame::Em(code)).await;
                    }
                    break;
                }
            },
            cmd = rx.recv() => match cmd {
                Some(Output::Send(_, m)) => {
                    if framed.send(Frame::Dm(m.to_tokens())).await.is_err() { break; }
                }
                Some(Output::Close(_)) | None => {
                    // Graceful close: FIN first, then drain what the client
                    // still sends (its FM), so that unread input does not
                    // turn the close into a reset that loses our last messages.
                    let _ = tokio::io::AsyncWriteExt::shutdown(framed.get_mut()).await;
                    let _ = tokio::time::timeout(Duration::from_secs(2), async {
                        while let Some(Ok(_)) = framed.next().await {}
                    })
                    .await;
                    break;
                }
            }
        }
    }
    let _ = events.send(Event::Gone(id));
}

type GameId = u64;

struct Hosted {
    host: ServerGame,
    deadline: Option<tokio::time::Instant>,
    seen: Option<(Phase, bool)>,
}

/// Routes connections to games: new connections join the game being formed;
/// once it starts, the next connection opens a new one.
struct Hub {
    make: Box<dyn FnMut(GameId) -> ServerConfig + Send>,
    games: HashMap<GameId, Hosted>,
    forming: Option<GameId>,
    next_game: GameId,
    client_game: HashMap<ClientId, GameId>,
    finished: Vec<ServerGame>,
    /// At most this many games are ever opened.
    limit: Option<u64>,
    /// Told of every game as it ends.
    on_finish: Box<dyn FnMut(GameRecord) + Send>,
}

impl Hub {
    fn new(make: Box<dyn FnMut(GameId) -> ServerConfig + Send>, limit: Option<u64>) -> Hub {
        Hub {
            limit,
            make,
            games: HashMap::new(),
            forming: None,
            next_game: 0,
            client_game: HashMap::new(),
            finished: Vec::new(),
            on_finish: Box::new(|_| {}),
        }
    }

    /// A hub that opens at most `max_games` games and tells `on_finish` of each as it ends.
    fn with_records(
        make: Box<dyn FnMut(GameId) -> ServerConfig + Send>,
        max_games: Option<usize>,
        on_finish: Box<dyn FnMut(GameRecord) + Send>,
    ) -> Hub {
        let mut hub = Hub::new(make, max_games.map(|n| n as u64));
        hub.on_finish = on_finish;
        hub
    }

    fn connect(&mut self, id: ClientId) -> Result<(), ServerError> {
        let gid = match self.forming {
            Some(g) if self.games.get(&g).is_some_and(|h| !h.host.started()) => g,
            // No more games may open: join the last one (which refuses NME once started).
            _ if self.limit.is_some_and(|l| self.next_game >= l) => {
                match self
                    .next_game
                    .checked_sub(1)
                    .filter(|g| self.games.contains_key(g))
                {
                    Some(g) => g,
                    None => return Ok(()),
                }
            }
            _ => {
                let g = self.next_game;
                self.next_game += 1;
                let host = ServerGame::new((self.make)(g))?;
                self.games.insert(
                    g,
                    Hosted {
                        host,
                        deadline: None,
                        seen: None,
                    },
                );
                self.forming = Some(g);
                g
            }
        };
        self.client_game.insert(id, gid);
        if let Some(h) = self.games.get_mut(&gid) {
            h.host.connect(id);
        }
        Ok(())
    }

    fn with_game(
        &mut self,
        id: ClientId,
        f: impl FnOnce(&mut ServerGame) -> Vec<Output>,
    ) -> Vec<Output> {
        let Some(&gid) = self.client_game.get(&id) else {
            return Vec::new();
        };
        let out = match self.games.get_mut(&gid) {
            Some(h) => f(&mut h.host),
            None => Vec::new(),
        };
        self.after(gid);
        out
    }

    fn after(&mut self, gid: GameId) {
        let Some(h) = self.games.get_mut(&gid) else {
            return;
        };
        let key = (h.host.game().phase(), h.host.started());
        if h.seen != Some(key) {
            if key.1 && !h.seen.is_some_and(|(_, started)| started) {
                tracing::info!(target: "daide::server", game = gid, "game started");
            }
            h.seen = Some(key);
            h.deadline = h
                .host
                .phase_deadline()
                .map(|d| tokio::time::Instant::now() + d);
        }
        if h.host.ending().is_some()
            && let Some(done) = self.games.remove(&gid)
        {
            self.client_game.retain(|_, g| *g != gid);
            if self.forming == Some(gid) {
                self.forming = None;
            }
            let record = GameRecord::new(gid, &done.host);
            tracing::info!(
                target: "daide::server",
                game = record.game,
                phase = %record.phase,
                ending = %record.ending,
                centres = %record.centres_text(),
                "game over"
            );
            (self.on_finish)(record);
            self.finished.push(done.host);
        }
    }

    fn next_deadline(&self) -> Option<(tokio::time::Instant, GameId)> {
        self.games
            .iter()
            .filter_map(|(g, h)| h.deadline.map(|d| (d, *g)))
            .min()
    }

    fn expire(&mut self, gid: GameId) -> Vec<Output> {
        let out = match self.games.get_mut(&gid) {
            Some(h) => {
                h.deadline = None;
                h.host.deadline_expired()
            }
            None => Vec::new(),
        };
        self.after(gid);
        out
    }
}

/// The daemon's session of a DAIDE connection: [`connection`] over the session's two halves,
/// with the session number as the client's id.
fn connection_handler(table: TokenTable, events: mpsc::UnboundedSender<Event>) -> SessionHandler {
    session_handler(move |session: Session, cancel: CancellationToken| {
        let (table, events) = (table.clone(), events.clone());
        async move {
            let stream = tokio::io::join(session.reader, session.writer);
            connection(stream, session.id, table, events, cancel).await;
            Ok::<(), std::convert::Infallible>(())
        }
    })
}

/// Runs `hub` on the connections of `daemon` until `shutdown` resolves or `max_games` have
/// finished. Returns the finished games and the listener's task, which is stopping by then:
/// it closes the listener at once, then gives the connections its grace period.
async fn run_hub(
    daemon: Daemon,
    table: TokenTable,
    mut hub: Hub,
    max_games: Option<usize>,
    shutdown: impl Future<Output = ()>,
) -> (
    Result<Vec<ServerGame>, ServerError>,
    JoinHandle<ShutdownReport>,
) {
    let (events_tx, events) = mpsc::unbounded_channel::<Event>();
    let stop = CancellationToken::new();
    let handler = connection_handler(table, events_tx);
    let run = daemon.run(handler, stop.clone().cancelled_owned());
    let listening = tokio::spawn(run.in_current_span());
    let routed = route(&mut hub, events, max_games, shutdown).await;
    // The hub has stopped and dropped its senders: every connection sends what is queued
    // and closes; only then are the sessions cancelled.
    stop.cancel();
    (routed.map(|()| hub.finished), listening)
}

/// The hub's event loop: connections, their messages and departures, phase deadlines.
async fn route(
    hub: &mut Hub,
    mut events: mpsc::UnboundedReceiver<Event>,
    max_games: Option<usize>,
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServerError> {
    tokio::pin!(shutdown);
    let mut senders: HashMap<ClientId, mpsc::UnboundedSender<Output>> = HashMap::new();
    loop {
        let next = hub.next_deadline();
        let out = tokio::select! {
            ev = events.recv() => match ev {
                Some(Event::Connected(id, tx)) => {
                    senders.insert(id, tx);
                    hub.connect(id)?;
                    Vec::new()
                }
                Some(Event::Dm(id, t)) => hub.with_game(id, |g| g.handle(id, &t)),
                Some(Event::Gone(id)) => {
                    senders.remove(&id);
                    let out = hub.with_game(id, |g| g.disconnect(id));
                    hub.client_game.remove(&id);
                    out
                }
                None => break,
            },
            gid = async {
                match next {
                    Some((d, g)) => {
                        tokio::time::sleep_until(d).await;
                        g
                    }
                    None => std::future::pending::<GameId>().await,
                }
            } => hub.expire(gid),
            _ = &mut shutdown => break,
        };
        for o in out {
            let id = match &o {
                Output::Send(id, _) | Output::Close(id) => *id,
            };
            if let Some(tx) = senders.get(&id) {
                let _ = tx.send(o);
            }
        }
        if max_games.is_some_and(|n| hub.finished.len() >= n) {
            break;
        }
    }
    Ok(())
}

/// Hosts one game on `listener` until it ends; returns the final host state.
pub async fn run_game(listener: TcpListener, cfg: ServerConfig) -> Result<ServerGame, ServerError> {
    let table = cfg.table.clone();
    let mut once = Some(cfg);
    let make = Box::new(move |_| match once.take() {
        Some(c) => c,
        // Only reached if a second game were opened, which max_games prevents.
        None => ServerConfig::standard(0),
    });
    let hub = Hub::new(make, Some(1));
    let limits = ListenerLimits::default();
    let daemon = Daemon::from_listener(listener, limits.max_connections, CLOSE_GRACE)?;
    let (done, _closing) = run_hub(daemon, table, hub, Some(1), std::future::pending()).await;
    done?.pop().ok_or_else(|| {
        ServerError::Io(std::io::Error::other(
            "server stopped before the game ended",
        ))
    })
}

/// Hosts games on `listener` until `shutdown` resolves: connections join the
/// game being formed; once it starts, the next connection opens a new game
/// (`make(n)` gives the configuration of game `n`; all games must share the
/// representation table of `table`). With `max_games`, it stops once that
/// many games have finished (and opens no more). Returns the finished games.
pub async fn run_server(
    listener: TcpListener,
    table: TokenTable,
    make: impl FnMut(u64) -> ServerConfig + Send + 'static,
    limits: ListenerLimits,
    max_games: Option<usize>,
    shutdown: impl Future<Output = ()>,
) -> Result<Vec<ServerGame>, ServerError> {
    run_server_with(
        listener,
        table,
        make,
        limits,
        max_games,
        shutdown,
        |_: GameRecord| {},
    )
    .await
}

/// [`run_server`], calling `on_finish` with each game's record as it ends (before the next
/// event is handled, so a record written there is on disk before the server goes on).
pub async fn run_server_with(
    listener: TcpListener,
    table: TokenTable,
    make: impl FnMut(u64) -> ServerConfig + Send + 'static,
    limits: ListenerLimits,
    max_games: Option<usize>,
    shutdown: impl Future<Output = ()>,
    on_finish: impl FnMut(GameRecord) + Send + 'static,
) -> Result<Vec<ServerGame>, ServerError> {
    let daemon = Daemon::from_listener(listener, limits.max_connections, CLOSE_GRACE)?;
    let hub = Hub::with_records(Box::new(make), max_games, Box::new(on_finish));
    let (done, _closing) = run_hub(daemon, table, hub, max_games, shutdown).await;
    done
}

/// [`run_server_with`] on a listener of `tablero serve`, with its connection limit and grace
/// period: returns once the listener has stopped and its connections have ended (or were
/// dropped at the end of the grace period), with the finished games and the listener's report.
pub async fn serve_games(
    daemon: Daemon,
    table: TokenTable,
    make: impl FnMut(u64) -> ServerConfig + Send + 'static,
    max_games: Option<usize>,
    shutdown: impl Future<Output = ()>,
    on_finish: impl FnMut(GameRecord) + Send + 'static,
) -> (Result<Vec<ServerGame>, ServerError>, ShutdownReport) {
    let hub = Hub::with_records(Box::new(make), max_games, Box::new(on_finish));
    let (done, listening) = run_hub(daemon, table, hub, max_games, shutdown).await;
    (done, listening.await.unwrap_or_default())
}

//! The network runtime around [`ServerGame`]: a task per TCP connection (IM
//! with a timeout, RM, then DMs both ways), an accept loop bounded by
//! [`ListenerLimits`], and a hub task that routes connections to games, fires
//! phase deadlines and hands finished games back.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_util::codec::Framed;

use super::{ClientId, GameRecord, ListenerLimits, Output, ServerConfig, ServerError, ServerGame};
use crate::daide::codec::{DaideCodec, ErrorCode, Frame, Role as CodecRole};
use crate::daide::token::{Token, TokenTable};
use crate::diplomacy::Phase;

/// How long a new connection may take to send its IM.
pub const IM_TIMEOUT: Duration = Duration::from_secs(30);

enum Event {
    Connected(ClientId, mpsc::UnboundedSender<Output>),
    Dm(ClientId, Vec<Token>),
    Gone(ClientId),
}

async fn connection<S>(
    stream: S,
    id: ClientId,
    table: TokenTable,
    events: mpsc::UnboundedSender<Event>,
) where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let mut framed = Framed::new(stream, DaideCodec::for_role(CodecRole::Server));
    let first = tokio::time::timeout(IM_TIMEOUT, framed.next()).await;
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

/// Accepts connections while fewer than `max_connections` are open, retrying failed accepts
/// (out of file descriptors) with a backoff; each connection reports to `events`.
async fn accept_loop(
    listener: TcpListener,
    table: TokenTable,
    limits: ListenerLimits,
    events: mpsc::UnboundedSender<Event>,
) {
    let open = Arc::new(tokio::sync::Semaphore::new(limits.max_connections.max(1)));
    let mut next_id: ClientId = 1;
    loop {
        let Ok(slot) = open.clone().acquire_owned().await else {
            return;
        };
        let (stream, _) = crate::net::accept(&listener).await;
        let _ = stream.set_nodelay(true);
        let id = next_id;
        next_id += 1;
        let (table, events) = (table.clone(), events.clone());
        tokio::spawn(async move {
            connection(stream, id, table, events).await;
            drop(slot);
        });
    }
}

/// One finished game, as the server logs it and `tablero diplomacy server --results` writes it
async fn run_hub(
    listener: TcpListener,
    table: TokenTable,
    mut hub: Hub,
    limits: ListenerLimits,
    max_games: Option<usize>,
    shutdown: impl std::future::Future<Output = ()>,
) -> Result<Vec<ServerGame>, ServerError> {
    let (events_tx, mut events) = mpsc::unbounded_channel::<Event>();
    let acceptor = tokio::spawn(accept_loop(listener, table, limits, events_tx.clone()));
    drop(events_tx);
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
    acceptor.abort();
    Ok(hub.finished)
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
    let mut done = run_hub(
        listener,
        table,
        hub,
        limits,
        Some(1),
        std::future::pending(),
    )
    .await?;
    done.pop().ok_or_else(|| {
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
    shutdown: impl std::future::Future<Output = ()>,
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
    shutdown: impl std::future::Future<Output = ()>,
    on_finish: impl FnMut(GameRecord) + Send + 'static,
) -> Result<Vec<ServerGame>, ServerError> {
    let mut hub = Hub::new(Box::new(make), max_games.map(|n| n as u64));
    hub.on_finish = Box::new(on_finish);
    run_hub(listener, table, hub, limits, max_games, shutdown).await
}

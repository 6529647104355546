//! The GTP transport, one path for stdio, TCP and in-memory pipes: a reader that keeps reading
//! lines while a command runs, an engine on its own OS thread answering commands strictly in
//! order, and one writer that writes the responses in order.
//!
//! Cancellation. Every received line that needs an answer gets a sequence number. A running
//! command `n` is stopped (its [`CancelFlag`] raised) when
//! - `quit` was received (it is answered after the commands before it), or the session shuts down;
//! - `# interrupt` arrived after command `n` was received (GoGui's interrupt);
//! - `n` is a streaming (analysis) command and any later line arrived, even an empty one;
//! - the input ended or an answer could not be written, when [`SessionOptions::stop_on_eof`]
//!   is set (the daemon's TCP sessions: the client is gone, so nobody waits for the answer and
//!   the search must not go on holding cores). Commands still queued then run with their flag
//!   raised (searches return at once). Without it (stdio), every command read is answered.
//!
//! Every command carries the instant its line arrived ([`CommandContext::received`]): a
//! move's deadline counts from there, so time spent queued or waiting for cores is its own.
//!
//! Idle time. When a command has been answered and no other is waiting, the engine may work
//! in the background ([`Engine::idle`], e.g. pondering) until any input line arrives (or the
//! input ends, or the session shuts down).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use bytes::{Buf, BytesMut};
use futures::StreamExt;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio_util::codec::{Decoder, FramedRead};
use tokio_util::sync::CancellationToken;

use super::command::{Line, LineError, RawCommand, leading_id, parse_line};
use super::response;
use crate::budget::{Activity, CancelFlag};
use crate::config::GtpConfig;

/// Errors that end a session.
#[derive(Debug, thiserror::Error)]
pub enum GtpError {
    #[error("GTP output failed: {0}")]
    Io(#[from] std::io::Error),
    #[error("could not start the engine thread: {0}")]
    Thread(std::io::Error),
}

/// How the session treats a running command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommandKind {
    /// Runs to completion unless interrupted (`# interrupt`) or `quit`.
    Normal,
    /// A streaming analysis: also stopped by any later input line.
    Streaming,
}

/// What a session needs from a game engine. Implementations run on the session's engine thread.
pub trait Engine {
    /// Answers one command: `Ok(result)` becomes `=`, `Err(message)` becomes `?`. A streaming
    /// command writes its body through `ctx` and its `Ok` text is appended before the end line.
    fn execute(&mut self, cmd: &RawCommand, ctx: &mut CommandContext<'_>)
    -> Result<String, String>;

    /// Whether `cmd` is a streaming command (stopped by any new input).
    fn kind(&self, _cmd: &RawCommand) -> CommandKind {
        CommandKind::Normal
    }

    /// Called once after a command was answered when no other command is waiting: background
    /// work (pondering) that must return soon after `stop` is raised, which happens as soon as
    /// any input line arrives. The default does nothing.
    fn idle(&mut self, _stop: &CancelFlag) {}
}

/// The running command's view of the session: its cancellation flag and, for streaming
/// commands, the output.
pub struct CommandContext<'a> {
    id: Option<u64>,
    received: Instant,
    cancel: CancelFlag,
    out: &'a mpsc::Sender<String>,
    streamed: bool,
}

impl CommandContext<'_> {
    /// Raised when the command must stop as soon as it can (with a best-so-far answer).
    pub fn cancel_flag(&self) -> &CancelFlag {
        &self.cancel
    }
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }
    /// When the command's line arrived: the start of any time budget it has.
    pub fn received(&self) -> Instant {
        self.received
    }
    /// Writes body lines of a streamed response now (the `=` line is written first, once).
    /// Empty lines are dropped.
    pub fn stream(&mut self, text: &str) {
        if !self.streamed {
            self.streamed = true;
            let _ = self.out.blocking_send(response::stream_start(self.id));
        }
        let lines = response::stream_lines(text);
        if !lines.is_empty() {
            let _ = self.out.blocking_send(lines);
        }
    }
    /// Writes raw text to the engine's diagnostic stream (stderr), e.g. `gogui-gfx:` lines.
    pub fn diagnostic(&self, text: &str) {
        eprintln!("{text}");
    }
}

/// Splits bytes into lines at LF, without decoding them. Lines longer than the limit are
/// reported as [`RawLine::TooLong`] once their end arrives, so the stream stays in sync.
#[derive(Debug)]
pub struct GtpLineCodec {
    max_length: usize,
    next_index: usize,
    discarding: Option<Vec<u8>>,
}

/// A line from [`GtpLineCodec`].
#[derive(Debug, PartialEq, Eq)]
pub enum RawLine {
    Line(BytesMut),
    /// An over-long line; `prefix` holds its first bytes (for the id).
    TooLong {
        prefix: Vec<u8>,
    },
}

const PREFIX_LEN: usize = 32;

impl GtpLineCodec {
    pub fn new(max_length: usize) -> Self {
        Self {
            max_length: max_length.max(1),
            next_index: 0,
            discarding: None,
        }
    }
}

impl Decoder for GtpLineCodec {
    type Item = RawLine;
    type Error = std::io::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<RawLine>, Self::Error> {
        let newline = buf[self.next_index..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|i| i + self.next_index);
        if let Some(prefix) = self.discarding.take() {
            match newline {
                Some(i) => {
                    buf.advance(i + 1);
                    self.next_index = 0;
                    return Ok(Some(RawLine::TooLong { prefix }));
                }
                None => {
                    buf.clear();
                    self.next_index = 0;
                    self.discarding = Some(prefix);
                    return Ok(None);
                }
            }
        }
        match newline {
            Some(i) => {
                self.next_index = 0;
                let mut line = buf.split_to(i + 1);
                line.truncate(i);
                if line.len() > self.max_length {
                    let prefix = line[..PREFIX_LEN.min(line.len())].to_vec();
                    Ok(Some(RawLine::TooLong { prefix }))
                } else {
                    Ok(Some(RawLine::Line(line)))
                }
            }
            None if buf.len() > self.max_length => {
                self.discarding = Some(buf[..PREFIX_LEN.min(buf.len())].to_vec());
                buf.clear();
                self.next_index = 0;
                Ok(None)
            }
            None => {
                self.next_index = buf.len();
                Ok(None)
            }
        }
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<RawLine>, Self::Error> {
        if let Some(line) = self.decode(buf)? {
            return Ok(Some(line));
        }
        self.next_index = 0;
        if let Some(prefix) = self.discarding.take() {
            return Ok(Some(RawLine::TooLong { prefix }));
        }
        if buf.is_empty() {
            Ok(None)
        } else {
            // A last line without its LF.
            Ok(Some(RawLine::Line(buf.split())))
        }
    }
}

/// Stack of the engine thread: room for recursive parsers (SGF) on bounded input. Only the
/// pages touched are committed.
pub const ENGINE_STACK: usize = 64 << 20;

/// Commands read ahead of the engine, at most.
const EVENT_QUEUE: usize = 1024;
/// Response chunks waiting for the writer, at most.
const OUTPUT_QUEUE: usize = 256;

/// What the reader hands to the engine thread, in input order.
enum Event {
    Command {
        seq: u64,
        cmd: RawCommand,
        received: Instant,
    },
    Malformed {
        seq: u64,
        id: Option<u64>,
        error: LineError,
    },
}

struct Running {
    seq: u64,
    kind: CommandKind,
    flag: CancelFlag,
}

#[derive(Default)]
struct ControlState {
    /// Sequence number of the last line that gets a response.
    last_seq: u64,
    /// Commands with `seq <= interrupt_upto` are interrupted.
    interrupt_upto: u64,
    /// Streaming commands with `seq <= input_upto` saw a later (blank or comment) line.
    input_upto: u64,
    quit: bool,
    shutdown: bool,
    /// The input has ended (EOF or a read error).
    input_closed: bool,
    /// [`SessionOptions::stop_on_eof`].
    stop_on_eof: bool,
    running: Option<Running>,
    /// The flag of the engine's idle work, raised by any input.
    idle: Option<CancelFlag>,
}

impl ControlState {
    fn must_stop(&self, seq: u64, kind: CommandKind) -> bool {
        self.quit
            || self.shutdown
            || (self.stop_on_eof && self.input_closed)
            || self.interrupt_upto >= seq
            || (kind == CommandKind::Streaming && (self.last_seq > seq || self.input_upto >= seq))
    }
    fn reevaluate(&self) {
        if let Some(r) = &self.running
            && self.must_stop(r.seq, r.kind)
        {
            r.flag.cancel();
        }
        if let Some(idle) = &self.idle
            && (self.quit || self.shutdown || self.input_closed)
        {
            idle.cancel();
        }
    }
    /// Any input line ends idle work.
    fn input_arrived(&mut self) {
        if let Some(idle) = self.idle.take() {
            idle.cancel();
        }
    }
}

/// Shared between the reader (async) and the engine thread.
#[derive(Clone, Default)]
struct Control(Arc<Mutex<ControlState>>);

impl Control {
    fn lock(&self) -> MutexGuard<'_, ControlState> {
        // A poisoned lock only means a panic elsewhere; the state itself stays consistent.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
    fn update(&self, f: impl FnOnce(&mut ControlState)) {
        let mut state = self.lock();
        f(&mut state);
        state.reevaluate();
    }
}

/// How a session treats its transport.
#[derive(Clone, Debug, Default)]
pub struct SessionOptions {
    /// End of input (or a failed write) stops the running command and any queued search.
    /// For network clients, whose EOF means they left; off for stdio pipes, whose EOF comes
    /// right after the last command.
    pub stop_on_eof: bool,
    /// Marked busy while a command runs (the daemon's idle policy never evicts a session in
    /// the middle of a genmove).
    pub activity: Option<Activity>,
}

/// Runs one GTP session until `quit`, end of input (after answering every command), an output
/// error, or `shutdown` (which stops the running command and drops queued ones).
pub async fn run_session<R, W>(
    reader: R,
    writer: W,
    engine: Box<dyn Engine + Send>,
    limits: &GtpConfig,
    shutdown: CancellationToken,
) -> Result<(), GtpError>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    run_session_with(
        reader,
        writer,
        engine,
        limits,
        SessionOptions::default(),
        shutdown,
    )
    .await
}

/// [`run_session`] with transport options (the daemon's TCP sessions).
pub async fn run_session_with<R, W>(
    reader: R,
    mut writer: W,
    engine: Box<dyn Engine + Send>,
    limits: &GtpConfig,
    options: SessionOptions,
    shutdown: CancellationToken,
) -> Result<(), GtpError>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    tracing::debug!(
        max_line_length = limits.max_line_length,
        stop_on_eof = options.stop_on_eof,
        "GTP session started"
    );
    let control = Control::default();
    control.lock().stop_on_eof = options.stop_on_eof;
    let activity = options.activity;
    // Bounded queues give backpressure end to end: a peer that does not read its responses
    // eventually stops being read.
    let (event_tx, event_rx) = mpsc::channel::<Event>(EVENT_QUEUE);
    let (out_tx, mut out_rx) = mpsc::channel::<String>(OUTPUT_QUEUE);
    let engine_control = control.clone();
    let engine_thread = std::thread::Builder::new()
        .name("gtp-engine".into())
        .stack_size(ENGINE_STACK)
        .spawn(move || engine_loop(engine, event_rx, out_tx, engine_control, activity))
        .map_err(GtpError::Thread)?;
    let writer_done = CancellationToken::new();

    let read = read_input(reader, limits, event_tx, &control, &shutdown, &writer_done);
    let write = write_output(&mut writer, &mut out_rx, &control, &writer_done);

    let ((), written) = tokio::join!(read, write);
    // Closing the output queue unblocks an engine thread still trying to answer.
    drop(out_rx);
    // The engine thread has dropped its output sender (or is stopping); wait for it off-runtime.
    let _ = tokio::task::spawn_blocking(move || engine_thread.join()).await;
    match &written {
        Ok(()) => tracing::debug!("GTP session ended"),
        Err(e) => tracing::debug!("GTP session ended: output failed: {e}"),
    }
    written.map_err(GtpError::Io)
}

/// Reads input lines as engine events until the input ends, `quit`, shutdown or a failed
/// writer (`writer_done`); then marks the input closed.
async fn read_input<R: AsyncRead + Unpin>(
    reader: R,
    limits: &GtpConfig,
    event_tx: mpsc::Sender<Event>,
    control: &Control,
    shutdown: &CancellationToken,
    writer_done: &CancellationToken,
) {
    let mut lines = FramedRead::new(reader, GtpLineCodec::new(limits.max_line_length));
    loop {
        let next = tokio::select! {
            next = lines.next() => next,
            () = shutdown.cancelled() => {
                control.update(|s| s.shutdown = true);
                break;
            }
            () = writer_done.cancelled() => break,
        };
        let line = match next {
            None => break,
            Some(Err(e)) => {
                tracing::debug!("GTP input ended: {e}");
                break;
            }
            Some(Ok(RawLine::TooLong { prefix })) => Line::Malformed {
                id: leading_id(&prefix),
                error: LineError::TooLong,
            },
            Some(Ok(RawLine::Line(bytes))) => parse_line(&bytes),
        };
        let Some((event, last)) = line_event(line, control) else {
            continue;
        };
        let sent = tokio::select! {
            sent = event_tx.send(event) => sent.is_ok(),
            () = shutdown.cancelled() => {
                control.update(|s| s.shutdown = true);
                false
            }
            () = writer_done.cancelled() => false,
        };
        if !sent || last {
            break;
        }
    }
    control.update(|s| s.input_closed = true);
    // Dropping the sender lets the engine thread finish the queue and stop.
    drop(event_tx);
}

/// Writes the engine's answers, joining those already queued, until the queue closes or a
/// write fails; then cancels `writer_done` and shuts the writer down.
async fn write_output<W: AsyncWrite + Unpin>(
    writer: &mut W,
    out_rx: &mut mpsc::Receiver<String>,
    control: &Control,
    writer_done: &CancellationToken,
) -> std::io::Result<()> {
    let mut result = Ok(());
    while let Some(mut chunk) = out_rx.recv().await {
        while let Ok(more) = out_rx.try_recv() {
            chunk.push_str(&more);
        }
        let written = async {
            writer.write_all(chunk.as_bytes()).await?;
            writer.flush().await
        };
        if let Err(e) = written.await {
            result = Err(e);
            break;
        }
    }
    writer_done.cancel();
    if result.is_err() {
        control.update(|s| s.shutdown = true);
    }
    let _ = writer.shutdown().await;
    result
}

/// The engine's event for one input line and whether it is `quit`; `None` for a blank line
/// or an interrupt, which only update the session's control state.
fn line_event(line: Line, control: &Control) -> Option<(Event, bool)> {
    match line {
        Line::Blank => {
            control.update(|s| {
                s.input_arrived();
                s.input_upto = s.last_seq;
            });
            None
        }
        Line::Interrupt => {
            control.update(|s| {
                s.input_arrived();
                s.interrupt_upto = s.last_seq;
                s.input_upto = s.last_seq;
            });
            None
        }
        Line::Command(cmd) => {
            let received = Instant::now();
            let is_quit = cmd.name == "quit";
            let mut seq = 0;
            control.update(|s| {
                s.input_arrived();
                s.last_seq += 1;
                seq = s.last_seq;
                s.quit |= is_quit;
            });
            Some((Event::Command { seq, cmd, received }, is_quit))
        }
        Line::Malformed { id, error } => {
            let mut seq = 0;
            control.update(|s| {
                s.input_arrived();
                s.last_seq += 1;
                seq = s.last_seq;
            });
            Some((Event::Malformed { seq, id, error }, false))
        }
    }
}

fn engine_loop(
    mut engine: Box<dyn Engine + Send>,
    mut events: mpsc::Receiver<Event>,
    out: mpsc::Sender<String>,
    control: Control,
    activity: Option<Activity>,
) {
    let busy = |on: bool| {
        if let Some(a) = &activity {
            a.set_busy(on);
        }
    };
    // Sequence number of the last line answered, and whether idle work is due.
    let mut answered = 0u64;
    let mut idle_due = false;
    loop {
        let event = if idle_due {
            idle_due = false;
            match events.try_recv() {
                Ok(event) => event,
                Err(mpsc::error::TryRecvError::Disconnected) => break,
                Err(mpsc::error::TryRecvError::Empty) => {
                    run_idle(engine.as_mut(), &control, answered);
                    continue;
                }
            }
        } else {
            match events.blocking_recv() {
                Some(event) => event,
                None => break,
            }
        };
        if control.lock().shutdown {
            break;
        }
        let (seq, cmd, received) = match event {
            Event::Malformed { seq, id, error } => {
                tracing::trace!(?id, "GTP malformed line: {error}");
                if out
                    .blocking_send(response::failure(id, &error.to_string()))
                    .is_err()
                {
                    break;
                }
                answered = seq;
                continue;
            }
            Event::Command { seq, cmd, received } => (seq, cmd, received),
        };
        tracing::trace!(seq, "GTP command: {cmd}");
        if cmd.name == "quit" {
            let _ = out.blocking_send(response::success(cmd.id, ""));
            break;
        }
        let kind = engine.kind(&cmd);
        let flag = CancelFlag::new();
        control.update(|s| {
            s.running = Some(Running {
                seq,
                kind,
                flag: flag.clone(),
            });
        });
        busy(true);
        let text = execute(engine.as_mut(), &cmd, received, flag, &out);
        control.update(|s| s.running = None);
        busy(false);
        tracing::trace!(seq, "GTP response: {}", text.trim_end());
        if out.blocking_send(text).is_err() {
            break;
        }
        answered = seq;
        idle_due = true;
    }
}

/// Runs one command with `flag` as its cancellation and returns the text that ends its
/// response (the whole response unless it streamed its start and body into `out`).
fn execute(
    engine: &mut (dyn Engine + Send),
    cmd: &RawCommand,
    received: Instant,
    flag: CancelFlag,
    out: &mpsc::Sender<String>,
) -> String {
    let mut ctx = CommandContext {
        id: cmd.id,
        received,
        cancel: flag,
        out,
        streamed: false,
    };
    let result = catch_unwind(AssertUnwindSafe(|| engine.execute(cmd, &mut ctx)));
    match (ctx.streamed, result) {
        (true, Ok(Ok(tail))) => response::stream_lines(&tail) + response::STREAM_END,
        (true, Ok(Err(message))) => {
            tracing::warn!("streamed command {} failed: {message}", cmd.name);
            response::STREAM_END.to_string()
        }
        (true, Err(_)) => response::STREAM_END.to_string(),
        (false, Ok(Ok(result))) => response::success(cmd.id, &result),
        (false, Ok(Err(message))) => response::failure(cmd.id, &message),
        (false, Err(_)) => {
            tracing::error!("engine panicked on {cmd}");
            response::failure(cmd.id, "internal error")
        }
    }
}

/// Answers one input line at once, on the calling thread, as a session does when nothing
/// else is queued: the whole response text, or `None` for a line that gets none (blank,
/// comment, `# interrupt`). A streaming command runs with its flag already raised, as if the
/// next line had arrived, so it returns its first report. For in-process drivers (fuzzing,
/// tests); must not be called from inside a tokio runtime.
pub fn answer_line(engine: &mut (dyn Engine + Send), raw: &[u8]) -> Option<String> {
    let cmd = match parse_line(raw) {
        Line::Blank | Line::Interrupt => return None,
        Line::Malformed { id, error } => return Some(response::failure(id, &error.to_string())),
        Line::Command(cmd) => cmd,
    };
    if cmd.name == "quit" {
        return Some(response::success(cmd.id, ""));
    }
    let flag = CancelFlag::new();
    if engine.kind(&cmd) == CommandKind::Streaming {
        flag.cancel();
    }
    let (out, mut streamed) = mpsc::channel::<String>(OUTPUT_QUEUE);
    let tail = execute(engine, &cmd, Instant::now(), flag, &out);
    let mut text = String::new();
    while let Ok(chunk) = streamed.try_recv() {
        text.push_str(&chunk);
    }
    text.push_str(&tail);
    Some(text)
}

/// Runs the engine's idle work unless a line arrived after the one answered last; any input
/// stops it.
fn run_idle(engine: &mut (dyn Engine + Send), control: &Control, answered: u64) {
    let flag = CancelFlag::new();
    let start = {
        let mut s = control.lock();
        let quiet = s.last_seq == answered && !s.quit && !s.shutdown && !s.input_closed;
        if quiet {
            s.idle = Some(flag.clone());
        }
        quiet
    };
    if !start {
        return;
    }
    if catch_unwind(AssertUnwindSafe(|| engine.idle(&flag))).is_err() {
        tracing::error!("engine panicked while idle");
    }
    control.lock().idle = None;
}

#[cfg(test)]
mod tests;

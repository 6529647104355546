//! GTP v2, as tablero speaks it (see `protocols/gtp.md`): input cleaning and the command
//! grammar (`command`), response framing (`response`), the transport shared by stdio, TCP and
//! tests (`session`), the dispatch of each command to the Go game and search (`engine`), the
//! analysis dialects for GUIs (`analysis`) and GoGui graphics (`gogui`).

pub mod analysis;
pub mod command;
pub mod engine;
pub mod gogui;
pub mod response;
pub mod session;

pub use command::{COMMAND_NAMES, Command, CommandError, Line, RawCommand};
pub use engine::{
    Decision, EngineLimits, GoEngine, GoPlayer, RandomPlayer, SgfAccess, daemon_engine, go_engine,
};
pub use session::{
    CommandContext, CommandKind, Engine, GtpError, SessionOptions, answer_line, run_session,
    run_session_with,
};

//! GTP v2, as tablero speaks it (see `protocols/gtp.md`): input cleaning and the command
//! grammar (`command`), response framing (`response`), the transport shared by stdio, TCP and
//! tests (`session`), and the dispatch of each command to the Go game and search (`engine`).

pub mod command;
pub mod engine;
pub mod response;
pub mod session;

pub use command::{COMMAND_NAMES, Command, CommandError, Line, RawCommand};
pub use engine::{Decision, GoEngine, GoPlayer, RandomPlayer, go_engine};
pub use session::{CommandContext, CommandKind, Engine, GtpError, run_session};

//! The GVG-AI line adapter (`protocols/gvgai-line.md`): the learning track's socket protocol
//! (GVG-AI `SocketComm`/`LearningPlayer`/`LearningMachine`), both ways.
//!
//! - [`codec`]: `\n` lines with a length limit, `<id>#<payload>[#<obsType>]` frames.
//! - [`message`]: START / FINISH / JSON observations from the server; START_DONE, INIT_DONE,
//!   ACTION_*, level choices, END_TRAINING … from the client.
//! - [`observation`]: the JSON `SerializableStateObservation`, rendered from tablero's engine
//!   and read back into a forward model.
//! - [`agent`]: tablero as the client (a controller answering a game server): `tablero gvgai
//!   connect` and the `[gvgai]` listener of `tablero serve`. Controllers run on their own
//!   thread.
//! - [`host`]: tablero's engine as the game server for remote clients (`tablero gvgai host`).
//!
//! Nothing here panics on peer input: malformed lines, unknown payloads, ids out of order,
//! oversized lines and dropped connections are handled as described in the protocol doc.

pub mod agent;
pub mod codec;
pub mod host;
pub mod message;
pub mod observation;

pub use agent::{AgentSettings, AgentSummary, run_agent};
pub use codec::{Frame, LineCodec, ObsType, RawLine};
pub use host::{HostSettings, HostSummary, run_host};
pub use message::{Reply, ServerMessage};
pub use observation::{Phase, Sso};

use crate::gvgai::controllers::ControllerError;
use crate::gvgai::engine::EngineError;

/// What can go wrong on a line-protocol session.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LineError {
    #[error("i/o error: {0}")]
    Io(String),
    #[error("malformed line ({reason}): {line:?}")]
    Malformed { reason: String, line: String },
    #[error("line of {len} bytes exceeds the limit of {max} bytes")]
    TooLong { len: usize, max: usize },
    #[error("line is not UTF-8")]
    NotUtf8,
    #[error("bad observation: {0}")]
    BadObservation(String),
    #[error("unknown server message {0:?}")]
    UnknownMessage(String),
    #[error("unknown reply {0:?}")]
    UnknownReply(String),
    #[error("the peer closed the connection")]
    Disconnected,
    #[error("no reply within {0:.1} s")]
    Timeout(f64),
    #[error("the client refused to start ({0})")]
    StartRefused(String),
    #[error("cancelled")]
    Cancelled,
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Controller(#[from] ControllerError),
}

impl From<std::io::Error> for LineError {
    fn from(e: std::io::Error) -> Self {
        LineError::Io(e.to_string())
    }
}

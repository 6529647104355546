//! The learning track's vocabulary: what a game server sends ([`ServerMessage`]) and what a
//! client answers ([`Reply`]), as in GVG-AI's `Comm`, `LearningPlayer` and `LearningMachine`.

use super::LineError;
use super::codec::excerpt;
use super::observation::Sso;
use crate::gvgai::engine::Action;

/// GVG-AI `Types.NUM_TRAINING_LEVELS`: END replies `0`..=`3` choose the next level (the Java
/// server's regex is `^[0-3]$`).
pub const NUM_TRAINING_LEVELS: usize = 3;

/// A server → client payload.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerMessage {
    Start,
    Finish,
    /// A JSON `SerializableStateObservation` (its `phase` says INIT, ACT, END or ABORT).
    Observation(Box<Sso>),
}

impl ServerMessage {
    pub fn parse(payload: &str) -> Result<ServerMessage, LineError> {
        match payload.trim() {
            "START" => Ok(ServerMessage::Start),
            "FINISH" => Ok(ServerMessage::Finish),
            p if p.starts_with('{') => serde_json::from_str(p)
                .map(|o| ServerMessage::Observation(Box::new(o)))
                .map_err(|e| LineError::BadObservation(e.to_string())),
            other => Err(LineError::UnknownMessage(excerpt(other))),
        }
    }
}

/// A client → server payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    StartDone,
    StartFailed,
    InitDone,
    InitFailed,
    Action(Action),
    /// `ACTION_ESCAPE`: abort the game.
    Escape,
    /// `ABORT`: abort the game.
    Abort,
    /// `END_OVERSPENT`: the client overspent its time (disqualified).
    EndOverspent,
    /// Answer to END: play this level next.
    Level(usize),
    EndTraining,
    EndValidation,
}

impl Reply {
    pub fn as_payload(self) -> String {
        match self {
            Reply::StartDone => "START_DONE".into(),
            Reply::StartFailed => "START_FAILED".into(),
            Reply::InitDone => "INIT_DONE".into(),
            Reply::InitFailed => "INIT_FAILED".into(),
            Reply::Action(a) => a.gvgai_name().into(),
            Reply::Escape => "ACTION_ESCAPE".into(),
            Reply::Abort => "ABORT".into(),
            Reply::EndOverspent => "END_OVERSPENT".into(),
            Reply::Level(n) => n.to_string(),
            Reply::EndTraining => "END_TRAINING".into(),
            Reply::EndValidation => "END_VALIDATION".into(),
        }
    }

    /// Parse a reply payload; unknown payloads are an error (the caller decides what GVG-AI
    /// would do with them: NIL for an act, a random level after END).
    pub fn parse(payload: &str) -> Result<Reply, LineError> {
        let p = payload.trim();
        Ok(match p {
            "START_DONE" => Reply::StartDone,
            "START_FAILED" => Reply::StartFailed,
            "INIT_DONE" => Reply::InitDone,
            "INIT_FAILED" => Reply::InitFailed,
            "ACTION_NIL" => Reply::Action(Action::Nil),
            "ACTION_UP" => Reply::Action(Action::Up),
            "ACTION_LEFT" => Reply::Action(Action::Left),
            "ACTION_DOWN" => Reply::Action(Action::Down),
            "ACTION_RIGHT" => Reply::Action(Action::Right),
            "ACTION_USE" => Reply::Action(Action::Use),
            "ACTION_ESCAPE" => Reply::Escape,
            "ABORT" => Reply::Abort,
            "END_OVERSPENT" => Reply::EndOverspent,
            "END_TRAINING" => Reply::EndTraining,
            "END_VALIDATION" => Reply::EndValidation,
            d if d.len() == 1 && d.as_bytes()[0].is_ascii_digit() => {
                Reply::Level(usize::from(d.as_bytes()[0] - b'0'))
            }
            other => return Err(LineError::UnknownReply(excerpt(other))),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_round_trip_and_unknowns_are_errors() {
        for r in [
            Reply::StartDone,
            Reply::InitFailed,
            Reply::Action(Action::Left),
            Reply::Action(Action::Use),
            Reply::Escape,
            Reply::Level(2),
            Reply::EndTraining,
            Reply::EndOverspent,
        ] {
            assert_eq!(Reply::parse(&r.as_payload()), Ok(r));
        }
        for bad in ["", "ACTION_JUMP", "12", "action_up", "START DONE"] {
            assert!(Reply::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn server_payloads() {
        assert_eq!(ServerMessage::parse("START"), Ok(ServerMessage::Start));
        assert_eq!(ServerMessage::parse("FINISH"), Ok(ServerMessage::Finish));
        assert!(matches!(
            ServerMessage::parse("{\"phase\":\"ACT\",\"gameTick\":3}"),
            Ok(ServerMessage::Observation(o)) if o.game_tick == Some(3)
        ));
        assert!(matches!(
            ServerMessage::parse("{\"phase\":\"DANCE\"}"),
            Err(LineError::BadObservation(_))
        ));
        assert!(matches!(
            ServerMessage::parse("HELLO"),
            Err(LineError::UnknownMessage(_))
        ));
    }
}

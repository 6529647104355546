//! GVG-AI: the VGDL parser, level builder and forward model (`vgdl`), and the learning track's
//! line codec, frames, replies and observations (`line`).

use std::sync::{Arc, OnceLock};

use bytes::BytesMut;
use tablero::gvgai::engine::{Action, Game, GameState, Rules};
use tablero::gvgai_line::codec::{Frame, LineCodec, RawLine};
use tablero::gvgai_line::message::{Reply, ServerMessage};
use tokio_util::codec::Decoder;

use crate::split_at;

/// Most cycles played per input.
const MAX_TICKS: usize = 40;
/// Every this many cycles, a copy of the state is advanced beside it.
const COPY_EVERY: usize = 5;
/// The engine's sprite cap in [`vgdl`] (GVG-AI's is 10,000): spawning cascades among
/// overlapping sprites cost the square of their number within one cycle, so that a game
/// reaching thousands of sprites in a cycle takes seconds for it.
const MAX_SPRITES: usize = 500;
/// The largest level given a path table in [`vgdl`] (the engine's is 4,096 cells): each
/// search from a new start cell costs the level's cells, so chasers that wander over a level
/// cost up to the square of its cells.
const MAX_PATH_CELLS: usize = 1_024;
/// Play stops once the squares of each cycle's sprites (those alive after it and those it
/// created) add up to more than this (so also after a cycle that ends with 633 sprites): a
/// cycle's collision tests grow with the square of its sprites, and a spawning cascade may kill
/// most of what it created within the cycle (a painter cascade at 250 sprites costs about 10 ms
/// a cycle instrumented).
const MAX_WORK: usize = 400_000;

/// A game description, a level and actions, separated by NUL bytes: the game loads or fails
/// with a message; a loaded level starts (seeded by the first action byte) and plays one cycle
/// per action byte. After every cycle the state's bookkeeping is consistent, and a copy taken
/// before a cycle ends it in the same state as the original (copy-on-write shares nothing it
/// should not).
pub fn vgdl(data: &[u8]) {
    let [game, level, actions] = split_at(data, 0, 3)[..] else {
        return;
    };
    let game = String::from_utf8_lossy(game);
    let level = String::from_utf8_lossy(level);
    let mut game = match Game::from_texts("fuzz", &game, &[&level]) {
        Ok(g) => g,
        Err(e) => {
            assert!(!e.to_string().is_empty(), "an error without a message");
            return;
        }
    };
    if let Some(rules) = Arc::get_mut(&mut game.rules) {
        rules.max_sprites = MAX_SPRITES;
        rules.max_path_cells = MAX_PATH_CELLS;
    }
    let seed = actions.first().map_or(0, |&b| i64::from(b));
    let Ok(state) = game.start(0, seed) else {
        return;
    };
    play(state, actions);
}

/// Plays `actions` from `state`, checking it after every cycle; the state it ends in.
fn play(mut state: GameState, actions: &[u8]) -> GameState {
    check(&state);
    let mut work = 0;
    for (i, &b) in actions.iter().take(MAX_TICKS).enumerate() {
        let action = Action::ALL[usize::from(b) % Action::ALL.len()];
        let copy = (i % COPY_EVERY == 0).then(|| {
            let mut copy = state.clone();
            copy.advance(action);
            copy
        });
        let created = state.sprites_created();
        state.advance(action);
        check(&state);
        if let Some(copy) = copy {
            assert_eq!(copy.key(), state.key(), "a copy diverged");
            assert_eq!(copy.tick(), state.tick());
            assert_eq!(copy.score().to_bits(), state.score().to_bits());
            assert_eq!(copy.winner(), state.winner());
        }
        let cycle =
            state.sprites().count() + state.sprites_created().saturating_sub(created) as usize;
        work += cycle * cycle;
        if state.is_over() || work > MAX_WORK {
            break;
        }
    }
    state
}

fn check(state: &GameState) {
    if let Err(e) = state.check_consistency() {
        panic!("inconsistent state at tick {}: {e}", state.tick());
    }
}

/// Longest line the codec accepts in [`line`] when the chunking byte's high bit is set: small,
/// so that the fuzzer reaches it; otherwise [`MAX_LINE`] (observations are long lines).
const SHORT_LINE: usize = 64;
const MAX_LINE: usize = 1 << 20;

/// Server and client lines, the first byte choosing the read chunking: the codec agrees with
/// plain LF splitting; a server frame prints and parses back to itself; an observation
/// serialises and parses back to itself, and what it shows rebuilds a forward-model state
/// (for the rules of `aliens`) that stays consistent for a few cycles, also when it keeps the
/// hidden state of the state the previous observation left (as the client's model does after
/// a misprediction); a client reply prints and parses back to itself.
pub fn line(data: &[u8]) {
    let Some((&chunk, input)) = data.split_first() else {
        return;
    };
    let max = if chunk & 0x80 != 0 {
        SHORT_LINE
    } else {
        MAX_LINE
    };
    let mut codec = LineCodec::new(max);
    let mut model = None;
    let mut buf = BytesMut::new();
    let mut lines = Vec::new();
    for part in input.chunks(usize::from(chunk & 0x7f) * 16 + 1) {
        buf.extend_from_slice(part);
        while let Ok(Some(line)) = codec.decode(&mut buf) {
            lines.push(line);
        }
    }
    // The lines ended by LF, and an unended last one as soon as it is over-long.
    let whole: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    let mut complete = whole.clone();
    if complete.pop().is_some_and(|last| last.len() > max) {
        complete.push(whole[whole.len() - 1]);
    }
    assert_eq!(
        lines.len(),
        complete.len(),
        "codec disagrees with LF splitting"
    );
    for (raw, bytes) in lines.iter().zip(complete) {
        match raw {
            RawLine::Line(text) => {
                let expected = bytes.strip_suffix(b"\r").unwrap_or(bytes);
                assert_eq!(text.as_bytes(), expected, "codec changed a line");
                server_line(text, &mut model);
                client_line(text);
            }
            RawLine::TooLong(_) => assert!(bytes.len() > max, "a short line refused"),
            RawLine::NotUtf8 => assert!(std::str::from_utf8(bytes).is_err()),
        }
    }
}

/// `model`: the state the previous observation of the input left, replaced by this one's.
fn server_line(text: &str, model: &mut Option<GameState>) {
    let Ok(frame) = Frame::parse_server(text) else {
        return;
    };
    assert_eq!(Frame::parse_server(&frame.to_line()).as_ref(), Ok(&frame));
    let Ok(message) = ServerMessage::parse(&frame.payload) else {
        return;
    };
    let ServerMessage::Observation(sso) = message else {
        return;
    };
    let json = serde_json::to_string(&sso).unwrap_or_default();
    let back = ServerMessage::parse(&json);
    assert_eq!(
        back.as_ref().ok(),
        Some(&ServerMessage::Observation(sso.clone())),
        "{json} does not parse back"
    );
    let _ = sso.actions();
    let Ok(observed) = sso.to_observed() else {
        return;
    };
    let rules = Arc::clone(aliens());
    let rebuilt = match model.take() {
        Some(prev) => GameState::from_observed_after(rules, &observed, 0, &prev),
        None => GameState::from_observed(rules, &observed, 0),
    };
    if let Ok(state) = rebuilt {
        *model = Some(play(state, &[0, 1, 2, 3, 4, 5]));
    }
}

fn aliens() -> &'static Arc<Rules> {
    static RULES: OnceLock<Arc<Rules>> = OnceLock::new();
    RULES.get_or_init(|| match tablero::gvgai::games::shipped("aliens") {
        Ok(game) => game.rules,
        Err(e) => panic!("the shipped aliens game does not load: {e}"),
    })
}

fn client_line(text: &str) {
    let Ok(frame) = Frame::parse_client(text) else {
        return;
    };
    assert_eq!(Frame::parse_client(&frame.to_line()).as_ref(), Ok(&frame));
    if let Ok(reply) = Reply::parse(&frame.payload) {
        assert_eq!(Reply::parse(&reply.as_payload()), Ok(reply));
    }
}

#[cfg(test)]
mod seeds {
    //! Seeds from the shipped games: each game with its first level and a few actions, and a
    //! learning-track exchange with the observations of a game's start.

    use tablero::gvgai_line::observation::{Phase, Sso};

    use super::*;

    #[test]
    #[ignore = "writes the GVG-AI seeds: cargo test --release -- --ignored write_gvgai_seeds"]
    fn write_gvgai_seeds() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let games = root.join("../../data/gvgai/games");
        let dir = root.join("corpus");
        std::fs::create_dir_all(dir.join("gvgai_vgdl")).unwrap();
        std::fs::create_dir_all(dir.join("gvgai_line")).unwrap();
        for name in tablero::gvgai::games::shipped_names() {
            let game = std::fs::read(games.join(format!("{name}.txt"))).unwrap();
            let level = std::fs::read(games.join(format!("{name}_lvl0.txt"))).unwrap();
            let mut seed = game;
            seed.push(0);
            seed.extend_from_slice(&level);
            seed.push(0);
            seed.extend_from_slice(&[7, 4, 4, 1, 5, 2, 2, 0, 3, 5, 1, 4]);
            std::fs::write(dir.join("gvgai_vgdl").join(name), seed).unwrap();
        }
        for name in ["aliens", "sokoban", "zelda", "chase"] {
            let text = std::fs::read_to_string(games.join(format!("{name}.txt"))).unwrap();
            let level = std::fs::read_to_string(games.join(format!("{name}_lvl0.txt"))).unwrap();
            let game = Game::from_texts(name, &text, &[&crop(&level)]).unwrap();
            let mut state = game.start(0, 1).unwrap();
            let mut lines = vec!["0#START".to_string(), "0#START_DONE".to_string()];
            for (id, phase) in [(1, Phase::Init), (2, Phase::Act)] {
                let sso = Sso::from_state(&state, phase, false);
                lines.push(format!("{id}#{}", serde_json::to_string(&sso).unwrap()));
                lines.push(format!("{id}#ACTION_LEFT#JSON"));
                state.advance(Action::Left);
            }
            lines.extend(["3#1".to_string(), "4#FINISH".to_string()]);
            let mut seed = vec![0u8];
            seed.extend_from_slice((lines.join("\n") + "\n").as_bytes());
            std::fs::write(dir.join("gvgai_line").join(name), seed).unwrap();
        }
    }

    /// Three rows of at most eight cells around the avatar: observations of a whole level are
    /// long lines, which the fuzzer mutates slowly.
    fn crop(level: &str) -> String {
        let rows: Vec<&str> = level.lines().collect();
        let y = rows.iter().position(|r| r.contains('A')).unwrap_or(1);
        let x = rows[y].find('A').unwrap_or(0);
        let x0 = x.saturating_sub(4);
        rows[y.saturating_sub(1)..(y + 2).min(rows.len())]
            .iter()
            .map(|r| r.chars().skip(x0).take(8).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

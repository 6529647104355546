//! GTP: the line splitter and command grammar (`line`), and the Go engine fed a command
//! sequence (`engine`).

use std::time::Duration;

use bytes::BytesMut;
use tablero::config::Config;
use tablero::gtp::command::parse_line;
use tablero::gtp::session::{GtpLineCodec, RawLine};
use tablero::gtp::{
    Command, EngineLimits, GoEngine, Line, RandomPlayer, RawCommand, SgfAccess, answer_line,
};
use tokio_util::codec::Decoder;

/// Longest line the splitter accepts in [`line`]: small, so that the fuzzer reaches it.
const MAX_LINE: usize = 48;
/// The id prefix the splitter keeps of an over-long line.
const PREFIX: usize = 32;

/// The splitter against a plain reference, under the chunking the first byte chooses; then
/// every line through the grammar: a command prints and parses back to itself, and its typed
/// form parses (or fails cleanly) at every board size.
pub fn line(data: &[u8]) {
    let Some((&chunk, input)) = data.split_first() else {
        return;
    };
    let lines = split(input, usize::from(chunk % 17) + 1);
    assert_eq!(
        lines,
        reference(input),
        "splitter disagrees with LF splitting"
    );
    for raw in &lines {
        if let RawLine::Line(bytes) = raw {
            check_line(bytes);
        }
    }
}

fn split(input: &[u8], chunk: usize) -> Vec<RawLine> {
    let mut codec = GtpLineCodec::new(MAX_LINE);
    let mut buf = BytesMut::new();
    let mut out = Vec::new();
    for part in input.chunks(chunk) {
        buf.extend_from_slice(part);
        while let Ok(Some(line)) = codec.decode(&mut buf) {
            out.push(line);
        }
    }
    while let Ok(Some(line)) = codec.decode_eof(&mut buf) {
        out.push(line);
    }
    out
}

fn reference(input: &[u8]) -> Vec<RawLine> {
    let mut parts: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if parts.last().is_some_and(|last| last.is_empty()) {
        parts.pop();
    }
    parts
        .into_iter()
        .map(|part| {
            if part.len() > MAX_LINE {
                RawLine::TooLong {
                    prefix: part[..PREFIX].to_vec(),
                }
            } else {
                RawLine::Line(BytesMut::from(part))
            }
        })
        .collect()
}

fn check_line(bytes: &[u8]) {
    let Line::Command(cmd) = parse_line(bytes) else {
        return;
    };
    let printed = cmd.to_string();
    assert_eq!(
        parse_line(printed.as_bytes()),
        Line::Command(cmd.clone()),
        "{printed:?} does not parse back"
    );
    for size in [2, 9, 19, 25] {
        let _ = Command::parse(&cmd, size);
    }
}

/// Lines a single input may send the engine, at most.
const MAX_COMMANDS: usize = 64;

/// A fresh engine (seeded random player, 1 ms searches, no file access) answers each line of
/// the input: every line that is not blank gets exactly one well-formed response carrying its
/// id, and the board stays consistent after every command.
pub fn engine(data: &[u8]) {
    let Ok(mut engine) = GoEngine::new(&Config::default(), Box::new(RandomPlayer::new(7))) else {
        return;
    };
    engine.set_limits(EngineLimits {
        max_move: Some(Duration::from_millis(1)),
        max_analysis: Some(Duration::from_millis(1)),
        sgf: SgfAccess::Refused,
    });
    engine.set_gfx_sink(Box::new(|_| {}));
    for raw in data.split(|&b| b == b'\n').take(MAX_COMMANDS) {
        let expected = match parse_line(raw) {
            Line::Blank | Line::Interrupt => None,
            Line::Command(RawCommand { id, .. }) | Line::Malformed { id, .. } => Some(id),
        };
        let answer = answer_line(&mut engine, raw);
        match (expected, answer) {
            (None, None) => {}
            (Some(id), Some(text)) => check_response(&text, id),
            (expected, answer) => panic!("line {raw:?}: expected {expected:?}, got {answer:?}"),
        }
        if let Err(e) = engine.game().board().validate() {
            panic!("board inconsistent after {raw:?}: {e}");
        }
    }
}

/// One GTP response: `=` or `?`, the id if the command had one, then text that ends with
/// the only empty line.
fn check_response(text: &str, id: Option<u64>) {
    let head = match id {
        Some(id) => format!("{id}"),
        None => String::new(),
    };
    let ok = text.starts_with(&format!("={head}")) || text.starts_with(&format!("?{head}"));
    assert!(ok, "response {text:?} does not start with its id {id:?}");
    let after = &text[1 + head.len()..];
    assert!(
        after.is_empty() || after.starts_with([' ', '\n']),
        "response {text:?} does not end its id"
    );
    assert!(text.ends_with("\n\n"), "response {text:?} is not ended");
    assert_eq!(
        text.matches("\n\n").count(),
        1,
        "response {text:?} holds more than one"
    );
}

//! GTP input: cleaning a raw line, the nom grammar of a command line (`[id] name args…`), and the
//! typed commands tablero understands, each with its arguments parsed and checked against the
//! board size. Error texts follow GNU Go 3.8 where it has one.

use std::fmt;

use nom::bytes::complete::{take_till1, take_while, take_while1};
use nom::combinator::{all_consuming, opt};
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

use super::analysis::{AnalyzeArgs, AnalyzeArgsError, Dialect};
use crate::go::{Color, Move, Vertex};

/// One cleaned input line, classified.
#[derive(Clone, Debug, PartialEq)]
pub enum Line {
    /// Empty, whitespace-only or comment-only: no response.
    Blank,
    /// The GoGui comment `# interrupt`: stop the running command, no response.
    Interrupt,
    /// A command to answer.
    Command(RawCommand),
    /// A line that must be answered with an error (`?[id] message`).
    Malformed { id: Option<u64>, error: LineError },
}

/// Why a line could not be read as a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("line too long")]
    TooLong,
    #[error("invalid UTF-8")]
    InvalidUtf8,
    #[error("id out of range")]
    IdOutOfRange,
    #[error("missing command name")]
    MissingName,
}

/// A command line split into its id, lower-cased name and arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawCommand {
    pub id: Option<u64>,
    pub name: String,
    pub args: Vec<String>,
}

/// Drops CR and every control character but HT and LF, and turns HT into a space (GTP §2.5).
pub fn clean(raw: &[u8]) -> Vec<u8> {
    raw.iter()
        .filter_map(|&b| match b {
            b'\t' => Some(b' '),
            b'\n' => Some(b'\n'),
            0..=31 | 127 => None,
            _ => Some(b),
        })
        .collect()
}

/// The id at the start of a (possibly truncated) raw line, if it has one; used to answer
/// over-long or undecodable lines with the right id.
pub fn leading_id(raw: &[u8]) -> Option<u64> {
    let cleaned = clean(raw);
    let text = cleaned.trim_ascii_start();
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    match text.get(digits) {
        None | Some(b' ') => std::str::from_utf8(&text[..digits]).ok()?.parse().ok(),
        Some(_) => None,
    }
}

/// Cleans and classifies one line (without its terminating LF).
pub fn parse_line(raw: &[u8]) -> Line {
    let mut cleaned = clean(raw);
    cleaned.retain(|&b| b != b'\n');
    if let Some(hash) = cleaned.iter().position(|&b| b == b'#') {
        let (before, comment) = cleaned.split_at(hash);
        if before.trim_ascii().is_empty() && is_interrupt(&comment[1..]) {
            return Line::Interrupt;
        }
        cleaned.truncate(hash);
    }
    if cleaned.trim_ascii().is_empty() {
        return Line::Blank;
    }
    let Ok(text) = std::str::from_utf8(&cleaned) else {
        return Line::Malformed {
            id: leading_id(&cleaned),
            error: LineError::InvalidUtf8,
        };
    };
    match all_consuming(command_line).parse(text) {
        Ok((_, (id_text, name, args))) => {
            let id = match id_text.map(str::parse::<u64>) {
                None => None,
                Some(Ok(id)) => Some(id),
                Some(Err(_)) => {
                    return Line::Malformed {
                        id: None,
                        error: LineError::IdOutOfRange,
                    };
                }
            };
            match name {
                None => Line::Malformed {
                    id,
                    error: LineError::MissingName,
                },
                Some(name) => Line::Command(RawCommand {
                    id,
                    name: name.to_ascii_lowercase(),
                    args: args.into_iter().map(str::to_string).collect(),
                }),
            }
        }
        // The grammar accepts every non-blank line of spaces and tokens; keep a message anyway.
        Err(_) => Line::Malformed {
            id: leading_id(&cleaned),
            error: LineError::MissingName,
        },
    }
}

fn is_interrupt(comment: &[u8]) -> bool {
    comment.trim_ascii().eq_ignore_ascii_case(b"interrupt")
}

fn spaces(input: &str) -> IResult<&str, &str> {
    take_while(|c| c == ' ').parse(input)
}

fn spaces1(input: &str) -> IResult<&str, &str> {
    take_while1(|c| c == ' ').parse(input)
}

fn token(input: &str) -> IResult<&str, &str> {
    take_till1(|c| c == ' ').parse(input)
}

/// An id: digits followed by a space or the end of the line.
fn id(input: &str) -> IResult<&str, &str> {
    let (rest, digits) = take_while1(|c: char| c.is_ascii_digit()).parse(input)?;
    if rest.is_empty() || rest.starts_with(' ') {
        Ok((rest, digits))
    } else {
        Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Digit,
        )))
    }
}

type Parsed<'a> = (Option<&'a str>, Option<&'a str>, Vec<&'a str>);

/// `line = sp* [id sp*] [name (sp+ arg)*] sp*`
fn command_line(input: &str) -> IResult<&str, Parsed<'_>> {
    let (input, _) = spaces(input)?;
    let (input, id) = opt(terminated(id, spaces)).parse(input)?;
    let (input, name) = opt(token).parse(input)?;
    let (input, args) = if name.is_some() {
        many0(preceded(spaces1, token)).parse(input)?
    } else {
        (input, Vec::new())
    };
    let (input, _) = spaces(input)?;
    Ok((input, (id, name, args)))
}

/// Every command name tablero implements, in `list_commands` order.
pub const COMMAND_NAMES: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "time_settings",
    "time_left",
    "final_score",
    "final_status_list",
    "showboard",
    "loadsgf",
    "printsgf",
    "reg_genmove",
    "kgs-genmove_cleanup",
    "kgs-time_settings",
    "kgs-rules",
    "kgs-game_over",
    "kgs-chat",
    "gogui-analyze_commands",
    "gogui-interrupt",
    "cputime",
    "lz-analyze",
    "kata-analyze",
    "analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "genmove_analyze",
    "tablero-pv",
    "tablero-visits",
    "tablero-winrates",
    "tablero-ownership",
    "tablero-params",
];

/// Where a `kgs-chat` message was said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChatPlace {
    /// In the game's chat (players and observers).
    Game,
    /// A private message to the bot.
    Private,
}

/// What a `tablero-*` GoGui analyze command shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GfxKind {
    /// `tablero-pv`: the principal variation (GoGui `var`).
    Pv,
    /// `tablero-visits`: visit counts (GoGui `gfx`).
    Visits,
    /// `tablero-winrates`: win rates (GoGui `gfx`).
    Winrates,
    /// `tablero-ownership`: the ownership map (GoGui `gfx` INFLUENCE).
    Ownership,
}

/// `final_status_list` argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoneStatus {
    Alive,
    Dead,
    Seki,
}

/// `kgs-time_settings` systems.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KgsTime {
    None,
    Absolute {
        main: f64,
    },
    Canadian {
        main: f64,
        period: f64,
        stones: u32,
    },
    Byoyomi {
        main: f64,
        period: f64,
        periods: u32,
    },
}

/// `kgs-rules` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KgsRules {
    Chinese,
    Aga,
    Japanese,
    NewZealand,
}

/// A command with typed, checked arguments.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    Boardsize(usize),
    ClearBoard,
    Komi(f64),
    Play(Color, Move),
    Genmove(Color),
    Undo,
    FixedHandicap(usize),
    PlaceFreeHandicap(usize),
    SetFreeHandicap(Vec<Vertex>),
    /// Canadian byo-yomi: main time, then `byo_stones` moves per `byo_time` seconds.
    TimeSettings {
        main: f64,
        byo_time: f64,
        byo_stones: u32,
    },
    TimeLeft {
        color: Color,
        time: f64,
        stones: u32,
    },
    FinalScore,
    FinalStatusList(StoneStatus),
    Showboard,
    Loadsgf {
        file: String,
        move_number: Option<usize>,
    },
    Printsgf,
    RegGenmove(Color),
    KgsGenmoveCleanup(Color),
    KgsTimeSettings(KgsTime),
    KgsRules(KgsRules),
    GoguiAnalyzeCommands,
    GoguiInterrupt,
    Cputime,
    /// `lz-analyze`, `kata-analyze`, `analyze`: streams reports until stopped.
    Analyze(AnalyzeArgs),
    /// `lz-genmove_analyze`, `kata-genmove_analyze`, `genmove_analyze`.
    GenmoveAnalyze(AnalyzeArgs),
    /// `tablero-pv` and friends, for the colour given or the side to move.
    Gfx(GfxKind, Option<Color>),
    /// `kgs-game_over`: kgsGtp says the game ended (or was adjourned).
    KgsGameOver,
    /// `kgs-chat game|private <name> <message>`.
    KgsChat {
        place: ChatPlace,
        from: String,
        message: String,
    },
    /// `tablero-params` (GoGui `param`): without arguments, list the settings; with
    /// `key value`, set one.
    Params(Option<(String, String)>),
}

/// Why a command failed; `Display` is the text after `?`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CommandError {
    #[error("unknown command")]
    UnknownCommand,
    #[error("boardsize not an integer")]
    BoardsizeNotInteger,
    #[error("unacceptable size")]
    UnacceptableSize,
    #[error("komi not a float")]
    KomiNotFloat,
    #[error("invalid color or coordinate")]
    InvalidColorOrCoordinate,
    #[error("invalid color")]
    InvalidColor,
    #[error("invalid coordinate")]
    InvalidCoordinate,
    #[error("illegal move")]
    IllegalMove,
    #[error("cannot undo")]
    CannotUndo,
    #[error("handicap not an integer")]
    HandicapNotInteger,
    #[error("invalid handicap")]
    InvalidHandicap,
    #[error("board not empty")]
    BoardNotEmpty,
    #[error("repeated vertex")]
    RepeatedVertex,
    #[error("not three integers")]
    NotThreeIntegers,
    #[error("time and stones not two integers")]
    TimeLeftNotTwoIntegers,
    #[error("missing status")]
    MissingStatus,
    #[error("invalid status")]
    InvalidStatus,
    #[error("missing filename")]
    MissingFilename,
    #[error("move number not an integer")]
    MoveNumberNotInteger,
    #[error("missing command name")]
    MissingCommandName,
    #[error("invalid time system")]
    InvalidTimeSystem,
    #[error("unknown rules")]
    UnknownRules,
    #[error("cannot score")]
    CannotScore,
    #[error("game is over")]
    GameOver,
    #[error("kgs-chat needs game or private, a name and a message")]
    BadChat,
    #[error("tablero-params needs no argument, or a key and a value")]
    BadParams,
    #[error("{0}")]
    Analyze(#[from] AnalyzeArgsError),
    #[error("{0}")]
    Other(String),
}

/// Non-negative finite seconds; GTP sends integers, fractions are accepted too.
fn seconds(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|t| t.is_finite() && *t >= 0.0)
}

fn count(s: &str) -> Option<u32> {
    s.parse::<u32>().ok()
}

fn color_arg(args: &[String]) -> Result<Color, CommandError> {
    args.first()
        .and_then(|c| c.parse().ok())
        .ok_or(CommandError::InvalidColor)
}

fn handicap_arg(args: &[String]) -> Result<usize, CommandError> {
    args.first()
        .and_then(|n| n.parse().ok())
        .ok_or(CommandError::HandicapNotInteger)
}

impl Command {
    /// Types the arguments of `raw` for a board of `size`. Extra trailing arguments are ignored,
    /// as GNU Go does.
    pub fn parse(raw: &RawCommand, size: usize) -> Result<Command, CommandError> {
        use CommandError as E;
        let args = raw.args.as_slice();
        let arg = |i: usize| args.get(i).map(String::as_str);
        Ok(match raw.name.as_str() {
            "protocol_version" => Command::ProtocolVersion,
            "name" => Command::Name,
            "version" => Command::Version,
            "known_command" => {
                Command::KnownCommand(arg(0).ok_or(E::MissingCommandName)?.to_ascii_lowercase())
            }
            "list_commands" => Command::ListCommands,
            "quit" => Command::Quit,
            "boardsize" => Command::Boardsize(parse_boardsize(arg(0))?),
            "clear_board" => Command::ClearBoard,
            "komi" => Command::Komi(
                arg(0)
                    .and_then(|k| k.parse::<f64>().ok())
                    .filter(|k| k.is_finite())
                    .ok_or(E::KomiNotFloat)?,
            ),
            "play" => {
                let (Some(c), Some(v)) = (arg(0), arg(1)) else {
                    return Err(E::InvalidColorOrCoordinate);
                };
                let color = c.parse().map_err(|_| E::InvalidColorOrCoordinate)?;
                let mv = Move::parse(v, size).map_err(|_| E::InvalidColorOrCoordinate)?;
                Command::Play(color, mv)
            }
            "genmove" => Command::Genmove(color_arg(args)?),
            "reg_genmove" => Command::RegGenmove(color_arg(args)?),
            "kgs-genmove_cleanup" => Command::KgsGenmoveCleanup(color_arg(args)?),
            "undo" => Command::Undo,
            "fixed_handicap" => Command::FixedHandicap(handicap_arg(args)?),
            "place_free_handicap" => Command::PlaceFreeHandicap(handicap_arg(args)?),
            "set_free_handicap" => Command::SetFreeHandicap(parse_distinct_vertices(args, size)?),
            "time_settings" => {
                let parsed = (
                    arg(0).and_then(seconds),
                    arg(1).and_then(seconds),
                    arg(2).and_then(count),
                );
                let (Some(main), Some(byo_time), Some(byo_stones)) = parsed else {
                    return Err(E::NotThreeIntegers);
                };
                Command::TimeSettings {
                    main,
                    byo_time,
                    byo_stones,
                }
            }
            "time_left" => {
                let color = arg(0).and_then(|c| c.parse().ok()).ok_or(E::InvalidColor)?;
                let (Some(time), Some(stones)) = (arg(1).and_then(seconds), arg(2).and_then(count))
                else {
                    return Err(E::TimeLeftNotTwoIntegers);
                };
                Command::TimeLeft {
                    color,
                    time,
                    stones,
                }
            }
            "final_score" => Command::FinalScore,
            "final_status_list" => Command::FinalStatusList(parse_status(arg(0))?),
            "showboard" => Command::Showboard,
            "loadsgf" => {
                let file = arg(0).ok_or(E::MissingFilename)?.to_string();
                let move_number = match arg(1) {
                    None => None,
                    Some(n) => Some(n.parse().map_err(|_| E::MoveNumberNotInteger)?),
                };
                Command::Loadsgf { file, move_number }
            }
            "printsgf" => Command::Printsgf,
            "kgs-time_settings" => Command::KgsTimeSettings(parse_kgs_time(args)?),
            "kgs-rules" => Command::KgsRules(parse_kgs_rules(arg(0))?),
            "kgs-game_over" => Command::KgsGameOver,
            "kgs-chat" => parse_kgs_chat(args)?,
            "tablero-params" => Command::Params(match args {
                [] => None,
                [key, value] => Some((key.clone(), value.clone())),
                _ => return Err(E::BadParams),
            }),
            "gogui-analyze_commands" => Command::GoguiAnalyzeCommands,
            "gogui-interrupt" => Command::GoguiInterrupt,
            "cputime" => Command::Cputime,
            name => match Dialect::of_command(name) {
                Some((dialect, genmove)) => {
                    let parsed = AnalyzeArgs::parse(dialect, args, size)?;
                    if genmove {
                        Command::GenmoveAnalyze(parsed)
                    } else {
                        Command::Analyze(parsed)
                    }
                }
                None => parse_gfx(name, arg(0))?,
            },
        })
    }
}

/// `boardsize`'s argument: an integer within the sizes tablero plays.
fn parse_boardsize(arg: Option<&str>) -> Result<usize, CommandError> {
    let n: i64 = arg
        .and_then(|n| n.parse().ok())
        .ok_or(CommandError::BoardsizeNotInteger)?;
    let n = usize::try_from(n).map_err(|_| CommandError::UnacceptableSize)?;
    if (crate::go::MIN_SIZE..=crate::go::MAX_SIZE).contains(&n) {
        Ok(n)
    } else {
        Err(CommandError::UnacceptableSize)
    }
}

/// `set_free_handicap`'s vertices, each on the board and none twice.
fn parse_distinct_vertices(args: &[String], size: usize) -> Result<Vec<Vertex>, CommandError> {
    let mut vertices = Vec::with_capacity(args.len().min(size * size));
    for a in args {
        let v = Vertex::parse(a, size).map_err(|_| CommandError::InvalidCoordinate)?;
        if vertices.contains(&v) {
            return Err(CommandError::RepeatedVertex);
        }
        vertices.push(v);
    }
    Ok(vertices)
}

fn parse_status(arg: Option<&str>) -> Result<StoneStatus, CommandError> {
    let status = arg.ok_or(CommandError::MissingStatus)?;
    match status.to_ascii_lowercase().as_str() {
        "alive" => Ok(StoneStatus::Alive),
        "dead" => Ok(StoneStatus::Dead),
        "seki" => Ok(StoneStatus::Seki),
        _ => Err(CommandError::InvalidStatus),
    }
}

fn parse_kgs_rules(arg: Option<&str>) -> Result<KgsRules, CommandError> {
    match arg.map(str::to_ascii_lowercase).as_deref() {
        Some("chinese") => Ok(KgsRules::Chinese),
        Some("aga") => Ok(KgsRules::Aga),
        Some("japanese") => Ok(KgsRules::Japanese),
        Some("new_zealand") => Ok(KgsRules::NewZealand),
        _ => Err(CommandError::UnknownRules),
    }
}

/// `kgs-chat game|private FROM MESSAGE...`.
fn parse_kgs_chat(args: &[String]) -> Result<Command, CommandError> {
    let place = match args.first().map(|a| a.to_ascii_lowercase()).as_deref() {
        Some("game") => ChatPlace::Game,
        Some("private") => ChatPlace::Private,
        _ => return Err(CommandError::BadChat),
    };
    match args {
        [_, from, message @ ..] if !message.is_empty() => Ok(Command::KgsChat {
            place,
            from: from.clone(),
            message: message.join(" "),
        }),
        _ => Err(CommandError::BadChat),
    }
}

/// The `tablero-*` GoGui analyze commands, with their optional colour; any other name is
/// unknown.
fn parse_gfx(name: &str, color: Option<&str>) -> Result<Command, CommandError> {
    let kind = match name {
        "tablero-pv" => GfxKind::Pv,
        "tablero-visits" => GfxKind::Visits,
        "tablero-winrates" => GfxKind::Winrates,
        "tablero-ownership" => GfxKind::Ownership,
        _ => return Err(CommandError::UnknownCommand),
    };
    let color = match color {
        None => None,
        Some(c) => Some(c.parse().map_err(|_| CommandError::InvalidColor)?),
    };
    Ok(Command::Gfx(kind, color))
}

fn parse_kgs_time(args: &[String]) -> Result<KgsTime, CommandError> {
    let bad = || CommandError::InvalidTimeSystem;
    let secs = |i: usize| args.get(i).and_then(|s| seconds(s)).ok_or_else(bad);
    let num = |i: usize| args.get(i).and_then(|s| count(s)).ok_or_else(bad);
    let system = args.first().ok_or_else(bad)?.to_ascii_lowercase();
    Ok(match system.as_str() {
        "none" => KgsTime::None,
        "absolute" => KgsTime::Absolute { main: secs(1)? },
        "canadian" => KgsTime::Canadian {
            main: secs(1)?,
            period: secs(2)?,
            stones: num(3)?,
        },
        "byoyomi" => KgsTime::Byoyomi {
            main: secs(1)?,
            period: secs(2)?,
            periods: num(3)?,
        },
        _ => return Err(bad()),
    })
}

impl fmt::Display for RawCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(id) = self.id {
            write!(f, "{id} ")?;
        }
        f.write_str(&self.name)?;
        for a in &self.args {
            write!(f, " {a}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(line: &str) -> RawCommand {
        match parse_line(line.as_bytes()) {
            Line::Command(c) => c,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    #[test]
    fn cleaning_drops_cr_and_controls_and_maps_tab() {
        assert_eq!(clean(b"pl\x01ay\tb\r c3\x7f"), b"play b c3".to_vec());
        let c = cmd("\x00 12\tPLAY  b\tC3 \r");
        assert_eq!(c.id, Some(12));
        assert_eq!(c.name, "play");
        assert_eq!(c.args, vec!["b", "C3"]);
    }

    #[test]
    fn comments_blanks_and_interrupt() {
        assert_eq!(parse_line(b""), Line::Blank);
        assert_eq!(parse_line(b"   \t\r"), Line::Blank);
        assert_eq!(parse_line(b"# just a comment"), Line::Blank);
        assert_eq!(parse_line(b"# interrupt"), Line::Interrupt);
        assert_eq!(parse_line(b"  #interrupt  "), Line::Interrupt);
        assert_eq!(parse_line(b"# interrupt now"), Line::Blank);
        let c = cmd("genmove b # interrupt");
        assert_eq!(c.args, vec!["b"]);
    }

    #[test]
    fn ids() {
        assert_eq!(cmd("7 name").id, Some(7));
        assert_eq!(cmd("name").id, None);
        // A token starting with digits but not all digits is a name, not an id.
        assert_eq!(cmd("7x name").name, "7x");
        assert_eq!(
            parse_line(b"42"),
            Line::Malformed {
                id: Some(42),
                error: LineError::MissingName
            }
        );
        assert_eq!(
            parse_line(b"99999999999999999999999 name"),
            Line::Malformed {
                id: None,
                error: LineError::IdOutOfRange
            }
        );
        assert_eq!(
            parse_line(b"5 play \xff\xfe"),
            Line::Malformed {
                id: Some(5),
                error: LineError::InvalidUtf8
            }
        );
        assert_eq!(leading_id(b"  31 play b"), Some(31));
        assert_eq!(leading_id(b"31x"), None);
        assert_eq!(leading_id(b"play"), None);
    }

    #[test]
    fn typed_arguments_and_errors() {
        let p = |l: &str| Command::parse(&cmd(l), 9);
        assert_eq!(p("boardsize 19"), Ok(Command::Boardsize(19)));
        assert_eq!(p("boardsize 1"), Err(CommandError::UnacceptableSize));
        assert_eq!(p("boardsize 26"), Err(CommandError::UnacceptableSize));
        assert_eq!(p("boardsize -3"), Err(CommandError::UnacceptableSize));
        assert_eq!(p("boardsize x"), Err(CommandError::BoardsizeNotInteger));
        assert_eq!(p("komi -3.5"), Ok(Command::Komi(-3.5)));
        assert_eq!(p("komi nan"), Err(CommandError::KomiNotFloat));
        assert_eq!(p("komi"), Err(CommandError::KomiNotFloat));
        assert!(matches!(
            p("play W pass"),
            Ok(Command::Play(Color::White, Move::Pass))
        ));
        assert_eq!(p("play b a10"), Err(CommandError::InvalidColorOrCoordinate));
        assert_eq!(p("play b i5"), Err(CommandError::InvalidColorOrCoordinate));
        assert_eq!(
            p("play red c3"),
            Err(CommandError::InvalidColorOrCoordinate)
        );
        assert_eq!(p("play b"), Err(CommandError::InvalidColorOrCoordinate));
        assert_eq!(p("genmove"), Err(CommandError::InvalidColor));
        assert_eq!(p("genmove WHITE"), Ok(Command::Genmove(Color::White)));
        assert_eq!(p("fixed_handicap x"), Err(CommandError::HandicapNotInteger));
        assert_eq!(
            p("set_free_handicap c3 c3"),
            Err(CommandError::RepeatedVertex)
        );
        assert_eq!(
            p("set_free_handicap c3 z9"),
            Err(CommandError::InvalidCoordinate)
        );
        assert_eq!(
            p("time_settings 300 30 5"),
            Ok(Command::TimeSettings {
                main: 300.0,
                byo_time: 30.0,
                byo_stones: 5
            })
        );
        assert_eq!(
            p("time_settings 300 x 5"),
            Err(CommandError::NotThreeIntegers)
        );
        assert_eq!(p("time_left q 3 0"), Err(CommandError::InvalidColor));
        assert_eq!(
            p("time_left b -1 0"),
            Err(CommandError::TimeLeftNotTwoIntegers)
        );
        assert_eq!(
            p("final_status_list DEAD"),
            Ok(Command::FinalStatusList(StoneStatus::Dead))
        );
        assert_eq!(p("final_status_list"), Err(CommandError::MissingStatus));
        assert_eq!(p("final_status_list x"), Err(CommandError::InvalidStatus));
        assert_eq!(p("loadsgf"), Err(CommandError::MissingFilename));
        assert_eq!(
            p("loadsgf g.sgf 12"),
            Ok(Command::Loadsgf {
                file: "g.sgf".into(),
                move_number: Some(12)
            })
        );
        assert_eq!(
            p("kgs-time_settings byoyomi 600 30 5"),
            Ok(Command::KgsTimeSettings(KgsTime::Byoyomi {
                main: 600.0,
                period: 30.0,
                periods: 5
            }))
        );
        assert_eq!(
            p("kgs-time_settings canadian 600 30"),
            Err(CommandError::InvalidTimeSystem)
        );
        assert_eq!(p("kgs-rules aga"), Ok(Command::KgsRules(KgsRules::Aga)));
        assert_eq!(p("kgs-rules go"), Err(CommandError::UnknownRules));
        assert_eq!(p("frobnicate"), Err(CommandError::UnknownCommand));
    }

    #[test]
    fn every_listed_name_parses_to_a_command_or_an_argument_error() {
        for name in COMMAND_NAMES {
            let raw = RawCommand {
                id: None,
                name: (*name).to_string(),
                args: vec![],
            };
            assert_ne!(
                Command::parse(&raw, 19).err(),
                Some(CommandError::UnknownCommand),
                "{name}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn any_bytes_classify_without_panicking(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..300)) {
            match parse_line(&bytes) {
                Line::Command(c) => {
                    proptest::prop_assert!(!c.name.is_empty());
                    proptest::prop_assert!(!c.name.contains(' '));
                    proptest::prop_assert_eq!(c.name.to_ascii_lowercase(), c.name.clone());
                    for a in &c.args {
                        proptest::prop_assert!(!a.is_empty() && !a.contains(' ') && !a.contains('#'));
                    }
                    let _ = Command::parse(&c, 19);
                }
                Line::Blank | Line::Interrupt | Line::Malformed { .. } => {}
            }
        }
    }
}

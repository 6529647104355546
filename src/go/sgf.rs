//! The bridge between SGF text (via the `sgf-parse` crate) and [`Game`]: loading the main line of
//! a game record (size, komi, handicap/setup stones, moves up to a move number) and writing a
//! game as an SGF FF[4] record. Pure: callers read and write the files.

use std::collections::HashSet;
use std::fmt::Write as _;

use sgf_parse::go::{Move as SgfMove, Point as SgfPoint, Prop};

use super::game::{Game, GameError, IllegalMove, Rules, Scoring};
use super::{Color, MAX_SIZE, MIN_SIZE, Move, Vertex};

/// Why an SGF record could not be loaded.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum SgfError {
    #[error("cannot parse SGF: {0}")]
    Parse(String),
    #[error("SGF holds no game")]
    Empty,
    #[error("unsupported board size {0}x{1}")]
    Size(u8, u8),
    #[error("SGF point outside the board")]
    OffBoard,
    #[error("illegal move {number} in SGF: {reason}")]
    IllegalMove { number: usize, reason: IllegalMove },
    #[error("SGF setup not supported: {0}")]
    Setup(String),
    #[error("{0}")]
    Game(#[from] GameError),
}

fn vertex(p: &SgfPoint, size: usize) -> Result<Vertex, SgfError> {
    let (x, y) = (p.x as usize, p.y as usize);
    if x >= size || y >= size {
        return Err(SgfError::OffBoard);
    }
    // SGF row `a` is the top; GTP row 1 is the bottom.
    Ok(Vertex::new(x, size - 1 - y))
}

fn mv(m: &SgfMove, size: usize) -> Result<Move, SgfError> {
    match m {
        SgfMove::Pass => Ok(Move::Pass),
        // FF[3] pass on boards up to 19x19.
        SgfMove::Move(SgfPoint { x: 19, y: 19 }) if size <= 19 => Ok(Move::Pass),
        SgfMove::Move(p) => vertex(p, size).map(Move::Play),
    }
}

fn sorted(points: &HashSet<SgfPoint>, size: usize) -> Result<Vec<Vertex>, SgfError> {
    let mut out = points
        .iter()
        .map(|p| vertex(p, size))
        .collect::<Result<Vec<_>, _>>()?;
    out.sort();
    Ok(out)
}

/// Loads the main line of the first game in `text`. `rules` supplies everything the record does
/// not set (the record's `KM` overrides the komi). With `until_move = Some(n)` the position is
/// the one before move `n` (moves are numbered from 1), as GTP `loadsgf` defines it.
pub fn load(text: &str, rules: Rules, until_move: Option<usize>) -> Result<Game, SgfError> {
    let nodes = sgf_parse::go::parse(text).map_err(|e| SgfError::Parse(e.to_string()))?;
    let root = nodes.into_iter().next().ok_or(SgfError::Empty)?;
    let size = match root.get_property("SZ") {
        Some(Prop::SZ((w, h))) => {
            let (w, h) = (*w, *h);
            if w != h || !(MIN_SIZE..=MAX_SIZE).contains(&(w as usize)) {
                return Err(SgfError::Size(w, h));
            }
            w as usize
        }
        _ => 19,
    };
    let mut rules = rules;
    if let Some(Prop::KM(komi)) = root.get_property("KM")
        && komi.is_finite()
    {
        rules.komi = *komi;
    }
    let mut game = Game::new(size, rules)?;
    let limit = until_move.map_or(usize::MAX, |n| n.saturating_sub(1));
    let mut played = 0;
    for (index, node) in root.main_variation().enumerate() {
        let mut black_setup = Vec::new();
        let mut white_setup = Vec::new();
        for prop in node.properties() {
            match prop {
                Prop::AB(points) => black_setup = sorted(points, size)?,
                Prop::AW(points) => white_setup = sorted(points, size)?,
                Prop::AE(_) => return Err(SgfError::Setup("AE".into())),
                _ => {}
            }
        }
        if index == 0 && white_setup.is_empty() && black_setup.len() >= 2 {
            game.set_handicap(&black_setup)?;
        } else {
            // Other setup stones become moves of their colour (GTP allows either colour to move).
            for (color, stones) in [(Color::Black, &black_setup), (Color::White, &white_setup)] {
                for &v in stones.iter() {
                    game.play(color, Move::Play(v))
                        .map_err(|_| SgfError::Setup(format!("stone at {v}")))?;
                }
            }
        }
        let node_move = node.properties().find_map(|p| match p {
            Prop::B(m) => Some((Color::Black, m)),
            Prop::W(m) => Some((Color::White, m)),
            _ => None,
        });
        if let Some((color, m)) = node_move {
            if played >= limit {
                break;
            }
            played += 1;
            let m = mv(m, size)?;
            game.play(color, m)
                .map_err(|reason| SgfError::IllegalMove {
                    number: played,
                    reason,
                })?;
        }
    }
    Ok(game)
}

fn sgf_point(v: Vertex, size: usize) -> String {
    let x = (b'a' + v.col() as u8) as char;
    let y = (b'a' + (size - 1 - v.row()) as u8) as char;
    format!("{x}{y}")
}

/// The game as an SGF FF[4] record: root properties, handicap stones, then one node per move.
/// Lines are never empty.
pub fn write(game: &Game, result: Option<&str>) -> String {
    let size = game.size();
    let rules = game.rules();
    let ruleset = match rules.scoring {
        Scoring::Area => "Chinese",
        Scoring::Territory => "Japanese",
    };
    let mut out = format!(
        "(;FF[4]GM[1]CA[UTF-8]AP[tablero:{}]SZ[{size}]KM[{}]RU[{ruleset}]",
        env!("CARGO_PKG_VERSION"),
        rules.komi
    );
    if let Some(r) = result {
        let _ = write!(out, "RE[{r}]");
    }
    if !game.handicap().is_empty() {
        let _ = write!(out, "HA[{}]AB", game.handicap().len());
        for &v in game.handicap() {
            let _ = write!(out, "[{}]", sgf_point(v, size));
        }
        out.push_str("PL[W]");
    }
    for (i, (color, m)) in game.history().enumerate() {
        if i % 10 == 0 {
            out.push('\n');
        }
        let point = match m {
            Move::Pass => String::new(),
            Move::Play(v) => sgf_point(v, size),
        };
        let _ = write!(out, ";{}[{point}]", color.letter());
    }
    out.push_str(")\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Rules {
        Rules::default()
    }

    #[test]
    fn loads_size_komi_handicap_and_moves() {
        let text = "(;GM[1]FF[4]SZ[9]KM[5.5]HA[2]AB[cc][gg];W[ee];B[dc]\n;W[]C[comment];B[tt])";
        let game = load(text, rules(), None).unwrap();
        assert_eq!(game.size(), 9);
        assert_eq!(game.rules().komi, 5.5);
        assert_eq!(game.handicap().len(), 2);
        // cc = C7, gg = G3 on 9x9.
        assert_eq!(
            game.board().get(Vertex::parse("C7", 9).unwrap()),
            Some(Color::Black)
        );
        assert_eq!(
            game.board().get(Vertex::parse("G3", 9).unwrap()),
            Some(Color::Black)
        );
        assert_eq!(
            game.board().get(Vertex::parse("E5", 9).unwrap()),
            Some(Color::White)
        );
        let moves: Vec<_> = game.history().collect();
        assert_eq!(moves.len(), 4);
        assert_eq!(moves[2], (Color::White, Move::Pass));
        // `tt` is a pass on boards up to 19x19.
        assert_eq!(moves[3], (Color::Black, Move::Pass));
        assert_eq!(game.to_move(), Color::White);
    }

    #[test]
    fn stops_before_the_given_move_number() {
        let text = "(;SZ[9];B[aa];W[bb];B[cc])";
        let game = load(text, rules(), Some(3)).unwrap();
        assert_eq!(game.move_count(), 2);
        assert_eq!(game.to_move(), Color::Black);
        let game = load(text, rules(), Some(1)).unwrap();
        assert_eq!(game.move_count(), 0);
    }

    #[test]
    fn rejects_bad_records() {
        assert!(matches!(
            load("not sgf", rules(), None),
            Err(SgfError::Parse(_))
        ));
        assert!(matches!(
            load("(;SZ[9:13])", rules(), None),
            Err(SgfError::Size(9, 13))
        ));
        assert!(matches!(
            load("(;SZ[30])", rules(), None),
            Err(SgfError::Size(30, 30))
        ));
        assert!(matches!(
            load("(;SZ[9];B[aa];W[aa])", rules(), None),
            Err(SgfError::IllegalMove { number: 2, .. })
        ));
        assert!(matches!(
            load("(;SZ[5];B[gg])", rules(), None),
            Err(SgfError::OffBoard)
        ));
    }

    #[test]
    fn writing_and_loading_round_trip() {
        let mut game = Game::new(13, rules()).unwrap();
        game.set_handicap(&Game::fixed_handicap_vertices(13, 3).unwrap())
            .unwrap();
        for (i, m) in ["D6", "pass", "F6", "A1", "N13", "pass"].iter().enumerate() {
            let color = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            game.play(color, Move::parse(m, 13).unwrap()).unwrap();
        }
        let text = write(&game, None);
        assert!(!text.contains("\n\n"));
        let back = load(&text, rules(), None).unwrap();
        assert_eq!(back.board().hash(), game.board().hash());
        assert_eq!(
            back.history().collect::<Vec<_>>(),
            game.history().collect::<Vec<_>>()
        );
        let mut a = back.handicap().to_vec();
        let mut b = game.handicap().to_vec();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        assert_eq!(back.rules().komi, game.rules().komi);
    }
}

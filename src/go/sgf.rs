//! SGF (FF\[4\]) bridge for games: load the main line of a Go game record into a `Game` (up to a
//! move number, as GTP `loadsgf` asks) and write a `Game` back. Parsing and serialisation are
//! the `sgf-parse` crate's; this module maps its properties to tablero's types.

use super::game::{Game, GameError, Rules, Scoring};
use super::{Color, Move, Vertex};
use sgf_parse::SgfNode;
use sgf_parse::go::{Move as SgfMove, Point, Prop};

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SgfError {
    #[error("cannot parse SGF: {0}")]
    Parse(String),
    #[error("SGF holds no game")]
    Empty,
    #[error("SGF board size {0} is not supported")]
    Size(String),
    #[error("SGF setup: {0}")]
    Setup(GameError),
    #[error("SGF point {0:?} lies off a {1}x{1} board")]
    OffBoard(Point, usize),
    #[error("illegal move {number} ({color} {mv}) in SGF: {reason}")]
    IllegalMove {
        number: usize,
        color: Color,
        mv: Move,
        reason: String,
    },
    #[error("SGF setup (AB/AW/AE) after the root node is not supported")]
    LateSetup,
    #[error("SGF komi {0} is not a finite number")]
    Komi(f64),
}

fn vertex(p: &Point, size: usize) -> Result<Option<Vertex>, SgfError> {
    let (x, y) = (p.x as usize, p.y as usize);
    if x < size && y < size {
        Ok(Some(Vertex::new(x, size - 1 - y)))
    } else if size <= 19 && x == 19 && y == 19 {
        Ok(None) // `tt`: the FF[3] pass
    } else {
        Err(SgfError::OffBoard(*p, size))
    }
}

fn point(v: Vertex, size: usize) -> Point {
    Point {
        x: v.col() as u8,
        y: (size - 1 - v.row()) as u8,
    }
}

/// Loads the main line of the first game in `text`. With `upto = Some(n)` the position before
/// move `n` (1-based) is returned, as GTP `loadsgf file n` asks. `rules` gives the ko rule and
/// the defaults for komi and scoring when the record has no `KM`/`RU`.
pub fn load(text: &str, rules: Rules, upto: Option<usize>) -> Result<Game, SgfError> {
    let trees = sgf_parse::go::parse(text).map_err(|e| SgfError::Parse(e.to_string()))?;
    let root = trees.first().ok_or(SgfError::Empty)?;
    let size = match root.get_property("SZ") {
        Some(Prop::SZ((w, h))) if w == h => *w as usize,
        Some(Prop::SZ((w, h))) => return Err(SgfError::Size(format!("{w}x{h}"))),
        _ => 19,
    };
    let mut rules = rules;
    if let Some(Prop::KM(k)) = root.get_property("KM") {
        if !k.is_finite() {
            return Err(SgfError::Komi(*k));
        }
        rules.komi = *k;
    }
    if let Some(Prop::RU(r)) = root.get_property("RU") {
        let r = r.text.to_ascii_lowercase();
        if r.starts_with("jap") || r.starts_with("kor") {
            rules.scoring = Scoring::Territory;
        } else if r.starts_with("chi") || r.starts_with("aga") || r.contains("tromp") {
            rules.scoring = Scoring::Area;
        }
    }
    let mut game = Game::new(size, rules).map_err(|_| SgfError::Size(size.to_string()))?;
    let stones = |id: &str| -> Result<Vec<Vertex>, SgfError> {
        let mut out = Vec::new();
        if let Some(Prop::AB(set) | Prop::AW(set)) = root.get_property(id) {
            for p in set {
                if let Some(v) = vertex(p, size)? {
                    out.push(v);
                }
            }
        }
        out.sort();
        Ok(out)
    };
    let (black, white) = (stones("AB")?, stones("AW")?);
    if !black.is_empty() || !white.is_empty() {
        game.setup(&black, &white).map_err(SgfError::Setup)?;
    }
    if let Some(Prop::PL(c)) = root.get_property("PL") {
        game.set_to_move(match c {
            sgf_parse::Color::Black => Color::Black,
            sgf_parse::Color::White => Color::White,
        });
    }
    let limit = upto.map_or(usize::MAX, |n| n.saturating_sub(1));
    let mut number = 0;
    for (i, node) in root.main_variation().enumerate() {
        if i > 0
            && node
                .properties()
                .any(|p| matches!(p, Prop::AB(_) | Prop::AW(_) | Prop::AE(_)))
        {
            return Err(SgfError::LateSetup);
        }
        let Some(prop) = node.get_move() else {
            continue;
        };
        if number >= limit {
            break;
        }
        let (color, m) = match prop {
            Prop::B(m) => (Color::Black, m),
            Prop::W(m) => (Color::White, m),
            _ => continue,
        };
        let mv = match m {
            SgfMove::Pass => Move::Pass,
            SgfMove::Move(p) => vertex(p, size)?.map_or(Move::Pass, Move::Play),
        };
        number += 1;
        game.play(color, mv).map_err(|e| SgfError::IllegalMove {
            number,
            color,
            mv,
            reason: e.to_string(),
        })?;
    }
    Ok(game)
}

/// The game as an SGF record (FF\[4\], main line only).
pub fn save(game: &Game) -> String {
    let size = game.size();
    let mut root = vec![
        Prop::FF(4),
        Prop::GM(1),
        Prop::CA("UTF-8".into()),
        Prop::AP(("tablero".into(), env!("CARGO_PKG_VERSION").into())),
        // `SZ[9]`, not the crate's `SZ[9:9]`: square sizes in the form every reader knows.
        Prop::Unknown("SZ".into(), vec![size.to_string()]),
        Prop::KM(game.rules().komi),
        Prop::RU(
            match game.rules().scoring {
                Scoring::Area => "Chinese",
                Scoring::Territory => "Japanese",
            }
            .into(),
        ),
    ];
    let handicap = game.handicap();
    if !handicap.is_empty() {
        root.push(Prop::HA(handicap.len() as i64));
        root.push(Prop::AB(handicap.iter().map(|&v| point(v, size)).collect()));
    }
    let (black, white) = game.setup_stones();
    if !black.is_empty() {
        root.push(Prop::AB(black.iter().map(|&v| point(v, size)).collect()));
    }
    if !white.is_empty() {
        root.push(Prop::AW(white.iter().map(|&v| point(v, size)).collect()));
    }
    // Who moves first, where a reader would assume otherwise (White after handicap).
    let implied = if handicap.is_empty() {
        Color::Black
    } else {
        Color::White
    };
    if game.start_to_move() != implied {
        root.push(Prop::PL(match game.start_to_move() {
            Color::Black => sgf_parse::Color::Black,
            Color::White => sgf_parse::Color::White,
        }));
    }
    let moves: Vec<Prop> = game
        .history()
        .map(|(c, m)| {
            let sm = match m {
                Move::Pass => SgfMove::Pass,
                Move::Play(v) => SgfMove::Move(point(v, size)),
            };
            match c {
                Color::Black => Prop::B(sm),
                Color::White => Prop::W(sm),
            }
        })
        .collect();
    let mut tail: Option<SgfNode<Prop>> = None;
    for prop in moves.into_iter().rev() {
        let children = tail.take().into_iter().collect();
        tail = Some(SgfNode::new(vec![prop], children, false));
    }
    let root = SgfNode::new(root, tail.into_iter().collect(), true);
    root.serialize()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_stones_and_the_side_to_move_survive_a_round_trip() {
        let text = "(;GM[1]FF[4]SZ[9]AB[cc][dd]AW[ee]PL[W];W[ff];B[gg])";
        let g = load(text, Rules::default(), None).unwrap();
        let saved = save(&g);
        let back = load(&saved, Rules::default(), None).unwrap();
        assert_eq!(back.board().hash(), g.board().hash(), "{saved}");
        assert_eq!(back.setup_stones(), g.setup_stones());
        assert_eq!(back.start_to_move(), Color::White);
        assert_eq!(back.to_move(), g.to_move());
        let empty = load("(;GM[1]SZ[9]PL[W])", Rules::default(), None).unwrap();
        let back = load(&save(&empty), Rules::default(), None).unwrap();
        assert_eq!(back.to_move(), Color::White);
    }

    #[test]
    fn a_komi_that_is_not_a_number_is_refused() {
        for km in ["inf", "NaN", "-inf"] {
            let text = format!("(;GM[1]SZ[9]KM[{km}])");
            assert!(matches!(
                load(&text, Rules::default(), None),
                Err(SgfError::Komi(_))
            ));
        }
    }

    #[test]
    fn round_trip_with_handicap_and_passes() {
        let mut g = Game::new(9, Rules::default()).unwrap();
        g.set_handicap(&Game::fixed_handicap_vertices(9, 2).unwrap())
            .unwrap();
        for (c, m) in [
            (Color::White, "E5"),
            (Color::Black, "D5"),
            (Color::White, "pass"),
            (Color::Black, "J9"),
        ] {
            g.play(c, Move::parse(m, 9).unwrap()).unwrap();
        }
        let text = save(&g);
        assert!(text.contains("SZ[9]"), "{text}");
        let back = load(&text, Rules::default(), None).unwrap();
        assert_eq!(back.board().hash(), g.board().hash());
        assert_eq!(
            back.history().collect::<Vec<_>>(),
            g.history().collect::<Vec<_>>()
        );
        assert_eq!(back.handicap().len(), 2);
        assert_eq!(back.rules().komi, 7.5);
        let before3 = load(&text, Rules::default(), Some(3)).unwrap();
        assert_eq!(before3.move_count(), 2);
        assert_eq!(before3.to_move(), Color::White);
    }

    #[test]
    fn reads_coordinates_komi_rules_and_tt_pass() {
        let g = load(
            "(;GM[1]FF[4]SZ[19]KM[6.5]RU[Japanese];B[pd];W[dp];B[tt];W[aa])",
            Rules::default(),
            None,
        )
        .unwrap();
        assert_eq!(g.rules().komi, 6.5);
        assert_eq!(g.rules().scoring, Scoring::Territory);
        let moves: Vec<String> = g.history().map(|(_, m)| m.to_string()).collect();
        assert_eq!(moves, ["Q16", "D4", "pass", "A19"]);
    }

    #[test]
    fn rejects_bad_records() {
        assert!(matches!(
            load("not sgf", Rules::default(), None),
            Err(SgfError::Parse(_))
        ));
        assert!(matches!(
            load("(;SZ[9];B[ee];W[ee])", Rules::default(), None),
            Err(SgfError::IllegalMove { number: 2, .. })
        ));
        assert!(matches!(
            load("(;SZ[9];B[zz])", Rules::default(), None),
            Err(SgfError::OffBoard(..))
        ));
        assert!(load("(;SZ[30])", Rules::default(), None).is_err());
        assert!(load("(;SZ[9:13])", Rules::default(), None).is_err());
    }
}

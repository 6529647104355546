//! The Go tactics suite format: positions with a side to move and the moves that solve them
//! (ladders, life and death, semeai, captures), one position a line:
//!
//! ```text
//! # comment
//! id category to-move target answers black white source
//! ```
//!
//! `to-move` is `B` or `W`; `target` the vertex of the string or dragon at stake; `answers`,
//! `black` and `white` comma-separated vertices (`-` for none). Every suite is 19×19 unless a
//! `# size N` line before the first position says otherwise.

use super::game::{Game, GameError, Rules};
use super::{Color, Move, ParseError, Vertex};

/// One tactical problem.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub id: String,
    pub category: String,
    pub to_move: Color,
    pub target: Vertex,
    /// Every move that solves the problem.
    pub answers: Vec<Vertex>,
    pub black: Vec<Vertex>,
    pub white: Vec<Vertex>,
    /// Where the position comes from.
    pub source: String,
}

/// A parsed suite.
#[derive(Clone, Debug, PartialEq)]
pub struct Suite {
    pub size: usize,
    pub problems: Vec<Problem>,
}

/// Why a suite or one of its positions is unusable (lines count from 1).
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    #[error(
        "line {line}: {found} fields, expected 8 (id category to-move target answers black white source)"
    )]
    Fields { line: usize, found: usize },
    #[error("line {line}: {field}: {source}")]
    Parse {
        line: usize,
        field: &'static str,
        source: ParseError,
    },
    #[error("line {line}: no answers")]
    NoAnswers { line: usize },
    #[error("line {line}: bad size line {text:?}")]
    Size { line: usize, text: String },
    #[error("problem {id}: the setup is not a position: {source}")]
    Setup { id: String, source: GameError },
    #[error("problem {id}: answer {answer} is not a legal move")]
    IllegalAnswer { id: String, answer: Vertex },
    #[error("problem {id}: target {target} is an empty point")]
    EmptyTarget { id: String, target: Vertex },
    #[error("the suite has no positions")]
    Empty,
}

/// Parses a suite and checks each position (legal setup, target on a stone, legal answers).
pub fn parse(text: &str) -> Result<Suite, SuiteError> {
    let mut size = 19;
    let mut problems = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if let Some(rest) = trimmed.strip_prefix("# size ") {
            size = rest
                .trim()
                .parse()
                .ok()
                .filter(|n| (super::MIN_SIZE..=super::MAX_SIZE).contains(n) && problems.is_empty())
                .ok_or_else(|| SuiteError::Size {
                    line,
                    text: trimmed.to_string(),
                })?;
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let problem = parse_line(trimmed, line, size)?;
        problem.game(size)?;
        problems.push(problem);
    }
    if problems.is_empty() {
        return Err(SuiteError::Empty);
    }
    Ok(Suite { size, problems })
}

fn parse_line(text: &str, line: usize, size: usize) -> Result<Problem, SuiteError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let &[id, category, to_move, target, answers, black, white, source] = fields.as_slice() else {
        return Err(SuiteError::Fields {
            line,
            found: fields.len(),
        });
    };
    let wrap = |field| {
        move |source| SuiteError::Parse {
            line,
            field,
            source,
        }
    };
    let to_move: Color = to_move.parse().map_err(wrap("to-move"))?;
    let target = Vertex::parse(target, size).map_err(wrap("target"))?;
    let answers = vertices(answers, size).map_err(wrap("answers"))?;
    if answers.is_empty() {
        return Err(SuiteError::NoAnswers { line });
    }
    Ok(Problem {
        id: id.to_string(),
        category: category.to_string(),
        to_move,
        target,
        answers,
        black: vertices(black, size).map_err(wrap("black"))?,
        white: vertices(white, size).map_err(wrap("white"))?,
        source: source.to_string(),
    })
}

fn vertices(list: &str, size: usize) -> Result<Vec<Vertex>, ParseError> {
    if list == "-" {
        return Ok(Vec::new());
    }
    list.split(',').map(|v| Vertex::parse(v, size)).collect()
}

impl Problem {
    /// The position (area scoring, komi 7.5) with the problem's side to move; `Err` when the
    /// stones do not make a position, the target is empty or an answer is illegal.
    pub fn game(&self, size: usize) -> Result<Game, SuiteError> {
        let setup = |source| SuiteError::Setup {
            id: self.id.clone(),
            source,
        };
        let mut game = Game::new(size, Rules::default()).map_err(setup)?;
        game.setup(&self.black, &self.white).map_err(setup)?;
        game.set_to_move(self.to_move);
        if game.board().get(self.target).is_none() {
            return Err(SuiteError::EmptyTarget {
                id: self.id.clone(),
                target: self.target,
            });
        }
        if let Some(&answer) = self
            .answers
            .iter()
            .find(|&&a| !game.is_legal(self.to_move, Move::Play(a)))
        {
            return Err(SuiteError::IllegalAnswer {
                id: self.id.clone(),
                answer,
            });
        }
        Ok(game)
    }

    /// True if `mv` is one of the answers.
    pub fn solved_by(&self, mv: Move) -> bool {
        matches!(mv, Move::Play(v) if self.answers.contains(&v))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use super::*;

    /// A 9×9 problem: White's C3 stone in atari, Black captures at C4 (or D3 is not it).
    const ONE: &str = "# size 9\n# comment\n\np1 capture B C3 C4 B3,C2,D3 C3 src\n";

    #[test]
    fn parses_a_position_and_its_answers() {
        let suite = parse(ONE).unwrap();
        assert_eq!(suite.size, 9);
        let p = &suite.problems[0];
        assert_eq!(p.id, "p1");
        assert_eq!(p.category, "capture");
        assert_eq!(p.to_move, Color::Black);
        assert_eq!(p.answers, vec![Vertex::new(2, 3)]);
        assert_eq!(p.black.len(), 3);
        assert!(p.solved_by(Move::Play(Vertex::new(2, 3))));
        assert!(!p.solved_by(Move::Pass));
        let game = p.game(9).unwrap();
        assert_eq!(game.to_move(), Color::Black);
        assert_eq!(game.board().get(Vertex::new(2, 2)), Some(Color::White));
    }

    fn error(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn malformed_lines_name_the_line_and_the_problem() {
        let e = error("# size 9\np1 capture B C3 C4 B3,C2,D3\n");
        assert!(e.contains("line 2") && e.contains("6 fields"), "{e}");
        let e = error("# size 9\np1 capture X C3 C4 B3,C2,D3 C3 src\n");
        assert!(e.contains("line 2: to-move"), "{e}");
        let e = error("# size 9\np1 capture B C3 C4,Z9 B3,C2,D3 C3 src\n");
        assert!(e.contains("answers") && e.contains("Z9"), "{e}");
        let e = error("# size 9\np1 capture B C3 - B3,C2,D3 C3 src\n");
        assert!(e.contains("line 2: no answers"), "{e}");
        let e = error("# size 99\n");
        assert!(e.contains("line 1: bad size"), "{e}");
        assert!(error("# only comments\n").contains("no positions"));
    }

    #[test]
    fn unusable_positions_are_refused() {
        // An answer on a stone.
        let e = error("# size 9\np1 capture B C3 D3 B3,C2,D3 C3 src\n");
        assert!(
            e.contains("problem p1: answer D3 is not a legal move"),
            "{e}"
        );
        // A target on an empty point.
        let e = error("# size 9\np1 capture B E5 C4 B3,C2,D3 C3 src\n");
        assert!(e.contains("target E5 is an empty point"), "{e}");
        // A stone without liberties.
        let e = error("# size 9\np1 capture B C3 C4 B3,C2,D3,C4 C3 src\n");
        assert!(e.contains("problem p1: the setup is not a position"), "{e}");
    }
}

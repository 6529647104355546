//! Dead shapes that the dead-stone playouts misjudge. A group whose whole eye space is one
//! empty 2×2 square ("square four") is dead whoever plays first: every move inside leaves a
//! shape the other side reduces to one eye. Random playouts seldom find that sequence (each
//! side's stones inside look like self-ataris or like filling one's own eye space), so they
//! keep such a group alive; the shape is recognised here instead.

use crate::go::Color;
use crate::go::board::{Board, Cell, Point};

/// A group whose only liberties are the four points of an empty 2×2 square that only its
/// stones (and the edge) surround.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct SquareFour {
    pub(super) color: Color,
    /// Each chain of the group, as its stones.
    pub(super) chains: Vec<Vec<Point>>,
    /// One stone of each opponent chain that touches the group.
    pub(super) neighbours: Vec<Point>,
}

/// Every square-four group on `board`.
pub(super) fn square_fours(board: &Board) -> Vec<SquareFour> {
    board
        .points()
        .filter_map(|p| square_at(board, p))
        .filter_map(|square| group_around(board, square))
        .collect()
}

/// The 2×2 square whose top-left corner (lowest row and column) is `p`, if all four points
/// are empty and on the board.
fn square_at(board: &Board, p: Point) -> Option<[Point; 4]> {
    let right = Board::neighbours(p)[2];
    let down = Board::neighbours(p)[3];
    let square = [p, right, down, Board::neighbours(down)[2]];
    square
        .iter()
        .all(|&q| board.cell(q) == Cell::Empty)
        .then_some(square)
}

/// The group enclosing `square` when its chains have no liberty outside it.
fn group_around(board: &Board, square: [Point; 4]) -> Option<SquareFour> {
    let mut color = None;
    let mut heads = Vec::new();
    let mut chains = Vec::new();
    for &q in &square {
        for n in Board::neighbours(q) {
            if square.contains(&n) {
                continue;
            }
            let c = match board.cell(n) {
                Cell::Border => continue,
                Cell::Empty => return None,
                cell => cell.color()?,
            };
            if *color.get_or_insert(c) != c {
                return None;
            }
            if !heads.contains(&board.chain_head(n)) {
                heads.push(board.chain_head(n));
                chains.push(board.chain(n));
            }
        }
    }
    let color = color?;
    let enclosed = chains
        .iter()
        .all(|chain| board.liberties(chain[0]).iter().all(|l| square.contains(l)));
    enclosed.then(|| SquareFour {
        color,
        neighbours: opponent_chains(board, &chains, color.opponent()),
        chains,
    })
}

/// One stone of each chain of colour `opponent` adjacent to `chains`.
fn opponent_chains(board: &Board, chains: &[Vec<Point>], opponent: Color) -> Vec<Point> {
    let mut heads: Vec<Point> = Vec::new();
    for &s in chains.iter().flatten() {
        for n in Board::neighbours(s) {
            if board.cell(n).color() == Some(opponent) && !heads.contains(&board.chain_head(n)) {
                heads.push(board.chain_head(n));
            }
        }
    }
    heads
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Vertex;

    /// A board from rows written top (highest row) first: `X` black, `O` white.
    fn board(rows: &[&str]) -> Board {
        let size = rows.len();
        let mut b = Board::new(size);
        for (i, row) in rows.iter().enumerate() {
            for (col, ch) in row.chars().enumerate() {
                let color = match ch {
                    'X' => Color::Black,
                    'O' => Color::White,
                    _ => continue,
                };
                let p = Board::point_of(Vertex::new(col, size - 1 - i));
                b.play_unchecked(color, p);
            }
        }
        b
    }

    const CORNER: [&str; 7] = [
        ".......", ".......", ".......", "OOOO...", "XXXO...", "..XO...", "..XO...",
    ];

    #[test]
    fn a_corner_group_with_only_a_square_four_is_found() {
        let b = board(&CORNER);
        let found = square_fours(&b);
        assert_eq!(found.len(), 1, "{}", b.to_ascii());
        assert_eq!(found[0].color, Color::Black);
        assert_eq!(found[0].chains.iter().flatten().count(), 5);
        assert_eq!(found[0].neighbours.len(), 1);
    }

    #[test]
    fn an_outside_liberty_or_a_stone_inside_is_not_a_square_four() {
        let mut rows = CORNER;
        rows[4] = "XXX....";
        assert!(square_fours(&board(&rows)).is_empty(), "an outside liberty");
        let mut rows = CORNER;
        rows[6] = "O.XO...";
        assert!(square_fours(&board(&rows)).is_empty(), "a stone inside");
        let mut rows = CORNER;
        rows[5] = "...O...";
        assert!(square_fours(&board(&rows)).is_empty(), "a larger eye space");
    }

    #[test]
    fn a_square_touching_both_colours_is_no_eye() {
        let rows = [".....", "OOOO.", "XXXO.", "..XO.", "..OO."];
        assert!(square_fours(&board(&rows)).is_empty());
    }
}

//! Level files: a character matrix, one character per cell, first line = top row. The width is
//! the first line's length; shorter lines are padded with spaces and longer lines are cut, as
//! GVG-AI does.

use super::VgdlError;
use super::model::{GameDescription, TypeId};

/// A level resolved against a game's LevelMapping.
#[derive(Debug, Clone, PartialEq)]
pub struct Level {
    pub width: usize,
    pub height: usize,
    /// Row-major; each cell lists the sprite types created there, in mapping order.
    pub cells: Vec<Vec<TypeId>>,
}

impl Level {
    pub fn cell(&self, x: usize, y: usize) -> &[TypeId] {
        self.cells
            .get(y * self.width + x)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }
}

/// Parse a level file for `game`. A character that is not in the game's LevelMapping (a space,
/// say) is an empty cell; one mapped to an unknown sprite is an error.
pub fn parse_level(game: &GameDescription, text: &str) -> Result<Level, VgdlError> {
    let mut lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    let Some(first) = lines.first() else {
        return Err(VgdlError::Level {
            line: 0,
            message: "empty level".into(),
        });
    };
    let width = first.chars().count();
    if width == 0 {
        return Err(VgdlError::Level {
            line: 1,
            message: "the first line is empty".into(),
        });
    }
    let height = lines.len();
    let mut cells = Vec::with_capacity(width * height);
    for (y, line) in lines.iter().enumerate() {
        let mut chars = line.chars();
        for _ in 0..width {
            let c = chars.next().unwrap_or(' ');
            if let Some((_, name, l)) = game.unresolved_mapping.iter().find(|(k, _, _)| *k == c) {
                return Err(VgdlError::Level {
                    line: y + 1,
                    message: format!(
                        "character '{c}' maps to unknown sprite \"{name}\" (LevelMapping line {l})"
                    ),
                });
            }
            // GVG-AI leaves a cell whose character is not in the LevelMapping empty (with a
            // warning), as it does a space.
            cells.push(game.mapping(c).map(<[TypeId]>::to_vec).unwrap_or_default());
        }
    }
    Ok(Level {
        width,
        height,
        cells,
    })
}

//! `loadsgf`: where the engine may read SGF files, and the size checks that keep the SGF
//! parser's recursion bounded.

use std::path::{Path, PathBuf};

use super::{GoEngine, SgfAccess};
use crate::go::sgf;
use crate::gtp::command::CommandError;

impl GoEngine {
    pub(super) fn loadsgf(
        &mut self,
        file: &str,
        move_number: Option<usize>,
    ) -> Result<String, CommandError> {
        let path = match &self.limits.sgf {
            SgfAccess::Any => Some(PathBuf::from(file)),
            SgfAccess::Below(dir) => confined(dir, file),
            SgfAccess::Refused => {
                return Err(CommandError::Other(
                    "loadsgf is disabled on this server (no server.sgf_dir)".into(),
                ));
            }
        };
        // One message for a missing, unreadable or forbidden file: the answer tells nothing
        // about files outside the SGF directory.
        let text = path
            .and_then(|p| read_sgf_file(&p))
            .ok_or_else(|| CommandError::Other(format!("cannot open or parse '{file}'")))?;
        let cannot_load = |why: String| CommandError::Other(format!("cannot load '{file}': {why}"));
        check_sgf_size(&text).map_err(cannot_load)?;
        let game = sgf::load(&text, *self.game.rules(), move_number)
            .map_err(|e| cannot_load(e.to_string()))?;
        self.game = game;
        self.player.new_game();
        Ok(self.game.to_move().to_string())
    }
}

/// Largest SGF file `loadsgf` reads.
pub(super) const MAX_SGF_BYTES: u64 = 8 << 20;
/// Most nodes (`;`) and game trees (`(`) an SGF file may hold: the SGF parser recurses once
/// per node, so this bounds its stack use (see [`super::session::ENGINE_STACK`]).
pub(super) const MAX_SGF_NODES: usize = 20_000;

/// `file` resolved below `dir` (symbolic links followed), if it exists there; `None` for
/// absolute names, names that leave `dir`, and missing files alike.
pub(super) fn confined(dir: &Path, file: &str) -> Option<PathBuf> {
    let name = Path::new(file);
    if name.is_absolute() {
        return None;
    }
    let root = dir.canonicalize().ok()?;
    let path = root.join(name).canonicalize().ok()?;
    path.starts_with(&root).then_some(path)
}

/// The text of a regular file of at most [`MAX_SGF_BYTES`]; `None` if it cannot be read.
pub(super) fn read_sgf_file(file: &Path) -> Option<String> {
    use std::io::Read;
    let f = std::fs::File::open(file).ok()?;
    // Not a FIFO, device or directory: those could block or never end.
    if !f.metadata().ok()?.is_file() {
        return None;
    }
    let mut text = String::new();
    f.take(MAX_SGF_BYTES + 1).read_to_string(&mut text).ok()?;
    Some(text)
}

/// Rejects SGF texts too large or too deeply structured for the parser.
pub(super) fn check_sgf_size(text: &str) -> Result<(), String> {
    if text.len() as u64 > MAX_SGF_BYTES {
        return Err(format!("SGF file larger than {MAX_SGF_BYTES} bytes"));
    }
    let (mut in_value, mut escaped, mut nodes) = (false, false, 0usize);
    for c in text.chars() {
        match (in_value, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (true, false, ']') => in_value = false,
            (false, _, '[') => in_value = true,
            (false, _, ';' | '(') => nodes += 1,
            _ => {}
        }
        if nodes > MAX_SGF_NODES {
            return Err(format!("SGF file has more than {MAX_SGF_NODES} nodes"));
        }
    }
    Ok(())
}

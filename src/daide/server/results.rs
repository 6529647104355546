//! The results file of a DAIDE server (`tablero diplomacy server --results`,
//! `diplomacy.server.results` of `tablero serve`): one JSON [`GameRecord`] line per finished
//! game, appended and synced to disk as the game ends.

use super::GameRecord;

/// A results file open for appending.
#[derive(Debug)]
pub struct ResultsFile {
    path: std::path::PathBuf,
    file: std::fs::File,
}

/// A results file that cannot be opened or written.
#[derive(Debug, thiserror::Error)]
#[error("results file {path}: {source}")]
pub struct ResultsError {
    path: String,
    #[source]
    source: std::io::Error,
}

impl ResultsFile {
    /// Opens `path` for appending (created if missing).
    pub fn open(path: std::path::PathBuf) -> Result<ResultsFile, ResultsError> {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map(|file| ResultsFile {
                path: path.clone(),
                file,
            })
            .map_err(|source| ResultsError {
                path: path.display().to_string(),
                source,
            })
    }

    /// Writes `record` as one line and syncs it to disk.
    pub fn append(&mut self, record: &GameRecord) -> Result<(), ResultsError> {
        use std::io::Write;
        let err = |source| ResultsError {
            path: self.path.display().to_string(),
            source,
        };
        let mut line = serde_json::to_string(record).map_err(|e| err(std::io::Error::other(e)))?;
        line.push('\n');
        self.file.write_all(line.as_bytes()).map_err(err)?;
        self.file.sync_data().map_err(err)
    }
}

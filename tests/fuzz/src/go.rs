//! Go: SGF loading and saving (`sgf`).

use tablero::go::game::Rules;
use tablero::go::sgf::{load, save};

/// An SGF record after one byte choosing `loadsgf`'s move number (0: the whole main line):
/// the record loads or fails with a message; a loaded game saves and loads back to the same
/// position, side to move, history, setup, komi and scoring.
pub fn sgf(data: &[u8]) {
    let Some((&upto, text)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(text);
    let upto = (upto > 0).then_some(usize::from(upto));
    let game = match load(&text, Rules::default(), upto) {
        Ok(g) => g,
        Err(e) => return assert!(!e.to_string().is_empty()),
    };
    let saved = save(&game);
    let back = match load(&saved, Rules::default(), None) {
        Ok(g) => g,
        Err(e) => panic!("a saved game does not load: {e}\n{saved}"),
    };
    assert_eq!(
        back.board().hash(),
        game.board().hash(),
        "position\n{saved}"
    );
    assert_eq!(back.to_move(), game.to_move(), "side to move\n{saved}");
    assert!(back.history().eq(game.history()), "history\n{saved}");
    assert_eq!(back.setup_stones(), game.setup_stones(), "setup\n{saved}");
    assert_eq!(back.handicap(), game.handicap(), "handicap\n{saved}");
    assert_eq!(
        back.rules().komi.to_bits(),
        game.rules().komi.to_bits(),
        "komi\n{saved}"
    );
    assert_eq!(
        back.rules().scoring,
        game.rules().scoring,
        "scoring\n{saved}"
    );
}

#[cfg(test)]
mod seeds {
    //! Seeds: the SGF records of the GTP transcripts and records with setup and handicap.

    #[test]
    #[ignore = "writes the SGF seeds: cargo test --release -- --ignored write_sgf_seeds"]
    fn write_sgf_seeds() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = root.join("corpus/sgf_load");
        std::fs::create_dir_all(&dir).unwrap();
        let data = root.join("../transcripts/data");
        for name in ["game", "broken"] {
            let mut seed = vec![0u8];
            seed.extend(std::fs::read(data.join(format!("{name}.sgf"))).unwrap());
            std::fs::write(dir.join(name), seed).unwrap();
        }
        let records: [(&str, &[u8]); 3] = [
            (
                "setup",
                b"\0(;GM[1]FF[4]SZ[9]KM[6.5]AB[cc][dd]AW[ee]PL[W];W[ff];B[gg];W[tt])",
            ),
            (
                "handicap",
                b"\x03(;GM[1]FF[4]SZ[13]HA[2]AB[dd][jj]RU[Japanese];W[gg];B[gh])",
            ),
            ("variations", b"\0(;GM[1]SZ[19](;B[pd];W[dp])(;B[dd]))"),
        ];
        for (name, seed) in records {
            std::fs::write(dir.join(name), seed).unwrap();
        }
    }
}

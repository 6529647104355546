//! The configuration loader: a TOML file and `--set` overrides (`load`).

use std::path::Path;

use tablero::config::Config;

/// Most overrides taken from one input.
const MAX_OVERRIDES: usize = 8;

/// A TOML text and `section.key=value` overrides, separated by NUL bytes: the configuration
/// loads or fails with a message; a loaded configuration written as TOML loads back to
/// itself.
pub fn load(data: &[u8]) {
    let parts = crate::split_at(data, 0, MAX_OVERRIDES + 1);
    let Some((file, overrides)) = parts.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(file);
    let overrides: Vec<String> = overrides
        .iter()
        .map(|o| String::from_utf8_lossy(o).into_owned())
        .collect();
    let path = Path::new("fuzz.toml");
    let config = match Config::from_text(Some((path, &text)), &overrides) {
        Ok(c) => c,
        Err(e) => return assert!(!e.to_string().is_empty()),
    };
    let written = match toml::to_string(&config) {
        Ok(t) => t,
        Err(e) => panic!("a loaded configuration does not write as TOML: {e}"),
    };
    match Config::from_text(Some((path, &written)), &[]) {
        Ok(back) => assert_eq!(back, config, "written:\n{written}"),
        Err(e) => panic!("a written configuration does not load: {e}\n{written}"),
    }
}

#[cfg(test)]
mod seeds {
    //! Seeds: the configurations tablero ships, with and without overrides.

    #[test]
    #[ignore = "writes the configuration seeds: cargo test --release -- --ignored write_config_seeds"]
    fn write_config_seeds() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = root.join("corpus/config_load");
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["tablero", "thesis"] {
            let text = std::fs::read(root.join(format!("../../configs/{name}.toml"))).unwrap();
            std::fs::write(dir.join(name), &text).unwrap();
            let mut set = text;
            set.extend_from_slice(b"\0search.uct_c=0.9\0server.max_connections=4\0log.level=debug");
            std::fs::write(dir.join(format!("{name}-set")), set).unwrap();
        }
    }
}

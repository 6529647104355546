//! The layering of ARCHITECTURE.md, checked: the game cores (`go`, `diplomacy`, `gvgai`) import
//! nothing of tablero above them but `budget`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Cores and the crate modules each may import besides itself.
const CORES: &[(&str, &[&str])] = &[
    ("go", &["budget"]),
    ("diplomacy", &["budget"]),
    ("gvgai", &["budget"]),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The crate modules a file names as `crate::MODULE` (outside comments).
fn crate_modules(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let after = &rest[i + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.insert(name);
            }
            rest = after;
        }
    }
    found
}

#[test]
fn game_cores_import_nothing_above_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut upward = BTreeSet::new();
    for (core, allowed) in CORES {
        let mut files = Vec::new();
        rust_files(&src.join(core), &mut files);
        assert!(!files.is_empty(), "no files under src/{core}");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let rel = file
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            for module in crate_modules(&text) {
                if module != *core && !allowed.contains(&module.as_str()) {
                    upward.insert((rel.clone(), module));
                }
            }
        }
    }
    assert!(upward.is_empty(), "imports that point up: {upward:?}");
}

#[test]
fn the_scanner_sees_imports_and_skips_comments() {
    let text = "use crate::config::X;\n// crate::evolve in a comment\nlet a = crate::budget::B; \
                crate::go::Y";
    let found = crate_modules(text);
    assert_eq!(
        found.into_iter().collect::<Vec<_>>(),
        vec!["budget", "config", "go"]
    );
}

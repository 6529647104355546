//! The layering of ARCHITECTURE.md, checked: the game cores (`go`, `diplomacy`, `gvgai`) import
//! nothing of tablero above them but `budget`; no function outside tests is longer than
//! [`MAX_FUNCTION_LINES`]; and no file holds more than [`MAX_FILE_CODE_LINES`] lines before
//! its test module.

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

/// The longest a function outside tests may be, in lines from its signature to its closing
/// brace.
const MAX_FUNCTION_LINES: usize = 100;

/// The functions of a rustfmt-formatted file longer than `max` lines, as (name, first line,
/// length), outside `#[cfg(test)]` modules. A body ends at the first line that is the
/// signature's indentation followed by `}`; a signature that closes its body on the same line
/// (as inside `macro_rules!` tables) is one line long.
fn long_functions(text: &str, max: usize) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let end = code_lines(&lines);
    let mut found = Vec::new();
    for (i, line) in lines[..end].iter().enumerate() {
        let trimmed = line.trim_start();
        let Some(name) = fn_name(trimmed) else {
            continue;
        };
        if trimmed.ends_with(';') || (trimmed.contains('{') && trimmed.ends_with('}')) {
            continue;
        }
        let close = format!("{}}}", &line[..line.len() - trimmed.len()]);
        let len = lines[i + 1..end]
            .iter()
            .position(|l| *l == close)
            .map_or(0, |k| k + 2);
        if len > max {
            found.push((name, i + 1, len));
        }
    }
    found
}

/// The number of lines before a file's `#[cfg(test)]` test module (all of them if it has
/// none): the first `#[cfg(test)]` line whose next line that is not an attribute declares a
/// module, inline or in its own file.
fn code_lines(lines: &[&str]) -> usize {
    let declares_module = |rest: &[&str]| {
        rest.iter()
            .map(|l| l.trim_start())
            .find(|l| !l.starts_with("#["))
            .is_some_and(|l| {
                let l = ["pub(crate) ", "pub(super) ", "pub "]
                    .iter()
                    .fold(l, |l, p| l.strip_prefix(p).unwrap_or(l));
                l.starts_with("mod ")
            })
    };
    (0..lines.len())
        .find(|&i| lines[i].trim() == "#[cfg(test)]" && declares_module(&lines[i + 1..]))
        .unwrap_or(lines.len())
}

/// Whether a file under `src/` holds only tests (`tests.rs`, `*_tests.rs`).
fn is_test_file(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n == "tests.rs" || n.to_string_lossy().ends_with("_tests.rs"))
}

/// The name of the function a trimmed line declares, if it does.
fn fn_name(trimmed: &str) -> Option<String> {
    let mut rest = trimmed;
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "async ",
        "unsafe ",
    ] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    let after = rest.strip_prefix("fn ")?;
    let name: String = after
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Every file under `src/` that is not a test file, with its text.
fn source_files() -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    files
        .into_iter()
        .filter(|f| !is_test_file(f))
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            (f, text)
        })
        .collect()
}

#[test]
fn no_function_outside_tests_is_longer_than_the_limit() {
    let mut long = Vec::new();
    for (f, text) in source_files() {
        for (name, line, len) in long_functions(&text, MAX_FUNCTION_LINES) {
            long.push(format!("{}:{line} {name} ({len} lines)", f.display()));
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_length_scanner_measures_bodies_and_skips_one_liners_and_tests() {
    let body: String = (0..160).map(|i| format!("    let x{i} = {i};\n")).collect();
    let text = format!(
        "pub fn long(\n    a: u8,\n) {{\n{body}}}\n\nfn short() {{ 1 }}\nfn decl();\n\n#[cfg(test)]\nmod tests {{\n    fn long_test() {{\n{body}    }}\n}}\n"
    );
    assert_eq!(long_functions(&text, 150), [("long".to_string(), 1, 164)]);
    assert!(long_functions(&text, 200).is_empty());
}

/// The most lines a file under `src/` may hold before its test module: a longer file holds
/// more than one concept and is cut along its seams into a folder of named files.
const MAX_FILE_CODE_LINES: usize = 1000;

#[test]
fn no_file_holds_more_than_the_limit_of_code_before_its_tests() {
    let long: Vec<String> = source_files()
        .into_iter()
        .filter_map(|(f, text)| {
            let n = code_lines(&text.lines().collect::<Vec<_>>());
            (n > MAX_FILE_CODE_LINES)
                .then(|| format!("{} ({n} lines before its tests)", f.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_FILE_CODE_LINES} lines of code:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_file_scanner_stops_at_the_test_module_only() {
    let lines = [
        "fn a() {}",
        "#[cfg(test)]",
        "pub(crate) fn helper() {}",
        "",
        "#[cfg(test)]",
        "#[path = \"x_tests.rs\"]",
        "pub(crate) mod tests;",
        "fn after() {}",
    ];
    assert_eq!(code_lines(&lines), 4);
    assert_eq!(code_lines(&lines[..3]), 3);
    assert_eq!(code_lines(&["#[cfg(test)]", "mod tests {", "}"]), 0);
}

//! Tests of loading, overrides, validation and the shipped example `configs/tablero.toml`.

#[test]
fn a_log_level_that_is_not_ascii_is_an_error_not_a_panic() {
    // A multi-byte character before `[` in a directive after `, ` makes tracing-subscriber's
    // filter parser slice inside the character and panic.
    for level in ["e, 3\u{fffd}[", "info, tablero\u{e9}[span]"] {
        let e = super::Config::from_text(None, &[format!("log.level={level}")]).unwrap_err();
        assert!(e.to_string().contains("not ASCII"), "{e}");
    }
}

use super::*;
use crate::go::game::{KoRule, Scoring};
use crate::go::search::SearchParams;
use crate::go::search::playout::PlayoutPolicy;
use std::io::Write;

fn set(items: &[&str]) -> Result<Config, ConfigError> {
    let items: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    Config::load(None, &items)
}

fn file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

fn load_text(text: &str) -> Result<Config, ConfigError> {
    let f = file(text);
    Config::load(Some(f.path()), &[])
}

fn invalid_key(r: Result<Config, ConfigError>) -> String {
    match r {
        Err(ConfigError::Invalid { key, .. }) => key,
        other => panic!("expected Invalid, got {other:?}"),
    }
}

fn shipped_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/tablero.toml")
}

#[test]
fn no_file_no_overrides_is_default() {
    assert_eq!(set(&[]).unwrap(), Config::default());
    Config::default().validate().unwrap();
}

#[test]
fn shipped_file_equals_defaults() {
    let config = Config::load(Some(&shipped_path()), &[]).unwrap();
    assert_eq!(config, Config::default());
}

fn leaves(table: &Table, prefix: &str, out: &mut Vec<String>) {
    for (k, v) in table {
        match v {
            Value::Table(t) => leaves(t, &join_key(prefix, k), out),
            _ => out.push(join_key(prefix, k)),
        }
    }
}

#[test]
fn shipped_file_names_every_key_with_a_comment() {
    let text = std::fs::read_to_string(shipped_path()).unwrap();
    let file: Table = text.parse().unwrap();
    let mut want = Vec::new();
    leaves(&schema().unwrap(), "", &mut want);
    let mut have = Vec::new();
    leaves(&file, "", &mut have);
    want.sort();
    have.sort();
    assert_eq!(
        want, have,
        "configs/tablero.toml must set exactly every key"
    );
    // Every `key = value` line follows a comment line.
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    for (i, line) in lines.iter().enumerate() {
        if line.contains('=') && !line.starts_with('#') {
            assert!(
                i > 0 && lines[i - 1].starts_with('#'),
                "undocumented key line: {line}"
            );
        }
    }
}

#[test]
fn overrides_parse_scalars() {
    let c = set(&[
        "go.boardsize=9",
        "go.komi=6.5",
        "go.scoring=japanese",
        "go.ko=simple",
        "search.uct_c=1",
        "search.reuse_tree=false",
        "search.seed=42",
        "gtp.name=\"my bot\"",
        "log.level=tablero=debug",
        "search.playout_policy=random",
    ])
    .unwrap();
    assert_eq!(c.go.boardsize, 9);
    assert_eq!(c.go.komi, 6.5);
    assert_eq!(c.go.scoring, Scoring::Territory);
    assert_eq!(c.go.ko, KoRule::Simple);
    assert_eq!(c.search.uct_c, 1.0);
    assert!(!c.search.reuse_tree);
    assert_eq!(c.search.seed, 42);
    assert_eq!(c.gtp.name, "my bot");
    assert_eq!(c.log.level, "tablero=debug");
    assert_eq!(c.search.playout_policy, PlayoutPolicy::Random);
}

#[test]
fn string_keys_take_numbers_as_text() {
    assert_eq!(set(&["gtp.name=42"]).unwrap().gtp.name, "42");
}

#[test]
fn overrides_apply_after_file_in_order() {
    let f = file("[go]\nboardsize = 13\nkomi = 0\n");
    let c = Config::load(
        Some(f.path()),
        &["go.boardsize=9".into(), "go.boardsize=7".into()],
    )
    .unwrap();
    assert_eq!(c.go.boardsize, 7);
    assert_eq!(c.go.komi, 0.0, "integer accepted for a float key");
    assert_eq!(c.search, SearchConfig::default());
}

#[test]
fn unknown_override_key_is_named() {
    let e = set(&["search.uct=1"]).unwrap_err();
    assert_eq!(e.to_string(), "unknown config key \"search.uct\"");
    assert!(matches!(set(&["serch.uct_c=1"]), Err(ConfigError::UnknownKey(k)) if k == "serch"));
    assert!(matches!(set(&["go.komi.x=1"]), Err(ConfigError::UnknownKey(k)) if k == "go.komi.x"));
    assert!(matches!(set(&["go=1"]), Err(ConfigError::WrongType { .. })));
}

#[test]
fn unknown_file_key_is_named() {
    let e = load_text("[search]\nuct = 1.0\n").unwrap_err();
    assert_eq!(e.to_string(), "unknown config key \"search.uct\"");
    assert!(matches!(load_text("[serch]\n"), Err(ConfigError::UnknownKey(k)) if k == "serch"));
    assert!(matches!(load_text("top = 1\n"), Err(ConfigError::UnknownKey(k)) if k == "top"));
}

#[test]
fn malformed_override_rejected() {
    for bad in [
        "go.boardsize",
        "=9",
        ".boardsize=9",
        "go..boardsize=9",
        "go.=9",
    ] {
        assert!(
            matches!(set(&[bad]), Err(ConfigError::OverrideSyntax(_))),
            "{bad}"
        );
    }
}

#[test]
fn wrong_types_rejected() {
    let e = set(&["go.boardsize=big"]).unwrap_err();
    assert!(
        matches!(&e, ConfigError::WrongType { key, .. } if key == "go.boardsize"),
        "{e}"
    );
    assert!(e.to_string().contains("go.boardsize"));
    assert!(matches!(
        set(&["go.boardsize=-3"]),
        Err(ConfigError::WrongType { .. })
    ));
    assert!(matches!(
        set(&["search.reuse_tree=1"]),
        Err(ConfigError::WrongType { .. })
    ));
    assert!(matches!(
        set(&["go.komi=lots"]),
        Err(ConfigError::WrongType { .. })
    ));
    assert!(
        matches!(load_text("go = 3\n"), Err(ConfigError::WrongType { key, .. }) if key == "go")
    );
    assert!(matches!(
        load_text("[go]\nboardsize = \"9\"\n"),
        Err(ConfigError::WrongType { .. })
    ));
    assert!(matches!(
        load_text("[go]\nboardsize = [9]\n"),
        Err(ConfigError::WrongType { .. })
    ));
    assert!(matches!(
        load_text("[go.boardsize]\n"),
        Err(ConfigError::WrongType { .. })
    ));
}

#[test]
fn bad_enum_value_names_key() {
    let e = set(&["go.scoring=korean"]).unwrap_err();
    assert_eq!(invalid_key(Err(e)), "go.scoring");
    assert_eq!(invalid_key(load_text("[go]\nko = \"superko\"\n")), "go.ko");
    assert_eq!(
        invalid_key(set(&["search.expand_threshold=99999999999"])),
        "search.expand_threshold"
    );
}

#[test]
fn missing_and_unparsable_files() {
    let missing = Config::load(Some(Path::new("/nonexistent/tablero.toml")), &[]);
    assert!(matches!(missing, Err(ConfigError::Read { .. })));
    let e = load_text("[go]\nboardsize = 9\nkomi = = 1\n").unwrap_err();
    assert!(matches!(e, ConfigError::Syntax { .. }), "{e}");
    assert!(e.to_string().contains("line 3, column"), "{e}");
    assert!(!e.to_string().contains('\n'), "one line: {e}");
}

#[test]
fn every_range_is_checked() {
    let cases: &[(&str, &str)] = &[
        ("log.level=tablero=loud", "log.level"),
        ("server.gtp_listen=localhost", "server.gtp_listen"),
        ("server.gtp_listen=127.0.0.1:99999", "server.gtp_listen"),
        ("server.max_connections=0", "server.max_connections"),
        ("server.shutdown_grace=-1", "server.shutdown_grace"),
        ("gtp.max_line_length=0", "gtp.max_line_length"),
        ("gtp.name= ", "gtp.name"),
        ("go.boardsize=1", "go.boardsize"),
        ("go.boardsize=26", "go.boardsize"),
        ("go.komi=nan", "go.komi"),
        ("go.komi=inf", "go.komi"),
        ("search.uct_c=-0.1", "search.uct_c"),
        ("search.uct_c=inf", "search.uct_c"),
        ("search.expand_threshold=0", "search.expand_threshold"),
        ("search.time_per_move=0", "search.time_per_move"),
        ("search.threads=100000", "search.threads"),
        ("search.resign_threshold=1", "search.resign_threshold"),
        ("search.resign_threshold=-0.5", "search.resign_threshold"),
        ("search.max_tree_memory_mb=0", "search.max_tree_memory_mb"),
        ("search.lag_buffer=-1", "search.lag_buffer"),
        ("search.time_extension=0.5", "search.time_extension"),
        ("search.playout_policy=superheavy", "search.playout_policy"),
        (
            "search.prior_mm_table=/no/such/table.txt",
            "search.prior_mm_table",
        ),
    ];
    for (item, key) in cases {
        assert_eq!(invalid_key(set(&[item])), *key, "{item}");
    }
    // The edges that are allowed.
    for ok in [
        "go.boardsize=2",
        "go.boardsize=25",
        "go.komi=-3.5",
        "search.uct_c=0",
        "search.resign_threshold=0",
        "search.resign_threshold=0.99",
        "search.threads=0",
        "server.gtp_listen=[::1]:0",
        "server.shutdown_grace=0",
    ] {
        set(&[ok]).unwrap_or_else(|e| panic!("{ok}: {e}"));
    }
}

#[test]
fn a_gamma_table_file_is_read_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.txt");
    std::fs::write(&good, "# t\ncapture 1 2.5\n").unwrap();
    let c = set(&[&format!("search.prior_mm_table={}", good.display())]).unwrap();
    let table = c.search.params().mm_table.unwrap();
    assert_eq!(table.len(), 1);
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "capture 1 2.5\ncapture one 2\n").unwrap();
    let e = set(&[&format!("search.prior_mm_table={}", bad.display())]).unwrap_err();
    assert!(e.to_string().contains("line 2"), "{e}");
    assert_eq!(SearchConfig::default().params().mm_table, None);
}

#[test]
fn diplomacy_bots_are_read_and_checked() {
    let c = load_text(
        "[[diplomacy.bots]]\nserver = \"127.0.0.1:16713\"\nbot = \"dumbbot\"\nname = \"d1\"\npower = \"TUR\"\n",
    )
    .unwrap();
    assert_eq!(c.diplomacy.bots.len(), 1);
    assert_eq!(c.diplomacy.bots[0].power.as_deref(), Some("TUR"));
    let bad = "[[diplomacy.bots]]\nserver = \"x:1\"\nbot = \"albert\"\nname = \"a\"\n";
    assert!(invalid_key(load_text(bad)).starts_with("diplomacy.bots"));
    let typo = "[[diplomacy.bots]]\nserver = \"x:1\"\nbot = \"dumbbot\"\nname = \"a\"\npwr = 1\n";
    assert!(load_text(typo).is_err());
    assert_eq!(
        invalid_key(set(&["diplomacy.reconnect_max=0"])),
        "diplomacy.reconnect_max"
    );
}

#[test]
fn diplomacy_server_section_is_read_and_checked() {
    let d = set(&[]).unwrap().diplomacy.server;
    assert!(!d.enabled, "off by default");
    assert_eq!(d.listen_addr().unwrap().to_string(), "127.0.0.1:16713");
    assert_eq!(d.max_connections, 64);
    assert_eq!(
        (
            d.deadline_secs(),
            d.last_year(),
            d.game_limit(),
            d.results_path()
        ),
        (None, None, None, None)
    );
    let c = load_text(
        "[diplomacy]\nseed = 3\n[diplomacy.server]\nenabled = true\nlisten = \"127.0.0.1:0\"\n\
         deadline = 10\nend_year = 1905\nmax_games = 2\nresults = \"games.jsonl\"\n",
    )
    .unwrap();
    let d = &c.diplomacy.server;
    assert!(d.enabled);
    assert_eq!(c.diplomacy.seed, 3);
    assert_eq!(d.listen_addr().unwrap().port(), 0);
    assert_eq!(d.deadline_secs(), Some(10));
    assert_eq!(d.last_year(), Some(1905));
    assert_eq!(d.game_limit(), Some(2));
    assert_eq!(d.results_path(), Some(PathBuf::from("games.jsonl")));
    let over = set(&["diplomacy.server.enabled=true", "diplomacy.server.seed=9"]).unwrap();
    assert!(over.diplomacy.server.enabled);
    assert_eq!(over.diplomacy.server.seed, 9);
    for (item, key) in [
        (
            "diplomacy.server.listen=localhost",
            "diplomacy.server.listen",
        ),
        (
            "diplomacy.server.max_connections=0",
            "diplomacy.server.max_connections",
        ),
        (
            "diplomacy.server.max_connections=100001",
            "diplomacy.server.max_connections",
        ),
        (
            "diplomacy.server.deadline=65536",
            "diplomacy.server.deadline",
        ),
        (
            "diplomacy.server.end_year=1900",
            "diplomacy.server.end_year",
        ),
        (
            "diplomacy.server.end_year=3001",
            "diplomacy.server.end_year",
        ),
    ] {
        assert_eq!(invalid_key(set(&[item])), key, "{item}");
    }
    for ok in [
        "diplomacy.server.deadline=65535",
        "diplomacy.server.end_year=1901",
        "diplomacy.server.listen=[::1]:0",
    ] {
        set(&[ok]).unwrap_or_else(|e| panic!("{ok}: {e}"));
    }
    match set(&["diplomacy.server.deadline=-1"]) {
        Err(ConfigError::WrongType { key, .. }) => assert_eq!(key, "diplomacy.server.deadline"),
        other => panic!("expected a type error, got {other:?}"),
    }
    match set(&["diplomacy.server.port=1"]) {
        Err(ConfigError::UnknownKey(key)) => assert_eq!(key, "diplomacy.server.port"),
        other => panic!("expected an unknown key, got {other:?}"),
    }
}

#[test]
fn jic_section_is_read_overridden_and_checked() {
    use crate::bots::jic::{JicConfig, JicMode};
    let d = set(&[]).unwrap().jic;
    assert_eq!(d, JicConfig::default());
    assert_eq!(d.mode, JicMode::Strong);
    assert_eq!(d.full_search_max_units, 7);
    assert_eq!(d.partition_max_units, 8);
    assert_eq!(d.support_gain_cap, 500);
    assert_eq!(d.deadlock_change_fraction, 0.3);
    assert_eq!(d.max_no_plan, 2);
    assert_eq!(d.budget_fraction, 0.1);
    let c = set(&[
        "jic.mode=thesis",
        "jic.max_evaluations=4000",
        "jic.max_search_nodes=20000",
        "jic.budget_fraction=1",
    ])
    .unwrap();
    assert_eq!(c.jic.mode, JicMode::Thesis);
    assert_eq!(c.jic.max_evaluations, 4000);
    assert_eq!(c.jic.max_search_nodes, 20000);
    assert_eq!(c.jic.budget_fraction, 1.0);
    let f = load_text("[jic]\nmode = \"thesis\"\npartition_max_units = 4\n").unwrap();
    assert_eq!(f.jic.mode, JicMode::Thesis);
    assert_eq!(f.jic.partition_max_units, 4);
    assert_eq!(invalid_key(set(&["jic.mode=best"])), "jic.mode");
    assert_eq!(
        invalid_key(set(&["jic.deadlock_change_fraction=1.5"])),
        "jic.deadlock_change_fraction"
    );
    assert_eq!(
        invalid_key(set(&["jic.partition_max_units=0"])),
        "jic.partition_max_units"
    );
    assert_eq!(
        invalid_key(set(&["jic.max_think_seconds=-1"])),
        "jic.max_think_seconds"
    );
    assert!(matches!(
        set(&["jic.full_search=7"]),
        Err(ConfigError::UnknownKey(_))
    ));
    assert!(matches!(
        set(&["jic.support_gain_cap=-5"]),
        Err(ConfigError::WrongType { .. })
    ));
}

#[test]
fn listen_address_and_grace_helpers() {
    let c = set(&["server.gtp_listen=0.0.0.0:0", "server.shutdown_grace=1.5"]).unwrap();
    assert_eq!(c.server.gtp_listen_addr().unwrap().port(), 0);
    assert_eq!(
        c.server.shutdown_grace_duration(),
        std::time::Duration::from_millis(1500)
    );
}

/// `configs/thesis.toml` reaches the thesis's search exactly.
#[test]
fn thesis_config_file_is_the_thesis_search() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/thesis.toml");
    let config = Config::load(Some(&path), &[]).expect("thesis.toml loads");
    let params = config.search.params();
    assert_eq!(
        SearchParams {
            max_nodes: SearchParams::thesis().max_nodes,
            ..params
        },
        SearchParams::thesis()
    );
    let rules = config.go.rules();
    assert_eq!(rules.ko, KoRule::Simple);
    assert_eq!(rules.scoring, Scoring::Territory);
}

/// The search's own defaults are the configuration's.
#[test]
fn default_search_section_is_the_default_search() {
    assert_eq!(SearchConfig::default().params(), SearchParams::default());
    assert_eq!(GoConfig::default().rules().scoring, Scoring::Area);
}

/// A kept `config_load` fuzz input: the configuration text, then the `--set` overrides,
/// separated by NUL bytes (as `tablero_fuzz::config::load` reads them).
fn fuzz_input(name: &str) -> (String, Vec<String>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz/corpus/config_load")
        .join(name);
    let input = std::fs::read(path).unwrap();
    let mut parts = input
        .split(|&b| b == 0)
        .map(|p| String::from_utf8_lossy(p).into_owned());
    let text = parts.next().unwrap();
    let overrides: Vec<String> = parts.collect();
    (text, overrides)
}

/// A span directive's field value is a literal, not a regular expression: a value that is no
/// valid expression loads, and the filter a fuzzer found (a few hundred bytes whose expression
/// took over a second to compile) loads at once.
#[test]
fn log_filter_field_values_are_literals() {
    let c =
        super::Config::from_text(None, &["log.level=[span{field=(}]=debug".to_string()]).unwrap();
    assert_eq!(c.log.level, "[span{field=(}]=debug");
    let (text, overrides) = fuzz_input("regex-filter-a242a245");
    assert!(
        overrides
            .iter()
            .any(|o| o.starts_with("log.level=") && o.contains('{'))
    );
    let start = std::time::Instant::now();
    let _ = super::Config::from_text(Some((std::path::Path::new("fuzz.toml"), &text)), &overrides);
    let took = start.elapsed();
    assert!(
        took < std::time::Duration::from_millis(200),
        "took {took:?}"
    );
}

/// Two directives that select the same span field and differ only in level: the last one
/// holds (as in tracing-subscriber), and loading them does not trip the filter's debug
/// assertion (found by fuzzing: `corpus/config_load/duplicate-field-directive-92ec26a8`).
#[test]
fn log_filter_directives_differing_only_in_level_keep_the_last() {
    for spec in ["[{e= ]}]=info,[{e= ]}]=debug", "ho\n[{e= ]}],ho\n[{e= ]}]"] {
        let filter = super::log_filter(spec).unwrap();
        assert_eq!(filter.to_string().matches('[').count(), 1, "{filter}");
    }
    let filter = super::log_filter("[{e= ]}]=info,tablero=warn,[{e= ]}]=debug").unwrap();
    let text = filter.to_string();
    assert!(
        text.contains("[{e= ]}]=debug") && !text.contains("=info"),
        "{text}"
    );
    assert!(text.contains("tablero=warn"), "{text}");
    let (text, overrides) = fuzz_input("duplicate-field-directive-92ec26a8");
    let _ = super::Config::from_text(Some((std::path::Path::new("fuzz.toml"), &text)), &overrides);
}

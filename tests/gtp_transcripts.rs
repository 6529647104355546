//! GTP session transcripts: each `tests/transcripts/*.gtp` file is fed, all at once (pipelined),
//! to `run_session` over an in-memory pipe, and the whole output must equal the expected text.
//!
//! Transcript format: a line `> text` is input (escapes `\t`, `\r`, `\\`, `\xNN` allowed);
//! a line starting `;;` is a note; every other line is expected output, verbatim (so responses'
//! empty lines are written as empty lines). In an expected line `{any}` matches any text.
//! Set `TABLERO_BLESS=1` to print the actual output of each transcript.
//!
//! Timing-dependent behaviour (interrupt, quit during genmove) is tested below in Rust.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::time::{Duration, Instant};

use tablero::budget::Budget;
use tablero::config::{Config, GtpConfig};
use tablero::go::game::Game;
use tablero::go::{Color, Move, Vertex};
use tablero::gtp::{COMMAND_NAMES, Decision, GoEngine, GoPlayer, RandomPlayer, run_session};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio_util::sync::CancellationToken;

fn config() -> Config {
    let mut c = Config::default();
    c.go.boardsize = 19;
    c.search.time_per_move = 0.2;
    c
}

fn engine(player: Box<dyn GoPlayer>) -> Box<GoEngine> {
    Box::new(GoEngine::new(&config(), player).expect("engine"))
}

/// Runs a whole session over `input` and returns everything it wrote.
async fn run_all(input: Vec<u8>, player: Box<dyn GoPlayer>, limits: GtpConfig) -> String {
    let (mut client_in, server_in) = tokio::io::duplex(1 << 20);
    let (server_out, mut client_out) = tokio::io::duplex(1 << 20);
    let session = tokio::spawn(async move {
        run_session(
            server_in,
            server_out,
            engine(player),
            &limits,
            CancellationToken::new(),
        )
        .await
    });
    let writer = tokio::spawn(async move {
        // The session may end (quit) before all input is consumed.
        let _ = client_in.write_all(&input).await;
        let _ = client_in.shutdown().await;
    });
    let mut out = Vec::new();
    client_out.read_to_end(&mut out).await.expect("read output");
    session.await.expect("join").expect("session");
    writer.await.expect("join writer");
    String::from_utf8(out).expect("GTP output is UTF-8")
}

fn unescape(line: &str) -> Vec<u8> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && i + 1 < bytes.len() {
            match bytes[i + 1] {
                b't' => out.push(b'\t'),
                b'r' => out.push(b'\r'),
                b'\\' => out.push(b'\\'),
                b'x' if i + 3 < bytes.len() => {
                    let hex = std::str::from_utf8(&bytes[i + 2..i + 4]).expect("hex");
                    out.push(u8::from_str_radix(hex, 16).expect("hex escape"));
                    i += 2;
                }
                other => panic!("unknown escape \\{}", other as char),
            }
            i += 2;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

fn line_matches(expected: &str, actual: &str) -> bool {
    match expected.split_once("{any}") {
        None => expected == actual,
        Some((pre, post)) => {
            actual.len() >= pre.len() + post.len()
                && actual.starts_with(pre)
                && actual.ends_with(post)
        }
    }
}

async fn check_transcript(path: &Path) {
    let text = std::fs::read_to_string(path).expect("transcript");
    let mut input = Vec::new();
    let mut expected = Vec::new();
    for line in text.lines() {
        if let Some(cmd) = line.strip_prefix("> ") {
            input.extend(unescape(cmd));
            input.push(b'\n');
        } else if line == ">" {
            input.push(b'\n');
        } else if !line.starts_with(";;") {
            expected.push(line.to_string());
        }
    }
    let actual = run_all(input, Box::new(RandomPlayer::new(7)), GtpConfig::default()).await;
    if std::env::var_os("TABLERO_BLESS").is_some() {
        println!("==== {}\n{actual}====", path.display());
    }
    assert!(
        actual.ends_with("\n\n") || actual.is_empty(),
        "{}: output does not end with an empty line",
        path.display()
    );
    let actual_lines: Vec<&str> = actual.lines().collect();
    // Trailing empty lines of the file are not significant beyond the final one.
    while expected.len() > actual_lines.len() && expected.last().is_some_and(String::is_empty) {
        expected.pop();
    }
    for (i, (e, a)) in expected.iter().zip(&actual_lines).enumerate() {
        assert!(
            line_matches(e, a),
            "{}: output line {} differs\nexpected: {e:?}\nactual:   {a:?}\nwhole output:\n{actual}",
            path.display(),
            i + 1
        );
    }
    assert_eq!(
        expected.len(),
        actual_lines.len(),
        "{}: line count differs; whole output:\n{actual}",
        path.display()
    );
}

#[tokio::test]
async fn transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("transcripts dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "gtp"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "transcripts missing: {files:?}");
    for f in files {
        check_transcript(&f).await;
    }
}

/// A player that thinks until its budget runs out or it is cancelled, then passes.
struct SlowPlayer;

impl GoPlayer for SlowPlayer {
    fn genmove(&mut self, _game: &Game, _color: Color, budget: &Budget) -> Decision {
        while !budget.expired() {
            std::thread::sleep(Duration::from_millis(1));
        }
        Decision::Play(Move::Pass)
    }
    fn dead_stones(&mut self, _game: &Game, _budget: &Budget) -> Vec<Vertex> {
        Vec::new()
    }
}

struct Live {
    input: tokio::io::DuplexStream,
    output: BufReader<tokio::io::DuplexStream>,
    session: tokio::task::JoinHandle<()>,
}

fn live(player: Box<dyn GoPlayer>, mut config: Config) -> Live {
    let (input, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, output) = tokio::io::duplex(1 << 16);
    let session = tokio::spawn(async move {
        // Long thinking time: only cancellation ends a genmove quickly.
        config.search.time_per_move = 30.0;
        let engine = Box::new(GoEngine::new(&config, player).expect("engine"));
        run_session(
            server_in,
            server_out,
            engine,
            &config.gtp,
            CancellationToken::new(),
        )
        .await
        .expect("session");
    });
    Live {
        input,
        output: BufReader::new(output),
        session,
    }
}

async fn response(r: &mut BufReader<tokio::io::DuplexStream>) -> String {
    let mut text = String::new();
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).await.expect("read") == 0 {
            return text;
        }
        text.push_str(&line);
        if line == "\n" {
            return text;
        }
    }
}

#[tokio::test]
async fn gogui_interrupt_stops_genmove_within_100ms() {
    let mut s = live(Box::new(SlowPlayer), config());
    s.input
        .write_all(b"1 gogui-interrupt\n2 genmove b\n")
        .await
        .expect("write");
    assert_eq!(response(&mut s.output).await, "=1\n\n");
    tokio::time::sleep(Duration::from_millis(100)).await;
    let t = Instant::now();
    s.input.write_all(b"# interrupt\n").await.expect("write");
    assert_eq!(response(&mut s.output).await, "=2 pass\n\n");
    let elapsed = t.elapsed();
    assert!(elapsed < Duration::from_millis(100), "took {elapsed:?}");
    // The move was played and the engine is still usable.
    s.input
        .write_all(b"3 showboard\n4 quit\n")
        .await
        .expect("write");
    assert!(response(&mut s.output).await.contains("1 moves"));
    assert_eq!(response(&mut s.output).await, "=4\n\n");
    s.session.await.expect("session");
}

#[tokio::test]
async fn quit_during_genmove_answers_both_and_ends() {
    let mut s = live(Box::new(SlowPlayer), config());
    s.input.write_all(b"genmove w\n").await.expect("write");
    tokio::time::sleep(Duration::from_millis(50)).await;
    let t = Instant::now();
    s.input.write_all(b"7 quit\n").await.expect("write");
    assert_eq!(response(&mut s.output).await, "= pass\n\n");
    assert_eq!(response(&mut s.output).await, "=7\n\n");
    assert!(
        t.elapsed() < Duration::from_millis(100),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(response(&mut s.output).await, "");
    s.session.await.expect("session");
}

#[tokio::test]
async fn commands_pipelined_behind_a_genmove_do_not_stop_it() {
    let mut s = live(Box::new(SlowPlayer), config());
    s.input
        .write_all(b"1 genmove b\n2 name\n3 play w c3\n")
        .await
        .expect("write");
    // New commands queue behind a genmove instead of stopping it (only analysis stops on input).
    let waiting = tokio::time::timeout(Duration::from_millis(300), response(&mut s.output)).await;
    assert!(waiting.is_err(), "genmove answered early: {waiting:?}");
    s.input.write_all(b"# interrupt\n").await.expect("write");
    assert_eq!(response(&mut s.output).await, "=1 pass\n\n");
    assert_eq!(response(&mut s.output).await, "=2 tablero\n\n");
    assert_eq!(response(&mut s.output).await, "=3\n\n");
    drop(s.input);
    assert_eq!(response(&mut s.output).await, "");
    s.session.await.expect("session");
}

#[tokio::test]
async fn genmove_thinks_as_long_as_the_clock_allows() {
    let mut s = live(Box::new(SlowPlayer), config());
    // Absolute time, 3 s left: a small share of it.
    s.input
        .write_all(b"boardsize 9\ntime_settings 60 0 0\ntime_left b 3 0\n")
        .await
        .expect("write");
    for _ in 0..3 {
        assert_eq!(response(&mut s.output).await, "=\n\n");
    }
    let t = Instant::now();
    s.input.write_all(b"genmove b\n").await.expect("write");
    assert_eq!(response(&mut s.output).await, "= pass\n\n");
    let used = t.elapsed();
    assert!(used < Duration::from_millis(600), "{used:?}");
    // Canadian, no main time, 4 stones in 2 s: about a quarter of the period less the lag buffer.
    s.input
        .write_all(b"time_settings 0 2 4\ngenmove w\n")
        .await
        .expect("write");
    assert_eq!(response(&mut s.output).await, "=\n\n");
    let t = Instant::now();
    assert_eq!(response(&mut s.output).await, "= pass\n\n");
    let used = t.elapsed();
    assert!(
        used > Duration::from_millis(150) && used < Duration::from_millis(700),
        "{used:?}"
    );
    drop(s.input);
    s.session.await.expect("session");
}

/// The real engine (MCTS search) plays legal moves, keeps the stream in order and scores.
#[tokio::test]
async fn mcts_engine_plays_and_scores_over_gtp() {
    let mut c = config();
    c.search.playouts = 300;
    c.search.threads = 1;
    c.search.time_per_move = 2.0;
    let engine = Box::new(tablero::gtp::go_engine(&c).expect("engine"));
    let (mut client_in, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, client_out) = tokio::io::duplex(1 << 16);
    let session = tokio::spawn(async move {
        run_session(
            server_in,
            server_out,
            engine,
            &c.gtp,
            CancellationToken::new(),
        )
        .await
    });
    client_in
        .write_all(
            b"1 boardsize 7\n2 komi 0.5\n3 genmove b\n4 genmove w\n5 genmove b\n\
              6 kgs-genmove_cleanup w\n7 final_score\n8 final_status_list dead\n9 quit\n",
        )
        .await
        .expect("write");
    let mut out = BufReader::new(client_out);
    assert_eq!(response(&mut out).await, "=1\n\n");
    assert_eq!(response(&mut out).await, "=2\n\n");
    for id in 3..=6 {
        let r = response(&mut out).await;
        let mv = r
            .strip_prefix(&format!("={id} "))
            .unwrap_or_else(|| panic!("genmove {id}: {r:?}"))
            .trim_end();
        assert!(
            mv == "pass" || mv == "resign" || Vertex::parse(mv, 7).is_ok(),
            "{mv:?}"
        );
    }
    let score = response(&mut out).await;
    assert!(
        score.starts_with("=7 B+") || score.starts_with("=7 W+") || score == "=7 0\n\n",
        "{score:?}"
    );
    assert!(response(&mut out).await.starts_with("=8"));
    assert_eq!(response(&mut out).await, "=9\n\n");
    session.await.expect("join").expect("session");
}

/// `loadsgf` on huge, deeply nested, endless or non-regular files answers an error instead of
/// exhausting memory or the stack, and the engine stays usable.
#[tokio::test]
async fn loadsgf_survives_hostile_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let write = |name: &str, text: String| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        path.display().to_string()
    };
    let long = write("long.sgf", format!("(;SZ[9]{})", ";C[x]".repeat(15_000)));
    let deep = write(
        "deep.sgf",
        format!("(;SZ[9]{}{})", "(;C[x]".repeat(9_000), ")".repeat(9_000)),
    );
    let huge = write("huge.sgf", format!("(;SZ[9]{})", ";C[x]".repeat(50_000)));
    let parens = write("parens.sgf", "(".repeat(100_000));
    let dir_path = dir.path().display().to_string();
    let input = format!(
        "1 loadsgf {long}\n2 loadsgf {deep}\n3 loadsgf {huge}\n4 loadsgf {parens}\n\
         5 loadsgf /dev/zero\n6 loadsgf {dir_path}\n7 name\n"
    );
    let out = run_all(
        input.into_bytes(),
        Box::new(RandomPlayer::new(1)),
        GtpConfig::default(),
    )
    .await;
    let responses: Vec<&str> = out.trim_end().split("\n\n").collect();
    assert_eq!(responses.len(), 7, "{out}");
    assert_eq!(responses[0], "=1 black");
    assert_eq!(responses[1], "=2 black");
    assert!(
        responses[2].starts_with("?3 cannot load"),
        "{}",
        responses[2]
    );
    assert!(
        responses[3].starts_with("?4 cannot load"),
        "{}",
        responses[3]
    );
    assert!(
        responses[4].starts_with("?5 cannot open"),
        "{}",
        responses[4]
    );
    assert!(
        responses[5].starts_with("?6 cannot open"),
        "{}",
        responses[5]
    );
    assert_eq!(responses[6], "=7 tablero");
}

/// A player that judges a fixed list of stones dead and counts how often it is asked.
struct FixedDead(Vec<Vertex>, std::sync::Arc<std::sync::atomic::AtomicUsize>);

impl GoPlayer for FixedDead {
    fn genmove(&mut self, _game: &Game, _color: Color, _budget: &Budget) -> Decision {
        Decision::Play(Move::Pass)
    }
    fn dead_stones(&mut self, _game: &Game, _budget: &Budget) -> Vec<Vertex> {
        self.1.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.0.clone()
    }
}

#[tokio::test]
async fn dead_stones_are_removed_and_agree_between_score_and_status() {
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let dead = vec![Vertex::parse("A3", 5).expect("vertex")];
    let mut input = String::from("boardsize 5\nkomi 0.5\nplay w a3\n");
    for r in 1..=5 {
        input.push_str(&format!("play b c{r}\nplay w d{r}\n"));
    }
    input.push_str(
        "1 final_score\n2 final_status_list dead\n3 final_status_list alive\n\
         4 kgs-rules japanese\n5 final_score\n6 play b pass\n7 final_status_list dead\n",
    );
    let out = run_all(
        input.into_bytes(),
        Box::new(FixedDead(dead, calls.clone())),
        GtpConfig::default(),
    )
    .await;
    let tail = out
        .split_once("=1 ")
        .map(|(_, t)| t)
        .expect("final_score answered");
    assert_eq!(
        tail,
        "B+4.5\n\n=2 A3\n\n=3 C1 C2 C3 C4 C5\nD1 D2 D3 D4 D5\n\n=4\n\n=5 B+5.5\n\n=6\n\n=7 A3\n\n"
    );
    // One estimate for the first position (rules do not change it), one after the pass.
    assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 2);
}

/// A seeded corpus of malformed lines: every line carries a unique id, so every one must get
/// exactly one response with that id, in order, and the engine must stay usable.
#[tokio::test]
async fn malformed_corpus_gets_one_response_per_line() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(2026);
    let names: Vec<&str> = COMMAND_NAMES
        .iter()
        .copied()
        .filter(|n| *n != "quit")
        .collect();
    let tokens = [
        "b",
        "w",
        "white",
        "BLACK",
        "x",
        "pass",
        "resign",
        "A1",
        "T19",
        "Z25",
        "I5",
        "a0",
        "-1",
        "0",
        "1",
        "2",
        "9",
        "19",
        "25",
        "26",
        "1e9",
        "nan",
        "inf",
        "-0.5",
        "7.5",
        "∞",
        "é",
        "",
        "canadian",
        "byoyomi",
        "absolute",
        "none",
        "dead",
        "alive",
        "seki",
        "/dev/null",
        "no/such/file.sgf",
        "99999999999999999999",
    ];
    let limit = 256;
    let mut input = Vec::new();
    let n = 1500u64;
    for id in 0..n {
        input.extend_from_slice(format!("{id} ").as_bytes());
        match rng.gen_range(0..7) {
            // Random bytes (no LF).
            0 => {
                for _ in 0..rng.gen_range(0..40) {
                    let b: u8 = rng.r#gen();
                    input.push(if b == b'\n' { b' ' } else { b });
                }
            }
            // A huge line.
            1 => input.extend(std::iter::repeat_n(b'x', limit + rng.gen_range(1..2000))),
            // Invalid UTF-8 in a command.
            2 => input.extend_from_slice(b"play b \xc3\x28"),
            // Control characters sprinkled into a valid command.
            3 => input.extend_from_slice(b"na\x01m\x7fe\r"),
            // A known command with random arguments.
            _ => {
                input.extend_from_slice(names[rng.gen_range(0..names.len())].as_bytes());
                for _ in 0..rng.gen_range(0..4) {
                    input.push(if rng.gen_bool(0.2) { b'\t' } else { b' ' });
                    input.extend_from_slice(tokens[rng.gen_range(0..tokens.len())].as_bytes());
                }
            }
        }
        input.push(b'\n');
    }
    input.extend_from_slice(b"boardsize 9\nclear_board\nplay b e5\nprotocol_version\nquit\n");
    let limits = GtpConfig {
        max_line_length: limit,
        ..GtpConfig::default()
    };
    let output = run_all(input, Box::new(RandomPlayer::new(1)), limits).await;
    assert!(output.ends_with("\n\n"));
    let responses: Vec<&str> = output.trim_end_matches('\n').split("\n\n").collect();
    assert_eq!(responses.len() as u64, n + 5, "{output}");
    for (id, r) in responses.iter().take(n as usize).enumerate() {
        let ok = r.starts_with(&format!("={id}"));
        let err = r.starts_with(&format!("?{id}"));
        assert!(ok || err, "response {id}: {r:?}");
        let rest = &r[1 + id.to_string().len()..];
        assert!(
            rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\n'),
            "{r:?}"
        );
        assert!(!r.contains("internal error"), "{r:?}");
        assert!(!r.contains('\r'));
    }
    assert_eq!(
        &responses[n as usize..],
        &["=", "=", "=", "= 2", "="],
        "engine not usable after the corpus"
    );
}

/// `protocols/gtp.md` documents exactly the commands `list_commands` lists.
#[tokio::test]
async fn protocol_document_matches_list_commands() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("protocols/gtp.md"))
            .expect("protocols/gtp.md");
    let mut documented: Vec<String> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("### `"))
        .filter_map(|l| l.split('`').next())
        .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
        .collect();
    let listed = run_all(
        b"list_commands\n".to_vec(),
        Box::new(RandomPlayer::new(1)),
        GtpConfig::default(),
    )
    .await;
    let body = listed
        .strip_prefix("= ")
        .expect("list_commands succeeds")
        .trim_end();
    let mut listed: Vec<String> = body.lines().map(str::to_string).collect();
    // `kgs-chat` is documented and answered, but listed only with `gtp.kgs_chat`.
    assert!(
        !listed.iter().any(|c| c == "kgs-chat"),
        "kgs-chat listed by default"
    );
    listed.push("kgs-chat".into());
    documented.sort();
    listed.sort();
    assert_eq!(documented, listed);
    let mut names: Vec<String> = COMMAND_NAMES.iter().map(|s| s.to_string()).collect();
    names.sort();
    assert_eq!(names, listed);
}

//! Analysis over GTP with the real MCTS search, live: `lz-analyze` / `kata-analyze` streaming
//! and stopping (Sabaki's stop-by-`protocol_version`), `genmove_analyze`, GoGui live graphics,
//! and pondering between commands.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tablero::budget::Budget;
use tablero::config::Config;
use tablero::go::game::Game;
use tablero::go::{Color, Move, Vertex};
use tablero::gtp::{Decision, GoEngine, GoPlayer, go_engine, run_session};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio_util::sync::CancellationToken;

fn config() -> Config {
    let mut c = Config::default();
    c.go.boardsize = 9;
    c.search.threads = 1;
    c.search.time_per_move = 0.3;
    c
}

struct Live {
    input: tokio::io::DuplexStream,
    output: BufReader<tokio::io::DuplexStream>,
    session: tokio::task::JoinHandle<()>,
}

fn live(engine: GoEngine, config: &Config) -> Live {
    let (input, server_in) = tokio::io::duplex(1 << 20);
    let (server_out, output) = tokio::io::duplex(1 << 20);
    let limits = config.gtp.clone();
    let session = tokio::spawn(async move {
        run_session(
            server_in,
            server_out,
            Box::new(engine),
            &limits,
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

impl Live {
    async fn send(&mut self, text: &str) {
        self.input.write_all(text.as_bytes()).await.expect("write");
    }
    async fn line(&mut self) -> String {
        let mut line = String::new();
        let n = self.output.read_line(&mut line).await.expect("read");
        assert!(n > 0, "output ended");
        line
    }
    /// One whole response, up to and including its empty line.
    async fn response(&mut self) -> String {
        let mut text = String::new();
        loop {
            let line = self.line().await;
            text.push_str(&line);
            if line == "\n" {
                return text;
            }
        }
    }
    async fn finish(mut self) {
        self.send("quit\n").await;
        assert_eq!(self.response().await, "=\n\n");
        self.session.await.expect("session");
    }
}

/// One `info` block: its (key, value) pairs up to `pv`, and the pv.
type Info = (Vec<(String, String)>, Vec<String>);

/// The `info` blocks of a report line.
fn infos(line: &str) -> Vec<Info> {
    let body = line.split(" ownership ").next().unwrap_or(line);
    let body = body.split(" rootInfo ").next().unwrap_or(body);
    body.split("info ")
        .filter(|s| !s.trim().is_empty())
        .map(|block| {
            let tokens: Vec<&str> = block.split_whitespace().collect();
            let pv_at = tokens.iter().position(|t| *t == "pv").expect("pv");
            let pairs = tokens[..pv_at]
                .chunks(2)
                .map(|c| (c[0].to_string(), c.get(1).unwrap_or(&"").to_string()))
                .collect();
            let pv = tokens[pv_at + 1..].iter().map(|s| s.to_string()).collect();
            (pairs, pv)
        })
        .collect()
}

fn get<'a>(pairs: &'a [(String, String)], key: &str) -> &'a str {
    pairs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no {key} in {pairs:?}"))
}

#[tokio::test]
async fn lz_analyze_streams_reports_and_stops_on_protocol_version() {
    let c = config();
    let mut s = live(go_engine(&c).expect("engine"), &c);
    s.send("1 play b e5\n2 lz-analyze W 5\n").await;
    assert_eq!(s.response().await, "=1\n\n");
    assert_eq!(s.line().await, "=2\n");
    // Several reports, about every 50 ms.
    let start = Instant::now();
    let mut lines = Vec::new();
    while lines.len() < 4 {
        let line = s.line().await;
        assert_ne!(line, "\n", "analysis ended by itself");
        lines.push(line);
    }
    let elapsed = start.elapsed();
    assert!(elapsed >= Duration::from_millis(120), "{elapsed:?}");
    let mut last_total = 0;
    for line in &lines {
        let blocks = infos(line.trim_end());
        assert!(!blocks.is_empty(), "{line}");
        let mut total = 0;
        for (order, (pairs, pv)) in blocks.iter().enumerate() {
            let keys: Vec<&str> = pairs.iter().map(|(k, _)| k.as_str()).collect();
            assert_eq!(keys, ["move", "visits", "winrate", "prior", "lcb", "order"]);
            let mv = get(pairs, "move");
            assert!(Move::parse(mv, 9).is_ok() && mv != "E5", "{line}");
            let winrate: i64 = get(pairs, "winrate").parse().expect("integer winrate");
            assert!((0..=10000).contains(&winrate));
            let lcb: i64 = get(pairs, "lcb").parse().expect("integer lcb");
            assert!(lcb <= winrate);
            assert_eq!(get(pairs, "order"), order.to_string());
            assert_eq!(pv[0], mv);
            total += get(pairs, "visits").parse::<u64>().expect("visits");
        }
        // The same tree grows from report to report.
        assert!(total >= last_total, "{line}");
        last_total = total;
    }
    // Sabaki stops the analysis with any command; the response ends with one empty line
    // and the command is answered right after.
    let t = Instant::now();
    s.send("3 protocol_version\n").await;
    let mut rest = String::new();
    loop {
        let line = s.line().await;
        if line == "\n" {
            break;
        }
        rest.push_str(&line);
    }
    assert!(rest.lines().count() <= 1, "{rest}");
    assert_eq!(s.response().await, "=3 2\n\n");
    assert!(
        t.elapsed() < Duration::from_millis(200),
        "{:?}",
        t.elapsed()
    );
    s.finish().await;
}

#[tokio::test]
async fn kata_analyze_reports_floats_and_ownership_and_stops_on_a_blank_line() {
    let c = config();
    let mut s = live(go_engine(&c).expect("engine"), &c);
    s.send("kata-analyze b interval 5 ownership true maxmoves 3 rootInfo true\n")
        .await;
    assert_eq!(s.line().await, "=\n");
    let line = s.line().await;
    let line = line.trim_end();
    let blocks = infos(line);
    assert!((1..=3).contains(&blocks.len()), "{line}");
    for (pairs, _) in &blocks {
        let w: f64 = get(pairs, "winrate").parse().expect("float");
        assert!((0.0..=1.0).contains(&w) && get(pairs, "winrate").contains('.'));
        let u: f64 = get(pairs, "utility").parse().expect("float");
        assert!((u - (2.0 * w - 1.0)).abs() < 1e-5);
    }
    assert!(line.contains(" rootInfo visits "), "{line}");
    let own: Vec<f64> = line
        .split(" ownership ")
        .nth(1)
        .expect("ownership")
        .split(' ')
        .map(|v| v.parse().expect("float"))
        .collect();
    assert_eq!(own.len(), 81);
    assert!(own.iter().all(|v| (-1.0..=1.0).contains(v)));
    let t = Instant::now();
    s.send("\n").await;
    loop {
        if s.line().await == "\n" {
            break;
        }
    }
    assert!(
        t.elapsed() < Duration::from_millis(200),
        "{:?}",
        t.elapsed()
    );
    s.send("name\n").await;
    assert_eq!(s.response().await, "= tablero\n\n");
    s.finish().await;
}

#[tokio::test]
async fn genmove_analyze_reports_then_plays() {
    let c = config();
    let mut s = live(go_engine(&c).expect("engine"), &c);
    s.send("4 kata-genmove_analyze b 5 avoid b E5,D5,F5 1\n")
        .await;
    let text = s.response().await;
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "=4");
    assert_eq!(lines[lines.len() - 1], "");
    let played = lines[lines.len() - 2]
        .strip_prefix("play ")
        .expect("play line");
    assert!(!["E5", "D5", "F5"].contains(&played), "{text}");
    assert!(
        Vertex::parse(played, 9).is_ok() || played == "pass",
        "{text}"
    );
    // At least the final report; no reported move is avoided.
    assert!(lines.len() >= 4, "{text}");
    for line in &lines[1..lines.len() - 2] {
        for (pairs, _) in infos(line) {
            assert!(!["E5", "D5", "F5"].contains(&get(&pairs, "move")), "{line}");
        }
    }
    s.send("showboard\n").await;
    assert!(s.response().await.contains("white to move, 1 moves"));
    s.finish().await;
}

#[tokio::test]
async fn live_gfx_during_genmove_ends_with_clear() {
    let mut c = config();
    c.gtp.live_gfx = true;
    c.search.time_per_move = 1.0;
    c.search.early_stop = false;
    let mut engine = go_engine(&c).expect("engine");
    let drawn = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = drawn.clone();
    engine.set_gfx_sink(Box::new(move |text: &str| {
        sink.lock().expect("lock").push(text.to_string());
    }));
    let mut s = live(engine, &c);
    s.send("genmove b\n").await;
    let answer = s.response().await;
    let drawn = drawn.lock().expect("lock").clone();
    assert!(drawn.len() >= 3, "{drawn:?}");
    assert_eq!(drawn.last().map(String::as_str), Some("gogui-gfx: CLEAR"));
    for block in &drawn[..drawn.len() - 1] {
        assert!(
            block.starts_with("gogui-gfx:\n") && block.ends_with("\n\n"),
            "{block:?}"
        );
        assert_eq!(block.matches("\n\n").count(), 1, "{block:?}");
        assert!(block.contains("\nTEXT B "), "{block:?}");
    }
    // The final picture's best move is the answer.
    let mv = answer.trim_end().strip_prefix("= ").expect("move");
    let last = &drawn[drawn.len() - 2];
    assert!(last.contains(&format!("VAR B {mv}")), "{answer} {last}");
    s.finish().await;
}

/// A player that records its pondering: which colour, in which position, for how long.
struct Ponderer {
    log: Arc<Mutex<Vec<(Color, usize, Duration)>>>,
}

impl GoPlayer for Ponderer {
    fn genmove(&mut self, game: &Game, color: Color, _budget: &Budget) -> Decision {
        let size = game.size();
        (0..size * size)
            .map(|i| Move::Play(Vertex::new(i % size, i / size)))
            .find(|&m| game.is_legal(color, m))
            .map_or(Decision::Play(Move::Pass), Decision::Play)
    }
    fn dead_stones(&mut self, _game: &Game, _budget: &Budget) -> Vec<Vertex> {
        Vec::new()
    }
    fn ponder(&mut self, game: &Game, color: Color, budget: &Budget) {
        let start = Instant::now();
        while !budget.expired() {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.log
            .lock()
            .expect("lock")
            .push((color, game.move_count(), start.elapsed()));
    }
}

#[tokio::test]
async fn pondering_runs_after_genmove_until_the_next_input() {
    let mut c = config();
    c.search.ponder = true;
    let log = Arc::new(Mutex::new(Vec::new()));
    let player = Ponderer { log: log.clone() };
    let mut s = live(GoEngine::new(&c, Box::new(player)).expect("engine"), &c);
    // No pondering after other commands.
    s.send("play b e5\n").await;
    assert_eq!(s.response().await, "=\n\n");
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(log.lock().expect("lock").is_empty());
    s.send("genmove w\n").await;
    assert_eq!(s.response().await, "= A1\n\n");
    tokio::time::sleep(Duration::from_millis(150)).await;
    assert!(log.lock().expect("lock").is_empty(), "stopped too early");
    // Any input stops it within a few milliseconds.
    let t = Instant::now();
    s.send("play b a2\n").await;
    assert_eq!(s.response().await, "=\n\n");
    assert!(t.elapsed() < Duration::from_millis(50), "{:?}", t.elapsed());
    {
        let log = log.lock().expect("lock");
        assert_eq!(log.len(), 1);
        let (color, moves, pondered) = log[0];
        assert_eq!((color, moves), (Color::Black, 2));
        assert!(pondered >= Duration::from_millis(150), "{pondered:?}");
    }
    // Off by default.
    let c = config();
    let log = Arc::new(Mutex::new(Vec::new()));
    let player = Ponderer { log: log.clone() };
    let mut s2 = live(GoEngine::new(&c, Box::new(player)).expect("engine"), &c);
    s2.send("genmove b\n").await;
    assert_eq!(s2.response().await, "= A1\n\n");
    tokio::time::sleep(Duration::from_millis(50)).await;
    s2.finish().await;
    assert!(log.lock().expect("lock").is_empty());
    s.finish().await;
}

/// With the real search, pondering grows the tree the next genmove starts from.
#[test]
fn pondering_grows_the_tree_the_next_search_reuses() {
    use tablero::budget::CancelFlag;

    use tablero::go::search::Player;
    let c = config();
    let mut params = c.search.params();
    params.threads = 1;
    let mut player = Player::new(params);
    let mut game = Game::new(9, c.go.rules()).expect("game");
    let budget = |ms| {
        Budget::new(
            Instant::now() + Duration::from_millis(ms),
            CancelFlag::new(),
        )
    };
    let d = GoPlayer::genmove(&mut player, &game, Color::Black, &budget(100));
    let Decision::Play(mv) = d else {
        panic!("resigned on an empty board")
    };
    game.play(Color::Black, mv).expect("legal");
    GoPlayer::ponder(&mut player, &game, Color::White, &budget(300));
    let pondered = player.root_visits();
    assert!(pondered > 50, "{pondered}");
    let reply = player.root_moves()[0].mv;
    game.play(Color::White, reply).expect("legal");
    let summary = player.search(&game, Color::Black, &budget(50));
    // The root kept the visits the pondering gave the reply.
    assert!(
        u64::from(summary.root_visits) > summary.playouts,
        "{} visits after {} playouts",
        summary.root_visits,
        summary.playouts
    );
}

/// A player that records, for each search, whether its move is to be played.
struct Recorder {
    inner: tablero::gtp::RandomPlayer,
    log: Arc<Mutex<Vec<bool>>>,
}

impl GoPlayer for Recorder {
    fn genmove(&mut self, game: &Game, color: Color, budget: &Budget) -> Decision {
        self.log.lock().expect("lock").push(true);
        self.inner.genmove(game, color, budget)
    }
    fn dead_stones(&mut self, _game: &Game, _budget: &Budget) -> Vec<Vertex> {
        Vec::new()
    }
    fn search_live(
        &mut self,
        game: &Game,
        color: Color,
        budget: &Budget,
        options: tablero::go::search::SearchOptions,
        observer: Option<tablero::go::search::Observer<'_>>,
    ) -> tablero::go::search::SearchSummary {
        self.log.lock().expect("lock").push(options.genmove);
        self.inner
            .search_live(game, color, budget, options, observer)
    }
}

/// `reg_genmove` and analysis without play are searches for no game move (they leave the
/// situational komi alone); `genmove` and `genmove_analyze` are for the game.
#[tokio::test]
async fn only_played_moves_are_searched_as_game_moves() {
    let c = config();
    let log = Arc::new(Mutex::new(Vec::new()));
    let player = Recorder {
        inner: tablero::gtp::RandomPlayer::new(1),
        log: log.clone(),
    };
    let mut s = live(GoEngine::new(&c, Box::new(player)).expect("engine"), &c);
    for (command, for_the_game) in [
        ("reg_genmove b", false),
        ("genmove b", true),
        ("kata-genmove_analyze w", true),
    ] {
        s.send(&format!("{command}\n")).await;
        let r = s.response().await;
        assert!(r.starts_with('='), "{command}: {r}");
        assert_eq!(
            log.lock().expect("lock").last(),
            Some(&for_the_game),
            "{command}"
        );
    }
}

//! tablero's DumbBot against David Norman's original (AiClient DumbBot, built by
//! `../shared/peers/build-dumbbot.sh`): the opening order frequencies of every unit.
//!
//! Each game is seven copies of one bot on tablero's embedded DAIDE server over loopback TCP,
//! played through 1901 (the server ends it after the winter). An observer connection (`OBS`)
//! records every `ORD` of 1901, and each unit of the opening position is followed through its
//! spring result (and summer retreat) to its fall order: a unit's "S1901" order is the order
//! given to it in spring, its "F1901" order the one given to the same unit in fall. Side (a)
//! is seven C++ DumbBot processes, side (b) seven tablero DumbBots as in-process DAIDE clients
//! (`daide::client::run_client`, as `tablero diplomacy bot --bot dumbbot` runs them).
//!
//! The C++ bot seeds its random numbers with `srand(time(nullptr))`, its only use of the clock:
//! bots started in the same second would draw the same stream, and glibc's first `rand()`s of
//! consecutive seeds are far from independent. So the test builds a small shared library with
//! `g++` (which the bots need anyway) that replaces `time()` by the value of
//! `TABLERO_DUMBBOT_SEED`, and starts every C++ bot with it in `LD_PRELOAD` and its own seed
//! (a hash of game and seat). Every bot on both sides has its own seed; the seeds and the
//! server's power assignment follow the game number, so a run can be repeated.
//!
//! `per_unit_opening_orders_match_the_original` (ignored; needs the C++ bots) compares, per
//! unit and season, the two order distributions with a chi-square test of homogeneity (orders
//! seen fewer than 10 times in both samples together are pooled) at a family-wise level of
//! 1 % (Bonferroni over all unit-season tests), prints the table (top orders with their
//! frequencies, the total-variation distance, the statistic and its p-value) and fails on any
//! significant difference. Run it with
//!
//! ```text
//! TABLERO_AICLIENT_DIR=/tmp/aiclient TABLERO_DUMBBOT_GAMES=1000 \
//!   cargo test --release --test dumbbot_vs_cpp -- --ignored --nocapture
//! ```
//!
//! (`TABLERO_DUMBBOT_GAMES` games per side, 1000 by default: under a minute on two cores.)
//! `both_bots_order_every_unit` plays three games per side and checks that every unit got an
//! order in both seasons, and that a game repeats exactly when its seeds do (for the C++ bots:
//! that the seed library works); without `TABLERO_AICLIENT_DIR` both tests say so and pass,
//! except under CI (`CI` set), where the fast one fails.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use tablero::bots::DumbBot;
use tablero::daide::client::{ClientConfig, run_client};
use tablero::daide::codec::{DaideCodec, Frame, Role};
use tablero::daide::message::{Loc, Message, Order, OrderReport, Parsed, Unit, parse_message};
use tablero::daide::server::{ServerConfig, run_game};
use tablero::daide::token::{OrdResult, PhaseToken, TokenTable, UnitKind};

/// Child processes killed when dropped.
struct Kids(Vec<Child>);

impl Drop for Kids {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Which bot plays all seven seats.
#[derive(Debug, Clone)]
enum Side {
    /// The AiClient DumbBot binary in `dir`, started with the seed library `shim`.
    Cpp {
        dir: PathBuf,
        shim: std::sync::Arc<Shim>,
    },
    /// tablero's DumbBot, in-process DAIDE clients.
    Tablero,
}

/// The `time()` replacement preloaded into the C++ bots.
const SEED_SHIM: &str = r#"
extern "C" char *getenv(const char *name);
extern "C" long strtol(const char *s, char **end, int base);
extern "C" long time(long *t) {
    const char *s = getenv("TABLERO_DUMBBOT_SEED");
    long v = s ? strtol(s, 0, 10) : 0;
    if (t) *t = v;
    return v;
}
"#;

/// The seed library in its temporary directory, removed when dropped.
#[derive(Debug)]
struct Shim {
    dir: PathBuf,
    lib: PathBuf,
}

impl Drop for Shim {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Builds the seed library with `g++` in a fresh temporary directory.
fn build_seed_shim() -> std::sync::Arc<Shim> {
    let dir = std::env::temp_dir().join(format!("tablero-dumbbot-seed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let src = dir.join("seed.cpp");
    let lib = dir.join("libseed.so");
    std::fs::write(&src, SEED_SHIM).expect("write the seed library source");
    let status = Command::new("g++")
        .args(["-shared", "-fPIC", "-O2", "-o"])
        .arg(&lib)
        .arg(&src)
        .status()
        .expect("run g++");
    assert!(status.success(), "g++ could not build the seed library");
    std::sync::Arc::new(Shim { dir, lib })
}

/// The seed of seat `seat` in game `game`: SplitMix64 of both, as a positive 31-bit number.
fn seat_seed(game: u64, seat: u64) -> u64 {
    let mut z = (game * 7 + seat).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) & 0x7FFF_FFFF
}

/// One order of one unit of the opening: (season, unit as it stood in S1901, order).
type Record = (&'static str, String, String);

/// The directory of the C++ bots, or `None` (with a message) when the test cannot run.
fn aiclient_dir(required_in_ci: bool) -> Option<PathBuf> {
    let dir = std::env::var_os("TABLERO_AICLIENT_DIR").map(PathBuf::from);
    if dir.is_none() {
        assert!(
            !required_in_ci || std::env::var_os("CI").is_none(),
            "CI must run the C++ DumbBot comparison: .ci/run sets TABLERO_AICLIENT_DIR"
        );
        eprintln!("skipped: set TABLERO_AICLIENT_DIR (../shared/peers/build-dumbbot.sh DIR)");
    }
    dir
}

/// Observes one game: every `ORD` of 1901, until the server closes the connection. `ready`
/// fires once the map is accepted (the observer then sees the whole game).
async fn observe(
    addr: SocketAddr,
    ready: tokio::sync::oneshot::Sender<()>,
) -> Result<Vec<OrderReport>, String> {
    let stream = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("observer connect: {e}"))?;
    let mut framed = tokio_util::codec::Framed::new(stream, DaideCodec::for_role(Role::Client));
    let send = |m: Message| Frame::Dm(m.to_tokens());
    framed.send(Frame::im()).await.map_err(|e| e.to_string())?;
    framed
        .send(send(Message::Obs))
        .await
        .map_err(|e| e.to_string())?;
    let mut ready = Some(ready);
    let mut ords = Vec::new();
    while let Some(Ok(frame)) = framed.next().await {
        let Frame::Dm(tokens) = frame else { continue };
        match parse_message(&tokens) {
            Ok(Message::Map(name)) => {
                let yes = Message::Yes(Box::new(Parsed::Ok(Message::Map(name))));
                framed.send(send(yes)).await.map_err(|e| e.to_string())?;
                if let Some(r) = ready.take() {
                    let _ = r.send(());
                }
            }
            Ok(Message::Ord(Some(r))) if r.turn.year == 1901 => ords.push(r),
            _ => {}
        }
    }
    Ok(ords)
}

/// Plays game `seed` of seven `side` bots to the end of 1901 and returns its opening records.
/// With `same_seeds` every seat gets seat 0's seed.
async fn play_game(side: &Side, seed: u64, same_seeds: bool) -> Result<Vec<Record>, String> {
    let bot_seed = |i: u64| seat_seed(seed, if same_seeds { 0 } else { i });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("bind: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let mut cfg = ServerConfig::standard(seed);
    cfg.end_year = Some(1901);
    // A safety net only: both bots answer at once.
    cfg.deadline = Some(30);
    let server = tokio::spawn(run_game(listener, cfg));
    let (tx, rx) = tokio::sync::oneshot::channel();
    let observer = tokio::spawn(observe(addr, tx));
    tokio::time::timeout(Duration::from_secs(10), rx)
        .await
        .map_err(|_| "the observer was not offered the map".to_string())?
        .map_err(|_| "the observer stopped".to_string())?;
    let mut kids = Kids(Vec::new());
    match side {
        Side::Cpp { dir, shim } => {
            for i in 0..7 {
                let bot = Command::new(dir.join("dumbbot"))
                    .args(["-i127.0.0.1", &format!("-p{}", addr.port())])
                    .env("LD_PRELOAD", &shim.lib)
                    .env("TABLERO_DUMBBOT_SEED", bot_seed(i).to_string())
                    .current_dir(dir)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .map_err(|e| format!("start the C++ dumbbot: {e}"))?;
                kids.0.push(bot);
            }
        }
        Side::Tablero => {
            for i in 0..7 {
                let stream = tokio::net::TcpStream::connect(addr)
                    .await
                    .map_err(|e| format!("connect: {e}"))?;
                let config = ClientConfig {
                    name: format!("dumbbot{i}"),
                    version: "1".into(),
                    think_time: Duration::from_secs(1),
                    ..ClientConfig::default()
                };
                tokio::spawn(run_client(stream, config, DumbBot::new(bot_seed(i))));
            }
        }
    }
    tokio::time::timeout(Duration::from_secs(60), server)
        .await
        .map_err(|_| format!("game {seed} did not end within a minute"))?
        .map_err(|e| format!("server task: {e}"))?
        .map_err(|e| format!("server: {e}"))?;
    let ords = tokio::time::timeout(Duration::from_secs(10), observer)
        .await
        .map_err(|_| "the observer did not finish".to_string())?
        .map_err(|e| format!("observer task: {e}"))??;
    drop(kids);
    records(&ords, &TokenTable::standard())
}

/// A unit's place: (power, unit kind, province), as names.
type Place = (String, &'static str, String);

fn place(u: &Unit, t: &TokenTable) -> Place {
    let kind = match u.kind {
        UnitKind::Amy => "A",
        UnitKind::Flt => "F",
    };
    let power = t.power_name(u.power).map(|n| n.to_string());
    let prov = t.province_name(u.loc.province()).map(|n| n.to_string());
    (
        power.unwrap_or_else(|| "???".into()),
        kind,
        prov.unwrap_or_else(|| "???".into()),
    )
}

fn loc_text(l: Loc, t: &TokenTable) -> String {
    let prov = t
        .province_name(l.province())
        .map(|n| n.to_string())
        .unwrap_or_else(|| "???".into());
    match l {
        Loc::Prov(_) => prov,
        Loc::Coast(_, c) => format!("{prov}/{}", &c.to_string()[..2]),
    }
}

/// `A LVP`, `F STP/SC`.
fn unit_text(u: &Unit, t: &TokenTable) -> String {
    let (_, kind, _) = place(u, t);
    format!("{kind} {}", loc_text(u.loc, t))
}

/// An order in the short notation: `A LVP - EDI`, `F LON S A WAL - YOR`, `A PAR H`.
fn order_text(o: &Order, t: &TokenTable) -> String {
    let u = |x: &Unit| unit_text(x, t);
    let p = |x| {
        t.province_name(x)
            .map(|n| n.to_string())
            .unwrap_or_else(|| "???".into())
    };
    match o {
        Order::Hold(a) => format!("{} H", u(a)),
        Order::Move(a, l) => format!("{} - {}", u(a), loc_text(*l, t)),
        Order::SupportHold(a, b) => format!("{} S {}", u(a), u(b)),
        Order::SupportMove(a, b, to) => format!("{} S {} - {}", u(a), u(b), p(*to)),
        Order::Convoy(a, b, to) => format!("{} C {} - {}", u(a), u(b), p(*to)),
        Order::ConvoyMove(a, to, _) => format!("{} - {} (convoy)", u(a), p(*to)),
        other => format!("{other:?}"),
    }
}

/// The opening records of one game's `ORD`s: each S1901 unit's spring order and the fall
/// order of the same unit, followed through its spring result and summer retreat.
fn records(ords: &[OrderReport], t: &TokenTable) -> Result<Vec<Record>, String> {
    let orders_of = |season: PhaseToken| -> Result<Vec<(&Order, &[OrdResult])>, String> {
        ords.iter()
            .filter(|r| r.turn.season == season)
            .map(|r| match &r.order {
                Parsed::Ok(o) => Ok((o, r.results.as_slice())),
                Parsed::Raw(raw) => Err(format!("unparsed ORD {raw:?}")),
            })
            .collect()
    };
    let mut out = Vec::new();
    // Where each opening unit stands in the fall, keyed by its place then.
    let mut now: HashMap<Place, String> = HashMap::new();
    let mut dislodged: HashMap<Place, String> = HashMap::new();
    for (o, res) in orders_of(PhaseToken::Spr)? {
        let Some(u) = o.unit() else { continue };
        let here = place(u, t);
        let key = format!("{} {}", here.0, unit_text(u, t));
        out.push(("S1901", key.clone(), order_text(o, t)));
        if res.contains(&OrdResult::Ret) {
            dislodged.insert(here, key);
        } else if let (Order::Move(_, to), true) = (o, res.contains(&OrdResult::Suc)) {
            let there = (here.0, here.1, loc_text(Loc::Prov(to.province()), t));
            now.insert(there, key);
        } else {
            now.insert(here, key);
        }
    }
    for (o, res) in orders_of(PhaseToken::Sum)? {
        if let (Order::Retreat(u, to), true) = (o, res.contains(&OrdResult::Suc))
            && let Some(key) = dislodged.remove(&place(u, t))
        {
            let p = place(u, t);
            now.insert((p.0, p.1, loc_text(Loc::Prov(to.province()), t)), key);
        }
    }
    for (o, _) in orders_of(PhaseToken::Fal)? {
        let Some(u) = o.unit() else { continue };
        let key = now
            .remove(&place(u, t))
            .ok_or_else(|| format!("F1901 order for a unit not followed from S1901: {o:?}"))?;
        out.push(("F1901", key, order_text(o, t)));
    }
    if !now.is_empty() {
        return Err(format!("units without a F1901 order: {now:?}"));
    }
    // The server reports orders in the order they came; sort them.
    out.sort();
    Ok(out)
}

/// Plays `games` games of `side` (seeds `seed0..`), printing progress now and then.
async fn play_games(side: &Side, games: u64, seed0: u64) -> Result<Vec<Vec<Record>>, String> {
    let t0 = Instant::now();
    let mut all = Vec::new();
    for g in 0..games {
        all.push(play_game(side, seed0 + g, false).await?);
        if (g + 1) % 25 == 0 {
            eprintln!("{side:?}: {} games in {:?}", g + 1, t0.elapsed());
        }
    }
    Ok(all)
}

/// Checks that a game ordered all 22 opening units in spring and every one still on the board
/// in fall.
fn check_complete(game: &[Record]) {
    let spring = game.iter().filter(|r| r.0 == "S1901").count();
    assert_eq!(spring, 22, "{game:?}");
    let fall = game.iter().filter(|r| r.0 == "F1901").count();
    assert!((18..=22).contains(&fall), "{game:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_bots_order_every_unit() {
    let Some(dir) = aiclient_dir(true) else {
        return;
    };
    let cpp = Side::Cpp {
        dir,
        shim: build_seed_shim(),
    };
    for side in [cpp.clone(), Side::Tablero] {
        let games = play_games(&side, 3, 1).await.expect("games");
        for g in &games {
            check_complete(g);
        }
        // The seeds decide the game: seven bots with one seed give the same orders whichever
        // process gets which power (the C++ bots read their seed through the library).
        let a = play_game(&side, 9, true).await.expect("game");
        let b = play_game(&side, 9, true).await.expect("game");
        let c = play_game(&side, 10, true).await.expect("game");
        assert_eq!(a, b, "{side:?}");
        assert_ne!(a, c, "{side:?}");
    }
}

/// Counts of one order (or pooled orders): (C++, tablero).
type Cell = (u64, u64);

/// One unit-season's comparison.
#[derive(Debug)]
struct Row {
    season: &'static str,
    unit: String,
    /// (order, C++ count, tablero count), most frequent first.
    orders: Vec<(String, u64, u64)>,
    n: (u64, u64),
    tv: f64,
    chi2: f64,
    df: usize,
    p: f64,
}

/// Per unit and season: order counts of both sides and the homogeneity test.
fn compare(cpp: &[Vec<Record>], tab: &[Vec<Record>]) -> Vec<Row> {
    let mut counts: BTreeMap<(&'static str, String), BTreeMap<String, Cell>> = BTreeMap::new();
    for (side, games) in [(0, cpp), (1, tab)] {
        for (season, unit, order) in games.iter().flatten() {
            let c = counts
                .entry((*season, unit.clone()))
                .or_default()
                .entry(order.clone())
                .or_default();
            if side == 0 {
                c.0 += 1;
            } else {
                c.1 += 1;
            }
        }
    }
    counts
        .into_iter()
        .map(|((season, unit), by_order)| {
            let mut orders: Vec<(String, u64, u64)> =
                by_order.into_iter().map(|(o, (a, b))| (o, a, b)).collect();
            orders.sort_by(|x, y| (y.1 + y.2).cmp(&(x.1 + x.2)).then(x.0.cmp(&y.0)));
            let n = orders
                .iter()
                .fold((0, 0), |(a, b), (_, x, y)| (a + x, b + y));
            let share = |c: u64, n: u64| if n == 0 { 0.0 } else { c as f64 / n as f64 };
            let tv = orders
                .iter()
                .map(|(_, a, b)| (share(*a, n.0) - share(*b, n.1)).abs())
                .sum::<f64>()
                / 2.0;
            let cells: Vec<Cell> = orders.iter().map(|(_, a, b)| (*a, *b)).collect();
            let (chi2, df) = homogeneity(&pool(&cells, 10));
            let p = if df == 0 { 1.0 } else { chi2_sf(chi2, df) };
            Row {
                season,
                unit,
                orders,
                n,
                tv,
                chi2,
                df,
                p,
            }
        })
        .collect()
}

/// Pools the categories seen fewer than `min` times in both samples together into one; a pool
/// still under `min` joins the smallest category kept. Categories come most frequent first.
fn pool(cells: &[Cell], min: u64) -> Vec<Cell> {
    let (mut kept, rare): (Vec<Cell>, Vec<Cell>) =
        cells.iter().copied().partition(|(a, b)| a + b >= min);
    let other = rare.iter().fold((0, 0), |(a, b), (x, y)| (a + x, b + y));
    if other.0 + other.1 >= min || kept.is_empty() {
        kept.push(other);
    } else if let Some(last) = kept.last_mut() {
        last.0 += other.0;
        last.1 += other.1;
    }
    kept.retain(|(a, b)| a + b > 0);
    kept
}

/// Pearson's chi-square statistic of a 2×k table and its degrees of freedom.
fn homogeneity(cells: &[Cell]) -> (f64, usize) {
    let n0: u64 = cells.iter().map(|c| c.0).sum();
    let n1: u64 = cells.iter().map(|c| c.1).sum();
    let n = (n0 + n1) as f64;
    if cells.len() < 2 || n0 == 0 || n1 == 0 {
        return (0.0, 0);
    }
    let mut x = 0.0;
    for (a, b) in cells {
        let col = (a + b) as f64;
        for (obs, row) in [(*a, n0), (*b, n1)] {
            let e = row as f64 * col / n;
            x += (obs as f64 - e).powi(2) / e;
        }
    }
    (x, cells.len() - 1)
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + 7.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularised upper incomplete gamma function Q(a, x).
fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let front = (-x + a * x.ln() - ln_gamma(a)).exp();
    if x < a + 1.0 {
        // Series for P(a, x).
        let (mut ap, mut del) = (a, 1.0 / a);
        let mut sum = del;
        for _ in 0..10_000 {
            ap += 1.0;
            del *= x / ap;
            sum += del;
            if del.abs() < sum.abs() * 1e-15 {
                break;
            }
        }
        1.0 - sum * front
    } else {
        // Continued fraction for Q(a, x) (modified Lentz).
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < 1e-15 {
                break;
            }
        }
        front * h
    }
}

/// P(X ≥ x) for a chi-square variable with `df` degrees of freedom.
fn chi2_sf(x: f64, df: usize) -> f64 {
    gamma_q(df as f64 / 2.0, x / 2.0)
}

#[test]
fn chi_square_tail_and_pooling() {
    for (x, df, p) in [
        (3.841_459, 1, 0.05),
        (5.991_465, 2, 0.05),
        (23.209_25, 10, 0.01),
    ] {
        assert!((chi2_sf(x, df) - p).abs() < 1e-5, "{x} {df}");
    }
    assert!((chi2_sf(0.5, 3) - 0.918_891_4).abs() < 1e-6);
    // Two rare categories pool into one big enough; a small pool joins the last kept.
    assert_eq!(
        pool(&[(50, 40), (20, 30), (3, 4), (2, 2)], 10),
        vec![(50, 40), (20, 30), (5, 6)]
    );
    assert_eq!(
        pool(&[(50, 40), (20, 30), (3, 4)], 10),
        vec![(50, 40), (23, 34)]
    );
    let (x, df) = homogeneity(&[(10, 20), (20, 10)]);
    assert_eq!(df, 1);
    assert!((x - 6.666_667).abs() < 1e-5);
}

/// The comparison table in Markdown.
fn table(rows: &[Row], alpha: f64) -> String {
    let pct = |c: u64, n: u64| {
        if n == 0 {
            0.0
        } else {
            100.0 * c as f64 / n as f64
        }
    };
    let mut s = String::from(
        "| phase | unit | orders: C++ % / tablero % (top 3) | n C++ / tablero | TV | χ² (df) | p |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let top: Vec<String> = r
            .orders
            .iter()
            .take(3)
            .map(|(o, a, b)| format!("{o}: {:.1} / {:.1}", pct(*a, r.n.0), pct(*b, r.n.1)))
            .collect();
        let flag = if r.p < alpha { " **" } else { "" };
        s.push_str(&format!(
            "| {} | {} | {} | {} / {} | {:.3} | {:.1} ({}) | {:.3}{flag} |\n",
            r.season,
            r.unit,
            top.join("; "),
            r.n.0,
            r.n.1,
            r.tv,
            r.chi2,
            r.df,
            r.p
        ));
    }
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "plays hundreds of games against the C++ DumbBot; see the module doc"]
async fn per_unit_opening_orders_match_the_original() {
    let Some(dir) = aiclient_dir(false) else {
        return;
    };
    let games: u64 = std::env::var("TABLERO_DUMBBOT_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    assert!(Path::new(&dir).join("dumbbot").is_file(), "{dir:?}");
    let t0 = Instant::now();
    let side = Side::Cpp {
        dir,
        shim: build_seed_shim(),
    };
    let cpp = play_games(&side, games, 1).await.expect("C++ games");
    let tab = play_games(&Side::Tablero, games, 1)
        .await
        .expect("tablero games");
    for g in cpp.iter().chain(&tab) {
        check_complete(g);
    }
    let rows = compare(&cpp, &tab);
    let tests = rows.iter().filter(|r| r.df > 0).count().max(1);
    let alpha = 0.01 / tests as f64;
    println!(
        "{games} games per side in {:?}; {tests} tests, Bonferroni level {alpha:.2e} (** below it)\n",
        t0.elapsed()
    );
    println!("{}", table(&rows, alpha));
    let worst = rows
        .iter()
        .min_by(|a, b| a.p.total_cmp(&b.p))
        .map(|r| (r.season, r.unit.clone(), r.p));
    println!("smallest p: {worst:?}");
    let bad: Vec<String> = rows
        .iter()
        .filter(|r| r.p < alpha)
        .map(|r| format!("{} {} p = {:.2e}", r.season, r.unit, r.p))
        .collect();
    assert!(bad.is_empty(), "significant differences: {bad:?}");
}

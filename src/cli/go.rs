//! `tablero match` (GTP engines against each other under a referee clock), `tablero go-train`
//! (the MM move-prediction table from SGF records) and the Go speed
//! benches (`tablero bench playouts|search`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::progress::Progress;
use super::{ConfigArgs, failure, init_logging, print_json, usage};

#[derive(Debug, Args)]
pub struct MatchArgs {
    /// Command line of the first engine (Black in odd games). `{game}` is replaced by the
    /// game number, e.g. `--set search.seed={game}` for different games from seeded engines.
    #[arg(long, value_name = "COMMAND")]
    black: String,
    /// Command line of the second engine.
    #[arg(long, value_name = "COMMAND")]
    white: String,
    /// GTP engine that scores finished games (e.g. "gnugo --mode gtp --chinese-rules")
    /// [default: none, scored by both engines' `final_score`, else by Tromp-Taylor counting].
    #[arg(long, value_name = "COMMAND")]
    referee: Option<String>,
    /// Board size (2..=25).
    #[arg(long, default_value_t = 9)]
    size: usize,
    /// Komi.
    #[arg(long, default_value_t = 7.0)]
    komi: f64,
    /// Handicap stones for Black, placed by `fixed_handicap` on both engines (0, or 2 up to
    /// 9 on odd sizes from 7×7, 4 on even ones); White moves first.
    #[arg(long, default_value_t = 0)]
    handicap: usize,
    /// Number of games.
    #[arg(long, default_value_t = 1)]
    games: usize,
    /// Swap colours every other game.
    #[arg(long)]
    alternate: bool,
    /// Whole seconds each engine may think per move (GTP clocks have no fractions): --clock 0+T/1
    /// [default: none, no clock].
    #[arg(long, alias = "time", value_name = "SECONDS", conflicts_with = "clock")]
    think_time: Option<f64>,
    /// The clock both engines play under, kept by tablero as referee: MAIN seconds of sudden
    /// death (e.g. 60) or MAIN+PERIOD/STONES Canadian overtime (e.g. 300+30/10). Both engines
    /// get `time_settings` and, before every genmove, `time_left`; running out loses on time
    /// [default: none, no clock].
    #[arg(long, value_name = "SPEC")]
    clock: Option<tablero::tournament::referee_clock::ClockSpec>,
    /// Seconds of lateness forgiven on every move (process and pipe delays).
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    lag: f64,
    /// Write one SGF file per game into this folder [default: none, no SGF files].
    #[arg(long, value_name = "DIR")]
    sgf_dir: Option<PathBuf>,
    /// Include every game's record in the JSON line.
    #[arg(long)]
    records: bool,
    /// Draw the first engine's score after each game, with its 95 % Wilson interval and the
    /// 50 % line, as an SVG chart into FILE [default: none, no chart].
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    shard: super::merge::ShardArgs,
    /// The configuration (`tablero match` reads only `[log]`; the engines read their own).
    #[command(flatten)]
    config: ConfigArgs,
}

/// `tablero match`: checks the arguments, plays, prints the summary as one JSON line.
pub fn run_match(args: MatchArgs) -> ExitCode {
    let config = match args.config.load() {
        Ok(c) => c,
        Err(code) => return code,
    };
    init_logging(&config.log.level);
    if !(tablero::go::MIN_SIZE..=tablero::go::MAX_SIZE).contains(&args.size) {
        return usage(&format!(
            "--size must be between 2 and 25, got {}",
            args.size
        ));
    }
    let valid_lag = args.lag.is_finite() && args.lag >= 0.0;
    if args.think_time.is_some_and(|t| !(t.is_finite() && t > 0.0))
        || !args.komi.is_finite()
        || !valid_lag
    {
        return usage("--think-time must be > 0, --lag >= 0 and --komi a number");
    }
    let max_handicap = tablero::go::game::Game::max_fixed_handicap(args.size);
    if args.handicap == 1 || args.handicap > max_handicap {
        return usage(&format!(
            "--handicap must be 0 or 2..={max_handicap} on {0}x{0}, got {1}",
            args.size, args.handicap
        ));
    }
    let per_move = match args
        .think_time
        .map(tablero::tournament::referee_clock::ClockSpec::per_move)
        .transpose()
    {
        Ok(p) => p,
        Err(e) => return usage(&format!("--think-time: {e}")),
    };
    let mut opts = tablero::tournament::go_match::MatchOptions::new(
        &args.black,
        &args.white,
        args.size,
        args.komi,
        args.games,
    );
    opts.referee = args.referee;
    opts.alternate = args.alternate;
    opts.handicap = args.handicap;
    opts.clock = args.clock.or(per_move);
    opts.lag = args.lag;
    opts.sgf_dir = args.sgf_dir;
    opts.shard = args.shard.shard();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            return failure(format!("cannot start the tokio runtime: {e}"));
        }
    };
    let progress = Progress::new(opts.shard.count(opts.games), "games");
    let step = |line: &str| progress.step(line);
    let mut summary = runtime.block_on(tablero::tournament::go_match::run_match(&opts, &step));
    drop(progress);
    if let Some(path) = &args.svg {
        let results = tablero::plot::win_rate::first_engine_results(&summary.records);
        let picture = tablero::plot::win_rate::svg(&opts.black, &opts.white, &results);
        if let Err(e) = std::fs::write(path, picture) {
            return failure(format!("cannot write {}: {e}", path.display()));
        }
    }
    let records: Vec<_> = summary.records.iter().map(|r| (r.game, r)).collect();
    let kind = tablero::tournament::go_match::RECORDS_KIND;
    if let Err(code) = args.shard.write(kind, &opts, opts.games, &records) {
        return code;
    }
    if !args.records {
        summary.records.clear();
    }
    print_json(&summary)
}

/// `tablero bench playouts`: checks the arguments, runs the benchmark, prints one JSON line.
pub fn bench_playouts(
    size: usize,
    seconds: f64,
    threads: usize,
    seed: u64,
    policy: &str,
) -> ExitCode {
    let policy: tablero::go::search::playout::PlayoutPolicy = match policy.parse() {
        Ok(p) => p,
        Err(e) => {
            return usage(&format!("--policy: {e}"));
        }
    };
    if !(tablero::go::MIN_SIZE..=tablero::go::MAX_SIZE).contains(&size) {
        return usage(&format!(
            "--size must be between {} and {}, got {size}",
            tablero::go::MIN_SIZE,
            tablero::go::MAX_SIZE
        ));
    }
    if !(seconds.is_finite() && seconds > 0.0) {
        return usage(&format!("--seconds must be a number > 0, got {seconds}"));
    }
    if !(1..=tablero::config::MAX_THREADS).contains(&threads) {
        return usage(&format!(
            "--threads must be between 1 and {}, got {threads}",
            tablero::config::MAX_THREADS
        ));
    }
    let result =
        tablero::go::search::bench::bench_playouts_with(policy, size, seconds, threads, seed);
    print_json(&result)
}

/// `tablero bench search`: one full search with the configured `[search]` settings.
pub fn bench_search(size: usize, seconds: f64, args: &ConfigArgs) -> ExitCode {
    if !(seconds.is_finite() && seconds > 0.0) {
        return usage(&format!("--seconds must be a number > 0, got {seconds}"));
    }
    let params = match args.load() {
        Ok(c) => c.search.params(),
        Err(code) => return code,
    };
    init_logging("warn");
    match tablero::go::search::bench::bench_search(size, seconds, params) {
        Ok(result) => print_json(&result),
        Err(e) => usage(&format!("--size: {e}")),
    }
}

/// `tablero bench tactics`: the tactics suite at each budget; progress and the table on
/// stderr, the report as one JSON line.
pub fn bench_tactics(
    file: &std::path::Path,
    seconds: &[f64],
    limit: usize,
    args: &ConfigArgs,
) -> ExitCode {
    use tablero::tournament::go_tactics::{run_suite, table};
    if let Some(s) = seconds.iter().find(|s| !(s.is_finite() && **s > 0.0)) {
        return usage(&format!("--seconds must be numbers > 0, got {s}"));
    }
    let params = match args.load() {
        Ok(c) => c.search.params(),
        Err(code) => return code,
    };
    init_logging("warn");
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => return failure(format!("{}: {e}", file.display())),
    };
    let mut suite = match tablero::go::tactics_suite::parse(&text) {
        Ok(s) => s,
        Err(e) => return failure(format!("{}: {e}", file.display())),
    };
    if limit > 0 {
        suite.problems.truncate(limit);
    }
    let progress = Progress::new(suite.problems.len() * seconds.len(), "positions");
    let report = run_suite(&suite, seconds, &params, |a| {
        progress.step(&format!(
            "{} {} {} s: {} {} ({} playouts)",
            a.id,
            a.category,
            a.seconds,
            a.answer,
            if a.solved { "solved" } else { "missed" },
            a.playouts
        ))
    });
    match report {
        Ok(report) => {
            eprint!("{}", table(&report));
            print_json(&report)
        }
        Err(e) => failure(format!("{}: {e}", file.display())),
    }
}

#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Folder of SGF game records (searched recursively, files ending in .sgf, read in
    /// sorted order).
    #[arg(long, value_name = "DIR")]
    sgf_dir: PathBuf,
    /// The table file to write (e.g. data/go/mm-patterns.txt) [default: none; needed unless
    /// --evaluate is given].
    #[arg(long, value_name = "FILE", required_unless_present = "evaluate")]
    out: Option<PathBuf>,
    /// Do not train: rank the moves of every game of --sgf-dir with this table (and with the
    /// hand-written priors) and print the prediction rates per board size, to compare tables
    /// on games neither was trained on [default: none, train].
    #[arg(long, value_name = "FILE", conflicts_with = "out")]
    evaluate: Option<PathBuf>,
    /// Seed of the split into training and held-out games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fraction of the games held out for the evaluation.
    #[arg(long, default_value_t = 0.1)]
    held_out: f64,
    /// Fewest plays of a diamond shape in the training games for it to get a gamma.
    #[arg(long, default_value_t = 5)]
    min_count: u32,
    /// MM steps.
    #[arg(long, default_value_t = 20)]
    iterations: usize,
}

/// `tablero go-train`: trains the MM move-prediction table on a folder of SGF records, writes
/// it with the command in its header, prints the report (held-out top-1 / top-5 next to the
/// hand-written priors) as one JSON line.
pub fn run_train(args: TrainArgs) -> ExitCode {
    init_logging("warn");
    if !(0.0..1.0).contains(&args.held_out) {
        return usage(&format!(
            "--held-out must be in [0, 1), got {}",
            args.held_out
        ));
    }
    if args.iterations == 0 || args.min_count == 0 {
        return usage("--iterations and --min-count must be at least 1");
    }
    let games = match load_records(&args.sgf_dir) {
        Ok(g) => g,
        Err(e) => return failure(e),
    };
    if games.is_empty() {
        return usage(&format!(
            "--sgf-dir {}: no loadable .sgf files",
            args.sgf_dir.display()
        ));
    }
    if let Some(table) = &args.evaluate {
        return evaluate_table(table, &games);
    }
    let Some(out) = args.out else {
        return usage("give --out FILE to train or --evaluate FILE to evaluate a table");
    };
    let opts = tablero::go::search::mm::TrainOptions {
        seed: args.seed,
        held_out: args.held_out,
        min_count: args.min_count,
        iterations: args.iterations,
    };
    let command: Vec<String> = std::env::args()
        .enumerate()
        .map(|(i, a)| if i == 0 { "tablero".to_string() } else { a })
        .collect();
    let header = vec![
        "tablero MM move-prediction table: Bradley-Terry gammas of move features (Coulom 2007)"
            .to_string(),
        format!("command: {}", command.join(" ")),
    ];
    let (table, report) = tablero::go::search::mm::train(&games, &opts, header);
    if let Err(e) = std::fs::write(&out, table.to_text()) {
        return failure(format!("cannot write {}: {e}", out.display()));
    }
    print_json(&report)
}

/// `tablero go-train --evaluate TABLE`: the prediction rates of `TABLE` on every game, one
/// entry per board size, as one JSON line.
fn evaluate_table(path: &std::path::Path, games: &[tablero::go::game::Game]) -> ExitCode {
    let table = match tablero::go::search::mm::Table::read(path) {
        Ok(t) => t,
        Err(e) => return failure(e),
    };
    let held_out = tablero::go::search::mm::eval::evaluate_by_size(games, &table);
    print_json(&serde_json::json!({ "table": path, "games": games.len(), "held_out": held_out }))
}

/// The games of every `.sgf` file under `dir`, in sorted path order; records that do not
/// load are skipped with a warning on stderr.
fn load_records(dir: &std::path::Path) -> Result<Vec<tablero::go::game::Game>, String> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries =
            std::fs::read_dir(&d).map_err(|e| format!("cannot read {}: {e}", d.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "sgf") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut games = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        match tablero::go::sgf::load(&text, tablero::go::game::Rules::default(), None) {
            Ok(g) => games.push(g),
            Err(e) => eprintln!("skipping {}: {e}", path.display()),
        }
    }
    Ok(games)
}

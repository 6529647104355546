//! The `tablero` command line: parses the arguments and hands each subcommand to its family's
//! file under `cli/`.

use std::process::ExitCode;

mod cli;

use clap::{Parser, Subcommand};
use cli::ConfigArgs;

#[derive(Debug, Parser)]
#[command(
    name = "tablero",
    version,
    about = "A networked game-bot server: Go over GTP, Diplomacy over DAIDE, GVG-AI controllers"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the daemon: GTP over TCP at server.gtp_listen, one engine per connection.
    Serve(ConfigArgs),
    /// Check that listeners answer (container healthchecks); exit 1 naming the first that does not.
    Probe(cli::daemon::ProbeArgs),
    /// Run one GTP engine on stdin/stdout (what GoGui, Sabaki and other GTP tools launch).
    Gtp(ConfigArgs),
    /// Measure speed; prints one JSON line on stdout.
    #[command(subcommand)]
    Bench(cli::bench::BenchCommand),
    /// Play GTP engines against each other (like gogui-twogtp); one JSON line at the end.
    Match(cli::go::MatchArgs),
    /// Train the Go move-prediction gammas (MM, Coulom 2007) on SGF records; one JSON line.
    GoTrain(cli::go::TrainArgs),
    /// Diplomacy over DAIDE: the embedded server, one bot on a server, local tournaments.
    #[command(subcommand)]
    Diplomacy(cli::diplomacy::DiplomacyCommand),
    /// GVG-AI: play and replay VGDL games, the learning-track line protocol (connect, host).
    #[command(subcommand)]
    Gvgai(cli::gvgai::GvgaiCommand),
    /// Plan a PDDL task (domain and problem files); writes the plan as Fast Downward does and
    /// prints one JSON line; the exit code says solved, unsolvable, out of time or memory.
    /// `--bench DIR` plans every task of a folder and prints coverage, costs and expansions.
    Plan(cli::plan::PlanArgs),
    /// Merge the records files of a sharded run (`--shard K/N --records-file FILE`) and print
    /// the summary line the whole run prints.
    Merge(cli::merge::MergeArgs),
    /// Evolutionary content: GA dungeons and GP NPC behaviour; one JSON line on stdout
    /// (`--seeds N`: N runs and the statistics over them).
    #[command(subcommand)]
    Evolve(cli::evolve::EvolveCommand),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve(args) => cli::with_config(&args, cli::daemon::serve),
        Command::Gtp(args) => cli::with_config(&args, cli::daemon::gtp_stdio),
        Command::Probe(args) => cli::daemon::probe(args),
        Command::Bench(cmd) => cli::bench::run(cmd),
        Command::Match(args) => cli::go::run_match(args),
        Command::GoTrain(args) => cli::go::run_train(args),
        Command::Diplomacy(cmd) => cli::diplomacy::run(cmd),
        Command::Gvgai(cmd) => cli::gvgai::run(cmd),
        Command::Evolve(cmd) => cli::evolve::run(cmd),
        Command::Merge(args) => {
            cli::init_logging("warn");
            cli::merge::run(args)
        }
        Command::Plan(args) => {
            cli::init_logging("warn");
            cli::plan::run(args)
        }
    }
}

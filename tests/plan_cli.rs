//! `tablero plan DOMAIN PROBLEM` run as a script would: exit codes, the plan file in Fast
//! Downward's format (replayed on the grounded task by tablero's validator), the JSON line,
//! and bad input named by line and column. Tasks are in tests/plan_data/ (see its README).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use tablero::planning::{examples, ground, pddl};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/plan_data")
        .join(name)
}

/// Runs `tablero plan` with `args` in `dir`.
fn plan(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tablero"))
        .arg("plan")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// The one JSON line on stdout.
fn json(out: &Output) -> serde_json::Value {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "stdout: {stdout}");
    serde_json::from_str(lines[0]).unwrap()
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Checks a plan file written as Fast Downward writes it and replays it on the grounded
/// task: every step applicable, the goal reached, the cost line right. Returns the length.
fn validate(domain: &str, problem: &str, plan_text: &str) -> usize {
    let task = ground::ground(
        &pddl::parse_domain(domain).unwrap(),
        &pddl::parse_problem(problem).unwrap(),
    )
    .unwrap();
    let lines: Vec<&str> = plan_text.lines().collect();
    let (last, steps) = lines.split_last().unwrap();
    let ops: Vec<u32> = steps
        .iter()
        .map(|line| {
            assert!(line.starts_with('(') && line.ends_with(')'), "{line:?}");
            assert_eq!(*line, line.to_lowercase());
            let i = task
                .operators
                .iter()
                .position(|o| o.name == *line)
                .unwrap_or_else(|| panic!("no operator {line}"));
            i as u32
        })
        .collect();
    task.validate(&ops).unwrap();
    let cost = task.plan_cost(&ops);
    assert_eq!(*last, format!("; cost = {cost} (unit cost)"));
    ops.len()
}

#[test]
fn solves_zenotravel_with_glued_variables_and_writes_a_valid_plan() {
    let dir = tempfile::tempdir().unwrap();
    let (d, p) = (data("zeno-domain.pddl"), data("zeno-p01.pddl"));
    let out = plan(dir.path(), &[d.to_str().unwrap(), p.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // Fast Downward's default plan file, in the current folder.
    let text = std::fs::read_to_string(dir.path().join("sas_plan")).unwrap();
    let length = validate(
        &std::fs::read_to_string(&d).unwrap(),
        &std::fs::read_to_string(&p).unwrap(),
        &text,
    );
    let j = json(&out);
    assert_eq!(j["solved"], true);
    assert_eq!(j["exit"], "solved");
    assert_eq!(j["exit_code"], 0);
    assert_eq!(j["length"], length);
    assert_eq!(j["cost"], length);
    assert_eq!(j["plan_file"], "sas_plan");
    assert!(j["expanded"].as_u64().unwrap() > 0, "{j}");
    assert!(j["planner"].is_string());
    assert!(stderr(&out).contains("grounded"), "{}", stderr(&out));
}

#[test]
fn optimal_mode_writes_the_shortest_plan_to_the_plan_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.pddl"), examples::GRIPPER).unwrap();
    std::fs::write(dir.path().join("p.pddl"), examples::GRIPPER_4).unwrap();
    let out = plan(
        dir.path(),
        &["d.pddl", "p.pddl", "--optimal", "--plan-file", "out.plan"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(!dir.path().join("sas_plan").exists());
    let text = std::fs::read_to_string(dir.path().join("out.plan")).unwrap();
    assert_eq!(validate(examples::GRIPPER, examples::GRIPPER_4, &text), 11);
    let j = json(&out);
    assert_eq!(j["optimal"], true);
    assert_eq!(j["cost"], 11);
}

#[test]
fn unsolvable_tasks_have_their_own_codes() {
    let dir = tempfile::tempdir().unwrap();
    let d = data("trap-domain.pddl");
    let d = d.to_str().unwrap();
    // The search exhausts the state space: FD's SEARCH_UNSOLVABLE.
    for extra in [&[][..], &["--optimal"][..]] {
        let p = data("trap-dead-end.pddl");
        let mut args = vec![d, p.to_str().unwrap()];
        args.extend_from_slice(extra);
        let out = plan(dir.path(), &args);
        assert_eq!(code(&out), 11, "{extra:?}: {}", stderr(&out));
        assert_eq!(json(&out)["exit"], "unsolvable");
        assert_eq!(json(&out)["solved"], false);
    }
    // Grounding proves it: FD's TRANSLATE_UNSOLVABLE.
    let p = data("trap-unreachable.pddl");
    let out = plan(dir.path(), &[d, p.to_str().unwrap()]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("(open) is unreachable"),
        "{}",
        stderr(&out)
    );
    // Only an incomplete planner ran: no plan, no proof (FD's SEARCH_UNSOLVED_INCOMPLETE).
    let p = data("trap-dead-end.pddl");
    let out = plan(dir.path(), &[d, p.to_str().unwrap(), "--planner", "iw1"]);
    assert_eq!(code(&out), 12, "{}", stderr(&out));
    assert_eq!(json(&out)["exit"], "unsolved incomplete");
    assert!(!dir.path().join("sas_plan").exists());
}

/// Gripper with `balls` balls: far too many states for blind A* in a second.
fn big_gripper(dir: &Path, balls: usize) {
    let names: Vec<String> = (1..=balls).map(|i| format!("b{i}")).collect();
    let init: String = names.iter().map(|b| format!("(at {b} rooma) ")).collect();
    let goal: String = names.iter().map(|b| format!("(at {b} roomb) ")).collect();
    let problem = format!(
        "(define (problem g{balls}) (:domain gripper)
           (:objects rooma roomb - room {} - ball left right - gripper)
           (:init (at-robby rooma) (free left) (free right) {init})
           (:goal (and {goal})))",
        names.join(" ")
    );
    std::fs::write(dir.join("d.pddl"), examples::GRIPPER).unwrap();
    std::fs::write(dir.join("p.pddl"), problem).unwrap();
}

#[test]
fn out_of_time_within_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    big_gripper(dir.path(), 14);
    let start = Instant::now();
    let out = plan(
        dir.path(),
        &[
            "d.pddl",
            "p.pddl",
            "--optimal",
            "--planner",
            "astar-blind",
            "--timeout",
            "1",
        ],
    );
    let took = start.elapsed();
    assert_eq!(code(&out), 23, "{}", stderr(&out));
    assert!(took >= Duration::from_secs(1), "{took:?}");
    assert!(took < Duration::from_secs(4), "{took:?}");
    let j = json(&out);
    assert_eq!(j["exit"], "out of time");
    assert!(j["expanded"].as_u64().unwrap() > 0, "{j}");
    assert!(!dir.path().join("sas_plan").exists());
}

/// Grounding keeps the clock too: a schema with five parameters over 60 objects, each binding
/// refused only by a static negative precondition (7.8·10⁸ bindings to examine), stops at the
/// limit with "out of time".
#[test]
fn grounding_stops_at_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let domain = "(define (domain wide) (:predicates (o ?x) (p ?a ?b ?c ?d ?e))
      (:action a :parameters (?a ?b ?c ?d ?e)
        :precondition (and (o ?a) (o ?b) (o ?c) (o ?d) (not (o ?e))) :effect (p ?a ?b ?c ?d ?e)))";
    let objects: Vec<String> = (0..60).map(|i| format!("x{i}")).collect();
    let init: String = objects.iter().map(|x| format!("(o {x}) ")).collect();
    let problem = format!(
        "(define (problem w) (:domain wide) (:objects {}) (:init {init}) (:goal (p x1 x2 x3 x4 x5)))",
        objects.join(" ")
    );
    std::fs::write(dir.path().join("d.pddl"), domain).unwrap();
    std::fs::write(dir.path().join("p.pddl"), problem).unwrap();
    let start = Instant::now();
    let out = plan(dir.path(), &["d.pddl", "p.pddl", "--timeout", "0.5"]);
    let took = start.elapsed();
    assert_eq!(code(&out), 23, "{}", stderr(&out));
    assert!(took < Duration::from_secs(3), "{took:?}");
    assert_eq!(json(&out)["message"], "grounding ran out of time");
}

#[test]
fn out_of_memory_when_node_storage_reaches_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    big_gripper(dir.path(), 14);
    let start = Instant::now();
    let out = plan(
        dir.path(),
        &[
            "d.pddl",
            "p.pddl",
            "--optimal",
            "--planner",
            "astar-blind",
            "--timeout",
            "60",
            "--memory-mb",
            "8",
        ],
    );
    assert_eq!(code(&out), 22, "{}", stderr(&out));
    assert!(start.elapsed() < Duration::from_secs(30));
    let j = json(&out);
    assert_eq!(j["exit"], "out of memory");
    let peak = j["peak_memory_mb"].as_f64().unwrap();
    assert!((8.0..64.0).contains(&peak), "{j}");
    assert!(stderr(&out).contains("out of memory"), "{}", stderr(&out));
}

#[test]
fn bad_input_exits_2_naming_the_place() {
    let dir = tempfile::tempdir().unwrap();
    let p = data("trap-dead-end.pddl");
    let p = p.to_str().unwrap();
    let d = data("malformed-domain.pddl");
    let out = plan(dir.path(), &[d.to_str().unwrap(), p]);
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(
        err.contains("malformed-domain.pddl: line 3, column 3: unclosed '('"),
        "{err}"
    );
    assert_eq!(json(&out)["exit"], "bad input");
    // An undeclared predicate, on line 2 of the domain.
    std::fs::write(
        dir.path().join("d.pddl"),
        "(define (domain trap) (:predicates (at-start))\n  (:action a :parameters () :precondition (at-door) :effect (at-start)))",
    )
    .unwrap();
    let out = plan(dir.path(), &["d.pddl", p]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("d.pddl: line 2, column 44: undeclared predicate 'at-door'"),
        "{}",
        stderr(&out)
    );
    // A missing file, a bad timeout, a bad memory bound: usage errors.
    let d = data("trap-domain.pddl");
    let d = d.to_str().unwrap();
    for args in [
        vec!["missing.pddl", p],
        vec![d, p, "--timeout", "0"],
        vec![d, p, "--memory-mb", "0"],
        vec![d, p, "--planner", "no-such-planner"],
    ] {
        let out = plan(dir.path(), &args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).is_empty());
    }
}

#[test]
fn help_documents_the_exit_codes() {
    let out = Command::new(env!("CARGO_BIN_EXE_tablero"))
        .args(["plan", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "--optimal",
        "--timeout",
        "--memory-mb",
        "--plan-file",
        "  0   solved",
        "  10  unsolvable",
        "  11  unsolvable",
        "  12  no plan",
        "  22  out of memory",
        "  23  out of time",
    ] {
        assert!(help.contains(needle), "{needle}: {help}");
    }
}

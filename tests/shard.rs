//! Sharded batch runs (`--shard K/N --records-file FILE`) and `tablero merge`, through the
//! binary:
//!
//! - for `match`, `diplomacy play`, `gvgai sweep`, `evolve npc|dungeon --seeds` and `plan
//!   --bench`, 1, 2 and 4 shards merged print the unsharded run's summary line, and `merge` of
//!   the unsharded run's own records prints that line byte for byte. Only wall-clock figures
//!   differ between two runs: `match`'s `engines[].seconds_per_move` and
//!   `engines[].max_move_seconds`, `diplomacy play`'s `seconds_per_game_year`, `plan --bench`'s
//!   `seconds`; they are removed before the shards' line is compared (`gvgai sweep`'s and
//!   `evolve`'s lines have none and are compared whole);
//! - four shards in four containers (one per shard, each its own host: own network namespace,
//!   no network) merge to the unsharded sweep, where a Docker engine has tests/docker.rs's
//!   base image;
//! - merges of the wrong files fail with the file, line or games named: another run, another
//!   command, a game twice, a shard missing, a file that is not records, another `[evolve]`
//!   setting, another expansion bound; bad `--shard` values, and `--shard` or
//!   `--records-file` without `--seeds` (evolve) or `--bench` (plan), are usage errors;
//! - the Slurm recipe on a real two-node Slurm cluster (Debian's slurm-wlm in two containers
//!   built from tests/slurm/, where Docker has the base image): its array tasks run on both
//!   nodes and its merge job writes the unsharded sweep's summary;
//! - the recipes in docker/ compute the shards as the CLI does: the Slurm script's array task
//!   and merge job (run with the SLURM_* variables set and a stand-in `srun`), its submission
//!   (a stand-in `sbatch`), and the Kubernetes Indexed Job's and merge Job's scripts (run with
//!   JOB_COMPLETION_INDEX set) give the unsharded summary; the manifests are validated against
//!   the Kubernetes schemas by kubernetes-validate (TABLERO_KUBERNETES_VALIDATE or on PATH;
//!   required under CI, `tests/k8s/setup.sh` installs it).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_tablero");

fn tablero() -> Command {
    let mut cmd = Command::new(BIN);
    cmd.env_remove("RUST_LOG").stdin(Stdio::null());
    cmd
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs `tablero args`, which must succeed; its stdout.
fn ok(args: &[String]) -> String {
    let out = tablero().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// Runs `tablero args`, which must fail with `code` and `needles` on stderr; its stderr.
fn fails(args: &[String], code: i32, needles: &[&str]) -> String {
    let out = tablero().args(args).output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    for n in needles {
        assert!(stderr.contains(n), "{args:?}: {stderr:?} lacks {n:?}");
    }
    assert!(out.stdout.is_empty(), "{args:?}: stdout must stay clean");
    stderr
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// `json` without the fields at `paths` (`*` steps into every element of an array).
fn without(json: &str, paths: &[&[&str]]) -> String {
    fn remove(v: &mut Value, path: &[&str]) {
        match (path, v) {
            ([last], Value::Object(m)) => {
                assert!(m.remove(*last).is_some(), "no field {last}");
            }
            (["*", rest @ ..], Value::Array(a)) => a.iter_mut().for_each(|e| remove(e, rest)),
            ([key, rest @ ..], Value::Object(m)) => remove(m.get_mut(*key).unwrap(), rest),
            (p, v) => panic!("{p:?} does not fit {v}"),
        }
    }
    let mut v: Value = serde_json::from_str(json).unwrap();
    for p in paths {
        remove(&mut v, p);
    }
    v.to_string()
}

/// Runs shards 1..=n of `args` at once, records into `dir`; their files.
fn shards(dir: &Path, args: &[String], n: usize) -> Vec<PathBuf> {
    let runs: Vec<(PathBuf, std::process::Child)> = (1..=n)
        .map(|k| {
            let file = dir.join(format!("shard-{k}-of-{n}.jsonl"));
            let child = tablero()
                .args(args)
                .args(["--shard", &format!("{k}/{n}"), "--records-file"])
                .arg(&file)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            (file, child)
        })
        .collect();
    runs.into_iter()
        .map(|(file, child)| {
            let out: Output = child.wait_with_output().unwrap();
            assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
            file
        })
        .collect()
}

fn merge(files: &[PathBuf]) -> Vec<String> {
    let mut args = vec!["merge".to_string()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    args
}

/// The unsharded run of `args` and 1, 2 and 4 shards merged give one summary line (less the
/// wall-clock fields at `timing`); the unsharded line; the shard files under `dir`/N.
fn same_summary(dir: &Path, args: &[String], timing: &[&[&str]]) -> String {
    let all = dir.join("all.jsonl");
    let mut whole_args = args.to_vec();
    whole_args.extend(["--records-file".into(), all.display().to_string()]);
    let whole = ok(&whole_args);
    assert_eq!(ok(&merge(&[all])), whole, "merge of the run's own records");
    for n in [1, 2, 4] {
        let sub = dir.join(n.to_string());
        std::fs::create_dir_all(&sub).unwrap();
        let merged = ok(&merge(&shards(&sub, args, n)));
        if timing.is_empty() {
            assert_eq!(merged, whole, "{n} shards");
        } else {
            assert_eq!(
                without(&merged, timing),
                without(&whole, timing),
                "{n} shards"
            );
        }
    }
    whole
}

#[test]
fn match_shards_merge_to_the_whole_match() {
    let dir = tempfile::tempdir().unwrap();
    let engine = format!(
        "{BIN} gtp --set search.playouts=30 --set search.threads=1 --set search.seed={{game}}"
    );
    let args = strings(&[
        "match",
        "--black",
        &engine,
        "--white",
        &engine,
        "--size",
        "5",
        "--games",
        "4",
        "--alternate",
    ]);
    let whole = same_summary(
        dir.path(),
        &args,
        &[
            &["engines", "*", "seconds_per_move"],
            &["engines", "*", "max_move_seconds"],
        ],
    );
    let v: Value = serde_json::from_str(&whole).unwrap();
    assert_eq!(v["games"], 4);
}

#[test]
fn diplomacy_shards_merge_to_the_whole_tournament() {
    let dir = tempfile::tempdir().unwrap();
    let args = strings(&[
        "diplomacy",
        "play",
        "--local",
        "--seats",
        "dumbbot,randbot,holdbot,dumbbot,randbot,dumbbot,holdbot",
        "--games",
        "4",
        "--end-year",
        "1903",
        "--seed",
        "3",
        "--think-time",
        "0.1",
        "--jobs",
        "2",
    ]);
    let whole = same_summary(dir.path(), &args, &[&["seconds_per_game_year"]]);
    let v: Value = serde_json::from_str(&whole).unwrap();
    assert_eq!(v["games"], 4);
    assert_eq!(v["seats"][0]["games"], 12, "dumbbot's seat-games");
}

/// A small sweep: 3 levels × 2 controllers × 2 seeds, count budgets.
fn sweep_args(seed: &str) -> Vec<String> {
    strings(&[
        "gvgai",
        "sweep",
        "--game",
        "sokoban:0,1",
        "--game",
        "zenpuzzle:0",
        "--controller",
        "random",
        "--controller",
        "onestep",
        "--seeds",
        "2",
        "--seed",
        seed,
        "--act-ms",
        "1000",
        "--iterations",
        "20",
    ])
}

#[test]
fn sweep_shards_merge_to_the_whole_sweep_and_wrong_sets_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let whole = same_summary(dir.path(), &sweep_args("0"), &[]);
    let v: Value = serde_json::from_str(&whole).unwrap();
    assert_eq!(v["episodes"], 12);
    assert_eq!(v["cells"].as_array().unwrap().len(), 6);
    let two: Vec<PathBuf> = (1..=2)
        .map(|k| dir.path().join(format!("2/shard-{k}-of-2.jsonl")))
        .collect();
    // A shard missing: the games and the shard are named.
    fails(
        &merge(&two[..1]),
        1,
        &["6 of 12 games are missing: 1, 3, 5, 7, 9, 11 (shard 2/2)"],
    );
    // A shard given twice.
    let copy = dir.path().join("copy.jsonl");
    std::fs::copy(&two[0], &copy).unwrap();
    fails(
        &merge(&[two[0].clone(), two[1].clone(), copy.clone()]),
        1,
        &["game 0 is recorded twice", "copy.jsonl line 1"],
    );
    // A shard of another run (another seed).
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    let other = shards(&other, &sweep_args("5"), 2);
    fails(
        &merge(&[two[0].clone(), other[1].clone()]),
        1,
        &["from another run", "run.seed: 0 vs 5"],
    );
    // Records of another command.
    let dip = dir.path().join("dip.jsonl");
    std::fs::write(
        &dip,
        "{\"kind\":\"diplomacy play\",\"run\":{},\"total\":1,\"shard\":\"1/1\",\"index\":0,\"record\":{}}\n",
    )
    .unwrap();
    fails(
        &merge(&[two[0].clone(), dip.clone()]),
        1,
        &[
            "dip.jsonl line 1 is a `diplomacy play` record",
            "`gvgai sweep`",
        ],
    );
    std::fs::write(&copy, "{\"not\": \"a record\"}\n").unwrap();
    fails(&merge(&[copy]), 1, &["copy.jsonl line 1: not a record"]);
}

#[test]
fn evolve_seed_shards_merge_to_the_whole_batch() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("runs/npc.sexp").display().to_string();
    let npc = strings(&[
        "evolve",
        "npc",
        "--seed",
        "1",
        "--seeds",
        "4",
        "--generations",
        "3",
        "--population",
        "16",
        "--out",
        &out,
    ]);
    let whole = same_summary(dir.path(), &npc, &[]);
    let v: Value = serde_json::from_str(&whole).unwrap();
    assert_eq!(
        (v["generator"].as_str(), v["runs"].as_u64()),
        (Some("npc"), Some(4))
    );
    let spread = &v["best_fitness"];
    assert!(spread["min"].as_f64() < spread["max"].as_f64(), "{whole}");
    // One folder per seed, the file's name kept.
    for seed in 1..=4 {
        assert!(
            dir.path()
                .join(format!("runs/seed-{seed}/npc.sexp"))
                .is_file()
        );
    }
    // Dungeons, with the bounded check: the win and window rates too.
    let d_out = dir.path().join("d").display().to_string();
    let dungeon = strings(&[
        "evolve",
        "dungeon",
        "--seeds",
        "4",
        "--generations",
        "2",
        "--population",
        "8",
        "--set",
        "evolve.dungeon_check_expansions=2000",
        "--out",
        &d_out,
    ]);
    let sub = dir.path().join("dungeon");
    std::fs::create_dir(&sub).unwrap();
    let whole = same_summary(&sub, &dungeon, &[]);
    let v: Value = serde_json::from_str(&whole).unwrap();
    assert_eq!(v["won"]["runs"], 4, "{whole}");
    assert_eq!(v["in_window"]["runs"], 4, "{whole}");
    assert!(dir.path().join("d/seed-3/evodungeon.txt").is_file());
    // Shards of batches with other settings are refused by name.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    let mut more = npc.clone();
    more.extend(strings(&["--set", "evolve.npc_tournament=2"]));
    let other = shards(&other, &more, 2);
    let mine: Vec<PathBuf> = (1..=2)
        .map(|k| dir.path().join(format!("2/shard-{k}-of-2.jsonl")))
        .collect();
    fails(
        &merge(&[mine[0].clone(), other[1].clone()]),
        1,
        &["from another run", "run.settings.npc_tournament"],
    );
    fails(
        &merge(&mine[1..]),
        1,
        &["2 of 4 games are missing: 0, 2 (shard 1/2)"],
    );
    let x = dir.path().join("x.jsonl").display().to_string();
    let single = strings(&[
        "evolve",
        "npc",
        "--out",
        &out,
        "--shard",
        "1/2",
        "--records-file",
        &x,
    ]);
    fails(&single, 2, &["--shard and --records-file need --seeds N"]);
}

/// A planning benchmark over the IPC tasks of tests/plan_data/ipc: one planner, one thread,
/// an expansion bound (some tasks run out of it).
fn bench_args(max_expansions: &str) -> Vec<String> {
    strings(&[
        "plan",
        "--bench",
        &repo("tests/plan_data/ipc").display().to_string(),
        "--planner",
        "hff",
        "--threads",
        "1",
        "--max-expansions",
        max_expansions,
    ])
}

#[test]
fn plan_bench_shards_merge_to_the_whole_benchmark() {
    let dir = tempfile::tempdir().unwrap();
    let whole = same_summary(dir.path(), &bench_args("2000"), &[&["seconds"]]);
    let v: Value = serde_json::from_str(&whole).unwrap();
    let tasks = v["tasks"].as_u64().unwrap();
    assert!(tasks >= 17, "{whole}");
    let solved = v["solved"].as_u64().unwrap();
    assert!(0 < solved && solved < tasks, "{whole}");
    assert_eq!(
        v["outcomes"]["out of expansions"],
        tasks - solved,
        "{whole}"
    );
    assert!(v["total_expanded"].as_u64().unwrap() >= 2000 * (tasks - solved));
    // Another bound is another run.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    let other = shards(&other, &bench_args("500"), 2);
    let two = dir.path().join("2/shard-1-of-2.jsonl");
    fails(
        &merge(&[two, other[1].clone()]),
        1,
        &["from another run", "run.max_expansions: 2000 vs 500"],
    );
    // Sharding needs --bench; a folder without tasks is bad input.
    let x = dir.path().join("x.jsonl").display().to_string();
    let ipc = repo("tests/plan_data/ipc/schedule");
    let single = strings(&[
        "plan",
        &ipc.join("domain.pddl").display().to_string(),
        &ipc.join("probschedule-2-0.pddl").display().to_string(),
        "--records-file",
        &x,
    ]);
    let out = tablero().args(&single).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--shard and --records-file need --bench DIR"));
    let empty = tempfile::tempdir().unwrap();
    let mut args = bench_args("10");
    args[2] = empty.path().display().to_string();
    fails(&args, 2, &["no PDDL problems"]);
}

#[test]
fn bad_shard_values_are_usage_errors() {
    let records = ["--records-file", "/nonexistent/r.jsonl"];
    for (value, needle) in [
        ("0/2", "K is numbered from 1"),
        ("3/2", "K = 3 is above N = 2"),
        ("a/b", "expected K/N"),
        ("1/0", "expected K/N"),
    ] {
        let mut args = sweep_args("0");
        args.extend(strings(&["--shard", value]));
        args.extend(strings(&records));
        let stderr = fails(&args, 2, &[needle]);
        assert!(stderr.contains(&format!("\"{value}\"")), "{stderr}");
    }
    let mut args = sweep_args("0");
    args.extend(strings(&["--shard", "1/2"]));
    fails(&args, 2, &["--records-file"]);
    fails(&strings(&["merge"]), 2, &["FILE"]);
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A folder of stand-in commands: `srun` runs its arguments; `sbatch` logs its arguments and
/// TABLERO_MERGE to `sbatch.log` and answers a job id.
fn stand_ins(dir: &Path) -> String {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let write = |name: &str, body: &str| {
        let p = bin.join(name);
        std::fs::write(&p, body).unwrap();
        Command::new("chmod").arg("+x").arg(&p).status().unwrap();
    };
    write("srun", "#!/bin/sh\nexec \"$@\"\n");
    write(
        "sbatch",
        &format!(
            "#!/bin/sh\necho \"TABLERO_MERGE=${{TABLERO_MERGE:-}} $*\" >> {}\necho '4242;cluster'\n",
            dir.join("sbatch.log").display()
        ),
    );
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap())
}

#[test]
fn the_slurm_array_runs_the_shards_and_merges_them() {
    let script = repo("docker/slurm/tablero-array.sbatch");
    let syntax = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .unwrap();
    assert!(syntax.status.success(), "{}", text(&syntax.stderr));
    let dir = tempfile::tempdir().unwrap();
    let whole = ok(&sweep_args("0"));
    let path = stand_ins(dir.path());
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let n = 3;
    let base = |cmd: &mut Command| {
        cmd.arg(&script)
            .args(sweep_args("0"))
            .env("PATH", &path)
            .env("TABLERO", BIN)
            .env("TABLERO_OUT", &out)
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("TABLERO_MERGE");
    };
    // The tasks of `--array=0-2`, but task 1 run again on its own (`--array=1`, one task,
    // with TABLERO_SHARDS exported as the submission does).
    let task = |id: usize, count: usize, shards: Option<usize>| {
        let mut cmd = Command::new("bash");
        base(&mut cmd);
        cmd.env("SLURM_ARRAY_TASK_ID", id.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", count.to_string())
            .env_remove("TABLERO_SHARDS");
        if let Some(s) = shards {
            cmd.env("TABLERO_SHARDS", s.to_string());
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "task {id}: {}", text(&o.stderr));
        assert!(out.join(format!("shard-{}-of-{n}.jsonl", id + 1)).exists());
    };
    task(0, n, None);
    task(2, n, None);
    task(1, 1, Some(n));
    let mut cmd = Command::new("bash");
    base(&mut cmd);
    let o = cmd.env("TABLERO_MERGE", "1").output().unwrap();
    assert!(o.status.success(), "merge: {}", text(&o.stderr));
    assert_eq!(text(&o.stdout), whole);
    assert_eq!(
        std::fs::read_to_string(out.join("summary.json")).unwrap(),
        whole
    );
    // Submission: the array, then the merge after it.
    let mut cmd = Command::new("bash");
    base(&mut cmd);
    let o = cmd.env("TABLERO_SHARDS", "4").output().unwrap();
    assert!(o.status.success(), "submit: {}", text(&o.stderr));
    let log = std::fs::read_to_string(dir.path().join("sbatch.log")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 2, "{log}");
    assert!(
        lines[0].starts_with("TABLERO_MERGE= --parsable --array=0-3 "),
        "{log}"
    );
    assert!(lines[0].ends_with(&sweep_args("0").join(" ")), "{log}");
    assert!(
        lines[1].starts_with("TABLERO_MERGE=1 --parsable --dependency=afterok:4242 "),
        "{log}"
    );
}

/// The block scalar (`- |`) under the first `args:` of a manifest, dedented.
fn script_of(manifest: &str) -> String {
    let lines: Vec<&str> = manifest.lines().collect();
    let start = lines.iter().position(|l| l.trim() == "args:").unwrap() + 1;
    assert_eq!(lines[start].trim(), "- |");
    let indent = |l: &str| l.len() - l.trim_start().len();
    let body: Vec<&str> = lines[start + 1..]
        .iter()
        .take_while(|l| l.trim().is_empty() || indent(l) > indent(lines[start]))
        .copied()
        .collect();
    let d = indent(body[0]);
    body.iter()
        .map(|l| l.get(d..).unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The value after `key: ` on the first line that has it, quotes removed.
fn value_after<'a>(manifest: &'a str, key: &str) -> &'a str {
    let line = manifest
        .lines()
        .find(|l| l.trim().starts_with(&format!("{key}: ")))
        .unwrap();
    line.trim()[key.len() + 2..].trim_matches('"')
}

#[test]
fn the_kubernetes_jobs_run_the_shards_and_merge_them() {
    let job = std::fs::read_to_string(repo("docker/k8s/shards-job.yaml")).unwrap();
    let merge_job = std::fs::read_to_string(repo("docker/k8s/merge-job.yaml")).unwrap();
    assert_eq!(value_after(&job, "completionMode"), "Indexed");
    let n = value_after(&job, "completions");
    assert_eq!(n, value_after(&job, "parallelism"));
    let shards_line = job.find("name: TABLERO_SHARDS").unwrap();
    assert_eq!(value_after(&job[shards_line..], "value"), n);
    let dir = tempfile::tempdir().unwrap();
    let whole = ok(&sweep_args("0"));
    let bin_dir = dir.path().join("bin");
    std::fs::create_dir(&bin_dir).unwrap();
    std::os::unix::fs::symlink(BIN, bin_dir.join("tablero")).unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap());
    let run = |script: &str, index: Option<usize>| {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(script)
            .env("PATH", &path)
            .env("TABLERO_SHARDS", n)
            .env("TABLERO_COMMAND", sweep_args("0").join(" "))
            .env("TABLERO_RECORDS", dir.path());
        if let Some(i) = index {
            cmd.env("JOB_COMPLETION_INDEX", i.to_string());
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{index:?}: {}", text(&o.stderr));
        text(&o.stdout)
    };
    let shard_script = script_of(&job);
    for i in 0..n.parse().unwrap() {
        run(&shard_script, Some(i));
    }
    assert_eq!(run(&script_of(&merge_job), None), whole);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("summary.json")).unwrap(),
        whole
    );
}

#[test]
fn the_kubernetes_manifests_fit_the_schemas() {
    let daemon = std::fs::read_to_string(repo("docker/k8s/daemon.yaml")).unwrap();
    // In the container the listeners bind every interface, on the ports the Service names.
    for bind in [
        "server.gtp_listen=0.0.0.0:6790",
        "gvgai.listen=0.0.0.0:8090",
    ] {
        assert!(daemon.contains(bind), "{bind}");
    }
    for port in [
        "containerPort: 6790",
        "containerPort: 8090",
        "port: 6790",
        "port: 8090",
    ] {
        assert!(daemon.contains(port), "{port}");
    }
    let validator = std::env::var("TABLERO_KUBERNETES_VALIDATE")
        .ok()
        .or_else(|| {
            Command::new("kubernetes-validate")
                .arg("--version")
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|_| "kubernetes-validate".to_string())
        });
    let Some(validator) = validator else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs kubernetes-validate: TABLERO_KUBERNETES_VALIDATE=$(bash tests/k8s/setup.sh)"
        );
        eprintln!("skipped: no kubernetes-validate (bash tests/k8s/setup.sh installs it)");
        return;
    };
    let validate = |path: &Path| {
        Command::new(&validator)
            .args(["--strict", "-k", "1.32.0"])
            .arg(path)
            .output()
            .unwrap()
    };
    for name in [
        "daemon.yaml",
        "shards-job.yaml",
        "merge-job.yaml",
        "records-pvc.yaml",
    ] {
        let o = validate(&repo(&format!("docker/k8s/{name}")));
        assert!(
            o.status.success(),
            "{name}: {}{}",
            text(&o.stdout),
            text(&o.stderr)
        );
    }
    // The validator does refuse a field the schema lacks.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.yaml");
    let job = std::fs::read_to_string(repo("docker/k8s/shards-job.yaml")).unwrap();
    std::fs::write(&bad, job.replace("completionMode:", "completionMod:")).unwrap();
    assert!(!validate(&bad).status.success());
}

/// The base image tests/docker.rs makes (Debian bookworm, debootstrapped: no registry).
const BASE_IMAGE: &str = "tablero-base:bookworm";

/// Whether a Docker engine answers and has the base image.
fn docker_with_base_image() -> bool {
    docker(&["image", "inspect", BASE_IMAGE])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Four shards on four hosts: each a container of its own (own network namespace, no network,
/// the test's binary mounted read-only, the records folder shared), merged on the host.
#[test]
fn shards_in_separate_containers_merge_to_the_whole_sweep() {
    if !docker_with_base_image() {
        eprintln!("skipped: no Docker engine with {BASE_IMAGE} (tests/docker.rs makes it)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // The container's user (the test's uid) writes the records.
    Command::new("chmod")
        .arg("777")
        .arg(dir.path())
        .status()
        .unwrap();
    let whole = ok(&sweep_args("0"));
    let uid = text(&Command::new("id").arg("-u").output().unwrap().stdout);
    let runs: Vec<std::process::Child> = (1..=4)
        .map(|k| {
            docker(&["run", "--rm", "--network", "none", "--hostname"])
                .arg(format!("shard-{k}"))
                .args(["--user", uid.trim(), "-v"])
                .arg(format!("{BIN}:/usr/local/bin/tablero:ro"))
                .arg("-v")
                .arg(format!("{}:/records", dir.path().display()))
                .args([BASE_IMAGE, "tablero"])
                .args(sweep_args("0"))
                .args(["--shard", &format!("{k}/4"), "--records-file"])
                .arg(format!("/records/shard-{k}-of-4.jsonl"))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for run in runs {
        let out = run.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let files: Vec<PathBuf> = (1..=4)
        .map(|k| dir.path().join(format!("shard-{k}-of-4.jsonl")))
        .collect();
    assert_eq!(ok(&merge(&files)), whole);
}

/// Containers, a network and an image of the Slurm test, removed on drop.
struct SlurmCluster {
    network: String,
    image: String,
    nodes: Vec<String>,
}

impl SlurmCluster {
    /// Builds tests/slurm/ on the base image and starts `slurm-a` (controller and node) and
    /// `slurm-b` (node) on a network of their own, the test's binary mounted read-only, the
    /// repository's docker/slurm at /slurm and `records` at /records on both.
    fn start(records: &Path) -> SlurmCluster {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let unique = format!("{}-{nanos}", std::process::id());
        let cluster = SlurmCluster {
            network: format!("tablero-slurm-{unique}"),
            image: format!("tablero-slurm-test:{unique}"),
            nodes: vec![
                format!("tablero-slurm-a-{unique}"),
                format!("tablero-slurm-b-{unique}"),
            ],
        };
        let built = docker(&["build", "-q", "-t", &cluster.image, "--build-arg"])
            .arg(format!("BASE_IMAGE={BASE_IMAGE}"))
            .arg(repo("tests/slurm"))
            .status()
            .unwrap();
        assert!(built.success(), "the Slurm image builds");
        assert!(
            docker(&["network", "create", &cluster.network])
                .status()
                .unwrap()
                .success()
        );
        for (name, host) in cluster.nodes.iter().zip(["slurm-a", "slurm-b"]) {
            let started = docker(&["run", "-d", "--name", name, "--hostname", host])
                .args(["--network-alias", host, "--network", &cluster.network, "-v"])
                .arg(format!("{BIN}:/usr/local/bin/tablero:ro"))
                .arg("-v")
                .arg(format!("{}:/slurm:ro", repo("docker/slurm").display()))
                .arg("-v")
                .arg(format!("{}:/records", records.display()))
                .arg(&cluster.image)
                .status()
                .unwrap();
            assert!(started.success(), "{host} starts");
        }
        cluster
    }

    /// Runs `sh -c script` on slurm-a in /records; its stdout.
    fn exec(&self, script: &str) -> String {
        let out = docker(&["exec", "-w", "/records", &self.nodes[0], "sh", "-c", script])
            .output()
            .unwrap();
        assert!(out.status.success(), "{script}: {}", text(&out.stderr));
        text(&out.stdout)
    }
}

impl Drop for SlurmCluster {
    fn drop(&mut self) {
        for node in &self.nodes {
            let _ = docker(&["rm", "-f", node]).output();
        }
        let _ = docker(&["network", "rm", &self.network]).output();
        let _ = docker(&["image", "rm", "-f", &self.image]).output();
    }
}

fn docker(args: &[&str]) -> Command {
    let mut cmd = Command::new("docker");
    cmd.args(args).stdin(Stdio::null());
    cmd
}

/// Polls `check` every half second for up to `secs` seconds.
fn poll<T>(secs: u64, what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    loop {
        if let Some(v) = check() {
            return v;
        }
        assert!(
            std::time::Instant::now() < end,
            "timed out waiting for {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
}

/// docker/slurm/tablero-array.sbatch on a real two-node Slurm cluster (Debian's slurm-wlm in
/// two containers): the submission makes a 3-task array and a dependent merge job, the tasks
/// run on both nodes through `srun`, and the merge job's summary is the unsharded sweep's.
#[test]
fn the_slurm_array_runs_on_a_two_node_slurm_cluster() {
    if !docker_with_base_image() {
        eprintln!("skipped: no Docker engine with {BASE_IMAGE} (tests/docker.rs makes it)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cluster = SlurmCluster::start(dir.path());
    poll(60, "both Slurm nodes idle", || {
        let out = docker(&["exec", &cluster.nodes[0], "sinfo", "-h", "-o", "%T %D"])
            .output()
            .ok()?;
        (text(&out.stdout).trim() == "idle 2").then_some(())
    });
    let sweep = sweep_args("0").join(" ");
    cluster.exec(&format!(
        "TABLERO_SHARDS=3 TABLERO_OUT=/records/run /slurm/tablero-array.sbatch {sweep}"
    ));
    let summary = dir.path().join("run/summary.json");
    let merged = poll(180, "the merge job's summary", || {
        let queue = cluster.exec("squeue -h");
        let text = std::fs::read_to_string(&summary).ok()?;
        (queue.trim().is_empty() && !text.is_empty()).then_some(text)
    });
    assert_eq!(merged, ok(&sweep_args("0")));
    for k in 1..=3 {
        assert!(
            dir.path()
                .join(format!("run/shard-{k}-of-3.jsonl"))
                .exists()
        );
    }
    // The second node ran array tasks too: the shards had hosts of their own.
    let out = docker(&[
        "exec",
        &cluster.nodes[1],
        "grep",
        "-c",
        "batch job",
        "/var/log/slurmd.log",
    ])
    .output()
    .unwrap();
    let on_b: u32 = text(&out.stdout).trim().parse().unwrap_or(0);
    assert!(on_b >= 1, "slurm-b ran no task");
}

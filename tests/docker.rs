//! The image (docker/Dockerfile) and the compose stacks (docker/compose.yaml and
//! docker/replicas.yaml), run as an operator runs them, without any registry:
//!
//! - the base image `tablero-base:bookworm` is made from a debootstrapped Debian root file
//!   system and `docker import` (kept by tag: made only when `docker image inspect` does not
//!   find it);
//! - the image is built from the project's Dockerfile around this test's own release binary
//!   (`TABLERO_BINARY`, no compilation in Docker), and the stack is started under a project
//!   name of its own, with every port published on a free port of 127.0.0.1 and a mounted
//!   configuration whose GTP engine name only that file sets;
//! - through the published ports: GTP `name` (answered from the mounted configuration) and a
//!   `genmove`; the GVG-AI listener's `START` handshake; the healthchecks of the daemon and
//!   the DAIDE server turn healthy;
//! - the DAIDE server container and seven bot-seat containers play a game to 1902, which the
//!   server appends to its results file;
//! - the DAIDE server container is killed (SIGKILL) mid-game and started again: the server
//!   keeps no game state across restarts, so the seats reconnect with back-off, a new game is
//!   played to its end; the results file on its volume holds every game the server logged as
//!   over before the kill, unchanged, before the new ones;
//! - `docker compose stop` of the daemon while a `genmove` searches: tablero exits with
//!   status 0 after logging "daemon stopped", well within the stop grace period.
//!
//! - replicas (docker/replicas.yaml): three daemons behind HAProxy (docker/lb/, built on the
//!   same base image): one GTP session lands on each replica; one replica is killed and its
//!   client's connection ends at once while the other sessions keep their positions and new
//!   clients go to the live replicas; the replica, started again, takes clients again; a
//!   frozen replica (`docker pause`) fails its probes and its client is disconnected.
//!
//! The stack is always taken down (`compose down -v`, also when the test fails). Runs where a
//! Docker engine answers; otherwise it says "skipped" and passes, except under CI (`CI` set),
//! where a missing engine, Compose or debootstrap is a failure (`.ci/run` installs them).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The locally made base image (for both the build and the runtime stage).
const BASE_IMAGE: &str = "tablero-base:bookworm";
/// The GTP engine name that only the mounted configuration sets.
const ENGINE_NAME: &str = "tablero-compose-test";
/// The last year of the test's DAIDE games.
const END_YEAR: u32 = 1902;
/// The DAIDE server's results file in its container (on the `results` volume).
const RESULTS: &str = "/var/lib/tablero/daide-results.jsonl";
/// The seat services are `seat-<power>`.
const POWERS: [&str; 7] = ["aus", "eng", "fra", "ger", "ita", "rus", "tur"];

fn in_ci() -> bool {
    std::env::var_os("CI").is_some()
}

/// Skips (outside CI) or fails (under CI) for a missing prerequisite.
fn missing(what: &str) -> Option<Vec<String>> {
    assert!(!in_ci(), "CI must run the Docker test: {what}");
    eprintln!("skipped: {what}");
    None
}

fn ok(cmd: &mut Command) -> bool {
    cmd.stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The Compose command (`docker compose` or `docker-compose`), if an engine answers.
fn compose_command() -> Option<Vec<String>> {
    if !ok(Command::new("docker").args(["info", "--format", "{{.ServerVersion}}"])) {
        return missing("no Docker engine answers `docker info`");
    }
    if ok(Command::new("docker").args(["compose", "version"])) {
        return Some(vec!["docker".into(), "compose".into()]);
    }
    if ok(Command::new("docker-compose").arg("version")) {
        return Some(vec!["docker-compose".into()]);
    }
    missing("neither `docker compose` nor `docker-compose` is installed")
}

/// Runs `cmd`, panicking with its output unless it succeeds; returns stdout.
fn run(cmd: &mut Command) -> String {
    let out = cmd.stdin(Stdio::null()).output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Makes `BASE_IMAGE` unless it exists: debootstrap (minbase bookworm) and `docker import`.
/// Returns false (outside CI) when it cannot be made here.
fn ensure_base_image() -> bool {
    if ok(Command::new("docker").args(["image", "inspect", BASE_IMAGE])) {
        return true;
    }
    let root_user = run(Command::new("id").arg("-u")).trim() == "0";
    // Root's PATH has /usr/sbin; another user's may not.
    let debootstrap = ["debootstrap", "/usr/sbin/debootstrap"]
        .into_iter()
        .find(|d| ok(Command::new(d).arg("--version")));
    let (true, Some(debootstrap)) = (root_user, debootstrap) else {
        missing("the base image needs debootstrap, run as root (apt-get install debootstrap)");
        return false;
    };
    let t0 = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let rootfs = dir.path().join("rootfs");
    let mut debootstrap = Command::new(debootstrap);
    debootstrap
        .args(["--variant=minbase", "bookworm"])
        .arg(&rootfs);
    if let Ok(mirror) = std::env::var("TABLERO_DEBIAN_MIRROR") {
        debootstrap.arg(mirror);
    }
    run(&mut debootstrap);
    // Package caches and documentation are not needed at run time.
    for sub in [
        "var/cache/apt/archives",
        "var/lib/apt/lists",
        "usr/share/doc",
        "usr/share/man",
    ] {
        let _ = std::fs::remove_dir_all(rootfs.join(sub));
    }
    let import = format!(
        "tar -C '{}' -c . | docker import -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - {BASE_IMAGE}",
        rootfs.display()
    );
    run(Command::new("sh").args(["-c", &import]));
    eprintln!("made {BASE_IMAGE} in {:.0} s", t0.elapsed().as_secs_f64());
    true
}

/// Builds the image `tag` from docker/Dockerfile around this test's release binary.
fn build_image(tag: &str) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let context = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(context.path().join("configs")).unwrap();
    std::fs::create_dir_all(context.path().join("docker")).unwrap();
    std::fs::copy(
        env!("CARGO_BIN_EXE_tablero"),
        context.path().join("tablero"),
    )
    .unwrap();
    for file in ["configs/tablero.toml", "docker/Dockerfile"] {
        std::fs::copy(repo.join(file), context.path().join(file)).unwrap();
    }
    let t0 = Instant::now();
    run(Command::new("docker")
        .args(["build", "-q", "-f", "docker/Dockerfile", "-t", tag])
        .args(["--build-arg", &format!("RUST_IMAGE={BASE_IMAGE}")])
        .args(["--build-arg", &format!("RUNTIME_IMAGE={BASE_IMAGE}")])
        .args(["--build-arg", "TABLERO_BINARY=tablero", "."])
        .current_dir(context.path()));
    let size = run(Command::new("docker").args(["image", "inspect", "-f", "{{.Size}}", tag]));
    let mb = size.trim().parse::<f64>().unwrap() / 1e6;
    eprintln!(
        "built {tag} in {:.0} s: {mb:.1} MB",
        t0.elapsed().as_secs_f64()
    );
}

/// A compose project of the test; taken down (with its volumes) and its images removed on drop.
struct Stack {
    compose: Vec<String>,
    /// The compose file, relative to the repository.
    file: &'static str,
    project: String,
    /// The daemon image (`TABLERO_IMAGE`).
    image: String,
    /// Further images the test built for this stack.
    extra_images: Vec<String>,
    env: Vec<(String, String)>,
    _config: tempfile::TempDir,
}

impl Stack {
    fn command(&self, args: &[&str]) -> Command {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(self.file);
        let mut cmd = Command::new(&self.compose[0]);
        cmd.args(&self.compose[1..])
            .arg("-f")
            .arg(file)
            .args(["-p", &self.project])
            .args(args)
            .envs(self.env.iter().map(|(k, v)| (k, v)));
        cmd
    }

    fn compose(&self, args: &[&str]) -> String {
        run(&mut self.command(args))
    }

    /// The container of `service`.
    fn container(&self, service: &str) -> String {
        let id = self.compose(&["ps", "-q", service]);
        let id = id.trim();
        assert!(!id.is_empty(), "no container for {service}");
        id.to_string()
    }

    /// The host address that `service`'s container `port` is published on.
    fn address(&self, service: &str, port: u16) -> String {
        let out = self.compose(&["port", service, &port.to_string()]);
        let addr = out.trim().to_string();
        assert!(
            addr.starts_with("127.0.0.1:"),
            "{service}:{port} published on {addr:?}"
        );
        addr
    }

    /// Everything `service` logged (stdout and stderr of all its runs).
    fn logs(&self, service: &str) -> String {
        logs(&self.container(service))
    }

    /// The DAIDE server's results file (JSON lines), as the container sees it.
    fn results(&self) -> Vec<serde_json::Value> {
        let out = Command::new("docker")
            .args(["exec", &self.container("daide"), "sh", "-c"])
            .arg(format!("cat {RESULTS} 2>/dev/null || true"))
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let out = self
                .command(&["logs", "--no-color", "--tail", "60"])
                .output();
            if let Ok(out) = out {
                eprintln!("{}", String::from_utf8_lossy(&out.stdout));
            }
        }
        let _ = self
            .command(&["down", "-v", "--remove-orphans", "-t", "5"])
            .stdout(Stdio::null())
            .status();
        for image in std::iter::once(&self.image).chain(&self.extra_images) {
            let _ = Command::new("docker")
                .args(["image", "rm", "-f", image])
                .stdout(Stdio::null())
                .status();
        }
        // The build stage the legacy builder leaves untagged.
        let _ = Command::new("docker")
            .args([
                "image",
                "prune",
                "-f",
                "--filter",
                "label=org.tablero.stage=build",
            ])
            .stdout(Stdio::null())
            .status();
    }
}

/// The mounted configuration: the shipped one with its own GTP name, 3 s per move and JIC
/// thinking for 30 % of each phase.
fn test_config(dir: &Path) -> PathBuf {
    let shipped =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/tablero.toml"))
            .unwrap();
    assert_eq!(shipped.matches("\nname = \"tablero\"\n").count(), 1);
    assert_eq!(shipped.matches("\ntime_per_move = 5.0\n").count(), 1);
    let config = shipped
        .replace(
            "\nname = \"tablero\"\n",
            &format!("\nname = \"{ENGINE_NAME}\"\n"),
        )
        .replace("\ntime_per_move = 5.0\n", "\ntime_per_move = 3.0\n");
    let path = dir.join("tablero.toml");
    std::fs::write(&path, config).unwrap();
    path
}

/// A name part no other run of the test uses at the same time.
fn unique() -> String {
    format!(
        "{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis()
            % 1_000_000
    )
}

impl Stack {
    /// Starts compose file `file` as project `<prefix>-<unique>` with the daemon image `image`
    /// (built), the test's configuration mounted and `env`; `extra_images` (built) go with it.
    fn up(
        compose: Vec<String>,
        file: &'static str,
        prefix: &str,
        image: String,
        extra_images: Vec<String>,
        env: &[(&str, &str)],
    ) -> Stack {
        let config_dir = tempfile::tempdir().unwrap();
        let config = test_config(config_dir.path());
        let mut all = vec![
            ("TABLERO_IMAGE".to_string(), image.clone()),
            (
                "TABLERO_CONFIG".to_string(),
                config.to_str().unwrap().to_string(),
            ),
        ];
        all.extend(env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        let stack = Stack {
            compose,
            file,
            project: format!("{prefix}-{}", unique()),
            image,
            extra_images,
            env: all,
            _config: config_dir,
        };
        let t0 = Instant::now();
        stack.compose(&["up", "-d", "--no-build"]);
        eprintln!("{file} up in {:.1} s", t0.elapsed().as_secs_f64());
        stack
    }
}

/// Starts the stack for `compose`, the image built and the base image made.
fn start_stack(compose: Vec<String>) -> Stack {
    let image = format!("tablero-test:{}", unique());
    build_image(&image);
    let env = [
        ("TABLERO_BIND", "127.0.0.1"),
        ("TABLERO_GTP_PORT", "0"),
        ("TABLERO_GVGAI_PORT", "0"),
        ("TABLERO_DAIDE_PORT", "0"),
        ("TABLERO_DAIDE_DEADLINE", "5"),
        ("TABLERO_DAIDE_END_YEAR", "1902"),
        // JIC thinks for a share of each phase (`jic.budget_fraction` of the mounted
        // configuration), so a game lasts long enough to kill the server in the middle of it.
        ("TABLERO_SEAT_BOT", "jic"),
        ("TABLERO_HEALTH_INTERVAL", "2s"),
    ];
    Stack::up(
        compose,
        "docker/compose.yaml",
        "tablero-test",
        image,
        Vec::new(),
        &env,
    )
}

/// Polls `check` every 250 ms until it gives a value; panics after `limit` naming `what`.
fn wait_for<T>(what: &str, limit: Duration, mut check: impl FnMut() -> Option<T>) -> T {
    let t0 = Instant::now();
    loop {
        if let Some(v) = check() {
            return v;
        }
        assert!(
            t0.elapsed() < limit,
            "timed out after {limit:?} waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// Everything `container` logged (stdout and stderr of all its runs).
fn logs(container: &str) -> String {
    let out = Command::new("docker")
        .args(["logs", container])
        .output()
        .unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn health(container: &str) -> String {
    let out = Command::new("docker")
        .args(["inspect", "-f", "{{.State.Health.Status}}", container])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A GTP connection to the daemon's published port.
struct Gtp {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Gtp {
    fn connect(addr: &str) -> Gtp {
        let stream = TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        Gtp { stream, reader }
    }

    fn send(&mut self, command: &str) {
        self.stream
            .write_all(format!("{command}\n").as_bytes())
            .unwrap();
    }

    /// The next response's first line.
    fn response(&mut self) -> String {
        loop {
            let mut line = String::new();
            assert!(self.reader.read_line(&mut line).unwrap() > 0, "GTP closed");
            if !line.trim().is_empty() {
                return line.trim().to_string();
            }
        }
    }

    fn ask(&mut self, command: &str) -> String {
        self.send(command);
        self.response()
    }
}

/// GTP `name` (from the mounted configuration) and a 9×9 `genmove`.
fn check_gtp(stack: &Stack) {
    let mut gtp = wait_for("the GTP listener", Duration::from_secs(30), || {
        let addr = stack.address("tablero", 6790);
        let mut gtp = Gtp::connect(&addr);
        gtp.send("name");
        let mut line = String::new();
        match gtp.reader.read_line(&mut line) {
            Ok(n) if n > 0 => {
                assert_eq!(line.trim(), format!("= {ENGINE_NAME}"));
                Some(gtp)
            }
            _ => None,
        }
    });
    assert_eq!(gtp.ask("boardsize 9"), "=");
    let t0 = Instant::now();
    let mv = gtp.ask("genmove b");
    eprintln!("genmove b: {mv:?} in {:.1} s", t0.elapsed().as_secs_f64());
    let vertex = mv
        .strip_prefix("= ")
        .unwrap_or_else(|| panic!("genmove: {mv:?}"));
    assert!(
        vertex.len() >= 2 && vertex.chars().next().unwrap().is_ascii_uppercase(),
        "genmove answered {vertex:?}"
    );
    assert_eq!(gtp.ask("quit"), "=");
}

/// The GVG-AI listener answers a game runner's `START` and ends on `FINISH`.
fn check_gvgai(stack: &Stack) {
    let addr = stack.address("tablero", 8090);
    let stream = TcpStream::connect(&addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    (&stream).write_all(b"0#START\n").unwrap();
    let mut reader = BufReader::new(&stream);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "0#START_DONE#JSON");
    (&stream).write_all(b"1#FINISH\n").unwrap();
    line.clear();
    assert_eq!(
        reader.read_line(&mut line).unwrap(),
        0,
        "got {line:?} after FINISH"
    );
}

/// Both services with a healthcheck report healthy; seats have none.
fn check_health(stack: &Stack) {
    for service in ["tablero", "daide"] {
        let container = stack.container(service);
        let status = wait_for("healthy", Duration::from_secs(60), || {
            let h = health(&container);
            (h == "healthy" || h == "unhealthy").then_some(h)
        });
        assert_eq!(status, "healthy", "{service}");
    }
    assert_eq!(health(&stack.container("seat-aus")), "");
}

/// A finished game's record: seven named seats, 34 centres at most, ended by the year cap
/// after `END_YEAR`.
fn check_record(record: &serde_json::Value) {
    assert_eq!(record["phase"], format!("S{}M", END_YEAR + 1), "{record}");
    assert_eq!(record["ending"], "draw", "{record}");
    let powers = record["powers"].as_array().unwrap();
    assert_eq!(powers.len(), 7, "{record}");
    for p in powers {
        let name = p["name"].as_str().unwrap();
        let power = p["power"].as_str().unwrap();
        // The name as the seat sent it in NME: the power it asks for, then its own.
        let expected = format!("{power}:seat-{}", power.to_ascii_lowercase());
        assert_eq!(name, expected, "{record}");
    }
    let centres: u64 = powers.iter().map(|p| p["centres"].as_u64().unwrap()).sum();
    assert!((18..=34).contains(&centres), "{record}");
}

/// Seven seat containers play a game to `END_YEAR` on the DAIDE server container; it is in the
/// results file and the server's log, and every seat logged its end.
fn check_daide_game(stack: &Stack) {
    let t0 = Instant::now();
    let first = wait_for("the first game's result", Duration::from_secs(180), || {
        stack.results().into_iter().next()
    });
    eprintln!(
        "first DAIDE game over after {:.1} s: {first}",
        t0.elapsed().as_secs_f64()
    );
    check_record(&first);
    assert!(stack.logs("daide").contains("game over"));
    for power in POWERS {
        let logs = stack.logs(&format!("seat-{power}"));
        assert!(logs.contains("game over"), "seat-{power}:\n{logs}");
    }
}

/// Kills the DAIDE server (SIGKILL) as soon as a game has started, until one kill lands while
/// a game runs (the server's log, complete up to the kill, tells), at most three times.
fn kill_server_mid_game(daide: &str) {
    for _ in 0..3 {
        let started = logs(daide).matches("game started").count();
        wait_for("the next game to start", Duration::from_secs(60), || {
            (logs(daide).matches("game started").count() > started).then_some(())
        });
        run(Command::new("docker").args(["kill", "-s", "KILL", daide]));
        let log = logs(daide);
        if log.matches("game started").count() > log.matches("game over").count() {
            return;
        }
        eprintln!("the game ended before the kill; again");
        run(Command::new("docker").args(["start", daide]));
    }
    panic!("no kill of the DAIDE server landed during a game");
}

/// Kills the DAIDE server (SIGKILL) while a game runs and starts it again: the seats
/// reconnect and play a new game (the server's game numbers start again from 0), and every
/// line the file held before the kill is still there, unchanged, before the new game's.
fn check_server_restart(stack: &Stack) {
    let daide = stack.container("daide");
    kill_server_mid_game(&daide);
    let t0 = Instant::now();
    // What survived the kill, read from the volume by a container of its own.
    let kept: Vec<String> = run(Command::new("docker")
        .args([
            "run",
            "--rm",
            "--volumes-from",
            &daide,
            "--entrypoint",
            "cat",
        ])
        .args([stack.image.as_str(), RESULTS]))
    .lines()
    .map(str::to_string)
    .collect();
    let ended = logs(&daide).matches("game over").count();
    assert_eq!(
        kept.len(),
        ended,
        "every game the server saw end is in the file"
    );
    run(Command::new("docker").args(["start", &daide]));
    let after = wait_for("a game after the restart", Duration::from_secs(240), || {
        let r = stack.results();
        r.iter()
            .skip(kept.len())
            .any(|g| g["game"] == 0)
            .then_some(r)
    });
    eprintln!(
        "a game after the restart over {:.1} s after the kill",
        t0.elapsed().as_secs_f64()
    );
    for (line, record) in kept.iter().zip(&after) {
        assert_eq!(
            &serde_json::from_str::<serde_json::Value>(line).unwrap(),
            record
        );
    }
    for record in &after {
        check_record(record);
    }
    for power in POWERS {
        let seat = logs(&stack.container(&format!("seat-{power}")));
        assert!(
            seat.contains("connection lost"),
            "seat-{power} did not see the server go:\n{seat}"
        );
    }
}

/// `docker compose stop` of the daemon while a genmove searches: exit status 0, "daemon
/// stopped" in the log, sooner than the 10 s stop grace period.
fn check_daemon_stop(stack: &Stack) {
    let container = stack.container("tablero");
    let mut gtp = Gtp::connect(&stack.address("tablero", 6790));
    assert_eq!(gtp.ask("name"), format!("= {ENGINE_NAME}"));
    gtp.send("genmove b");
    std::thread::sleep(Duration::from_millis(1000));
    let t0 = Instant::now();
    stack.compose(&["stop", "tablero"]);
    let took = t0.elapsed();
    eprintln!("daemon stopped mid-genmove in {:.2} s", took.as_secs_f64());
    let code =
        run(Command::new("docker").args(["inspect", "-f", "{{.State.ExitCode}}", &container]));
    assert_eq!(code.trim(), "0");
    let logs = stack.logs("tablero");
    assert!(logs.contains("SIGTERM"), "{logs}");
    assert!(logs.contains("daemon stopped"), "{logs}");
    assert!(took < Duration::from_secs(9), "stop took {took:?}");
}

/// The tests share the base image and the machine's two cores: they run one at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn image_and_compose_stack_serve_every_protocol_and_survive_restarts() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(compose) = compose_command() else {
        return;
    };
    if !ensure_base_image() {
        return;
    }
    let t0 = Instant::now();
    let stack = start_stack(compose);
    check_gtp(&stack);
    check_gvgai(&stack);
    check_health(&stack);
    check_daide_game(&stack);
    check_server_restart(&stack);
    check_daemon_stop(&stack);
    eprintln!("docker test took {:.0} s", t0.elapsed().as_secs_f64());
}

/// Builds the load balancer image `tag` from docker/lb/ on the local base image.
fn build_lb_image(tag: &str) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let context = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(context.path().join("docker/lb")).unwrap();
    for file in ["docker/lb/Dockerfile", "docker/lb/haproxy.cfg"] {
        std::fs::copy(repo.join(file), context.path().join(file)).unwrap();
    }
    let t0 = Instant::now();
    run(Command::new("docker")
        .args(["build", "-q", "-f", "docker/lb/Dockerfile", "-t", tag])
        .args(["--build-arg", &format!("BASE_IMAGE={BASE_IMAGE}"), "."])
        .current_dir(context.path()));
    eprintln!("built {tag} in {:.0} s", t0.elapsed().as_secs_f64());
}

/// docker/replicas.yaml with the test's images, the load balancer on a free port.
fn start_replicas(compose: Vec<String>) -> Stack {
    let unique = unique();
    let image = format!("tablero-test:{unique}");
    let lb_image = format!("tablero-lb-test:{unique}");
    build_image(&image);
    build_lb_image(&lb_image);
    let env = [
        ("TABLERO_LB_IMAGE", lb_image.as_str()),
        ("TABLERO_BIND", "127.0.0.1"),
        ("TABLERO_GTP_PORT", "0"),
    ];
    let file = "docker/replicas.yaml";
    Stack::up(
        compose,
        file,
        "tablero-replicas",
        image,
        vec![lb_image.clone()],
        &env,
    )
}

/// A GTP session through the load balancer and the replica it landed on (its `name`), or
/// None while the balancer has no live replica for it.
fn replica_session(addr: &str) -> Option<(Gtp, String)> {
    let mut gtp = Gtp::connect(addr);
    gtp.stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    gtp.send("name");
    let mut line = String::new();
    match gtp.reader.read_line(&mut line) {
        Ok(n) if n > 0 => {
            let name = line.trim().strip_prefix("= ")?.to_string();
            let mut blank = String::new();
            gtp.reader.read_line(&mut blank).unwrap();
            gtp.stream
                .set_read_timeout(Some(Duration::from_secs(60)))
                .unwrap();
            Some((gtp, name))
        }
        _ => None,
    }
}

/// One open session on each of the three replicas (the balancer sends each new connection to
/// the replica with the fewest sessions, once its probes have found all three up).
fn one_session_per_replica(addr: &str) -> Vec<(Gtp, String)> {
    wait_for(
        "a session on every replica",
        Duration::from_secs(60),
        || {
            let mut sessions: Vec<(Gtp, String)> = Vec::new();
            for _ in 0..3 {
                let (gtp, name) = replica_session(addr)?;
                if sessions.iter().any(|(_, n)| *n == name) {
                    return None;
                }
                sessions.push((gtp, name));
            }
            Some(sessions)
        },
    )
}

/// Sets up a 9×9 position of the session's own: black and white stones on `points`.
fn play_position(gtp: &mut Gtp, points: &[&str]) {
    assert_eq!(gtp.ask("boardsize 9"), "=");
    assert_eq!(gtp.ask("clear_board"), "=");
    for (i, p) in points.iter().enumerate() {
        let colour = if i % 2 == 0 { "b" } else { "w" };
        assert_eq!(gtp.ask(&format!("play {colour} {p}")), "=");
    }
}

/// The session still holds its position: its stones are there (playing on one is illegal)
/// and it answers a genmove with a free point.
fn check_position(gtp: &mut Gtp, points: &[&str]) {
    for p in points {
        let reply = gtp.ask(&format!("play b {p}"));
        assert!(reply.starts_with('?'), "play b {p} on a stone: {reply:?}");
    }
    let mv = gtp.ask("genmove b");
    let vertex = mv.strip_prefix("= ").unwrap_or_else(|| panic!("{mv:?}"));
    assert!(!points.contains(&vertex), "genmove on a stone: {vertex}");
}

/// The session's connection ends cleanly (end of stream or reset, not a hang) within 15 s of
/// `t0`, when its replica is gone.
fn expect_clean_end(gtp: &mut Gtp, t0: Instant, what: &str) {
    gtp.send("name");
    // The blank line that ends the last response may still be buffered.
    let mut line = String::new();
    let end = loop {
        line.clear();
        match gtp.reader.read_line(&mut line) {
            Ok(n) if n > 0 && line.trim().is_empty() => continue,
            end => break end,
        }
    };
    let took = t0.elapsed();
    let clean = match &end {
        Ok(n) => *n == 0,
        Err(e) => matches!(
            e.kind(),
            std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::ConnectionAborted
        ),
    };
    assert!(clean, "the client of {what} got {end:?} {line:?}");
    assert!(took < Duration::from_secs(15), "clean end after {took:?}");
    eprintln!(
        "client of {what} disconnected after {:.1} s",
        took.as_secs_f64()
    );
}

#[test]
fn replicas_behind_a_load_balancer_keep_sessions_apart_and_lose_only_their_own() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(compose) = compose_command() else {
        return;
    };
    if !ensure_base_image() {
        return;
    }
    let stack = start_replicas(compose);
    let addr = stack.address("lb", 6790);
    let mut sessions = one_session_per_replica(&addr);
    let positions: [&[&str]; 3] = [&["E5", "C3"], &["D4", "F6", "G3"], &["C7"]];
    for ((gtp, _), points) in sessions.iter_mut().zip(positions) {
        play_position(gtp, points);
    }
    // Lose the first session's replica as a crash would (SIGKILL, no goodbye).
    let (mut lost, lost_name) = sessions.remove(0);
    let replica = lost_name.trim_start_matches("tablero-");
    run(Command::new("docker").args(["kill", "-s", "KILL", &stack.container(replica)]));
    let t0 = Instant::now();
    expect_clean_end(&mut lost, t0, &format!("the killed {lost_name}"));
    // The other sessions keep their positions on their replicas.
    for ((gtp, name), points) in sessions.iter_mut().zip(&positions[1..]) {
        check_position(gtp, points);
        assert_eq!(gtp.ask("name"), format!("= {name}"));
    }
    // New clients go to the live replicas only.
    for _ in 0..3 {
        let (mut gtp, name) = wait_for("a new session", Duration::from_secs(30), || {
            replica_session(&addr)
        });
        assert_ne!(
            name, lost_name,
            "a new client was sent to the killed replica"
        );
        assert_eq!(gtp.ask("quit"), "=");
    }
    // Back from the restart, the replica takes new clients again.
    run(Command::new("docker").args(["start", &stack.container(replica)]));
    wait_for(
        "the restarted replica to take a client",
        Duration::from_secs(60),
        || {
            let (_gtp, name) = replica_session(&addr)?;
            (name == lost_name).then_some(())
        },
    );
    // A replica that hangs (frozen, its connections open) fails its probes: the balancer
    // closes its clients' connections; the other replica's client plays on.
    let (mut frozen, frozen_name) = sessions.remove(0);
    let frozen_container = stack.container(frozen_name.trim_start_matches("tablero-"));
    run(Command::new("docker").args(["pause", &frozen_container]));
    expect_clean_end(
        &mut frozen,
        Instant::now(),
        &format!("the frozen {frozen_name}"),
    );
    let (gtp, name) = &mut sessions[0];
    check_position(gtp, positions[2]);
    assert_eq!(gtp.ask("name"), format!("= {name}"));
    run(Command::new("docker").args(["unpause", &frozen_container]));
}

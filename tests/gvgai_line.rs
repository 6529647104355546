//! The GVG-AI line adapter: host <-> agent round trips over loopback TCP, a malformed-input
//! corpus against both sides, and the CLI (`tablero gvgai play|replay|host|connect`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use tablero::gvgai::games::shipped;
use tablero::gvgai_line::{AgentSettings, HostSettings, run_agent, run_host};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio_util::sync::CancellationToken;

fn agent(controller: &str, game: Option<&str>) -> AgentSettings {
    AgentSettings {
        controller: controller.into(),
        seed: 1,
        iterations: None,
        game: game.map(|g| Arc::new(shipped(g).unwrap())),
        act_time: Duration::from_millis(40),
        init_time: Duration::from_millis(1000),
        max_line_bytes: 1 << 22,
    }
}

fn host(game: &str, training: &[usize], validation: &[usize]) -> HostSettings {
    HostSettings {
        game: Arc::new(shipped(game).unwrap()),
        training: training.to_vec(),
        validation: validation.to_vec(),
        validation_times: 1,
        max_games: 10,
        seed: 0,
        reply_timeout: Duration::from_secs(10),
        max_line_bytes: 1 << 22,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_and_agent_play_full_games_over_loopback() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let hs = host("sokoban", &[4, 3, 2], &[3]);
    let server = tokio::spawn(async move {
        let (s, _) = listener.accept().await.unwrap();
        let (r, w) = s.into_split();
        run_host(r, w, &hs, CancellationToken::new()).await
    });
    let s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (r, w) = s.into_split();
    let a = run_agent(
        r,
        w,
        &agent("bfs", Some("sokoban")),
        CancellationToken::new(),
    )
    .await;
    let h = server.await.unwrap();
    assert!(h.finished && h.error.is_none(), "{h:?}");
    assert!(a.finished && a.error.is_none(), "{a:?}");
    // The training levels in order (the agent answers "1", "2", then END_TRAINING, which
    // skips phase 2), then the validation level.
    let levels: Vec<(usize, bool)> = h.games.iter().map(|g| (g.level, g.validation)).collect();
    assert_eq!(
        levels,
        vec![(4, false), (3, false), (2, false), (3, true)],
        "{h:?}"
    );
    assert!(
        h.games[0].win,
        "BFS with the forward model solves sokoban 4: {h:?}"
    );
    assert_eq!(a.games.len(), 4);
    assert_eq!(a.games[0].win, h.games[0].win);
    assert_eq!(a.games[0].score, h.games[0].score);
    assert!(a.games[0].model_acts > 0, "{a:?}");
    assert_eq!(h.bad_replies, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agent_without_a_game_falls_back_to_random() {
    let (client, server) = tokio::io::duplex(1 << 20);
    let (sr, sw) = tokio::io::split(server);
    let (cr, cw) = tokio::io::split(client);
    let mut hs = host("aliens", &[0], &[]);
    hs.max_games = 1;
    let h = tokio::spawn(async move { run_host(sr, sw, &hs, CancellationToken::new()).await });
    let a = run_agent(cr, cw, &agent("mcts", None), CancellationToken::new()).await;
    let h = h.await.unwrap();
    assert!(h.finished && a.finished, "{h:?} {a:?}");
    assert_eq!(a.games.len(), 1);
    assert_eq!(a.games[0].model_acts, 0);
    assert!(a.games[0].acts > 0);
}

/// A scripted server: sends `lines` one by one and collects what the agent answers.
async fn script_agent(
    lines: &[String],
    max_line: usize,
) -> (Vec<String>, tablero::gvgai_line::AgentSummary) {
    let (client, server) = tokio::io::duplex(1 << 20);
    let (cr, cw) = tokio::io::split(client);
    let mut settings = agent("random", None);
    settings.max_line_bytes = max_line;
    let agent =
        tokio::spawn(async move { run_agent(cr, cw, &settings, CancellationToken::new()).await });
    let (sr, mut sw) = tokio::io::split(server);
    let mut replies = Vec::new();
    let mut reader = BufReader::new(sr);
    for l in lines {
        if sw.write_all(format!("{l}\n").as_bytes()).await.is_err() {
            break;
        }
        let mut answer = String::new();
        match tokio::time::timeout(Duration::from_secs(5), reader.read_line(&mut answer)).await {
            Ok(Ok(n)) if n > 0 => replies.push(answer.trim_end().to_string()),
            _ => break,
        }
    }
    drop(sw);
    let summary = agent.await.unwrap();
    (replies, summary)
}

#[tokio::test]
async fn agent_answers_malformed_server_lines_with_error_lines() {
    let game = shipped("sokoban").unwrap();
    let st = game
        .start_with(4, 0, tablero::gvgai::engine::BlockSize::Learning)
        .unwrap();
    let act = serde_json::to_string(&tablero::gvgai_line::Sso::from_state(
        &st,
        tablero::gvgai_line::Phase::Act,
        false,
    ))
    .unwrap();
    let lines = vec![
        "0#START".to_string(),
        "1#HELLO".to_string(),
        "2#{not json".to_string(),
        "3#{\"phase\":\"DANCE\"}".to_string(),
        "4#{}".to_string(),
        format!("9#{act}"),
        "10#{\"phase\":\"ACT\",\"gameTick\":1}".to_string(),
        "x#START".to_string(),
    ];
    let (replies, summary) = script_agent(&lines, 1 << 20).await;
    assert_eq!(replies[0], "0#START_DONE#JSON");
    for (i, r) in replies.iter().enumerate().take(5).skip(1) {
        assert!(r.starts_with(&format!("{i}#ERROR ")), "{r}");
        assert!(r.ends_with("#JSON") && r.matches('#').count() == 2, "{r}");
    }
    // An id out of order is answered with its own id; an ACT is answered with an action.
    assert!(replies[5].starts_with("9#ACTION_"), "{replies:?}");
    // An ACT without a world (no forward model needed: random) still gets an action.
    assert!(replies[6].starts_with("10#ACTION_NIL"), "{replies:?}");
    // A line without a numeric id closes the session with a clear error.
    assert_eq!(replies.len(), 7);
    let err = summary.error.unwrap_or_default();
    assert!(err.contains("message id"), "{err}");
    assert_eq!(summary.bad_messages, 4);
}

#[tokio::test]
async fn agent_closes_on_an_oversized_line() {
    let long = format!("1#{}", "x".repeat(5000));
    let (replies, summary) = script_agent(&["0#START".into(), long], 2048).await;
    assert_eq!(replies, vec!["0#START_DONE#JSON"]);
    assert!(
        summary
            .error
            .unwrap_or_default()
            .contains("exceeds the limit")
    );
}

/// A scripted client against the host: answers each server line with `answer(line)`.
async fn script_host(
    hs: HostSettings,
    mut answer: impl FnMut(u64, &str) -> Vec<String> + Send + 'static,
) -> tablero::gvgai_line::HostSummary {
    let (client, server) = tokio::io::duplex(1 << 22);
    let (sr, sw) = tokio::io::split(server);
    let h = tokio::spawn(async move { run_host(sr, sw, &hs, CancellationToken::new()).await });
    let (cr, mut cw) = tokio::io::split(client);
    let mut reader = BufReader::new(cr);
    let mut line = String::new();
    while let Ok(Ok(n)) =
        tokio::time::timeout(Duration::from_secs(10), reader.read_line(&mut line)).await
    {
        if n == 0 {
            break;
        }
        let (id, payload) = line.trim_end().split_once('#').unwrap();
        let id: u64 = id.parse().unwrap();
        if payload == "FINISH" {
            break;
        }
        for out in answer(id, payload) {
            if cw.write_all(out.as_bytes()).await.is_err() {
                break;
            }
        }
        line.clear();
    }
    drop(cw);
    h.await.unwrap()
}

#[tokio::test]
async fn host_survives_a_malformed_reply_corpus() {
    let mut hs = host("sokoban", &[4], &[]);
    hs.max_line_bytes = 4096;
    let mut n = 0usize;
    let summary = script_host(hs, move |id, payload| {
        n += 1;
        if payload == "START" {
            return vec![format!("{id}#START_DONE#JSON\n")];
        }
        if payload.contains("\"phase\":\"INIT\"") {
            return vec![format!("{id}#INIT_DONE\n")];
        }
        if payload.contains("\"phase\":\"END\"") || payload.contains("\"phase\":\"ABORT\"") {
            return vec![format!("{id}#END_TRAINING\n")];
        }
        // ACT: cycle through bad replies; lines the server skips are followed by the real
        // answer; after 40 acts the game is aborted.
        match n % 8 {
            0 => vec!["garbage\n".into(), format!("{id}#ACTION_NIL\n")],
            1 => vec![format!("{id}#ACTION_JUMP\n")],
            2 => vec![
                format!("{}#ACTION_LEFT\n", id + 5),
                format!("{id}#ACTION_UP\n"),
            ],
            3 => vec![format!(
                "{}#ACTION_UP\n{id}#ACTION_LEFT\n",
                id.saturating_sub(1)
            )],
            4 => vec![
                format!("{id}#{}\n", "y".repeat(10_000)),
                format!("{id}#ACTION_NIL\n"),
            ],
            5 => vec![format!("{id}#ACTION_LEFT#PNG\n")],
            6 => vec![format!("{id}#ACTION_RIGHT\r\n")],
            _ if n > 40 => vec![format!("{id}#ABORT\n")],
            _ => vec![format!("{id}#\u{fffd}\n")],
        }
    })
    .await;
    assert!(summary.finished, "{summary:?}");
    assert!(summary.error.is_none(), "{summary:?}");
    assert_eq!(summary.games.len(), 1);
    assert!(summary.games[0].aborted, "{summary:?}");
    assert!(summary.bad_replies >= 5, "{summary:?}");
    assert!(summary.stale_replies >= 1, "{summary:?}");
}

/// The observations carry what GVG-AI's learning-track server sends: `gameTick` 0 in the
/// first INIT and -1 in later ones, the cycle's tick in ACTs, the last cycle's tick in
/// END/ABORT (equal to the last ACT's); `isValidation` only in INIT; an ABORT shows
/// `ACTION_ESCAPE` as the last action.
#[tokio::test]
async fn host_observations_carry_gvgai_ticks_and_flags() {
    use std::sync::{Arc, Mutex};
    let mut hs = host("sokoban", &[4, 4], &[4]);
    hs.max_games = 3;
    let seen: Arc<Mutex<Vec<serde_json::Value>>> = Arc::default();
    let log = seen.clone();
    let solution: Vec<&str> = "LLDLUDDD"
        .chars()
        .map(|c| match c {
            'L' => "ACTION_LEFT",
            'D' => "ACTION_DOWN",
            _ => "ACTION_UP",
        })
        .collect();
    let (mut level, mut act) = (0usize, 0usize);
    let summary = script_host(hs, move |id, payload| {
        if payload == "START" {
            return vec![format!("{id}#START_DONE\n")];
        }
        let obs: serde_json::Value = serde_json::from_str(payload).unwrap();
        log.lock().unwrap().push(obs.clone());
        match obs["phase"].as_str().unwrap() {
            "INIT" => {
                act = 0;
                vec![format!("{id}#INIT_DONE\n")]
            }
            "ACT" => {
                act += 1;
                // The second level is aborted at its third act.
                if level == 1 && act == 3 {
                    return vec![format!("{id}#ABORT\n")];
                }
                let a = solution.get(act - 1).copied().unwrap_or("ACTION_NIL");
                vec![format!("{id}#{a}\n")]
            }
            _ => {
                level += 1;
                let answer = match level {
                    1 => "1",
                    2 => "END_TRAINING",
                    _ => "END_VALIDATION",
                };
                vec![format!("{id}#{answer}\n")]
            }
        }
    })
    .await;
    assert!(summary.finished && summary.error.is_none(), "{summary:?}");
    assert_eq!(summary.games.len(), 3, "{summary:?}");
    let seen = seen.lock().unwrap();
    let phase = |o: &serde_json::Value| o["phase"].as_str().unwrap().to_string();
    let tick = |o: &serde_json::Value| o["gameTick"].as_i64().unwrap();
    // Split the observations into levels at each INIT.
    let mut levels: Vec<Vec<&serde_json::Value>> = Vec::new();
    for o in seen.iter() {
        if phase(o) == "INIT" {
            levels.push(Vec::new());
        }
        levels.last_mut().unwrap().push(o);
    }
    assert_eq!(levels.len(), 3);
    let init_ticks: Vec<i64> = levels.iter().map(|l| tick(l[0])).collect();
    assert_eq!(init_ticks, vec![0, -1, -1]);
    let init_validation: Vec<bool> = levels
        .iter()
        .map(|l| l[0]["isValidation"].as_bool().unwrap())
        .collect();
    assert_eq!(init_validation, vec![false, false, true]);
    for l in &levels {
        let acts: Vec<i64> = l[1..l.len() - 1].iter().map(|o| tick(o)).collect();
        assert_eq!(
            acts,
            (0..acts.len() as i64).collect::<Vec<_>>(),
            "ACT ticks"
        );
        let end = l[l.len() - 1];
        assert_eq!(
            tick(end),
            *acts.last().unwrap(),
            "END tick is the last cycle's"
        );
        assert_eq!(end["isGameOver"], true);
        for o in &l[1..] {
            assert_eq!(o["isValidation"], false, "only INIT carries isValidation");
        }
    }
    // Level 1: won in 8 moves, the tick of the win is 7 (`replay` says the same).
    assert_eq!(phase(levels[0][levels[0].len() - 1]), "END");
    assert_eq!(tick(levels[0][levels[0].len() - 1]), 7);
    assert!(summary.games[0].win && summary.games[0].ticks == 7);
    // Level 2: aborted at its third act (tick 2).
    let abort = levels[1][levels[1].len() - 1];
    assert_eq!(phase(abort), "ABORT");
    assert_eq!(tick(abort), 2);
    assert_eq!(abort["avatarLastAction"], "ACTION_ESCAPE");
    assert!(summary.games[1].aborted && summary.games[1].ticks == 2);
}

/// A disqualification during training ends the session without FINISH (GVG-AI's
/// `runGames` returns); during validation it only ends the round.
#[tokio::test]
async fn host_disqualification_ends_training_without_finish() {
    let script = |end_answer: &'static str| {
        move |id: u64, payload: &str| -> Vec<String> {
            if payload == "START" {
                vec![format!("{id}#START_DONE\n")]
            } else if payload.contains("\"phase\":\"INIT\"") {
                vec![format!("{id}#INIT_DONE\n")]
            } else if payload.contains("\"phase\":\"ACT\"") {
                vec![format!("{id}#ABORT\n")]
            } else {
                vec![format!("{id}#{end_answer}\n")]
            }
        }
    };
    let summary = script_host(host("sokoban", &[4, 4], &[4]), script("END_OVERSPENT")).await;
    assert!(summary.disqualified && !summary.finished, "{summary:?}");
    assert!(summary.error.is_none(), "{summary:?}");
    assert_eq!(summary.games.len(), 1, "{summary:?}");
    let mut hs = host("sokoban", &[], &[3, 4]);
    hs.validation_times = 2;
    let summary = script_host(hs, script("END_OVERSPENT")).await;
    // Each validation round stops at its first level; FINISH follows the rounds.
    assert!(summary.disqualified && summary.finished, "{summary:?}");
    let levels: Vec<usize> = summary.games.iter().map(|g| g.level).collect();
    assert_eq!(levels, vec![3, 3], "{summary:?}");
}

#[tokio::test]
async fn host_ends_cleanly_when_the_client_disappears() {
    let hs = host("sokoban", &[4], &[]);
    let summary = script_host(hs, |id, payload| {
        if payload == "START" {
            vec![format!("{id}#START_DONE\n")]
        } else {
            vec![]
        }
    })
    .await;
    assert!(!summary.finished);
    assert!(summary.error.is_some(), "{summary:?}");
}

fn tablero() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tablero"))
}

fn json(out: &std::process::Output) -> serde_json::Value {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "one JSON line expected: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(lines[0]).unwrap()
}

#[test]
fn cli_play_then_replay_gives_the_same_result() {
    let out = tablero()
        .args([
            "gvgai",
            "play",
            "--game",
            "sokoban",
            "--level",
            "4",
            "--controller",
            "bfs",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let p = json(&out);
    assert_eq!(p["win"], true);
    for k in [
        "game",
        "level",
        "controller",
        "seed",
        "score",
        "ticks",
        "act_ms_max",
    ] {
        assert!(p.get(k).is_some(), "{k} missing: {p}");
    }
    let actions = p["actions"].as_str().unwrap().to_string();
    let out = tablero()
        .args([
            "gvgai",
            "replay",
            "--game",
            "sokoban",
            "--level",
            "4",
            "--actions",
            &actions,
        ])
        .output()
        .unwrap();
    let r = json(&out);
    assert_eq!(
        (&r["win"], &r["score"], &r["ticks"]),
        (&p["win"], &p["score"], &p["ticks"])
    );
    // Errors are usage errors with a message.
    let out = tablero()
        .args([
            "gvgai",
            "play",
            "--game",
            "nosuchgame",
            "--controller",
            "mcts",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = tablero()
        .args(["gvgai", "replay", "--game", "sokoban", "--actions", "UDX"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("'X'"));
    let out = tablero()
        .args([
            "gvgai",
            "play",
            "--game",
            "sokoban",
            "--controller",
            "alphazero",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn cli_host_and_connect_play_over_tcp() {
    // Find a free port, then let `host --once` take it; `connect` retries until it is up.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let client = tablero()
        .args([
            "gvgai",
            "connect",
            "--server",
            &addr,
            "--controller",
            "bfs",
            "--game",
            "sokoban",
            "--retry-for",
            "30",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let server = tablero()
        .args([
            "gvgai",
            "host",
            "--listen",
            &addr,
            "--game",
            "sokoban",
            "--levels",
            "4,3,2",
            "--validation",
            "",
            "--once",
        ])
        .output()
        .unwrap();
    let client = client.wait_with_output().unwrap();
    let h = json(&server);
    let c = json(&client);
    assert_eq!(h["finished"], true, "{h}");
    assert_eq!(c["finished"], true, "{c}");
    assert_eq!(h["games"][0]["win"], true, "{h}");
    assert_eq!(c["games"][0]["win"], true, "{c}");
}

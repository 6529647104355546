//! Tests of the GTP session: one response per answered line, pipelining, interrupts and end of input.

use super::*;

use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// A test engine: `echo`, `fail`, `panic`, `wait` (until cancelled), `stream` (until stopped).
struct Mock;

impl Engine for Mock {
    fn execute(
        &mut self,
        cmd: &RawCommand,
        ctx: &mut CommandContext<'_>,
    ) -> Result<String, String> {
        match cmd.name.as_str() {
            "echo" => Ok(cmd.args.join(" ")),
            "fail" => Err("failed".into()),
            "panic" => panic!("mock panic"),
            "wait" | "stream" => {
                let start = Instant::now();
                let mut n = 0;
                while !ctx.is_cancelled() && start.elapsed() < Duration::from_secs(10) {
                    if cmd.name == "stream" {
                        ctx.stream(&format!("info {n}\n"));
                        n += 1;
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
                Ok(if cmd.name == "wait" {
                    "stopped".into()
                } else {
                    String::new()
                })
            }
            _ => Err("unknown command".into()),
        }
    }
    fn kind(&self, cmd: &RawCommand) -> CommandKind {
        if cmd.name == "stream" {
            CommandKind::Streaming
        } else {
            CommandKind::Normal
        }
    }
}

#[test]
fn answer_line_gives_one_response_per_answered_line() {
    let mut engine = Mock;
    let answer = |e: &mut Mock, line: &str| answer_line(e, line.as_bytes());
    assert_eq!(
        answer(&mut engine, "7 echo a b").as_deref(),
        Some("=7 a b\n\n")
    );
    assert_eq!(answer(&mut engine, "fail").as_deref(), Some("? failed\n\n"));
    assert_eq!(answer(&mut engine, "# interrupt"), None);
    assert_eq!(answer(&mut engine, "   "), None);
    assert_eq!(answer(&mut engine, "3 quit").as_deref(), Some("=3\n\n"));
    let malformed = answer(&mut engine, "12 \u{1}").unwrap_or_default();
    assert!(malformed.starts_with("?12 "), "{malformed:?}");
    // A streaming command is stopped at once and still ends its response.
    let streamed = answer(&mut engine, "2 stream").unwrap_or_default();
    assert!(
        streamed.starts_with("=2\n") && streamed.ends_with("\n\n"),
        "{streamed:?}"
    );
}

/// Reads one response (up to and including its empty line).
async fn response<R: tokio::io::AsyncBufRead + Unpin>(r: &mut R) -> String {
    let mut text = String::new();
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).await.unwrap() == 0 {
            return text;
        }
        text.push_str(&line);
        if line == "\n" {
            return text;
        }
    }
}

fn start(
    max_line: usize,
) -> (
    tokio::io::DuplexStream,
    BufReader<tokio::io::DuplexStream>,
    CancellationToken,
    tokio::task::JoinHandle<Result<(), GtpError>>,
) {
    let (client_in, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, client_out) = tokio::io::duplex(1 << 16);
    let token = CancellationToken::new();
    let config = GtpConfig {
        max_line_length: max_line,
        ..GtpConfig::default()
    };
    let t = token.clone();
    let task = tokio::spawn(async move {
        run_session(server_in, server_out, Box::new(Mock), &config, t).await
    });
    (client_in, BufReader::new(client_out), token, task)
}

#[tokio::test]
async fn pipelined_commands_are_answered_in_order() {
    let (mut input, mut output, _token, task) = start(64);
    input
        .write_all(b"1 echo a\n\n# c\nfail\n2 ECHO b\t c\r\n3 panic\n4 echo after\n")
        .await
        .unwrap();
    input.write_all(&[b'x'; 100]).await.unwrap();
    input.write_all(b"\n5 echo \xff\n6 quit\n").await.unwrap();
    let mut all = String::new();
    for _ in 0..8 {
        all.push_str(&response(&mut output).await);
    }
    assert_eq!(
        all,
        "=1 a\n\n? failed\n\n=2 b c\n\n?3 internal error\n\n=4 after\n\n\
             ? line too long\n\n?5 invalid UTF-8\n\n=6\n\n"
    );
    assert_eq!(response(&mut output).await, "");
    task.await.unwrap().unwrap();
}

#[tokio::test]
async fn interrupt_stops_a_running_command_quickly() {
    let (mut input, mut output, _token, task) = start(64);
    input.write_all(b"wait\n").await.unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    let t = Instant::now();
    input.write_all(b"# interrupt\n").await.unwrap();
    assert_eq!(response(&mut output).await, "= stopped\n\n");
    assert!(
        t.elapsed() < Duration::from_millis(100),
        "{:?}",
        t.elapsed()
    );
    // Later commands are not affected by the earlier interrupt.
    input.write_all(b"echo x\n").await.unwrap();
    assert_eq!(response(&mut output).await, "= x\n\n");
    drop(input);
    assert_eq!(response(&mut output).await, "");
    task.await.unwrap().unwrap();
}

/// Starts `wait` in a session with `stop_on_eof`, closes the input, and returns the time
/// from the EOF to the answer.
async fn answer_after_eof(stop_on_eof: bool) -> (String, Duration) {
    let (mut input, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, output) = tokio::io::duplex(1 << 16);
    let mut output = BufReader::new(output);
    let activity = Activity::new();
    let options = SessionOptions {
        stop_on_eof,
        activity: Some(activity.clone()),
    };
    let task = tokio::spawn(async move {
        let config = GtpConfig::default();
        run_session_with(
            server_in,
            server_out,
            Box::new(Mock),
            &config,
            options,
            CancellationToken::new(),
        )
        .await
    });
    input.write_all(b"wait\necho queued\n").await.unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(activity.idle_for(), None, "busy while a command runs");
    let t = Instant::now();
    drop(input);
    let answer = response(&mut output).await;
    let took = t.elapsed();
    assert_eq!(response(&mut output).await, "= queued\n\n");
    task.await.unwrap().unwrap();
    assert!(activity.idle_for().is_some());
    (answer, took)
}

#[tokio::test]
async fn eof_stops_the_running_command_when_asked_to() {
    let (answer, stopped) = answer_after_eof(true).await;
    assert_eq!(answer, "= stopped\n\n");
    // Without the option the same command runs on (10 s in the mock): compare side by side.
    let keep = tokio::spawn(answer_after_eof(false));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !keep.is_finished(),
        "without stop_on_eof the command goes on"
    );
    keep.abort();
    assert!(stopped < Duration::from_millis(300), "{stopped:?}");
}

#[tokio::test]
async fn quit_stops_a_running_command_and_ends_the_session() {
    let (mut input, mut output, _token, task) = start(64);
    input
        .write_all(b"1 wait\n2 echo queued\n3 quit\n4 echo never\n")
        .await
        .unwrap();
    let t = Instant::now();
    assert_eq!(response(&mut output).await, "=1 stopped\n\n");
    assert!(t.elapsed() < Duration::from_millis(500));
    assert_eq!(response(&mut output).await, "=2 queued\n\n");
    assert_eq!(response(&mut output).await, "=3\n\n");
    assert_eq!(response(&mut output).await, "");
    task.await.unwrap().unwrap();
}

#[tokio::test]
async fn streaming_stops_on_any_line_and_ends_with_one_empty_line() {
    let (mut input, mut output, _token, task) = start(64);
    input.write_all(b"7 stream\n").await.unwrap();
    let mut first = String::new();
    output.read_line(&mut first).await.unwrap();
    assert_eq!(first, "=7\n");
    tokio::time::sleep(Duration::from_millis(30)).await;
    input.write_all(b"8 echo next\n").await.unwrap();
    let body = response(&mut output).await;
    assert!(body.ends_with("\n\n"));
    assert!(
        body.trim_end().lines().all(|l| l.starts_with("info ")),
        "{body}"
    );
    assert_eq!(response(&mut output).await, "=8 next\n\n");
    // A bare newline stops it too.
    input.write_all(b"stream\n").await.unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    input.write_all(b"\n").await.unwrap();
    let body = response(&mut output).await;
    assert!(body.starts_with("=\n") && body.ends_with("\n\n"), "{body}");
    drop(input);
    task.await.unwrap().unwrap();
}

#[tokio::test]
async fn shutdown_cancels_the_running_command_and_closes() {
    let (mut input, mut output, token, task) = start(64);
    input.write_all(b"wait\necho dropped\n").await.unwrap();
    tokio::time::sleep(Duration::from_millis(30)).await;
    token.cancel();
    let t = Instant::now();
    task.await.unwrap().unwrap();
    assert!(t.elapsed() < Duration::from_millis(500));
    let mut rest = String::new();
    loop {
        let r = response(&mut output).await;
        if r.is_empty() {
            break;
        }
        rest.push_str(&r);
    }
    assert!(!rest.contains("dropped"), "{rest}");
}

#[tokio::test]
async fn a_peer_that_does_not_read_is_not_buffered_without_bound() {
    let (mut client_in, server_in) = tokio::io::duplex(1024);
    let (server_out, client_out) = tokio::io::duplex(1024);
    let config = GtpConfig::default();
    let token = CancellationToken::new();
    let t = token.clone();
    let task = tokio::spawn(async move {
        run_session(server_in, server_out, Box::new(Mock), &config, t).await
    });
    let flood = b"echo x\n".repeat(200_000);
    let written =
        tokio::time::timeout(Duration::from_millis(500), client_in.write_all(&flood)).await;
    assert!(
        written.is_err(),
        "1.4 MB of input was taken without output being read"
    );
    token.cancel();
    drop(client_out);
    let _ = task.await;
}

/// An engine that works while idle until stopped, counting idle runs and stops.
struct Idler {
    started: Arc<std::sync::atomic::AtomicUsize>,
    stopped: Arc<std::sync::atomic::AtomicUsize>,
}

impl Engine for Idler {
    fn execute(
        &mut self,
        cmd: &RawCommand,
        _ctx: &mut CommandContext<'_>,
    ) -> Result<String, String> {
        Ok(cmd.args.join(" "))
    }
    fn idle(&mut self, stop: &CancelFlag) {
        use std::sync::atomic::Ordering::SeqCst;
        self.started.fetch_add(1, SeqCst);
        let start = Instant::now();
        while !stop.is_cancelled() && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.stopped.fetch_add(1, SeqCst);
    }
}

#[tokio::test]
async fn idle_work_runs_between_commands_and_stops_on_any_input() {
    use std::sync::atomic::Ordering::SeqCst;
    let (mut input, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, output) = tokio::io::duplex(1 << 16);
    let mut output = BufReader::new(output);
    let started = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let stopped = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let engine = Idler {
        started: started.clone(),
        stopped: stopped.clone(),
    };
    let task = tokio::spawn(async move {
        run_session(
            server_in,
            server_out,
            Box::new(engine),
            &GtpConfig::default(),
            CancellationToken::new(),
        )
        .await
    });
    // Pipelined commands: no idle work while another command waits.
    input.write_all(b"echo a\necho b\necho c\n").await.unwrap();
    for x in ["a", "b", "c"] {
        assert_eq!(response(&mut output).await, format!("= {x}\n\n"));
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(started.load(SeqCst), 1);
    assert_eq!(stopped.load(SeqCst), 0);
    // A command stops it at once and is answered.
    let t = Instant::now();
    input.write_all(b"echo d\n").await.unwrap();
    assert_eq!(response(&mut output).await, "= d\n\n");
    assert!(
        t.elapsed() < Duration::from_millis(100),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(stopped.load(SeqCst), 1);
    tokio::time::sleep(Duration::from_millis(30)).await;
    assert_eq!(started.load(SeqCst), 2);
    // A blank line stops it too; so does the end of input.
    input.write_all(b"\n").await.unwrap();
    tokio::time::sleep(Duration::from_millis(30)).await;
    assert_eq!(stopped.load(SeqCst), 2);
    input.write_all(b"echo e\n").await.unwrap();
    assert_eq!(response(&mut output).await, "= e\n\n");
    tokio::time::sleep(Duration::from_millis(30)).await;
    assert_eq!(started.load(SeqCst), 3);
    drop(input);
    tokio::time::timeout(Duration::from_secs(2), task)
        .await
        .expect("session ends at EOF while idle")
        .unwrap()
        .unwrap();
    assert_eq!(stopped.load(SeqCst), 3);
}

fn decode_all(codec: &mut GtpLineCodec, chunks: &[&[u8]]) -> Vec<RawLine> {
    let mut buf = BytesMut::new();
    let mut out = Vec::new();
    for chunk in chunks {
        buf.extend_from_slice(chunk);
        while let Some(line) = codec.decode(&mut buf).unwrap() {
            out.push(line);
        }
    }
    while let Some(line) = codec.decode_eof(&mut buf).unwrap() {
        out.push(line);
    }
    out
}

#[test]
fn codec_splits_lines_and_keeps_sync_after_long_ones() {
    let mut codec = GtpLineCodec::new(8);
    let lines = decode_all(
        &mut codec,
        &[
            b"name\n12 ",
            b"xxxxxxxxxxxx",
            b"xxxx\nver",
            b"sion\n0123456789\nlast",
        ],
    );
    assert_eq!(
        lines,
        vec![
            RawLine::Line(BytesMut::from(&b"name"[..])),
            RawLine::TooLong {
                prefix: b"12 xxxxxxxxxxxx".to_vec()
            },
            RawLine::Line(BytesMut::from(&b"version"[..])),
            RawLine::TooLong {
                prefix: b"0123456789".to_vec()
            },
            RawLine::Line(BytesMut::from(&b"last"[..])),
        ]
    );
}

#[test]
fn codec_reports_unterminated_long_line_at_eof() {
    let mut codec = GtpLineCodec::new(4);
    let lines = decode_all(&mut codec, &[b"abcdefgh"]);
    assert_eq!(
        lines,
        vec![RawLine::TooLong {
            prefix: b"abcdefgh".to_vec()
        }]
    );
}

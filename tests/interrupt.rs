//! Ctrl-C (SIGINT) in the command line: a run ends within half a second on every backend, with
//! exit status 130, no total and a line saying it was interrupted; `bench` also stops its peer.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const LATENCY: Duration = Duration::from_millis(500);

struct Interrupted {
    latency: Duration,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_vkperft"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

/// Runs `args`, sends SIGINT after `running_for` (when the run is surely under way), and
/// waits for the process to end.
fn interrupt(args: &[&str], running_for: Duration) -> Interrupted {
    let mut child = spawn(args);
    std::thread::sleep(running_for);
    assert!(
        child.try_wait().expect("the child's status").is_none(),
        "{args:?} ended before the signal: make the run longer"
    );
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let sent = Instant::now();
    let exit = loop {
        if let Some(exit) = child.try_wait().expect("the child's status") {
            break exit;
        }
        if sent.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("{args:?} did not end within 30 s of SIGINT");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let latency = sent.elapsed();
    let output = child.wait_with_output().expect("the output");
    Interrupted {
        latency,
        code: exit.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn assert_interrupted(args: &[&str], running_for: Duration) {
    let run = interrupt(args, running_for);
    assert_eq!(run.code, Some(130), "{args:?}: {}", run.stderr);
    assert!(
        run.latency < LATENCY,
        "{args:?} took {:?} to end after SIGINT",
        run.latency
    );
    // `bench` prints its finished rows as it goes, but no total row.
    let total = |line: &str| line.starts_with("Nodes searched") || line.starts_with("total");
    assert!(
        !run.stdout.lines().any(total),
        "{args:?} printed a total: {}",
        run.stdout
    );
    assert!(
        run.stderr.contains("interrupted") && run.stderr.contains("no total"),
        "{args:?}: {}",
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
}

#[test]
fn a_cpu_run_ends_at_once() {
    assert_interrupted(
        &["perft", "--depth", "9", "--backend", "cpu", "--tt", "off"],
        Duration::from_millis(1500),
    );
    assert_interrupted(
        &[
            "perft",
            "--depth",
            "9",
            "--backend",
            "cpu",
            "--tt",
            "fast",
            "--tt-mb",
            "64",
        ],
        Duration::from_millis(1500),
    );
}

/// The Vulkan backend stops between submissions, which stay short (lavapipe here).
#[test]
fn a_vulkan_run_ends_at_once() {
    for mode in ["off", "fast"] {
        assert_interrupted(
            &[
                "perft",
                "--depth",
                "10",
                "--backend",
                "vulkan",
                "--tt",
                mode,
                "--tt-mb",
                "64",
            ],
            Duration::from_millis(2500),
        );
    }
}

#[test]
fn perftree_ends_at_once() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_interrupted(&["perftree", "8", start], Duration::from_millis(1500));
}

/// `bench` stops between runs and kills its peer (Stockfish, installed by scripts/setup) if it
/// is counting.
#[test]
fn bench_ends_at_once_and_stops_its_peer() {
    assert_interrupted(
        &[
            "bench",
            "--backend",
            "cpu",
            "--tt",
            "off",
            "--peer",
            "stockfish",
        ],
        Duration::from_millis(2500),
    );
}

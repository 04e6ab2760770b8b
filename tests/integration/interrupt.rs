//! Ctrl-C: `perft`, `perftree` and `bench` end soon after SIGINT on every backend, with exit
//! status 130, no total, and a line on stderr that says so; a peer program of `bench` is killed
//! too, and so is the script `hunt` is waiting for, with what it started. The Vulkan cases need
//! a Vulkan device (lavapipe in CI).
//!
//! Each test starts a run that would go on for minutes or hours, sends SIGINT with `kill -INT`
//! at some moment of it (planning, table set-up or search, whichever it is in), and times the
//! exit from just after the signal. The bound only tells a run that reacts to the signal from
//! one that ignores it: it is generous for a machine that other work keeps busy (a loaded CI box
//! has taken over 5 s), and far below what an ignoring run would take (many minutes; the stand-in
//! peers and engines sleep for 10 minutes). How promptly a run stops on an idle machine is
//! measured by hand, not here. The tests take
//! turns: runs side by side on a small machine would slow each other's reaction to the signal.

#![cfg(unix)]

use crate::common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How soon after SIGINT a run must have ended, on a busy machine.
const BOUND: Duration = Duration::from_secs(30);

/// When the signal goes to a CPU run: counting, on an idle machine.
const CPU_START: Duration = Duration::from_millis(1_500);

/// When the signal goes to a Vulkan run: counting, on an idle machine (opening the device takes
/// about 0.5 s on lavapipe).
const VULKAN_START: Duration = Duration::from_millis(2_500);

/// When the signal goes to a run that is still setting up: its table and the host's plies of
/// its plan, or the device.
const EARLY: Duration = Duration::from_millis(200);

/// When a run that has not ended after the signal is killed and the test fails.
const GIVE_UP: Duration = Duration::from_secs(60);

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// An interrupted run: how long it took to end after the signal, and what it left.
struct Interrupted {
    latency: Duration,
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

fn start(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_vkperft"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

fn read_all(pipe: Option<impl Read>) -> String {
    let mut text = String::new();
    pipe.expect("a piped stream")
        .read_to_string(&mut text)
        .expect("UTF-8 output");
    text
}

/// Runs vkperft with `args`, sends SIGINT after `running_for`, and waits for the end.
fn interrupt(args: &[&str], running_for: Duration) -> Interrupted {
    signal(args, "INT", running_for)
}

/// Runs vkperft with `args`, sends `signal` (`INT`, `TERM`, `HUP`) after `running_for`, and
/// waits for the end.
fn signal(args: &[&str], signal: &str, running_for: Duration) -> Interrupted {
    let mut child = start(args);
    std::thread::sleep(running_for);
    if let Some(status) = child.try_wait().expect("the child can be polled") {
        panic!(
            "{args:?} ended ({status}) before the signal: {}",
            read_all(child.stderr.take())
        );
    }
    let kill = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    let sent = Instant::now();
    assert!(kill.success(), "kill -{signal} failed: {kill}");
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child can be polled") {
            break status;
        }
        if sent.elapsed() > GIVE_UP {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} still running {GIVE_UP:?} after SIG{signal}");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let latency = sent.elapsed();
    let run = Interrupted {
        latency,
        status,
        stdout: read_all(child.stdout.take()),
        stderr: read_all(child.stderr.take()),
    };
    eprintln!(
        "{args:?}: ended {:.0} ms after SIG{signal}, {}; stderr: {}",
        latency.as_secs_f64() * 1e3,
        run.status,
        run.stderr.trim()
    );
    run
}

/// Ended in time with 130, without a total, saying it was interrupted.
fn assert_interrupted(args: &[&str], run: &Interrupted) {
    assert_eq!(
        run.status.code(),
        Some(130),
        "{args:?}: {}; stderr: {}",
        run.status,
        run.stderr
    );
    assert!(
        run.latency < BOUND,
        "{args:?} took {:?} to end after SIGINT",
        run.latency
    );
    assert!(
        run.stderr.contains("interrupted") && run.stderr.contains("no total"),
        "{args:?}: {}",
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "{args:?}: {}", run.stderr);
    for total in ["Nodes searched", "total"] {
        assert!(
            !run.stdout.contains(total),
            "{args:?} printed a total: {}",
            run.stdout
        );
    }
}

fn perft_is_interrupted(args: &[&str], running_for: Duration) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let run = interrupt(args, running_for);
    assert_interrupted(args, &run);
    assert_eq!(run.stdout, "", "{args:?}");
}

#[test]
fn cpu_perft_ends_on_sigint() {
    let args = ["perft", "--depth", "9", "--backend", "cpu", "--tt", "off"];
    perft_is_interrupted(&args, CPU_START);
}

/// The table's search stops inside its subtrees too, however deep the work items are.
#[test]
fn deep_cpu_perft_with_a_table_ends_on_sigint() {
    let args = ["perft", "--depth", "11", "--backend", "cpu", "--tt", "fast"];
    perft_is_interrupted(&args, CPU_START);
}

/// A deep run with a table, interrupted while it sets up: its table, the host's plies of its
/// plan (their transpositions merged, on Vulkan) and, on Vulkan, the device's pipelines.
#[test]
fn deep_perft_ends_on_sigint_while_it_sets_up() {
    for backend in ["cpu", "vulkan"] {
        let args = [
            "perft",
            "--depth",
            "11",
            "--backend",
            backend,
            "--tt",
            "fast",
        ];
        perft_is_interrupted(&args, EARLY);
    }
}

#[test]
fn vulkan_perft_ends_on_sigint() {
    let args = [
        "perft",
        "--depth",
        "9",
        "--backend",
        "vulkan",
        "--tt",
        "off",
    ];
    perft_is_interrupted(&args, VULKAN_START);
}

#[test]
fn vulkan_perft_with_a_table_ends_on_sigint() {
    let args = [
        "perft",
        "--depth",
        "9",
        "--backend",
        "vulkan",
        "--tt",
        "fast",
    ];
    perft_is_interrupted(&args, VULKAN_START);
}

#[test]
fn perftree_ends_on_sigint() {
    let args = [
        "perftree",
        "9",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ];
    perft_is_interrupted(&args, CPU_START);
}

#[test]
fn bench_ends_on_sigint() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // Deep enough to be running at the signal, and for many minutes after it: the whole
    // default set takes about a second.
    let args = [
        "bench",
        "--backend",
        "cpu",
        "--position",
        "startpos",
        "--depth",
        "9",
    ];
    let run = interrupt(&args, CPU_START);
    assert_interrupted(&args, &run);
    assert!(run.stdout.starts_with("vkperft bench"), "{}", run.stdout);
}

/// A stand-in for Stockfish that answers the handshake and then never ends `go perft`.
fn stuck_peer(dir: &Path) -> (PathBuf, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).expect("a scratch directory");
    let pid_file = dir.join("peer.pid");
    let script = dir.join("stuck-peer");
    let text = format!(
        "#!/bin/sh\n\
         echo $$ > '{}'\n\
         while read -r line; do\n\
           case \"$line\" in\n\
             uci) echo 'id name stuck'; echo uciok ;;\n\
             isready) echo readyok ;;\n\
             'go perft'*) exec sleep 600 ;;\n\
             quit) exit 0 ;;\n\
           esac\n\
         done\n",
        pid_file.display()
    );
    std::fs::write(&script, text).expect("the script is written");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
        .expect("the script is executable");
    (script, pid_file)
}

/// Interrupts `bench` with its peer given as `peer_flag peer_arg` while the peer counts, and
/// checks that the peer (whose pid is in `pid_file`) was killed.
fn assert_bench_kills_its_peer(dir: &Path, peer_flag: &str, peer_arg: &str, pid_file: &Path) {
    let args = [
        "bench",
        "--backend",
        "cpu",
        "--quick",
        "--position",
        "startpos",
        peer_flag,
        peer_arg,
    ];
    let run = interrupt(&args, CPU_START);
    assert_interrupted(&args, &run);
    let pid = std::fs::read_to_string(pid_file).expect("the peer started");
    let alive = Command::new("kill")
        .args(["-0", pid.trim()])
        .stderr(Stdio::null())
        .status()
        .expect("kill runs");
    let _ = std::fs::remove_dir_all(dir);
    assert!(
        !alive.success(),
        "the peer (pid {}) is still running",
        pid.trim()
    );
}

#[test]
fn bench_kills_a_running_peer_on_sigint() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("vkperft-interrupt-{}", std::process::id()));
    let (peer, pid_file) = stuck_peer(&dir);
    let peer = peer.to_str().expect("a UTF-8 path").to_string();
    assert_bench_kills_its_peer(&dir, "--peer", &peer, &pid_file);
}

/// The first SIGINT ends `bench` while a UCI engine given as `--peer-bin stockfish=` counts,
/// one whose handshake is not UTF-8 (an author name in Latin-1), and the engine is killed.
#[test]
fn bench_kills_a_running_uci_peer_bin_on_the_first_sigint() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("vkperft-interrupt-uci-{}", std::process::id()));
    let (peer, pid_file) = stuck_peer(&dir);
    let script = std::fs::read_to_string(&peer).expect("the script");
    let latin1 = script.replace("echo 'id name stuck'", "printf 'id author J\\366rg\\n'");
    assert_ne!(latin1, script);
    std::fs::write(&peer, latin1).expect("the script is written");
    let peer = format!("stockfish={}", peer.to_str().expect("a UTF-8 path"));
    assert_bench_kills_its_peer(&dir, "--peer-bin", &peer, &pid_file);
}

/// A stand-in for a peer run once per position (`--peer-bin`) that never ends its count.
fn sleeping_peer(dir: &Path) -> (PathBuf, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).expect("a scratch directory");
    let pid_file = dir.join("peer-bin.pid");
    let script = dir.join("sleeping-peer");
    let text = format!(
        "#!/bin/sh\necho $$ > '{}'\nexec sleep 600\n",
        pid_file.display()
    );
    std::fs::write(&script, text).expect("the script is written");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
        .expect("the script is executable");
    (script, pid_file)
}

#[test]
fn bench_kills_a_running_peer_bin_on_sigint() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("vkperft-interrupt-bin-{}", std::process::id()));
    let (peer, pid_file) = sleeping_peer(&dir);
    let peer = format!("mperft={}", peer.to_str().expect("a UTF-8 path"));
    assert_bench_kills_its_peer(&dir, "--peer-bin", &peer, &pid_file);
}

/// `hunt` ends at once on SIGINT and kills the script call under way, which runs in a process
/// group of its own, with the engine it started.
#[test]
fn hunt_kills_its_script_on_sigint() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (script, pid_file) = common::script_with_child("interrupt-hunt", "sleep 600", "wait");
    let command = format!("sh {}", script.display());
    let args = ["hunt", "--script", &command, "--depth", "2"];
    let run = interrupt(&args, CPU_START);
    assert_eq!(run.status.code(), Some(130), "{}", run.stderr);
    assert!(run.latency < BOUND, "took {:?} to end", run.latency);
    assert!(run.stderr.contains("interrupted"), "{}", run.stderr);
    common::assert_child_ended(&pid_file);
}

/// `suite` ends on SIGINT and kills the script calls under way over both jobs, with the
/// engines they started.
#[test]
fn suite_kills_its_engines_on_sigint() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (script, pid_file) = common::script_with_child("interrupt-suite", "sleep 600", "wait");
    let suite = pid_file.with_file_name("suite.epd");
    std::fs::write(
        &suite,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n",
    )
    .expect("the suite is written");
    let command = format!("sh {}", script.display());
    let suite = suite.display().to_string();
    let args = ["suite", &suite, "--script", &command, "--jobs", "2"];
    let run = interrupt(&args, CPU_START);
    assert_eq!(run.status.code(), Some(130), "{}", run.stderr);
    assert!(run.latency < BOUND, "took {:?} to end", run.latency);
    assert!(run.stderr.contains("interrupted"), "{}", run.stderr);
    assert!(!run.stdout.contains("checks:"), "no report: {}", run.stdout);
    common::assert_child_ended(&pid_file);
}

/// SIGTERM and SIGHUP (`timeout`, CI runners, Slurm, systemd, a closed terminal) stop `hunt` and
/// `suite` as SIGINT does: the script calls under way are killed with what they started.
#[test]
fn hunt_and_suite_kill_their_engines_on_sigterm_and_sighup() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for name in ["TERM", "HUP"] {
        let (script, pid_file) =
            common::script_with_child(&format!("term-hunt-{name}"), "sleep 600", "wait");
        let command = format!("sh {}", script.display());
        let args = ["hunt", "--script", &command, "--depth", "2"];
        let run = signal(&args, name, CPU_START);
        assert_eq!(run.status.code(), Some(130), "{name}: {}", run.stderr);
        common::assert_child_ended(&pid_file);

        let (script, pid_file) =
            common::script_with_child(&format!("term-suite-{name}"), "sleep 600", "wait");
        let suite = pid_file.with_file_name("suite.epd");
        std::fs::write(
            &suite,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n",
        )
        .expect("the suite is written");
        let command = format!("sh {}", script.display());
        let suite = suite.display().to_string();
        let args = ["suite", &suite, "--script", &command, "--jobs", "2"];
        let run = signal(&args, name, CPU_START);
        assert_eq!(run.status.code(), Some(130), "{name}: {}", run.stderr);
        assert!(run.stderr.contains("interrupted"), "{name}: {}", run.stderr);
        common::assert_child_ended(&pid_file);
    }
}

/// The entries of `dir`, by name.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("a folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// `unique` and `work split` stopped by SIGINT or SIGTERM while they sort (ply 7 with a small
/// budget runs for minutes) exit 130 and leave nothing: no scratch folder in `--tmp-dir`, no
/// plan folder. A split killed outright (SIGKILL) leaves a folder without a manifest, which the
/// next split into it clears and completes.
#[test]
fn unique_and_split_leave_no_scratch_when_stopped() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("vkperft-stop-scratch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).expect("a folder");
    let tmp_arg = tmp.display().to_string();
    let plan = dir.join("plan");
    let plan_arg = plan.display().to_string();
    for name in ["INT", "TERM"] {
        let args = [
            "unique",
            "--depth",
            "7",
            "--mem-mb",
            "8",
            "--tmp-dir",
            &tmp_arg,
        ];
        let run = signal(&args, name, CPU_START);
        assert_eq!(run.status.code(), Some(130), "{name}: {}", run.stderr);
        assert_eq!(
            entries(&tmp),
            Vec::<String>::new(),
            "{name}: unique's scratch"
        );

        let args = [
            "work",
            "split",
            "--depth",
            "9",
            "--split-ply",
            "7",
            "--mem-mb",
            "8",
            "--out",
            &plan_arg,
        ];
        let run = signal(&args, name, CPU_START);
        assert_eq!(run.status.code(), Some(130), "{name}: {}", run.stderr);
        assert!(!plan.exists(), "{name}: {:?}", entries(&plan));
    }

    let mut killed = start(&[
        "work",
        "split",
        "--depth",
        "9",
        "--split-ply",
        "7",
        "--mem-mb",
        "8",
        "--out",
        &plan_arg,
    ]);
    std::thread::sleep(CPU_START);
    killed.kill().expect("killed");
    killed.wait().expect("waited");
    let left = entries(&plan);
    assert!(
        !left.is_empty() && !left.contains(&"manifest.json".to_string()),
        "{left:?}"
    );
    let again = common::run_vkperft(
        &[
            "work",
            "split",
            "--depth",
            "5",
            "--split-ply",
            "2",
            "--out",
            &plan_arg,
        ],
        &[],
    );
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(entries(&plan), ["manifest.json", "shard-00000.jsonl"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `suite --generate` stops on the first SIGINT (exit 130) and writes no file.
#[test]
fn suite_generate_ends_on_the_first_sigint() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let out = std::env::temp_dir().join(format!("vkperft-generate-{}.epd", std::process::id()));
    let out_arg = out.display().to_string();
    let args = [
        "suite",
        "--generate",
        "100000",
        "--depth",
        "5",
        "--out",
        &out_arg,
    ];
    let run = interrupt(&args, CPU_START);
    assert_eq!(run.status.code(), Some(130), "{}", run.stderr);
    assert!(run.latency < BOUND, "took {:?} to end", run.latency);
    assert!(!out.exists(), "a file was written");
}

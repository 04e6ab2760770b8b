//! Shards under a scheduler: idempotent tasks and `work slurm`'s scripts and errors.

use super::*;

/// `work run --shard-from-env`: the shard a scheduler puts in a variable, checked; two
/// processes on one shard at once each journal a file of their own and merge counts each
/// unit once; a task started again on a finished shard computes nothing.
#[test]
fn scheduler_tasks_are_idempotent() {
    let folder = Folder::new("tasks");
    let plan = folder.plan("p");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    split(&plan, start, 6, 2, &["--shards", "2"]);
    let args = [
        "work",
        "run",
        &plan,
        "--shard-from-env",
        "TASK_INDEX",
        "--backend",
        "cpu",
        "--threads",
        "1",
        "--tt",
        "off",
    ];
    let unset = vkperft(&args);
    assert_eq!(unset.code, 2, "{}", unset.stderr);
    assert!(
        unset.stderr.contains("TASK_INDEX is not set"),
        "{}",
        unset.stderr
    );
    for (value, message) in [
        ("x", "TASK_INDEX=\"x\" is not a shard number"),
        ("2", "shard 2 does not exist: the plan has shards 0..2"),
    ] {
        let run = run_vkperft(&args, &[("TASK_INDEX", value)]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains(message), "{}", run.stderr);
    }
    refused(
        &[&args[..], &["--shard", "0"]].concat(),
        2,
        "cannot be used with",
    );

    let twins: Vec<_> = (0..2)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_vkperft"))
                .args(args)
                .env("TASK_INDEX", "0")
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("the binary starts")
        })
        .collect();
    for twin in twins {
        let output = twin.wait_with_output().expect("ends");
        assert!(output.status.success());
    }
    let again = run_vkperft(&args, &[("TASK_INDEX", "0")]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again
            .stdout
            .starts_with("0 units computed, 200 already journaled"),
        "{}",
        again.stdout
    );
    let status = json(&["work", "status", &plan, "--json"]);
    assert_eq!(status["shards_complete"], 1);
    assert_eq!(status["done"], 200);
    let other = run_vkperft(&args, &[("TASK_INDEX", "1")]);
    assert_eq!(other.code, 0, "{}", other.stderr);
    // Each twin journals the units it found unjournaled when it started: all 200 when they
    // start together, fewer (or none, and no journal) when one runs well before the other.
    let journals = journal_lines(&plan);
    let lines = journals.concat().len();
    assert!(
        (2..=3).contains(&journals.len()),
        "{} journals",
        journals.len()
    );
    assert!(
        (400..=600).contains(&lines),
        "shard 0 once or twice and shard 1 once: {lines} records"
    );
    let status = json(&["work", "status", &plan, "--json"]);
    assert_eq!(status["conflicts"], 0);
    let merged = json(&["work", "merge", &plan, "--json"]);
    assert_eq!(big(&merged["nodes"]), 119_060_324);
    assert_eq!(merged["units"], 400);
}

/// `work slurm` without a cluster: `--dry-run` prints the scripts and writes nothing; a
/// missing or failing sbatch is an error that says so (exit 1); a value that would break the
/// script is refused (exit 2); a complete plan submits nothing.
#[test]
fn slurm_dry_runs_and_scheduler_errors() {
    use std::os::unix::fs::PermissionsExt;
    let folder = Folder::new("slurm");
    let plan = folder.plan("p");
    split(&plan, KIWIPETE, 3, 1, &["--shards", "2"]);
    let options = ["--backend", "cpu", "--threads", "2", "--tt-mb", "64"];
    let options = [&options[..], &["--max-parallel", "4"]].concat();
    let dry = ok(&[&["work", "slurm", &plan, "--dry-run"][..], &options].concat());
    let canonical = std::fs::canonicalize(&plan).expect("the plan");
    let plan_dir = canonical.display();
    let program = std::fs::canonicalize(env!("CARGO_BIN_EXE_vkperft")).expect("the binary");
    for expected in [
        "2 shards to submit: 0-1 (of 2)\n".to_string(),
        "#SBATCH --array=0-1%4\n".to_string(),
        format!("#SBATCH --output={plan_dir}/slurm/%A_%a.log\n"),
        "#SBATCH --cpus-per-task=2\n".to_string(),
        format!(
            "exec {} work run {plan_dir} --shard-from-env SLURM_ARRAY_TASK_ID --backend cpu --tt fast --submissions auto --tt-split distinct --verifier-bits 64 --zobrist-seed 0x766b7065726674 --threads 2 --tt-mb 64\n",
            program.display()
        ),
        format!("#SBATCH --output={plan_dir}/slurm/merge-%j.log\n"),
        format!("work merge {plan_dir} --divide\n"),
        format!("$ sbatch --parsable --dependency=afterany:<array job> {plan_dir}/slurm/merge.sbatch\n"),
    ] {
        assert!(dry.stdout.contains(&expected), "{expected}\nin\n{}", dry.stdout);
    }
    assert!(
        dry.stdout.starts_with("2 shards to submit"),
        "{}",
        dry.stdout
    );
    assert!(!Path::new(&plan).join("slurm").exists());

    let nowhere = run_vkperft(&["work", "slurm", &plan], &[("PATH", "/nonexistent")]);
    assert_eq!(nowhere.code, 1, "{}", nowhere.stderr);
    assert!(
        nowhere.stderr.contains("sbatch not found"),
        "{}",
        nowhere.stderr
    );

    let bin = folder.0.join("bin");
    std::fs::create_dir_all(&bin).expect("a folder");
    let sbatch = bin.join("sbatch");
    let fake = "#!/bin/sh\necho 'sbatch: error: invalid partition specified: gpu' >&2\nexit 1\n";
    std::fs::write(&sbatch, fake).expect("written");
    std::fs::set_permissions(&sbatch, std::fs::Permissions::from_mode(0o755)).expect("mode");
    let bin_path = bin.to_string_lossy();
    let failed = run_vkperft(
        &["work", "slurm", &plan, "--partition", "gpu"],
        &[("PATH", &bin_path)],
    );
    assert_eq!(failed.code, 1, "{}", failed.stderr);
    assert!(
        failed.stderr.contains("`sbatch --parsable ")
            && failed
                .stderr
                .contains("sbatch: error: invalid partition specified: gpu"),
        "{}",
        failed.stderr
    );
    std::fs::write(&sbatch, "#!/bin/sh\necho Submitted\n").expect("written");
    let garbled = run_vkperft(&["work", "slurm", &plan], &[("PATH", &bin_path)]);
    assert_eq!(garbled.code, 1, "{}", garbled.stderr);
    assert!(
        garbled
            .stderr
            .contains("printed \"Submitted\", not a job id"),
        "{}",
        garbled.stderr
    );
    refused(
        &["work", "slurm", &plan, "--poll-seconds", "1"],
        2,
        "--wait",
    );
    refused(
        &[
            "work",
            "slurm",
            &plan,
            "--partition",
            "gpu\necho",
            "--dry-run",
        ],
        2,
        "cannot hold a line break",
    );

    ok(&["work", "run", &plan, "--backend", "cpu", "--threads", "1"]);
    // A plan folder whose path holds a space: the sbatch commands quote it.
    let spaced = folder.plan("p q");
    split(&spaced, KIWIPETE, 3, 1, &[]);
    let dry = ok(&["work", "slurm", &spaced, "--dry-run"]);
    let spaced_dir = std::fs::canonicalize(&spaced).expect("the plan");
    assert!(
        dry.stdout.contains(&format!(
            "$ sbatch --parsable --dependency=afterany:<array job> '{}/slurm/merge.sbatch'\n",
            spaced_dir.display()
        )),
        "{}",
        dry.stdout
    );

    let done = ok(&["work", "slurm", &plan, "--dry-run"]);
    assert_eq!(
        done.stdout,
        format!("0 shards to submit: all 2 shards of {plan_dir} are complete\n")
    );
}

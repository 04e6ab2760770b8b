//! `vkperft suite`: perft suites (EPD, `.perft`, tab-separated) run against vkperft or the
//! user's engine, each failure walked to the first wrong position, and with `--stats` the
//! move-type statistics an EPD line gives compared with vkperft's; and `suite --generate`,
//! which writes a suite of random positions with vkperft's counts (and statistics).

use super::args::RunOptions;
use super::error::{CliError, CliResult};
use super::interrupt;
use super::output;
use super::suite_progress::SuiteProgress;
use anyhow::anyhow;
use clap::{ArgGroup, Args};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use vkperft::backend::MAX_DEPTH;
use vkperft::chess::parse_seed;
use vkperft::engine::{all_cores, Engine};
use vkperft::hunt::EngineCommand;
use vkperft::suite::{
    self, DepthChoice, GenerateSettings, PositionResult, RunError, RunSettings, Subject, SuiteFile,
    Summary, Verdict, DEFAULT_MAX_NODES,
};

/// Engine queries one failure's walk may make unless `--max-queries` says otherwise.
const DEFAULT_MAX_QUERIES: usize = 64;
/// Seconds one engine answer may take unless `--timeout-s` says otherwise.
const DEFAULT_TIMEOUT_S: u64 = 60;

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("engine").args(["uci", "script"])))]
pub struct SuiteArgs {
    /// Suite files: EPD (`FEN ;D1 20 ;D2 400`), `.perft` (`id`/`epd`/`perft D N` lines) or
    /// tab-separated (`FEN<TAB>depth<TAB>nodes`, or columns a header names).
    #[arg(value_name = "FILE", required_unless_present = "generate")]
    pub files: Vec<PathBuf>,
    /// Check this UCI engine (a shell command line that answers `go perft N`) instead of vkperft.
    #[arg(long)]
    pub uci: Option<String>,
    /// Check this perftree-style script (`CMD depth fen moves`) instead of vkperft.
    #[arg(long)]
    pub script: Option<String>,
    /// Run only this depth of every position (where the file gives no count there, vkperft's
    /// exact count is expected). With --generate: the depth of the counts written.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Run every depth whose count is at most N nodes [default: 10000000].
    #[arg(long, value_name = "N", conflicts_with = "depth")]
    pub max_nodes: Option<u128>,
    /// Chess960 notation for every position (a FEN whose castling rights need it switches to
    /// it by itself).
    #[arg(long)]
    pub chess960: bool,
    /// Pass over lines that are not part of the suite (and positions that are illegal), listing
    /// them, instead of stopping at the first with exit 2.
    #[arg(long)]
    pub skip_bad: bool,
    /// Engine processes at once [default: every core].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub jobs: Option<u32>,
    /// Seconds one engine query may take; an engine that overruns it is killed and restarted.
    #[arg(long, default_value_t = DEFAULT_TIMEOUT_S)]
    pub timeout_s: u64,
    /// Engine queries the walk of one failure may make.
    #[arg(long, default_value_t = DEFAULT_MAX_QUERIES)]
    pub max_queries: usize,
    /// Report failures without walking them to the wrong position.
    #[arg(long)]
    pub no_drill_down: bool,
    /// Print one JSON object (`summary`, `skipped`, `results`) instead of the report.
    #[arg(long)]
    pub json: bool,
    /// Also write the results as JUnit XML to FILE, one test case per position and depth.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write a suite of N distinct positions from seeded random games, with vkperft's exact
    /// counts to --depth (and with --stats the Grand Chess Tree's statistics columns), as EPD to
    /// --out.
    #[arg(long, value_name = "N", conflicts_with_all = ["files", "uci", "script", "json", "junit"])]
    pub generate: Option<usize>,
    /// The seed of the generated games (decimal or 0x-hex).
    #[arg(long, requires = "generate", value_parser = seed_arg, default_value = "1")]
    pub seed: u64,
    /// The file a generated suite is written to.
    #[arg(long, value_name = "FILE", requires = "generate")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub run: RunOptions,
}

fn seed_arg(text: &str) -> Result<u64, String> {
    parse_seed(text).map_err(|err| err.to_string())
}

pub fn run(args: &SuiteArgs) -> CliResult {
    args.run.check()?;
    if args.run.stats && (args.uci.is_some() || args.script.is_some()) {
        return Err(CliError::input(anyhow!(
            "--stats: only vkperft counts statistics; --uci and --script engines give divides \
             only (drop --stats to check their counts)"
        )));
    }
    if let Some(depth) = args.depth {
        if depth == 0 || depth > MAX_DEPTH {
            return Err(CliError::input(anyhow!("--depth must be 1 to {MAX_DEPTH}")));
        }
    }
    match args.generate {
        Some(count) => generate(args, count),
        None => run_files(args),
    }
}

fn generate(args: &SuiteArgs, count: usize) -> CliResult {
    let (Some(depth), Some(out)) = (args.depth, &args.out) else {
        return Err(CliError::input(anyhow!(
            "--generate needs --depth and --out"
        )));
    };
    if count == 0 {
        return Err(CliError::input(anyhow!(
            "--generate needs at least 1 position"
        )));
    }
    let settings = GenerateSettings {
        count,
        depth,
        seed: args.seed,
        chess960: args.chess960,
        stats: args.run.stats,
    };
    let started = Instant::now();
    let mut progress = SuiteProgress::new(count);
    let positions = suite::generate(&settings, args.run.thread_count(), &mut |done| {
        progress.set(done, "positions generated".into());
        if interrupt::requested() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    progress.finish();
    // Stopped by a signal: no file is written.
    let Some(positions) = positions else {
        return Err(CliError::Interrupted {
            elapsed: Some(started.elapsed()),
            nodes: None,
        });
    };
    std::fs::write(out, suite::epd_text(&positions))
        .map_err(|error| CliError::input(anyhow!("cannot write {}: {error}", out.display())))?;
    let what = if args.run.stats {
        "counts and statistics"
    } else {
        "counts"
    };
    output::write_stdout(&format!(
        "wrote {count} positions with {what} to depth {depth} to {} (seed {})\n",
        out.display(),
        args.seed
    ))
}

fn run_files(args: &SuiteArgs) -> CliResult {
    let files: Vec<SuiteFile> = args
        .files
        .iter()
        .map(|file| suite::read_suite_file(file, args.skip_bad))
        .collect::<Result<_, _>>()
        .map_err(CliError::input)?;
    let skipped: Vec<suite::SkippedLine> =
        files.iter().flat_map(|file| file.skipped.clone()).collect();
    let choice = match args.depth {
        Some(depth) => DepthChoice::Only(depth),
        None => DepthChoice::MaxNodes(args.max_nodes.unwrap_or(DEFAULT_MAX_NODES)),
    };
    let selection = suite::select(&files, choice);
    let subject = match (&args.uci, &args.script) {
        (Some(uci), _) => Subject::Engine(EngineCommand::Uci(uci.clone())),
        (None, Some(script)) => Subject::Engine(EngineCommand::Script(script.clone())),
        // The position is a stand-in: each query sets its own.
        (None, None) => Subject::Vkperft {
            engine: Engine::spawn(None),
            spec: args.run.spec(vkperft::chess::Position::startpos(), 1),
        },
    };
    let settings = RunSettings {
        jobs: args.jobs.map_or_else(all_cores, |jobs| jobs as usize),
        timeout: Duration::from_secs(args.timeout_s.max(1)),
        max_queries: args.max_queries,
        drill_down: !args.no_drill_down,
        chess960: args.chess960,
        threads: args.run.thread_count(),
    };
    let started = Instant::now();
    let mut progress = SuiteProgress::new(selection.tasks.len());
    let mut done = 0;
    let mut failures = 0;
    let outcome = suite::run_suite(
        &selection.tasks,
        &subject,
        &settings,
        &interrupt::requested,
        &mut |_, result| {
            done += 1;
            failures += usize::from(!matches!(result.verdict, Verdict::Passed));
            progress.set(done, format!("checks, {failures} not passed"));
        },
    );
    progress.finish();
    let results = match outcome {
        Ok(results) => results,
        Err(RunError::Interrupted { .. }) => {
            return Err(CliError::Interrupted {
                elapsed: Some(started.elapsed()),
                nodes: None,
            })
        }
        Err(error @ RunError::EngineCannotStart(_)) => return Err(CliError::runtime(error)),
    };
    let summary = Summary::of(
        &results,
        skipped.len(),
        selection.depths_left_out,
        started.elapsed().as_secs_f64(),
    );
    if let Some(junit) = &args.junit {
        std::fs::write(junit, suite::junit_xml(&summary, &results)).map_err(|error| {
            CliError::runtime(anyhow!("cannot write {}: {error}", junit.display()))
        })?;
    }
    if args.json {
        let json = suite::suite_json(&summary, &skipped, &results);
        output::write_stdout(&format!("{json}\n"))?;
    } else {
        output::write_stdout(&report_text(&summary, &skipped, &results))?;
    }
    exit_status(&summary, args.skip_bad)
}

/// 5 when a count is wrong, else 1 when the engine failed, else 2 for an illegal position
/// (unless `--skip-bad`) or when nothing was checked, else 0.
fn exit_status(summary: &Summary, skip_bad: bool) -> CliResult {
    if summary.total() == 0 {
        return Err(CliError::input(anyhow!(
            "nothing was checked: the files give no count at a depth the run may take \
             (--depth, --max-nodes; a FEN without counts needs --depth)"
        )));
    }
    if summary.failed > 0 {
        return Err(CliError::SuiteFailed(format!(
            "{} of {} checks failed",
            summary.failed,
            summary.total()
        )));
    }
    if summary.engine_errors > 0 {
        return Err(CliError::runtime(anyhow!(
            "the engine failed on {} of {} checks",
            summary.engine_errors,
            summary.total()
        )));
    }
    if summary.refused > 0 && !skip_bad {
        return Err(CliError::input(anyhow!(
            "{} checks refused (illegal positions or depths); --skip-bad passes over them",
            summary.refused
        )));
    }
    Ok(())
}

/// Every result that did not pass, in file order, then the summary.
fn report_text(
    summary: &Summary,
    skipped: &[suite::SkippedLine],
    results: &[PositionResult],
) -> String {
    let mut text = String::new();
    for bad in skipped {
        text.push_str(&format!("SKIPPED {}: {}\n", bad.location, bad.problem));
    }
    for result in results.iter().filter(|r| !r.passed()) {
        let label = match result.verdict {
            Verdict::Failed(_) => "FAIL",
            Verdict::Refused(_) => "REFUSED",
            Verdict::EngineError(_) => "ERROR",
            Verdict::Passed => unreachable!("filtered out"),
        };
        let task = &result.task;
        // A position without an id is called by its file and line already.
        let place = task.location.to_string();
        let place = if task.id == place {
            String::new()
        } else {
            format!(" ({place})")
        };
        text.push_str(&format!(
            "{label} {} depth {}{place}: {}\n  {}\n",
            task.id,
            task.depth,
            suite::headline(result),
            task.fen
        ));
        for line in suite::drill_text(result).lines() {
            text.push_str(&format!("  {line}\n"));
        }
    }
    text.push_str(&summary_text(summary));
    text
}

fn summary_text(summary: &Summary) -> String {
    let mut text = format!(
        "{} checks: {} passed, {} failed, {} refused, {} engine errors in {:.1} s",
        summary.total(),
        summary.passed,
        summary.failed,
        summary.refused,
        summary.engine_errors,
        summary.seconds
    );
    if summary.depths_left_out > 0 {
        text.push_str(&format!(
            "; {} depths left out (--max-nodes, --depth)",
            summary.depths_left_out
        ));
    }
    if summary.skipped_lines > 0 {
        text.push_str(&format!("; {} bad lines skipped", summary.skipped_lines));
    }
    if summary.stats_compared > 0 {
        text.push_str(&format!("; {} statistics compared", summary.stats_compared));
    }
    if summary.stats_not_compared > 0 {
        text.push_str(&format!(
            "; {} statistics not compared (--stats compares them)",
            summary.stats_not_compared
        ));
    }
    text.push('\n');
    text
}

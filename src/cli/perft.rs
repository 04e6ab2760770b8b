//! `vkperft perft` and `vkperft perftree`, and how every command runs a job.

use super::args::{PerftArgs, PerftreeArgs, PositionArgs};
use super::error::{CliError, CliResult};
use super::interrupt;
use super::output;
use super::progress::ProgressDisplay;
use super::progress_log::ProgressLog;
use anyhow::anyhow;
use std::collections::HashSet;
use std::time::{Duration, Instant};
use vkperft::chess::fen::START_FEN;
use vkperft::chess::rng::SplitMix64;
use vkperft::chess::{uci, CastlingNotation, Position};
use vkperft::engine::{BackendChoice, BlockingEnd, Engine, Event, JobSpec, PerftResult, Progress};
use vkperft::tt::TtMode;

pub fn run_perft(args: &PerftArgs) -> CliResult {
    args.run.check()?;
    let position = start_position(&args.position)?;
    let spec = args.run.spec(position, args.depth);
    let mut runner = Runner::new();
    let mut log = args
        .progress_log
        .as_deref()
        .map(ProgressLog::create)
        .transpose()?;
    let mut run = |runner: &mut Runner, spec: &JobSpec| {
        let mut display = ProgressDisplay::new(!args.json);
        let outcome = runner.run_observed(spec, false, &mut |progress| {
            display.update(progress);
            if let Some(log) = log.as_mut() {
                log.record(progress);
            }
        });
        display.finish();
        outcome
    };
    let result = run(&mut runner, &spec)?;
    let cross_check = if args.cross_check {
        let second = JobSpec {
            zobrist_seed: independent_seed(spec.zobrist_seed),
            ..spec
        };
        Some(run(&mut runner, &second)?)
    } else {
        None
    };
    if let Some(log) = log {
        log.finish()?;
    }
    if args.json {
        let json = output::perft_json(&result, args.divide, cross_check.as_ref());
        output::write_stdout(&format!("{json}\n"))?;
    } else {
        output::write_stdout(&output::perft_text(&result, args.divide))?;
        // With --divide, stdout stays exactly Stockfish's format.
        let details = output::details_text(&result, cross_check.as_ref());
        if args.divide {
            output::write_stderr(&format!(
                "{}{}{}{details}",
                result.stats_text(),
                result.stats_divide_text(),
                result.timing_text()
            ));
        } else {
            output::write_stdout(&details)?;
        }
    }
    if let Some(risk) = result
        .tt
        .as_ref()
        .and_then(|tt| tt.count_at_risk(result.counts.nodes))
    {
        output::write_stderr(&format!(
            "warning: the count may be wrong: this fast table expected {:.3e} false hits with \
             {} verifier bits (P(any) {:.3e}); rerun with --tt verified or --tt certify to count \
             exactly\n",
            risk.expected_false_hits, risk.verifier_bits, risk.p_false_hit
        ));
    }
    match cross_check {
        Some(second) if !output::agrees(&result, &second) => Err(CliError::Mismatch(anyhow!(
            "cross-check failed: {} nodes with Zobrist seed {:#x}, {} with seed {:#x} (or \
                 their move-type statistics differ)",
            result.counts.nodes,
            result.zobrist_seed,
            second.counts.nodes,
            second.zobrist_seed
        ))),
        _ => Ok(()),
    }
}

/// A second seed whose keys are independent of the first's.
fn independent_seed(seed: u64) -> u64 {
    SplitMix64::new(seed ^ 0x6372_6f73_732d_6368).next_u64()
}

pub fn run_perftree(args: &PerftreeArgs) -> CliResult {
    let moves = args.moves.as_deref().unwrap_or("");
    let position = root_position(&args.fen, args.chess960, moves.split_whitespace())?;
    // Exact and with nothing to allocate: perftree calls this once per step of a bug hunt.
    let spec = JobSpec {
        backend: BackendChoice::Cpu,
        tt_mode: TtMode::Off,
        ..JobSpec::new(position, args.depth)
    };
    let result = Runner::new().run(&spec, false)?;
    output::write_stdout(&output::perftree_text(&result))
}

/// The position a command's `--fen` and `--moves` give.
pub fn start_position(args: &PositionArgs) -> Result<Position, CliError> {
    let fen = args.fen.as_deref().unwrap_or(START_FEN);
    root_position(fen, args.chess960, args.moves.iter().map(String::as_str))
}

/// The position `moves` lead to from `fen`, in Chess960 notation (Shredder-FEN, king-to-rook
/// castles) when `chess960`.
pub fn root_position<'a>(
    fen: &str,
    chess960: bool,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<Position, CliError> {
    let mut start = Position::from_fen(fen).map_err(CliError::input)?;
    if chess960 {
        start = start.with_notation(CastlingNotation::Shredder);
    }
    uci::play_moves(&start, moves).map_err(CliError::input)
}

/// One engine per command, so that its jobs share a backend (a Vulkan device is opened
/// once), and the notes already printed, so that each appears once per command.
pub struct Runner {
    engine: Engine,
    notes: HashSet<String>,
}

impl Runner {
    pub fn new() -> Runner {
        Runner {
            engine: Engine::spawn(None),
            notes: HashSet::new(),
        }
    }

    /// Runs `spec` on the engine's thread, with a progress bar on stderr when `show_progress`
    /// and stderr is a terminal. Ctrl-C cancels the job and returns [`CliError::Interrupted`]
    /// once the engine has stopped it (see [`interrupt`]).
    pub fn run(&mut self, spec: &JobSpec, show_progress: bool) -> Result<PerftResult, CliError> {
        let mut display = ProgressDisplay::new(show_progress);
        let outcome = self.run_observed(spec, false, &mut |progress| display.update(progress));
        display.finish();
        outcome
    }

    /// Runs `spec` as [`Runner::run`] does, handing each progress report to `on_progress`;
    /// with `keep_table` the job starts from the table the previous job of this runner left
    /// (see [`vkperft::engine::Job::keep_table`]).
    pub fn run_observed(
        &mut self,
        spec: &JobSpec,
        keep_table: bool,
        on_progress: &mut dyn FnMut(&Progress),
    ) -> Result<PerftResult, CliError> {
        let mut job = spec
            .job(self.engine.next_job_id())
            .map_err(CliError::input)?;
        job.keep_table = keep_table;
        if interrupt::requested() {
            return Err(CliError::Interrupted {
                elapsed: None,
                nodes: None,
            });
        }
        let sent = Instant::now();
        let mut last_progress: Option<(Duration, u128)> = None;
        let notes = &mut self.notes;
        let mut on_event = |event: &Event| match event {
            Event::Started {
                note: Some(note), ..
            } if notes.insert(note.clone()) => output::write_stderr(&format!("{note}\n")),
            Event::Progress { progress, .. } => {
                last_progress = Some((progress.elapsed, progress.nodes));
                on_progress(progress);
            }
            _ => {}
        };
        let run =
            self.engine
                .run_blocking(job, interrupt::POLL, &interrupt::requested, &mut on_event);
        // Interrupted, the job's end (even a total that came in just before the cancel) is not
        // the command's: it stops here.
        if run.stopped {
            return Err(CliError::Interrupted {
                elapsed: Some(last_progress.map_or_else(|| sent.elapsed(), |(time, _)| time)),
                nodes: last_progress.map(|(_, nodes)| nodes),
            });
        }
        match run.end {
            BlockingEnd::Finished(result) => Ok(*result),
            BlockingEnd::Failed(error) => Err(CliError::from(error)),
            BlockingEnd::Cancelled => Err(CliError::runtime(anyhow!("the run was cancelled"))),
            BlockingEnd::EngineStopped => Err(CliError::runtime(anyhow!(
                "the engine stopped without a result"
            ))),
        }
    }
}

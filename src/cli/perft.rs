//! `vkperft perft` and `vkperft perftree`.

use super::args::{BackendArg, PerftArgs, PerftreeArgs, RunOptions, TtArg};
use super::error::CliError;
use super::output;
use super::progress::ProgressDisplay;
use super::CliResult;
use anyhow::anyhow;
use vkperft::chess::fen::START_FEN;
use vkperft::chess::{uci, Position};
use vkperft::engine::{BackendChoice, Engine, Event, Job, PerftResult, MAX_DEPTH};

pub fn run_perft(args: &PerftArgs) -> CliResult {
    let fen = args.fen.as_deref().unwrap_or(START_FEN);
    let position = root_position(fen, args.moves.iter().map(String::as_str))?;
    let job = make_job(position, args.depth, &args.run)?;
    let result = execute(job, !args.json)?;
    if args.json {
        println!("{}", output::perft_json(&result, args.divide));
    } else {
        print!("{}", output::perft_text(&result, args.divide));
        if args.divide {
            eprint!("{}", output::timing_text(&result));
        }
    }
    Ok(())
}

pub fn run_perftree(args: &PerftreeArgs) -> CliResult {
    let moves = args.moves.as_deref().unwrap_or("");
    let position = root_position(&args.fen, moves.split_whitespace())?;
    let run = RunOptions {
        backend: BackendArg::Cpu,
        threads: None,
        tt: TtArg::Off,
        zobrist_seed: vkperft::chess::zobrist::DEFAULT_SEED,
    };
    let result = execute(make_job(position, args.depth, &run)?, false)?;
    print!("{}", output::perftree_text(&result));
    Ok(())
}

/// The position `moves` lead to from `fen`.
pub fn root_position<'a>(
    fen: &str,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<Position, CliError> {
    let start = Position::from_fen(fen).map_err(CliError::input)?;
    uci::play_moves(&start, moves).map_err(CliError::input)
}

pub fn make_job(position: Position, depth: u32, run: &RunOptions) -> Result<Job, CliError> {
    if depth > MAX_DEPTH {
        return Err(CliError::input(anyhow!(
            "depth {depth} is out of range (0..={MAX_DEPTH})"
        )));
    }
    let backend = match run.backend {
        BackendArg::Cpu => BackendChoice::Cpu,
    };
    match run.tt {
        TtArg::Off => {}
    }
    Ok(Job {
        id: vkperft::engine::JobId(0),
        position,
        depth,
        backend,
        threads: run.thread_count(),
        zobrist_seed: run.zobrist_seed,
    })
}

/// Runs `job` on an engine thread, with a progress bar on stderr when `show_progress` and
/// stderr is a terminal.
pub fn execute(mut job: Job, show_progress: bool) -> Result<PerftResult, CliError> {
    let mut engine = Engine::spawn(None);
    job.id = engine.next_job_id();
    let id = job.id;
    engine.run(job);
    let mut display = ProgressDisplay::new(show_progress);
    for event in engine.events().iter() {
        if event.job() != id {
            continue;
        }
        match event {
            Event::Started { .. } | Event::RootMoveDone { .. } => {}
            Event::Progress { progress, .. } => display.update(&progress),
            Event::Finished { result, .. } => {
                display.finish();
                return Ok(*result);
            }
            Event::Failed { error, .. } => {
                display.finish();
                return Err(CliError::runtime(error));
            }
            Event::Cancelled { .. } => {
                display.finish();
                return Err(CliError::runtime(anyhow!("the run was cancelled")));
            }
        }
    }
    Err(CliError::runtime(anyhow!(
        "the engine stopped without a result"
    )))
}

//! `vkperft perft` and `vkperft perftree`.

use super::args::{BackendArg, PerftArgs, PerftreeArgs, RunOptions, TtArg};
use super::error::CliError;
use super::output;
use super::progress::ProgressDisplay;
use super::CliResult;
use anyhow::anyhow;
use vkperft::chess::fen::START_FEN;
use vkperft::chess::rng::SplitMix64;
use vkperft::chess::{uci, Position};
use vkperft::engine::{Engine, EngineError, Event, Job, PerftResult, MAX_DEPTH};
use vkperft::gpu::GpuError;
use vkperft::tt::DEFAULT_VERIFIER_BITS;

pub fn run_perft(args: &PerftArgs) -> CliResult {
    let fen = args.fen.as_deref().unwrap_or(START_FEN);
    let position = root_position(fen, args.moves.iter().map(String::as_str))?;
    let job = make_job(position, args.depth, &args.run)?;
    let mut engine = Engine::spawn(None);
    let result = execute(&mut engine, job.clone(), !args.json)?;
    let cross_check = if args.cross_check {
        let seed = independent_seed(job.zobrist_seed);
        Some(execute(
            &mut engine,
            Job {
                zobrist_seed: seed,
                ..job
            },
            !args.json,
        )?)
    } else {
        None
    };
    if args.json {
        let json = output::perft_json(&result, args.divide, cross_check.as_ref());
        output::write_stdout(&format!("{json}\n"))?;
    } else {
        output::write_stdout(&output::perft_text(&result, args.divide))?;
        // With --divide, stdout stays exactly Stockfish's format.
        let details = output::details_text(&result, cross_check.as_ref());
        if args.divide {
            output::write_stderr(&format!("{}{details}", output::timing_text(&result)));
        } else {
            output::write_stdout(&details)?;
        }
    }
    match cross_check {
        Some(second) if second.counts.nodes != result.counts.nodes => {
            Err(CliError::Mismatch(anyhow!(
                "cross-check failed: {} nodes with Zobrist seed {:#x}, {} with seed {:#x}",
                result.counts.nodes,
                result.zobrist_seed,
                second.counts.nodes,
                second.zobrist_seed
            )))
        }
        _ => Ok(()),
    }
}

/// A second seed whose keys are independent of the first's.
fn independent_seed(seed: u64) -> u64 {
    SplitMix64::new(seed ^ 0x6372_6f73_732d_6368).next_u64()
}

pub fn run_perftree(args: &PerftreeArgs) -> CliResult {
    let moves = args.moves.as_deref().unwrap_or("");
    let position = root_position(&args.fen, moves.split_whitespace())?;
    // Exact and with nothing to allocate: perftree calls this once per step of a bug hunt.
    let run = RunOptions {
        backend: BackendArg::Cpu,
        device: None,
        gpu_mem_mb: None,
        threads: None,
        tt: TtArg::Off,
        tt_mb: 0,
        verifier_bits: DEFAULT_VERIFIER_BITS,
        zobrist_seed: vkperft::chess::zobrist::DEFAULT_SEED,
    };
    let result = execute(
        &mut Engine::spawn(None),
        make_job(position, args.depth, &run)?,
        false,
    )?;
    output::write_stdout(&output::perftree_text(&result))
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
    Ok(Job {
        id: vkperft::engine::JobId(0),
        position,
        depth,
        backend: run.backend.choice(),
        threads: run.thread_count(),
        zobrist_seed: run.zobrist_seed,
        tt: run.tt_config(),
        gpu: run.gpu_options(),
    })
}

/// Runs `job` on `engine`'s thread, with a progress bar on stderr when `show_progress` and
/// stderr is a terminal. Runs on one engine share its backends (a Vulkan device is opened
/// once).
pub fn execute(
    engine: &mut Engine,
    mut job: Job,
    show_progress: bool,
) -> Result<PerftResult, CliError> {
    job.id = engine.next_job_id();
    let id = job.id;
    engine.run(job);
    let mut display = ProgressDisplay::new(show_progress);
    for event in engine.events().iter() {
        if event.job() != id {
            continue;
        }
        match event {
            Event::Started { note, .. } => {
                if let Some(note) = note {
                    output::write_stderr(&format!("{note}\n"));
                }
            }
            Event::RootMoveDone { .. } => {}
            Event::Progress { progress, .. } => display.update(&progress),
            Event::Finished { result, .. } => {
                display.finish();
                return Ok(*result);
            }
            Event::Failed { error, .. } => {
                display.finish();
                return Err(match error {
                    EngineError::DepthOutOfRange { .. }
                    | EngineError::Tt(_)
                    | EngineError::Gpu(GpuError::NoSuchDevice { .. })
                    | EngineError::Gpu(GpuError::BudgetTooSmall { .. }) => CliError::input(error),
                    EngineError::Gpu(_) => CliError::runtime(error),
                });
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

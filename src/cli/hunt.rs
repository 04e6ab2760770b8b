//! `vkperft hunt`: the walk from the root to the first position where the user's engine goes
//! wrong, printed step by step, or as one JSON object.

use super::args::PositionArgs;
use super::error::{CliError, CliResult};
use super::output;
use super::perft::{root_position, start_position};
use clap::{ArgGroup, Args};
use std::time::Duration;
use vkperft::chess::fen::START_FEN;
use vkperft::chess::{uci, Move, Position};
use vkperft::count::thousands;
use vkperft::cpu::exact_divide;
use vkperft::hunt::{
    self, moves_text, Difference, EngineCommand, Finding, HuntError, PositionRequest, Step,
};

/// Engine queries a walk may make unless `--max-queries` says otherwise: one per ply is
/// enough for any depth vkperft takes.
const DEFAULT_MAX_QUERIES: usize = 64;
/// Seconds one engine answer may take unless `--timeout-s` says otherwise.
const DEFAULT_TIMEOUT_S: u64 = 60;

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("engine").required(true).args(["uci", "script"])))]
pub struct HuntArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Depth of the first comparison, in plies.
    #[arg(long)]
    pub depth: u32,
    /// A UCI engine (a shell command line) that answers `go perft N` with a divide.
    #[arg(long)]
    pub uci: Option<String>,
    /// A perftree-style script (a shell command line), called as `CMD depth fen moves`.
    #[arg(long)]
    pub script: Option<String>,
    /// Print one JSON object instead of the walk.
    #[arg(long)]
    pub json: bool,
    /// Engine calls the walk may make.
    #[arg(long, default_value_t = DEFAULT_MAX_QUERIES)]
    pub max_queries: usize,
    /// Seconds one engine call may take before it counts as hung.
    #[arg(long, default_value_t = DEFAULT_TIMEOUT_S)]
    pub timeout_s: u64,
}

pub fn run(args: &HuntArgs) -> CliResult {
    if args.depth == 0 || args.depth > vkperft::backend::MAX_DEPTH {
        return Err(CliError::input(anyhow::anyhow!(
            "--depth must be 1 to {}",
            vkperft::backend::MAX_DEPTH
        )));
    }
    let root = start_position(&args.position)?;
    let request = engine_request(&args.position)?;
    let command = match (&args.uci, &args.script) {
        (Some(uci), _) => EngineCommand::Uci(uci.clone()),
        (None, Some(script)) => EngineCommand::Script(script.clone()),
        (None, None) => unreachable!("clap requires one of --uci and --script"),
    };
    let timeout = Duration::from_secs(args.timeout_s.max(1));
    let chess960 = root.notation().is_chess960();
    let mut engine = hunt::open_engine(&command, timeout, chess960).map_err(engine_error)?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut expected = |position: &Position, depth: u32| exact_divide(position, depth, threads);
    let json = args.json;
    let mut print_step = |step: &Step| {
        // A failed write (a closed pipe) shows again, as an error, with the report.
        if !json {
            let _ = output::write_stdout(&step_text(step));
        }
    };
    let finding = hunt::hunt(
        &root,
        &request,
        args.depth,
        engine.as_mut(),
        &mut expected,
        args.max_queries,
        &mut print_step,
    )
    .map_err(engine_error)?;
    if json {
        output::write_stdout(&format!("{}\n", finding_json(&finding)))?;
    } else {
        output::write_stdout(&finding_text(&finding, args.depth))?;
    }
    if finding.agrees() {
        Ok(())
    } else {
        Err(CliError::DifferenceFound)
    }
}

/// The position as the engine is asked for it: the FEN as vkperft writes it (the parser
/// accepts spacing, such as a line break or a Unicode space, that would split a UCI line), and
/// the `--moves` each in the run's notation (a castle typed `e1g1` goes to the engine as `e1h1`
/// in Chess960).
fn engine_request(args: &PositionArgs) -> Result<PositionRequest, CliError> {
    let fen = args.fen.as_deref().unwrap_or(START_FEN);
    let base = root_position(fen, args.chess960, [])?;
    let mut position = base;
    let mut moves = Vec::with_capacity(args.moves.len());
    for text in &args.moves {
        let m = uci::parse_move(&position, text).map_err(CliError::input)?;
        moves.push(m.to_string());
        position = position.play(m);
    }
    Ok(PositionRequest {
        fen: base.to_fen(),
        moves,
    })
}

/// The engine failed (exit 1); a limit the user set was too low (exit 2).
fn engine_error(error: HuntError) -> CliError {
    match error {
        HuntError::QueryLimit { .. } => {
            CliError::input(anyhow::anyhow!("{error}; raise --max-queries"))
        }
        other => CliError::runtime(other),
    }
}

/// One line per comparison: where, at what depth, and how far the engine is off.
fn step_text(step: &Step) -> String {
    let wrong = step
        .expected
        .iter()
        .filter(|(mv, count)| step.engine.moves.get(*mv) != Some(count))
        .count()
        + step
            .engine
            .moves
            .keys()
            .filter(|mv| !step.expected.contains_key(*mv))
            .count();
    let at = if step.path.is_empty() {
        "root".to_string()
    } else {
        moves_text(&step.path)
    };
    format!(
        "depth {}  {at}: vkperft {}, engine {}, {wrong} of {} moves differ\n",
        step.depth,
        thousands(step.expected.values().sum()),
        thousands(step.engine.total()),
        step.expected.len().max(step.engine.moves.len()),
    )
}

/// The moves, or "none".
fn list_text(moves: &[impl ToString]) -> String {
    if moves.is_empty() {
        "none".to_string()
    } else {
        moves
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The report that ends the walk.
fn finding_text(finding: &Finding, depth: u32) -> String {
    let queries = format!(
        "{} engine quer{}",
        finding.queries,
        if finding.queries == 1 { "y" } else { "ies" }
    );
    let path = if finding.path.is_empty() {
        "at the root".to_string()
    } else {
        format!("after {}", moves_text(&finding.path))
    };
    let fen = finding.position.to_fen();
    let mut text = match &finding.difference {
        Difference::None => {
            return format!("no difference at depth {depth} ({queries})\n");
        }
        Difference::Moves { missing, extra } => format!(
            "The engine's move list is wrong {path} ({queries}):\n  FEN: {}\n  missing (legal, not listed by the engine): {}\n  extra (listed by the engine, not legal): {}\n",
            fen,
            list_text(missing),
            list_text(extra)
        ),
        Difference::Counts => format!(
            "The engine lists the right moves {path} but counts other than 1 at depth 1 ({queries}):\n  FEN: {fen}\n"
        ),
        Difference::TotalOnly { expected, engine } => format!(
            "Every move's count agrees {path}, but the engine's total is {} where vkperft counts {} ({queries}):\n  FEN: {}\n",
            thousands(*engine),
            thousands(*expected),
            fen
        ),
        Difference::Inconsistent {
            expected,
            from_parent,
        } => format!(
            "The engine counted {} {path} when asked from the position before, but its divide here agrees with vkperft ({}) ({queries}):\n  FEN: {}\n",
            thousands(*from_parent),
            thousands(*expected),
            fen
        ),
    };
    // Beside a wrong move list, other counts differ as a consequence: the JSON lists them.
    if matches!(finding.difference, Difference::Moves { .. }) {
        if !finding.wrong_counts.is_empty() {
            text.push_str(&format!(
                "  ({} other moves' counts differ below them; --json lists them)\n",
                finding.wrong_counts.len()
            ));
        }
        return text;
    }
    for wrong in &finding.wrong_counts {
        text.push_str(&format!(
            "  {}: vkperft {}, engine {}\n",
            wrong.mv,
            thousands(wrong.expected),
            thousands(wrong.engine)
        ));
    }
    text
}

/// `{"agrees", "path", "fen", "depth", "difference", "missing", "extra", "wrong_counts",
/// "queries"}`, with `expected_total`/`engine_total` where only totals differ.
fn finding_json(finding: &Finding) -> serde_json::Value {
    let (kind, missing, extra) = match &finding.difference {
        Difference::None => ("none", Vec::new(), Vec::new()),
        Difference::Moves { missing, extra } => ("moves", uci_list(missing), extra.clone()),
        Difference::Counts => ("counts", Vec::new(), Vec::new()),
        Difference::TotalOnly { .. } => ("total", Vec::new(), Vec::new()),
        Difference::Inconsistent { .. } => ("inconsistent", Vec::new(), Vec::new()),
    };
    let wrong_counts: Vec<serde_json::Value> = finding
        .wrong_counts
        .iter()
        .map(|wrong| {
            serde_json::json!({
                "move": wrong.mv.to_string(),
                "expected": wrong.expected.to_string(),
                "engine": wrong.engine.to_string(),
            })
        })
        .collect();
    let mut json = serde_json::json!({
        "agrees": finding.agrees(),
        "path": uci_list(&finding.path),
        "fen": finding.position.to_fen(),
        "depth": finding.depth,
        "difference": kind,
        "missing": missing,
        "extra": extra,
        "wrong_counts": wrong_counts,
        "queries": finding.queries,
    });
    match finding.difference {
        Difference::TotalOnly { expected, engine } => {
            json["expected_total"] = expected.to_string().into();
            json["engine_total"] = engine.to_string().into();
        }
        Difference::Inconsistent {
            expected,
            from_parent,
        } => {
            json["expected_total"] = expected.to_string().into();
            json["engine_total"] = from_parent.to_string().into();
        }
        _ => {}
    }
    json
}

/// Each move in UCI, for a JSON list.
fn uci_list(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

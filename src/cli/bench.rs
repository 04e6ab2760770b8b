//! `vkperft bench`: a fixed set of positions, each run without a transposition table and with
//! the chosen TT modes beside it, and optionally with a peer program, all in the same run.

use super::args::{BenchArgs, TtArg};
use super::error::CliError;
use super::output;
use super::peer::Stockfish;
use super::perft::Runner;
use super::CliResult;
use anyhow::anyhow;
use serde_json::{json, Value};
use std::time::Duration;
use vkperft::chess::Position;
use vkperft::engine::event::nodes_per_second;
use vkperft::engine::JobSpec;
use vkperft::reference;
use vkperft::tt::TtMode;

/// Positions of the published table and the depth each is benchmarked at: about a second of
/// single-thread work each without a table.
const BENCH_DEPTHS: [(&str, u32); 6] = [
    ("startpos", 6),
    ("kiwipete", 5),
    ("position3", 7),
    ("position4", 6),
    ("position5", 5),
    ("position6", 5),
];

/// `--quick` takes this many plies off every depth.
const QUICK_DEPTH_CUT: u32 = 2;

/// Nodes and time of one program on one position.
#[derive(Clone, Copy, Default)]
struct Timing {
    nodes: u128,
    elapsed: Duration,
}

impl Timing {
    fn nps(self) -> f64 {
        nodes_per_second(self.nodes, self.elapsed)
    }

    fn plus(self, other: Timing) -> Timing {
        Timing {
            nodes: self.nodes + other.nodes,
            elapsed: self.elapsed + other.elapsed,
        }
    }

    fn json(self) -> Value {
        json!({
            "nodes": self.nodes.to_string(),
            "elapsed_s": self.elapsed.as_secs_f64(),
            "nps": self.nps(),
        })
    }
}

struct Row {
    name: &'static str,
    depth: Option<u32>,
    off: Timing,
    /// One timing per benchmarked TT mode, in the order of [`Bench::modes`].
    modes: Vec<Timing>,
    peer: Option<Timing>,
}

struct Bench {
    modes: Vec<TtArg>,
}

impl Bench {
    fn row_json(&self, row: &Row) -> Value {
        let mut value = json!({ "position": row.name, "off": row.off.json() });
        if let Some(depth) = row.depth {
            value["depth"] = json!(depth);
        }
        for (mode, timing) in self.modes.iter().zip(&row.modes) {
            let mut entry = timing.json();
            entry["vs_off"] = json!(timing.nps() / row.off.nps());
            if let Some(peer) = row.peer {
                entry["vs_peer"] = json!(timing.nps() / peer.nps());
            }
            value[mode.0.name()] = entry;
        }
        if let Some(peer) = row.peer {
            value["peer"] = peer.json();
            value["off"]["vs_peer"] = json!(row.off.nps() / peer.nps());
        }
        value
    }

    fn header(&self, args: &BenchArgs, peer: Option<&Stockfish>) -> String {
        let mut text = format!(
            "vkperft bench: backend {}, {} thread(s), TT {} MiB; times in seconds, rates in Mnodes/s\n",
            args.run.backend.0.name(),
            args.run.thread_count(),
            args.run.tt_mb
        );
        text += &format!(
            "{:<10} {:>5} {:>14} {:>8} {:>8}",
            "position", "depth", "nodes", "off s", "off Mnps"
        );
        for mode in &self.modes {
            let name = mode.0.name();
            text += &format!(
                " {:>10} {:>13} {:>7}",
                format!("{name} s"),
                format!("{name} Mnps"),
                "vs off"
            );
        }
        if let Some(peer) = peer {
            text += &format!(
                " {:>11} {:>9} {:>8}",
                format!("{} s", peer.name()),
                "peer Mnps",
                "off/peer"
            );
            for mode in &self.modes {
                text += &format!(" {:>13}", format!("{}/peer", mode.0.name()));
            }
        }
        text + "\n"
    }

    fn row_text(&self, row: &Row) -> String {
        let depth = row.depth.map_or_else(String::new, |d| d.to_string());
        let mut line = format!(
            "{:<10} {:>5} {:>14} {:>8.3} {:>8.1}",
            row.name,
            depth,
            row.off.nodes,
            row.off.elapsed.as_secs_f64(),
            row.off.nps() / 1e6
        );
        for timing in &row.modes {
            line += &format!(
                " {:>10.3} {:>13.1} {:>6.2}x",
                timing.elapsed.as_secs_f64(),
                timing.nps() / 1e6,
                timing.nps() / row.off.nps()
            );
        }
        if let Some(peer) = row.peer {
            line += &format!(
                " {:>11.3} {:>9.1} {:>7.2}x",
                peer.elapsed.as_secs_f64(),
                peer.nps() / 1e6,
                row.off.nps() / peer.nps()
            );
            for timing in &row.modes {
                line += &format!(" {:>12.2}x", timing.nps() / peer.nps());
            }
        }
        line + "\n"
    }
}

pub fn run(args: &BenchArgs) -> CliResult {
    let modes: Vec<TtArg> = if args.modes.is_empty() {
        vec![args.run.tt]
    } else {
        args.modes.clone()
    };
    let bench = Bench {
        modes: modes.into_iter().filter(|m| m.0 != TtMode::Off).collect(),
    };
    let selected: Vec<(&str, u32)> = BENCH_DEPTHS
        .into_iter()
        .filter(|&(name, _)| args.position.as_deref().is_none_or(|wanted| wanted == name))
        .collect();
    if let (Some(wanted), true) = (&args.position, selected.is_empty()) {
        let names: Vec<&str> = BENCH_DEPTHS.iter().map(|&(name, _)| name).collect();
        return Err(CliError::input(anyhow!(
            "unknown bench position '{wanted}'; choose one of {}",
            names.join(", ")
        )));
    }
    let mut peer = match &args.peer {
        Some(spec) => Some(Stockfish::start(spec)?),
        None => None,
    };
    if !args.json {
        output::write_stdout(&bench.header(args, peer.as_ref()))?;
    }
    let positions = reference::positions();
    let mut rows = Vec::new();
    let mut runner = Runner::new();
    for (name, usual_depth) in selected {
        let depth = match args.depth {
            Some(depth) => depth,
            None if args.quick => usual_depth - QUICK_DEPTH_CUT,
            None => usual_depth,
        };
        let fen = positions
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, fen)| fen)
            .ok_or_else(|| CliError::runtime(anyhow!("{name} missing from the reference table")))?;
        let position = Position::from_fen(fen).map_err(CliError::runtime)?;
        let mut time = |tt_mode: TtMode| -> Result<Timing, CliError> {
            let spec = JobSpec {
                tt_mode,
                ..args.run.spec(position, depth)
            };
            let result = runner.run(&spec, false)?;
            Ok(Timing {
                nodes: result.counts.nodes,
                elapsed: result.elapsed,
            })
        };
        let off = time(TtMode::Off)?;
        let mode_timings = bench
            .modes
            .iter()
            .map(|mode| time(mode.0))
            .collect::<Result<Vec<_>, _>>()?;
        let peer_timing = match peer.as_mut() {
            Some(peer) => {
                let (nodes, elapsed) = peer.perft(fen, depth)?;
                Some(Timing { nodes, elapsed })
            }
            None => None,
        };
        let others = bench
            .modes
            .iter()
            .map(|mode| format!("with --tt {}", mode.0.name()))
            .zip(mode_timings.iter().copied())
            .chain(peer_timing.map(|t| ("by the peer".to_string(), t)));
        for (who, timing) in others {
            if timing.nodes != off.nodes {
                return Err(CliError::runtime(anyhow!(
                    "{name} depth {depth}: {} nodes without a table but {} {who}",
                    off.nodes,
                    timing.nodes
                )));
            }
        }
        let row = Row {
            name,
            depth: Some(depth),
            off,
            modes: mode_timings,
            peer: peer_timing,
        };
        if !args.json {
            output::write_stdout(&bench.row_text(&row))?;
        }
        rows.push(row);
    }
    let total = Row {
        name: "total",
        depth: None,
        off: rows
            .iter()
            .fold(Timing::default(), |sum, row| sum.plus(row.off)),
        modes: (0..bench.modes.len())
            .map(|i| {
                rows.iter()
                    .fold(Timing::default(), |sum, row| sum.plus(row.modes[i]))
            })
            .collect(),
        peer: peer.as_ref().map(|_| {
            rows.iter()
                .filter_map(|row| row.peer)
                .fold(Timing::default(), Timing::plus)
        }),
    };
    if args.json {
        let value = json!({
            "backend": args.run.backend.0.name(),
            "threads": args.run.thread_count(),
            "tt_mb": args.run.tt_mb,
            "modes": bench.modes.iter().map(|m| m.0.name()).collect::<Vec<_>>(),
            "peer": peer.as_ref().map(|p| p.path.display().to_string()),
            "positions": rows.iter().map(|row| bench.row_json(row)).collect::<Vec<_>>(),
            "total": bench.row_json(&total),
        });
        output::write_stdout(&format!("{value}\n"))
    } else {
        output::write_stdout(&bench.row_text(&total))
    }
}

//! `vkperft bench`: a fixed set of positions, each run without a transposition table, with the
//! chosen `--tt` mode beside it, and optionally with a peer program, all in the same run.

use super::args::{BenchArgs, TtArg};
use super::error::CliError;
use super::output;
use super::peer::Stockfish;
use super::perft::{execute, make_job};
use super::CliResult;
use anyhow::anyhow;
use serde_json::{json, Value};
use std::time::Duration;
use vkperft::chess::Position;
use vkperft::engine::event::nodes_per_second;
use vkperft::reference;

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
    tt: Option<Timing>,
    peer: Option<Timing>,
}

impl Row {
    fn json(&self) -> Value {
        let mut value = json!({ "position": self.name, "off": self.off.json() });
        if let Some(depth) = self.depth {
            value["depth"] = json!(depth);
        }
        if let Some(tt) = self.tt {
            value["tt"] = tt.json();
            value["tt_speedup"] = json!(tt.nps() / self.off.nps());
        }
        if let Some(peer) = self.peer {
            value["peer"] = peer.json();
            value["off_vs_peer"] = json!(self.off.nps() / peer.nps());
            if let Some(tt) = self.tt {
                value["tt_vs_peer"] = json!(tt.nps() / peer.nps());
            }
        }
        value
    }
}

pub fn run(args: &BenchArgs) -> CliResult {
    let mut peer = match &args.peer {
        Some(spec) => Some(Stockfish::start(spec).map_err(CliError::input)?),
        None => None,
    };
    let off_options = super::args::RunOptions {
        tt: TtArg::Off,
        ..args.run.clone()
    };
    let with_tt = args.run.tt != TtArg::Off;
    if !args.json {
        output::write_stdout(&header(args, peer.as_ref()))?;
    }
    let positions = reference::positions();
    let mut rows = Vec::new();
    for (name, depth) in BENCH_DEPTHS {
        let depth = if args.quick {
            depth - QUICK_DEPTH_CUT
        } else {
            depth
        };
        let fen = positions
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, fen)| fen)
            .ok_or_else(|| CliError::runtime(anyhow!("{name} missing from the reference table")))?;
        let position = Position::from_fen(fen).map_err(CliError::runtime)?;
        let time = |options| -> Result<Timing, CliError> {
            let result = execute(make_job(position, depth, options)?, false)?;
            Ok(Timing {
                nodes: result.counts.nodes,
                elapsed: result.elapsed,
            })
        };
        let off = time(&off_options)?;
        let tt = if with_tt {
            Some(time(&args.run)?)
        } else {
            None
        };
        let peer_timing = match peer.as_mut() {
            Some(peer) => {
                let (nodes, elapsed) = peer.perft(fen, depth).map_err(CliError::runtime)?;
                Some(Timing { nodes, elapsed })
            }
            None => None,
        };
        for (who, timing) in [("with --tt", tt), ("the peer", peer_timing)] {
            if let Some(timing) = timing.filter(|t| t.nodes != off.nodes) {
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
            tt,
            peer: peer_timing,
        };
        if !args.json {
            output::write_stdout(&row_text(&row))?;
        }
        rows.push(row);
    }
    let sum = |pick: fn(&Row) -> Option<Timing>| {
        rows.iter()
            .map(pick)
            .try_fold(Timing::default(), |total, t| t.map(|t| total.plus(t)))
    };
    let total = Row {
        name: "total",
        depth: None,
        off: sum(|r| Some(r.off)).unwrap_or_default(),
        tt: sum(|r| r.tt),
        peer: sum(|r| r.peer),
    };
    if args.json {
        let value = json!({
            "backend": args.run.backend_name(),
            "threads": args.run.thread_count(),
            "tt": args.run.tt.mode().name(),
            "peer": peer.as_ref().map(|p| p.path.display().to_string()),
            "positions": rows.iter().map(Row::json).collect::<Vec<_>>(),
            "total": total.json(),
        });
        output::write_stdout(&format!("{value}\n"))
    } else {
        output::write_stdout(&row_text(&total))
    }
}

fn header(args: &BenchArgs, peer: Option<&Stockfish>) -> String {
    let mode = args.run.tt.mode().name();
    let mut text = format!(
        "vkperft bench: backend {}, {} thread(s); times in seconds, rates in Mnodes/s\n",
        args.run.backend_name(),
        args.run.thread_count(),
    );
    text += &format!(
        "{:<10} {:>5} {:>14} {:>8} {:>8}",
        "position", "depth", "nodes", "off s", "off Mnps"
    );
    if args.run.tt != TtArg::Off {
        text += &format!(
            " {:>9} {:>10} {:>8}",
            format!("{mode} s"),
            format!("{mode} Mnps"),
            "vs off"
        );
    }
    if let Some(peer) = peer {
        let name = peer.name();
        text += &format!(
            " {:>10} {:>10} {:>9}",
            format!("{name} s"),
            "peer Mnps",
            "off/peer"
        );
        if args.run.tt != TtArg::Off {
            text += &format!(" {:>9}", format!("{mode}/peer"));
        }
    }
    text + "\n"
}

fn row_text(row: &Row) -> String {
    let depth = row.depth.map_or_else(String::new, |d| d.to_string());
    let mut line = format!(
        "{:<10} {:>5} {:>14} {:>8.3} {:>8.1}",
        row.name,
        depth,
        row.off.nodes,
        row.off.elapsed.as_secs_f64(),
        row.off.nps() / 1e6
    );
    if let Some(tt) = row.tt {
        line += &format!(
            " {:>9.3} {:>10.1} {:>7.2}x",
            tt.elapsed.as_secs_f64(),
            tt.nps() / 1e6,
            tt.nps() / row.off.nps()
        );
    }
    if let Some(peer) = row.peer {
        line += &format!(
            " {:>10.3} {:>10.1} {:>8.2}x",
            peer.elapsed.as_secs_f64(),
            peer.nps() / 1e6,
            row.off.nps() / peer.nps()
        );
        if let Some(tt) = row.tt {
            line += &format!(" {:>8.2}x", tt.nps() / peer.nps());
        }
    }
    line + "\n"
}

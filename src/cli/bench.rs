//! `vkperft bench`: a fixed set of positions, optionally beside a peer in the same run.

use super::args::BenchArgs;
use super::error::CliError;
use super::peer::Stockfish;
use super::perft::{execute, make_job};
use super::CliResult;
use anyhow::anyhow;
use serde_json::json;
use std::time::Duration;
use vkperft::chess::Position;
use vkperft::engine::event::nodes_per_second;
use vkperft::reference;

/// Positions of the published table and the depth each is benchmarked at: a few seconds
/// of single-thread work each.
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

struct Row {
    name: &'static str,
    depth: u32,
    nodes: u128,
    elapsed: Duration,
    peer: Option<(u128, Duration)>,
}

pub fn run(args: &BenchArgs) -> CliResult {
    let mut peer = match &args.peer {
        Some(spec) => Some(Stockfish::start(spec).map_err(CliError::input)?),
        None => None,
    };
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
        let result = execute(make_job(position, depth, &args.run)?, false)?;
        let peer_figures = match peer.as_mut() {
            Some(peer) => {
                let (nodes, elapsed) = peer.perft(fen, depth).map_err(CliError::runtime)?;
                if nodes != result.counts.nodes {
                    return Err(CliError::runtime(anyhow!(
                        "{name} depth {depth}: vkperft counted {} but {} counted {nodes}",
                        result.counts.nodes,
                        peer.name()
                    )));
                }
                Some((nodes, elapsed))
            }
            None => None,
        };
        let row = Row {
            name,
            depth,
            nodes: result.counts.nodes,
            elapsed: result.elapsed,
            peer: peer_figures,
        };
        if !args.json {
            if rows.is_empty() {
                print_header(args, peer.as_ref());
            }
            print_row(&row);
        }
        rows.push(row);
    }
    let total = Row {
        name: "total",
        depth: 0,
        nodes: rows.iter().map(|r| r.nodes).sum(),
        elapsed: rows.iter().map(|r| r.elapsed).sum(),
        peer: peer.as_ref().map(|_| {
            (
                rows.iter().filter_map(|r| r.peer).map(|p| p.0).sum(),
                rows.iter().filter_map(|r| r.peer).map(|p| p.1).sum(),
            )
        }),
    };
    if args.json {
        let row_json = |row: &Row| {
            let mut value = json!({
                "position": row.name,
                "depth": row.depth,
                "nodes": row.nodes.to_string(),
                "elapsed_s": row.elapsed.as_secs_f64(),
                "nps": nodes_per_second(row.nodes, row.elapsed),
            });
            if let Some((nodes, elapsed)) = row.peer {
                let peer_nps = nodes_per_second(nodes, elapsed);
                value["peer_elapsed_s"] = json!(elapsed.as_secs_f64());
                value["peer_nps"] = json!(peer_nps);
                value["ratio"] = json!(nodes_per_second(row.nodes, row.elapsed) / peer_nps);
            }
            value
        };
        let value = json!({
            "backend": args.run.backend_name(),
            "threads": args.run.thread_count(),
            "tt": args.run.tt_name(),
            "peer": peer.as_ref().map(|p| p.path.display().to_string()),
            "positions": rows.iter().map(row_json).collect::<Vec<_>>(),
            "total": row_json(&total),
        });
        println!("{value}");
    } else {
        print_row(&total);
    }
    Ok(())
}

fn print_header(args: &BenchArgs, peer: Option<&Stockfish>) {
    println!(
        "vkperft bench: backend {}, {} thread(s), tt {}",
        args.run.backend_name(),
        args.run.thread_count(),
        args.run.tt_name()
    );
    let mut header = format!(
        "{:<10} {:>5} {:>14} {:>9} {:>10}",
        "position", "depth", "nodes", "seconds", "Mnps"
    );
    if let Some(peer) = peer {
        header += &format!(
            " {:>10} {:>10} {:>7}",
            format!("{} s", peer.name()),
            "peer Mnps",
            "ratio"
        );
    }
    println!("{header}");
}

fn print_row(row: &Row) {
    let nps = nodes_per_second(row.nodes, row.elapsed);
    let depth = if row.depth == 0 {
        String::new()
    } else {
        row.depth.to_string()
    };
    let mut line = format!(
        "{:<10} {:>5} {:>14} {:>9.3} {:>10.1}",
        row.name,
        depth,
        row.nodes,
        row.elapsed.as_secs_f64(),
        nps / 1e6
    );
    if let Some((nodes, elapsed)) = row.peer {
        let peer_nps = nodes_per_second(nodes, elapsed);
        line += &format!(
            " {:>10.3} {:>10.1} {:>6.2}x",
            elapsed.as_secs_f64(),
            peer_nps / 1e6,
            nps / peer_nps
        );
    }
    println!("{line}");
}

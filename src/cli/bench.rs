//! `vkperft bench`: a fixed set of positions, each run without a transposition table and with
//! the chosen TT modes beside it, and optionally with peer programs, all in the same run; with
//! `--runs N` every program runs N times per position and its fastest run counts. With
//! `--stats`, `off` and every mode run a second time counting the move-type statistics, and
//! the cost is their time over the plain run's; an untimed statistics run first builds what
//! the statistics need, as the backend's start builds what the node count needs.

use super::args::{BenchArgs, TtArg};
use super::error::{CliError, CliResult};
use super::output;
use super::peer::{Peer, PeerRequest};
use super::perft::Runner;
use anyhow::anyhow;
use serde_json::{json, Map, Value};
use std::time::Duration;
use vkperft::chess::specialized::SliderLookup;
use vkperft::chess::Position;
use vkperft::engine::event::nodes_per_second;
use vkperft::engine::{BackendChoice, JobSpec};
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

/// The depth of the untimed statistics run that builds a backend's statistics stages: deep
/// enough that every stage runs.
const STATS_WARM_UP_DEPTH: u32 = 4;

/// `--quick` takes this many plies off every depth.
const QUICK_DEPTH_CUT: u32 = 2;

/// Nodes and time of one program on one position, and vkperft's leaf count-ops (the work
/// counters' measure of leaf work: a table's saving is the ratio to `off`'s).
#[derive(Clone, Copy, Default)]
struct Timing {
    nodes: u128,
    elapsed: Duration,
    leaf_count_ops: Option<u128>,
}

impl Timing {
    /// The start of a sum of vkperft's timings.
    const COUNTED_ZERO: Timing = Timing {
        nodes: 0,
        elapsed: Duration::ZERO,
        leaf_count_ops: Some(0),
    };

    fn nps(self) -> f64 {
        nodes_per_second(self.nodes, self.elapsed)
    }

    fn plus(self, other: Timing) -> Timing {
        Timing {
            nodes: self.nodes + other.nodes,
            elapsed: self.elapsed + other.elapsed,
            leaf_count_ops: self
                .leaf_count_ops
                .zip(other.leaf_count_ops)
                .map(|(a, b)| a + b),
        }
    }

    /// This timing's leaf count-ops over `off`'s.
    fn leaf_ops_vs(self, off: Timing) -> Option<f64> {
        let (ops, off_ops) = self.leaf_count_ops.zip(off.leaf_count_ops)?;
        (off_ops > 0).then(|| ops as f64 / off_ops as f64)
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
    /// One timing per peer, in the order of [`Bench::peers`]; `None` where the peer cannot
    /// count the position (or, in the total, missed one).
    peers: Vec<Option<Timing>>,
    /// Per peer, its timing with a table of the size the modes' table had, where a mode with
    /// a table ran and the peer has one (MPerft's `-h`): the modes compare with it.
    peer_tables: Vec<Option<Timing>>,
    /// The work counters (`--json`'s `work`) of `off`, then of each mode; none in the total.
    work: Vec<Value>,
    /// With `--stats`: `off`, then each mode, counting the move-type statistics.
    stats: Vec<Timing>,
}

struct Bench {
    modes: Vec<TtArg>,
    peers: Vec<Peer>,
    /// Whether every run is repeated with `--stats`.
    stats: bool,
}

/// `with_stats`'s time over `plain`'s: what counting the statistics costs.
fn stats_cost(with_stats: Timing, plain: Timing) -> f64 {
    with_stats.elapsed.as_secs_f64() / plain.elapsed.as_secs_f64()
}

/// A right-aligned column at least `width` wide, wider for a longer title.
fn column(title: &str, width: usize, cell: &str) -> String {
    format!(" {cell:>0$}", width.max(title.len()))
}

/// The ratio of `timing` to each peer, by peer name.
fn vs_peers(timing: Timing, peers: &[Peer], peer_timings: &[Option<Timing>]) -> Value {
    let mut ratios = Map::new();
    for (peer, peer_timing) in peers.iter().zip(peer_timings) {
        let ratio = peer_timing.map(|p| timing.nps() / p.nps());
        ratios.insert(peer.name().to_string(), json!(ratio));
    }
    Value::Object(ratios)
}

impl Bench {
    /// What each mode with a table compares with: a peer's run with a table where it made
    /// one, else its run without.
    fn mode_baselines(row: &Row) -> Vec<Option<Timing>> {
        row.peers
            .iter()
            .zip(&row.peer_tables)
            .map(|(plain, table)| table.or(*plain))
            .collect()
    }

    /// Whether `peer` runs with a table beside the modes (a mode with a table runs).
    fn peer_runs_table(&self, peer: &Peer) -> bool {
        !self.modes.is_empty() && peer.has_table()
    }

    fn row_json(&self, row: &Row) -> Value {
        let mut value = json!({ "position": row.name, "off": row.off.json() });
        if let Some(depth) = row.depth {
            value["depth"] = json!(depth);
        }
        if let Some(work) = row.work.first() {
            value["off"]["work"] = work.clone();
        }
        if let Some(&with_stats) = row.stats.first() {
            value["off"]["stats"] = with_stats.json();
            value["off"]["stats"]["cost"] = json!(stats_cost(with_stats, row.off));
        }
        for (index, (mode, timing)) in self.modes.iter().zip(&row.modes).enumerate() {
            let mut entry = timing.json();
            entry["vs_off"] = json!(timing.nps() / row.off.nps());
            entry["leaf_ops_vs_off"] = json!(timing.leaf_ops_vs(row.off));
            if let Some(work) = row.work.get(index + 1) {
                entry["work"] = work.clone();
            }
            if let Some(&with_stats) = row.stats.get(index + 1) {
                entry["stats"] = with_stats.json();
                entry["stats"]["cost"] = json!(stats_cost(with_stats, *timing));
            }
            if !self.peers.is_empty() {
                entry["vs_peers"] = vs_peers(*timing, &self.peers, &Self::mode_baselines(row));
            }
            value[mode.0.name()] = entry;
        }
        if !self.peers.is_empty() {
            value["off"]["vs_peers"] = vs_peers(row.off, &self.peers, &row.peers);
            let mut peers = Map::new();
            for ((peer, timing), table) in self.peers.iter().zip(&row.peers).zip(&row.peer_tables) {
                let mut entry = timing.map_or(Value::Null, Timing::json);
                if let (Some(table), false) = (table, entry.is_null()) {
                    entry["table"] = table.json();
                }
                peers.insert(peer.name().to_string(), entry);
            }
            value["peers"] = Value::Object(peers);
        }
        value
    }

    fn header(&self, args: &BenchArgs) -> String {
        // The table size means something only when a mode with a table runs.
        let table = if self.modes.is_empty() {
            String::new()
        } else {
            args.run.tt_mb.map_or_else(
                || ", TT of the default size".to_string(),
                |mb| format!(", TT {mb} MiB"),
            )
        };
        // Which build of the CPU generator runs: it differs by CPU.
        let sliders = if args.run.backend.0 == BackendChoice::Cpu {
            format!(", slider attacks by {}", SliderLookup::detect().name())
        } else {
            String::new()
        };
        let fastest = if args.runs > 1 {
            format!(", fastest of {} runs", args.runs)
        } else {
            String::new()
        };
        let mut text = format!(
            "vkperft bench: backend {}, {} thread(s){sliders}{table}{fastest}; times in seconds, \
             rates in Mnodes/s\n",
            args.run.backend.0.name(),
            args.run.thread_count(),
        );
        text += &format!(
            "{:<10} {:>5} {:>14} {:>8} {:>8}",
            "position", "depth", "nodes", "off s", "off Mnps"
        );
        for mode in &self.modes {
            let name = mode.0.name();
            text += &format!(
                " {:>10} {:>13} {:>7} {:>8}",
                format!("{name} s"),
                format!("{name} Mnps"),
                "vs off",
                "leaf ops"
            );
        }
        if self.stats {
            let names = std::iter::once("off").chain(self.modes.iter().map(|m| m.0.name()));
            for name in names {
                for title in [format!("{name}+stats s"), format!("{name} cost")] {
                    text += &column(&title, 8, &title);
                }
            }
        }
        for peer in &self.peers {
            let name = peer.name();
            let mut titles = vec![
                format!("{name} s"),
                format!("{name} Mnps"),
                format!("off/{name}"),
            ];
            if self.peer_runs_table(peer) {
                titles.extend([format!("{name}+tt s"), format!("{name}+tt Mnps")]);
            }
            for title in titles {
                text += &column(&title, 8, &title);
            }
            for mode in &self.modes {
                let title = format!("{}/{name}", mode.0.name());
                text += &column(&title, 8, &title);
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
            let leaf_ops = timing
                .leaf_ops_vs(row.off)
                .map_or_else(|| "—".to_string(), |ratio| format!("{ratio:.3}"));
            line += &format!(
                " {:>10.3} {:>13.1} {:>6.2}x {leaf_ops:>8}",
                timing.elapsed.as_secs_f64(),
                timing.nps() / 1e6,
                timing.nps() / row.off.nps()
            );
        }
        let names = std::iter::once("off").chain(self.modes.iter().map(|m| m.0.name()));
        let plain = std::iter::once(&row.off).chain(&row.modes);
        for ((name, with_stats), plain) in names.zip(&row.stats).zip(plain) {
            line += &column(
                &format!("{name}+stats s"),
                8,
                &format!("{:.3}", with_stats.elapsed.as_secs_f64()),
            );
            line += &column(
                &format!("{name} cost"),
                8,
                &format!("{:.2}x", stats_cost(*with_stats, *plain)),
            );
        }
        let baselines = Self::mode_baselines(row);
        for (index, (peer, timing)) in self.peers.iter().zip(&row.peers).enumerate() {
            let name = peer.name();
            let cells = |show: &dyn Fn(Timing) -> String| timing.map_or("—".to_string(), show);
            line += &column(
                &format!("{name} s"),
                8,
                &cells(&|p| format!("{:.3}", p.elapsed.as_secs_f64())),
            );
            line += &column(
                &format!("{name} Mnps"),
                8,
                &cells(&|p| format!("{:.1}", p.nps() / 1e6)),
            );
            line += &column(
                &format!("off/{name}"),
                8,
                &cells(&|p| format!("{:.2}x", row.off.nps() / p.nps())),
            );
            if self.peer_runs_table(peer) {
                let table = |show: &dyn Fn(Timing) -> String| {
                    row.peer_tables[index].map_or("—".to_string(), show)
                };
                line += &column(
                    &format!("{name}+tt s"),
                    8,
                    &table(&|p| format!("{:.3}", p.elapsed.as_secs_f64())),
                );
                line += &column(
                    &format!("{name}+tt Mnps"),
                    8,
                    &table(&|p| format!("{:.1}", p.nps() / 1e6)),
                );
            }
            for (mode, mode_timing) in self.modes.iter().zip(&row.modes) {
                let ratio = baselines[index].map_or("—".to_string(), |p| {
                    format!("{:.2}x", mode_timing.nps() / p.nps())
                });
                line += &column(&format!("{}/{name}", mode.0.name()), 8, &ratio);
            }
        }
        line + "\n"
    }
}

/// The fastest of `runs` timings of `peer` on `request` (`what` names them); its count must be
/// `off`'s.
fn peer_timing(
    peer: &mut Peer,
    what: &str,
    request: &PeerRequest,
    runs: u32,
    off: Timing,
) -> Result<Timing, CliError> {
    let with = request
        .table_mib
        .map_or_else(String::new, |mib| format!(" with a {mib} MiB table"));
    let peer_name = peer.name();
    let timing = fastest(runs, &|| format!("{what}: {peer_name}{with}"), || {
        let (nodes, elapsed) = peer.perft(request)?;
        Ok(Timing {
            nodes,
            elapsed,
            leaf_count_ops: None,
        })
    })?;
    if timing.nodes != off.nodes {
        return Err(CliError::Mismatch(anyhow!(
            "{what}: vkperft counts {} nodes but {}{with} counts {} ({})",
            off.nodes,
            peer.name(),
            timing.nodes,
            peer.flag()
        )));
    }
    Ok(timing)
}

/// The fastest of `runs` timings by `time`; every run must count the same nodes, or `what`
/// is named in the error.
fn fastest(
    runs: u32,
    what: &dyn Fn() -> String,
    mut time: impl FnMut() -> Result<Timing, CliError>,
) -> Result<Timing, CliError> {
    let mut best = time()?;
    for _ in 1..runs {
        let timing = time()?;
        if timing.nodes != best.nodes {
            return Err(CliError::Mismatch(anyhow!(
                "{}: {} nodes in one run, {} in another",
                what(),
                best.nodes,
                timing.nodes
            )));
        }
        if timing.elapsed < best.elapsed {
            best = timing;
        }
    }
    Ok(best)
}

/// Starts the peers of `--peer` and `--peer-bin`, each name at most once.
fn start_peers(args: &BenchArgs) -> Result<Vec<Peer>, CliError> {
    let mut peers: Vec<Peer> = Vec::new();
    if let Some(spec) = &args.peer {
        peers.push(Peer::stockfish(spec)?);
    }
    for bin in &args.peer_bins {
        if let Some(earlier) = peers.iter().find(|peer| peer.kind == bin.kind) {
            return Err(CliError::input(anyhow!(
                "--peer-bin {bin}: {} is already a peer ({})",
                bin.kind.name(),
                earlier.flag()
            )));
        }
        peers.push(Peer::start(bin)?);
    }
    Ok(peers)
}

pub fn run(args: &BenchArgs) -> CliResult {
    let modes: Vec<TtArg> = if args.modes.is_empty() {
        vec![args.run.tt]
    } else {
        args.modes.clone()
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
    let mut bench = Bench {
        modes: modes.into_iter().filter(|m| m.0 != TtMode::Off).collect(),
        peers: start_peers(args)?,
        stats: args.run.stats,
    };
    if !args.json {
        output::write_stdout(&bench.header(args))?;
    }
    let positions = reference::positions();
    let threads = args.run.thread_count();
    let mut rows = Vec::new();
    let mut runner = Runner::new();
    if bench.stats {
        // A backend builds its statistics stages at its first statistics run (Vulkan's
        // pipelines, which lavapipe compiles at their first dispatch, about 2 s): built here,
        // untimed, as the node count's are when the backend starts.
        let warm_up = JobSpec {
            move_stats: true,
            tt_mode: TtMode::Off,
            ..args.run.spec(Position::startpos(), STATS_WARM_UP_DEPTH)
        };
        runner.run(&warm_up, false)?;
    }
    // Each peer's first position it cannot count, said once at the end.
    let mut skipped: Vec<Option<String>> = vec![None; bench.peers.len()];
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
        // The work counters of each mode's last run (they do not depend on the run).
        let mut work = Vec::new();
        // The modes' table budget, which a peer with a table gets too.
        let mut table_mib = None;
        let mut time =
            |tt_mode: TtMode, move_stats: bool, work: &mut Value| -> Result<Timing, CliError> {
                let spec = JobSpec {
                    tt_mode,
                    move_stats,
                    ..args.run.spec(position, depth)
                };
                let result = runner.run(&spec, false)?;
                *work = result.work.to_json();
                if let Some(tt) = &result.tt {
                    table_mib = Some((tt.budget_bytes >> 20).max(1));
                }
                Ok(Timing {
                    nodes: result.counts.nodes,
                    elapsed: result.elapsed,
                    leaf_count_ops: Some(result.work.leaf_count_ops),
                })
            };
        let what = |mode: TtMode| move || format!("{name} depth {depth} --tt {}", mode.name());
        let mut stats = Vec::new();
        let mut counted = |mode: TtMode| {
            let mut mode_work = Value::Null;
            let timing = fastest(args.runs, &what(mode), || time(mode, false, &mut mode_work))?;
            work.push(mode_work);
            if bench.stats {
                let mut stats_work = Value::Null;
                let with_stats =
                    fastest(args.runs, &what(mode), || time(mode, true, &mut stats_work))?;
                stats.push(with_stats);
            }
            Ok::<_, CliError>(timing)
        };
        let off = counted(TtMode::Off)?;
        let mode_timings = bench
            .modes
            .iter()
            .map(|mode| counted(mode.0))
            .collect::<Result<Vec<_>, _>>()?;
        // Every run, plain or with statistics, counts what `off` counted.
        let modes = bench.modes.iter().map(|mode| mode.0);
        let with_stats = std::iter::once(TtMode::Off)
            .chain(modes.clone())
            .zip(&stats);
        for (mode, timing) in modes.zip(&mode_timings).chain(with_stats) {
            if timing.nodes != off.nodes {
                return Err(CliError::runtime(anyhow!(
                    "{name} depth {depth}: {} nodes without a table but {} with --tt {}",
                    off.nodes,
                    timing.nodes,
                    mode.name()
                )));
            }
        }
        let mut peer_timings = Vec::new();
        let mut peer_tables = Vec::new();
        let tables_run = !bench.modes.is_empty();
        for (peer, skip) in bench.peers.iter_mut().zip(&mut skipped) {
            if let Some(reason) = peer.unsupported(depth) {
                skip.get_or_insert_with(|| format!("{name} depth {depth}: {reason}"));
                peer_timings.push(None);
                peer_tables.push(None);
                continue;
            }
            let what = format!("{name} depth {depth}");
            let request = PeerRequest {
                fen,
                depth,
                table_mib: None,
                threads,
            };
            peer_timings.push(Some(peer_timing(peer, &what, &request, args.runs, off)?));
            let table = match table_mib.filter(|_| tables_run && peer.has_table()) {
                Some(mib) => {
                    let request = PeerRequest {
                        table_mib: Some(mib),
                        ..request
                    };
                    Some(peer_timing(peer, &what, &request, args.runs, off)?)
                }
                None => None,
            };
            peer_tables.push(table);
        }
        let row = Row {
            name,
            depth: Some(depth),
            off,
            modes: mode_timings,
            peers: peer_timings,
            peer_tables,
            work,
            stats,
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
            .fold(Timing::COUNTED_ZERO, |sum, row| sum.plus(row.off)),
        modes: (0..bench.modes.len())
            .map(|i| {
                rows.iter()
                    .fold(Timing::COUNTED_ZERO, |sum, row| sum.plus(row.modes[i]))
            })
            .collect(),
        // A peer that skipped a position has no total to compare.
        peers: (0..bench.peers.len())
            .map(|i| {
                rows.iter()
                    .try_fold(Timing::default(), |sum, row| Some(sum.plus(row.peers[i]?)))
            })
            .collect(),
        peer_tables: (0..bench.peers.len())
            .map(|i| {
                rows.iter().try_fold(Timing::default(), |sum, row| {
                    Some(sum.plus(row.peer_tables[i]?))
                })
            })
            .collect(),
        work: Vec::new(),
        stats: (0..rows.first().map_or(0, |row| row.stats.len()))
            .map(|i| {
                rows.iter()
                    .fold(Timing::COUNTED_ZERO, |sum, row| sum.plus(row.stats[i]))
            })
            .collect(),
    };
    for (peer, skip) in bench.peers.iter().zip(&skipped) {
        if let Some(skip) = skip {
            output::write_stderr(&format!(
                "note: {}: — where it cannot count, first at {skip}\n",
                peer.name()
            ));
        }
    }
    if args.json {
        let value = json!({
            "backend": args.run.backend.0.name(),
            "threads": args.run.thread_count(),
            "slider_lookup": SliderLookup::detect().name(),
            "tt_mb": args.run.tt_mb,
            "runs": args.runs,
            "modes": bench.modes.iter().map(|m| m.0.name()).collect::<Vec<_>>(),
            "peers": bench.peers.iter().zip(&skipped).map(|(peer, skip)| json!({
                "name": peer.name(),
                "path": peer.path.display().to_string(),
                "skipped": skip,
            })).collect::<Vec<_>>(),
            "positions": rows.iter().map(|row| bench.row_json(row)).collect::<Vec<_>>(),
            "total": bench.row_json(&total),
        });
        output::write_stdout(&format!("{value}\n"))
    } else {
        output::write_stdout(&bench.row_text(&total))
    }
}

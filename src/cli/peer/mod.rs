//! Peer perft programs run beside vkperft in `bench`, on the same positions in the same run.
//!
//! Stockfish stays up for the whole run and is asked over UCI; its time runs from `go perft` to
//! its total. The others are started once per position with the FEN and depth on the command
//! line, and timed as the wall time of that whole process, as their authors publish them.

mod ellxor;
mod gigantua;
mod mperft;
mod perft_cpu_2026;
mod process;
mod program;
mod stockfish;

use super::error::CliError;
use anyhow::anyhow;
use program::Program;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;
use stockfish::Stockfish;

/// The peers `bench` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeerKind {
    Stockfish,
    Gigantua,
    Ellxor,
    Mperft,
    MperftNull,
    PerftCpu2026,
}

impl PeerKind {
    const ALL: [PeerKind; 6] = [
        PeerKind::Stockfish,
        PeerKind::Gigantua,
        PeerKind::Ellxor,
        PeerKind::Mperft,
        PeerKind::MperftNull,
        PeerKind::PerftCpu2026,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PeerKind::Stockfish => "stockfish",
            PeerKind::Gigantua => "gigantua",
            PeerKind::Ellxor => "ellxor",
            PeerKind::Mperft => "mperft",
            PeerKind::MperftNull => "mperft-null",
            PeerKind::PerftCpu2026 => "perft_cpu_2026",
        }
    }

    fn program(self) -> Option<&'static dyn Program> {
        match self {
            PeerKind::Stockfish => None,
            PeerKind::Gigantua => Some(&gigantua::Gigantua),
            PeerKind::Ellxor => Some(&ellxor::Ellxor),
            PeerKind::Mperft => Some(&mperft::Mperft { null_move: false }),
            PeerKind::MperftNull => Some(&mperft::Mperft { null_move: true }),
            PeerKind::PerftCpu2026 => Some(&perft_cpu_2026::PerftCpu2026),
        }
    }
}

/// `--peer-bin NAME=PATH`: which peer, and its executable.
#[derive(Clone, Debug)]
pub struct PeerBin {
    pub kind: PeerKind,
    pub path: PathBuf,
}

impl FromStr for PeerBin {
    type Err = String;

    fn from_str(text: &str) -> Result<PeerBin, String> {
        let names = || {
            PeerKind::ALL
                .iter()
                .map(|kind| kind.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let (name, path) = text
            .split_once('=')
            .ok_or_else(|| format!("expected NAME=PATH, NAME one of {}", names()))?;
        let kind = PeerKind::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
            .ok_or_else(|| format!("unknown peer '{name}'; choose one of {}", names()))?;
        if path.is_empty() {
            return Err(format!("no path after '{name}='"));
        }
        Ok(PeerBin {
            kind,
            path: PathBuf::from(path),
        })
    }
}

impl fmt::Display for PeerBin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.kind.name(), self.path.display())
    }
}

enum Adapter {
    Uci(Stockfish),
    Process(&'static dyn Program),
}

/// What a peer is asked to count: `fen` at `depth`, with a table of `table_mib` MiB where the
/// peer has one, and `threads` threads where it has an option for them.
#[derive(Clone, Copy, Debug)]
pub struct PeerRequest<'a> {
    pub fen: &'a str,
    pub depth: u32,
    pub table_mib: Option<u64>,
    pub threads: usize,
}

/// One peer of a bench run.
pub struct Peer {
    pub kind: PeerKind,
    pub path: PathBuf,
    /// The option that named the peer, for messages.
    flag: String,
    adapter: Adapter,
}

impl Peer {
    /// `--peer SPEC`: Stockfish, found on PATH or in /usr/games unless SPEC is a path.
    pub fn stockfish(spec: &str) -> Result<Peer, CliError> {
        let path = stockfish::locate(spec).map_err(CliError::input)?;
        let adapter = Adapter::Uci(Stockfish::start(&path)?);
        Ok(Peer {
            kind: PeerKind::Stockfish,
            path,
            flag: format!("--peer {spec}"),
            adapter,
        })
    }

    /// `--peer-bin NAME=PATH`: the path must be an executable file.
    pub fn start(bin: &PeerBin) -> Result<Peer, CliError> {
        let flag = format!("--peer-bin {bin}");
        executable(&bin.path).map_err(|err| CliError::input(anyhow!("{flag}: {err}")))?;
        let adapter = match bin.kind.program() {
            Some(program) => Adapter::Process(program),
            None => Adapter::Uci(Stockfish::start(&bin.path).map_err(|err| naming(err, &flag))?),
        };
        Ok(Peer {
            kind: bin.kind,
            path: bin.path.clone(),
            flag,
            adapter,
        })
    }

    pub fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// Why this peer cannot count at `depth`, if it cannot.
    pub fn unsupported(&self, depth: u32) -> Option<&'static str> {
        match &self.adapter {
            Adapter::Uci(_) => None,
            Adapter::Process(program) => program.unsupported(depth),
        }
    }

    /// Whether the peer can count with a transposition table ([`Peer::perft`]'s `table_mib`).
    pub fn has_table(&self) -> bool {
        match &self.adapter {
            Adapter::Uci(_) => false,
            Adapter::Process(program) => program.table_arguments(1).is_some(),
        }
    }

    /// The peer's count and its time for `request`.
    pub fn perft(&mut self, request: &PeerRequest) -> Result<(u128, Duration), CliError> {
        let flag = &self.flag;
        let PeerRequest {
            fen,
            depth,
            table_mib,
            threads,
        } = *request;
        match &mut self.adapter {
            Adapter::Uci(stockfish) => stockfish.perft(fen, depth).map_err(|err| naming(err, flag)),
            Adapter::Process(program) => {
                let mut arguments = program.arguments(fen, depth);
                match table_mib.and_then(|mib| program.table_arguments(mib)) {
                    Some(table) => arguments.extend(table),
                    None => arguments.extend(program.no_table_arguments()),
                }
                arguments.extend(program.thread_arguments(threads));
                let run = process::run(&self.path, &arguments).map_err(|err| naming(err, flag))?;
                let at = format!("{flag}: at depth {depth} of {fen}");
                if !run.status.success() {
                    return Err(CliError::runtime(anyhow!(
                        "{at}: the peer failed ({}){}",
                        run.status,
                        process::last_words(&run.stderr)
                    )));
                }
                let nodes = program.total(&run.stdout, depth).ok_or_else(|| {
                    CliError::runtime(anyhow!(
                        "{at}: the peer printed no total{}",
                        process::last_words(&run.stdout)
                    ))
                })?;
                Ok((nodes, run.elapsed))
            }
        }
    }

    /// The option that named the peer, e.g. `--peer-bin mperft=/opt/mperft`.
    pub fn flag(&self) -> &str {
        &self.flag
    }
}

/// An error of the peer named by `flag`, saying so (an interruption stays as it is).
fn naming(err: CliError, flag: &str) -> CliError {
    match err {
        CliError::Input(err) => CliError::Input(err.context(flag.to_string())),
        CliError::Runtime(err) => CliError::Runtime(err.context(flag.to_string())),
        other => other,
    }
}

fn executable(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let metadata = std::fs::metadata(path).map_err(|err| anyhow!("{}: {err}", path.display()))?;
    if !metadata.is_file() {
        return Err(anyhow!("{} is not a file", path.display()));
    }
    if metadata.permissions().mode() & 0o111 == 0 {
        return Err(anyhow!("{} is not executable", path.display()));
    }
    Ok(())
}

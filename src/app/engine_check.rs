//! The user's engine, asked off the UI thread: a divide to compare with the shown one, or the
//! walk to the first position where it goes wrong. Each answer comes back as an event, and the
//! window is repainted when one arrives. Cancel kills the engine's processes at once and lets
//! the worker end on its own.

use crate::chess::Position;
use crate::cpu::exact_divide;
use crate::hunt::{
    self, EngineCommand, EngineDivide, EngineProcess, Finding, PositionRequest, Step,
};
use crossbeam_channel::{Receiver, Sender, TryRecvError};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// Engine calls one walk may make (one per ply is enough).
pub const MAX_QUERIES: usize = 64;

/// What the engine said.
pub enum CheckEvent {
    /// Its divide of the position that was compared, at `depth`; with vkperft's exact divide
    /// at that depth where the shown result was at another.
    Compared {
        depth: u32,
        engine: EngineDivide,
        expected: Option<BTreeMap<String, u128>>,
    },
    /// One comparison of a walk.
    Step(Step),
    /// Where the walk ended.
    Found(Finding),
    /// The engine could not be asked (the message says why).
    Failed(String),
}

/// The worker's channel and its engine's processes; at most one request at a time.
#[derive(Default)]
pub struct EngineCheck {
    events: Option<Receiver<CheckEvent>>,
    /// The engine of the request under way, and its command line.
    process: Option<(Arc<EngineProcess>, String)>,
}

impl EngineCheck {
    pub fn is_busy(&self) -> bool {
        self.events.is_some()
    }

    /// Kills the engine of the request under way and forgets the request; returns what to
    /// tell the user (the command, and the request it was answering), if one was under way.
    pub fn cancel(&mut self) -> Option<String> {
        self.events.take()?;
        let (process, command) = self.process.take()?;
        let waiting = process.kill();
        Some(if waiting.is_empty() {
            format!("Cancelled: `{command}` was stopped before it was asked anything.")
        } else {
            format!("Cancelled: `{command}` was stopped while answering `{waiting}`.")
        })
    }

    /// Asks the engine for its divide of `position` at `depth`; with `exact_threads`, vkperft's
    /// exact divide at that depth is counted first on that many threads (the shown result is
    /// at another depth).
    pub fn compare(
        &mut self,
        ctx: &egui::Context,
        command: EngineCommand,
        deadline: Duration,
        (position, depth): (Position, u32),
        exact_threads: Option<usize>,
    ) {
        let process = self.process_for(&command);
        self.spawn(ctx, move |send| {
            let expected = exact_threads.map(|threads| {
                exact_divide(&position, depth, threads)
                    .into_iter()
                    .map(|(mv, count)| (mv.to_string(), count))
                    .collect()
            });
            let request = PositionRequest {
                fen: position.to_fen(),
                moves: Vec::new(),
            };
            let chess960 = position.notation().is_chess960();
            let answer = hunt::open_engine_in(&command, deadline, chess960, process)
                .and_then(|mut engine| engine.divide(&request, depth));
            send(match answer {
                Ok(engine) => CheckEvent::Compared {
                    depth,
                    engine,
                    expected,
                },
                Err(error) => CheckEvent::Failed(error.to_string()),
            });
        });
    }

    /// Walks from `root` at `depth` to the first position where the engine goes wrong, with
    /// vkperft's divides on `threads` threads.
    pub fn hunt(
        &mut self,
        ctx: &egui::Context,
        command: EngineCommand,
        deadline: Duration,
        root: Position,
        depth: u32,
        threads: usize,
    ) {
        let process = self.process_for(&command);
        self.spawn(ctx, move |send| {
            let request = PositionRequest {
                fen: root.to_fen(),
                moves: Vec::new(),
            };
            let mut expected =
                |position: &Position, depth: u32| exact_divide(position, depth, threads);
            let chess960 = root.notation().is_chess960();
            let walked = hunt::open_engine_in(&command, deadline, chess960, process).and_then(
                |mut engine| {
                    hunt::hunt(
                        &root,
                        &request,
                        depth,
                        engine.as_mut(),
                        &mut expected,
                        MAX_QUERIES,
                        &mut |step| send(CheckEvent::Step(step.clone())),
                    )
                },
            );
            send(match walked {
                Ok(finding) => CheckEvent::Found(finding),
                Err(error) => CheckEvent::Failed(error.to_string()),
            });
        });
    }

    /// Every event that has arrived, without waiting; the request is over once its last
    /// event is taken (a worker that ended without one failed).
    pub fn drain(&mut self) -> Vec<CheckEvent> {
        let Some(events) = &self.events else {
            return Vec::new();
        };
        let mut arrived = Vec::new();
        let over = loop {
            match events.try_recv() {
                Ok(event) => {
                    let last = !matches!(event, CheckEvent::Step(_));
                    arrived.push(event);
                    if last {
                        break true;
                    }
                }
                Err(TryRecvError::Empty) => break false,
                Err(TryRecvError::Disconnected) => {
                    arrived.push(CheckEvent::Failed("the engine check stopped".into()));
                    break true;
                }
            }
        };
        if over {
            self.events = None;
            self.process = None;
        }
        arrived
    }

    /// A fresh process record for a request to `command`, kept for Cancel.
    fn process_for(&mut self, command: &EngineCommand) -> Arc<EngineProcess> {
        let process = EngineProcess::new();
        let line = match command {
            EngineCommand::Uci(line) | EngineCommand::Script(line) => line.clone(),
        };
        self.process = Some((process.clone(), line));
        process
    }

    fn spawn(
        &mut self,
        ctx: &egui::Context,
        work: impl FnOnce(&dyn Fn(CheckEvent)) + Send + 'static,
    ) {
        let (sender, events): (Sender<CheckEvent>, Receiver<CheckEvent>) =
            crossbeam_channel::unbounded();
        let ctx = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("vkperft-engine-check".into())
            .spawn(move || {
                let send = |event: CheckEvent| {
                    let _ = sender.send(event);
                    ctx.request_repaint();
                };
                work(&send);
            });
        if let Err(error) = spawned {
            let (failed, events) = crossbeam_channel::bounded(1);
            let _ = failed.send(CheckEvent::Failed(format!(
                "cannot start a thread: {error}"
            )));
            self.events = Some(events);
            return;
        }
        self.events = Some(events);
    }
}

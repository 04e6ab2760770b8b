//! A suite run off the UI thread: results come back as events, one per position and depth, and
//! the window is repainted as each arrives. Cancel stops the run and kills its engines.

use crate::suite::{self, PositionResult, RunError, RunSettings, Subject, Task};
use crossbeam_channel::{Receiver, TryRecvError};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What the run said.
pub enum SuiteEvent {
    /// The result of task `index`.
    Result(usize, Box<PositionResult>),
    /// The run ended: every task has its result, or why not.
    Ended(Result<(), String>),
}

/// The run under way, if any.
#[derive(Default)]
pub struct SuiteWorker {
    events: Option<Receiver<SuiteEvent>>,
    stop: Option<Arc<AtomicBool>>,
}

impl SuiteWorker {
    pub fn is_busy(&self) -> bool {
        self.events.is_some()
    }

    /// Runs `tasks` on `subject`.
    pub fn start(
        &mut self,
        ctx: &egui::Context,
        tasks: Vec<Task>,
        subject: Subject,
        settings: RunSettings,
    ) {
        let (sender, events) = crossbeam_channel::unbounded();
        let stop = Arc::new(AtomicBool::new(false));
        let (thread_stop, ctx) = (stop.clone(), ctx.clone());
        let spawned = std::thread::Builder::new()
            .name("vkperft-suite".into())
            .spawn(move || {
                let send = |event| {
                    let _ = sender.send(event);
                    ctx.request_repaint();
                };
                let ran = suite::run_suite(
                    &tasks,
                    &subject,
                    &settings,
                    &|| thread_stop.load(Ordering::SeqCst),
                    &mut |index, result| send(SuiteEvent::Result(index, Box::new(result.clone()))),
                );
                send(SuiteEvent::Ended(match ran {
                    Ok(_) => Ok(()),
                    Err(RunError::Interrupted { done, total }) => {
                        Err(format!("Cancelled after {done} of {total} checks."))
                    }
                    Err(error) => Err(error.to_string()),
                }));
            });
        match spawned {
            Ok(_) => {
                self.events = Some(events);
                self.stop = Some(stop);
            }
            Err(error) => {
                let (failed, events) = crossbeam_channel::bounded(1);
                let _ = failed.send(SuiteEvent::Ended(Err(format!(
                    "cannot start a thread: {error}"
                ))));
                self.events = Some(events);
            }
        }
    }

    /// Asks the run to stop; its end comes as [`SuiteEvent::Ended`].
    pub fn cancel(&self) {
        if let Some(stop) = &self.stop {
            stop.store(true, Ordering::SeqCst);
        }
    }

    /// Every event that has arrived, without waiting; the run is over once `Ended` is taken.
    pub fn drain(&mut self) -> Vec<SuiteEvent> {
        let Some(events) = &self.events else {
            return Vec::new();
        };
        let mut arrived = Vec::new();
        loop {
            match events.try_recv() {
                Ok(event) => {
                    let ended = matches!(event, SuiteEvent::Ended(_));
                    arrived.push(event);
                    if ended {
                        self.events = None;
                        self.stop = None;
                        break;
                    }
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    arrived.push(SuiteEvent::Ended(Err("the suite run stopped".into())));
                    self.events = None;
                    self.stop = None;
                    break;
                }
            }
        }
        arrived
    }
}

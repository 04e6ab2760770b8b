//! The run of a suite: `jobs` workers take the positions in turn, each with an engine of its
//! own that is restarted after it crashes, hangs past the deadline of a query or prints
//! garbage (vkperft: one worker, a client of the engine the subject names); every failure is
//! walked to the first wrong position with the hunt's walk. Results come back as they finish
//! and are returned in file order. When vkperft counts the move-type statistics, each one a
//! line gives at the depth is compared too: a check passes only if its count and all of them
//! agree (a statistic that differs beside the right count is not walked: the walk compares
//! leaf counts).

use super::outcome::{Drill, PositionResult, Verdict};
use super::select::Task;
use super::subject::VkperftSubject;
use crate::backend::MAX_DEPTH;
use crate::chess::{CastlingNotation, Position};
use crate::cpu::exact_divide;
use crate::engine::{Engine, JobSpec};
use crate::hunt::{
    self, EngineCommand, EngineProcess, EngineUnderTest, HuntError, PositionRequest,
};
use crossbeam_channel::RecvTimeoutError;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use thiserror::Error;

/// How often the run looks whether it should stop.
const POLL: Duration = Duration::from_millis(20);

/// What the suite checks.
#[derive(Clone, Debug)]
pub enum Subject {
    /// vkperft, with these job settings (backend, table mode, ...), on this engine (each
    /// subject opened is another client of it); one job at a time, each on the threads the
    /// settings give.
    Vkperft { engine: Engine, spec: JobSpec },
    /// The user's engine.
    Engine(EngineCommand),
}

impl Subject {
    /// Whether its answers carry move-type statistics to compare with the file's: vkperft's
    /// do when its settings ask for them (`--stats`); an engine gives divides only.
    pub fn counts_stats(&self) -> bool {
        matches!(self, Subject::Vkperft { spec, .. } if spec.move_stats)
    }
}

/// How the run goes.
#[derive(Clone, Debug)]
pub struct RunSettings {
    /// Engine processes at once (vkperft runs one job at a time whatever this says).
    pub jobs: usize,
    /// The deadline of one engine query.
    pub timeout: Duration,
    /// Engine queries a failure's walk may make.
    pub max_queries: usize,
    pub drill_down: bool,
    /// Chess960 notation for every position, not only those whose FEN needs it.
    pub chess960: bool,
    /// CPU threads for vkperft's exact counts, shared by the workers.
    pub threads: usize,
}

/// Why a run ended without every result.
#[derive(Debug, Error)]
pub enum RunError {
    #[error("interrupted after {done} of {total} positions")]
    Interrupted { done: usize, total: usize },
    #[error("{0}")]
    EngineCannotStart(HuntError),
}

/// Runs `tasks` on `subject`. `on_result` sees each result as it comes (its index in `tasks`);
/// `should_stop` is asked every few milliseconds, and once it says yes every engine is killed
/// and the run returns [`RunError::Interrupted`].
pub fn run_suite(
    tasks: &[Task],
    subject: &Subject,
    settings: &RunSettings,
    should_stop: &dyn Fn() -> bool,
    on_result: &mut dyn FnMut(usize, &PositionResult),
) -> Result<Vec<PositionResult>, RunError> {
    let workers = match subject {
        Subject::Vkperft { .. } => 1,
        Subject::Engine(_) => settings.jobs.clamp(1, tasks.len().max(1)),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let processes: Vec<Arc<EngineProcess>> = (0..workers).map(|_| EngineProcess::new()).collect();
    let next = AtomicUsize::new(0);
    let started_once = AtomicBool::new(false);
    let (sender, results) = crossbeam_channel::unbounded();
    let exact_threads = (settings.threads / workers).max(1);
    let mut slots: Vec<Option<PositionResult>> = vec![None; tasks.len()];
    let mut fatal = None;
    std::thread::scope(|scope| {
        for process in &processes {
            let worker = Worker {
                subject,
                settings,
                exact_threads,
                process: process.clone(),
                stop: stop.clone(),
                started_once: &started_once,
                engine: None,
            };
            let (sender, next) = (sender.clone(), &next);
            scope.spawn(move || worker.work(tasks, next, &sender));
        }
        drop(sender);
        loop {
            if !stop.load(Ordering::SeqCst) && should_stop() {
                stop.store(true, Ordering::SeqCst);
                processes.iter().for_each(|process| {
                    process.kill();
                });
            }
            match results.recv_timeout(POLL) {
                Ok(Ok((index, result))) => {
                    if !stop.load(Ordering::SeqCst) {
                        on_result(index, &result);
                        slots[index] = Some(result);
                    }
                }
                Ok(Err(error)) => {
                    fatal.get_or_insert(error);
                    stop.store(true, Ordering::SeqCst);
                    processes.iter().for_each(|process| {
                        process.kill();
                    });
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    if let Some(error) = fatal {
        return Err(RunError::EngineCannotStart(error));
    }
    let done = slots.iter().filter(|slot| slot.is_some()).count();
    if done < tasks.len() {
        return Err(RunError::Interrupted {
            done,
            total: tasks.len(),
        });
    }
    Ok(slots.into_iter().flatten().collect())
}

/// A worker's answer: a result, or an engine that could never be started.
type Answer = Result<(usize, PositionResult), HuntError>;

struct Worker<'a> {
    subject: &'a Subject,
    settings: &'a RunSettings,
    exact_threads: usize,
    process: Arc<EngineProcess>,
    stop: Arc<AtomicBool>,
    /// Whether any worker's engine has started: until one has, an engine that cannot start
    /// ends the run (a wrong command line), afterwards it is one position's error.
    started_once: &'a AtomicBool,
    /// The running engine, and whether it was told `UCI_Chess960`.
    engine: Option<(Box<dyn EngineUnderTest + Send>, bool)>,
}

impl Worker<'_> {
    fn work(
        mut self,
        tasks: &[Task],
        next: &AtomicUsize,
        sender: &crossbeam_channel::Sender<Answer>,
    ) {
        while !self.stop.load(Ordering::SeqCst) {
            let index = next.fetch_add(1, Ordering::SeqCst);
            let Some(task) = tasks.get(index) else {
                return;
            };
            let answer = self.check(task).map(|result| (index, result));
            let fatal = answer.is_err();
            if sender.send(answer).is_err() || fatal {
                return;
            }
        }
    }

    /// The engine for a position in Chess960 notation or not, (re)started if need be: a UCI
    /// engine is told `UCI_Chess960` when it starts (vkperft reads the notation from the FEN).
    fn engine(&mut self, chess960: bool) -> Result<&mut (dyn EngineUnderTest + Send), HuntError> {
        let other_notation = self
            .engine
            .as_ref()
            .is_some_and(|(_, mode)| *mode != chess960);
        if other_notation && matches!(self.subject, Subject::Engine(EngineCommand::Uci(_))) {
            self.engine = None;
        }
        if self.engine.is_none() {
            let engine: Box<dyn EngineUnderTest + Send> = match self.subject {
                Subject::Vkperft { engine, spec } => Box::new(VkperftSubject::new(
                    engine.clone(),
                    spec.clone(),
                    self.stop.clone(),
                )),
                Subject::Engine(command) => hunt::open_engine_in(
                    command,
                    self.settings.timeout,
                    chess960,
                    self.process.clone(),
                )?,
            };
            self.started_once.store(true, Ordering::SeqCst);
            self.engine = Some((engine, chess960));
        }
        Ok(self.engine.as_mut().expect("started above").0.as_mut())
    }

    fn check(&mut self, task: &Task) -> Result<PositionResult, HuntError> {
        let mut result = PositionResult {
            task: task.clone(),
            expected: task.expected,
            expected_from_file: task.expected.is_some(),
            got: None,
            stats: Vec::new(),
            seconds: 0.0,
            verdict: Verdict::Passed,
        };
        let position = match self.position(task) {
            Ok(position) => position,
            Err(reason) => {
                result.verdict = Verdict::Refused(reason);
                return Ok(result);
            }
        };
        let threads = self.exact_threads;
        let exact = |position: &Position, depth: u32| exact_divide(position, depth, threads);
        let expected = *result
            .expected
            .get_or_insert_with(|| exact(&position, task.depth).iter().map(|(_, n)| n).sum());
        let chess960 = position.notation().is_chess960();
        let request = PositionRequest {
            fen: position.to_fen(),
            moves: Vec::new(),
        };
        let asked = Instant::now();
        let answer = self
            .engine(chess960)
            .and_then(|engine| engine.divide(&request, task.depth));
        result.seconds = asked.elapsed().as_secs_f64();
        let divide = match answer {
            Ok(divide) => divide,
            Err(error @ (HuntError::Start { .. } | HuntError::Handshake { .. }))
                if !self.started_once.load(Ordering::SeqCst) =>
            {
                return Err(error)
            }
            Err(error) => {
                // Whatever state it is in, the next position gets a fresh engine.
                self.engine = None;
                result.verdict = Verdict::EngineError(error.to_string());
                return Ok(result);
            }
        };
        let got = divide.total();
        result.got = Some(got);
        if self.subject.counts_stats() && !task.expected_stats.is_empty() {
            let counted = self
                .engine
                .as_ref()
                .and_then(|(engine, _)| engine.move_stats());
            let Some(counted) = counted else {
                result.verdict = Verdict::EngineError("no statistics were counted".into());
                return Ok(result);
            };
            result.stats = task.expected_stats.compare(&counted);
        }
        if got == expected {
            if result.wrong_stats().next().is_some() {
                result.verdict = Verdict::Failed(Drill::CountAgrees);
            }
            return Ok(result);
        }
        if !self.settings.drill_down {
            result.verdict = Verdict::Failed(Drill::NotAsked);
            return Ok(result);
        }
        let mut steps = Vec::new();
        let mut expected_divide = exact;
        let max_queries = self.settings.max_queries;
        let walked = self.engine(chess960).and_then(|engine| {
            hunt::hunt(
                &position,
                &request,
                task.depth,
                engine,
                &mut expected_divide,
                max_queries,
                &mut |step| steps.push(step.clone()),
            )
        });
        result.verdict = Verdict::Failed(match walked {
            Ok(finding) => Drill::Found {
                finding: Box::new(finding),
                steps,
            },
            Err(error) => {
                if !matches!(error, HuntError::QueryLimit { .. }) {
                    self.engine = None;
                }
                Drill::Stopped(error.to_string())
            }
        });
        Ok(result)
    }

    /// The task's position, or why it cannot be run.
    fn position(&self, task: &Task) -> Result<Position, String> {
        if task.depth == 0 || task.depth > MAX_DEPTH {
            return Err(format!(
                "depth {} is out of range (1..={MAX_DEPTH})",
                task.depth
            ));
        }
        let position = Position::from_fen(&task.fen).map_err(|error| error.to_string())?;
        Ok(if self.settings.chess960 {
            position.with_notation(CastlingNotation::Shredder)
        } else {
            position
        })
    }
}

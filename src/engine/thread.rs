//! The engine thread and its channels.
//!
//! Commands go in (`Run`, `Cancel`, `ListDevices`, `Shutdown`); events come out. Jobs run one at
//! a time, each on its own thread, so the engine thread stays free to take a `Cancel` at once;
//! `Run` while a job is running queues the job. The device list is made off the engine thread
//! too, and published once.

use super::backends::Backends;
use super::event::Event;
use super::job::{Job, JobId};
use super::provider::BackendProvider;
use super::runner::run_job;
use crate::gpu::DeviceInfo;
use crossbeam_channel::{Receiver, Sender};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;

#[derive(Debug)]
pub enum Command {
    Run(Box<Job>),
    Cancel(JobId),
    /// List the Vulkan devices (once; [`Engine::devices`] has them after the waker's call).
    ListDevices,
    Shutdown,
}

/// Internal messages of the engine thread: commands, and the end of the running job.
enum Message {
    Command(Command),
    JobEnded(JobId),
}

/// Called after every event, e.g. to wake a GUI (`ctx.request_repaint()`).
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// The device list as the engine publishes it: unset until listed.
type DeviceList = Arc<OnceLock<Vec<DeviceInfo>>>;

pub struct Engine {
    commands: Sender<Message>,
    events: Receiver<Event>,
    devices: DeviceList,
    thread: Option<JoinHandle<()>>,
    next_id: u64,
}

struct Running {
    id: JobId,
    cancel: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

impl Engine {
    /// An engine on this machine's backends: the CPU and its Vulkan devices.
    pub fn spawn(waker: Option<Waker>) -> Engine {
        Engine::spawn_with(waker, Box::new(Backends::default()))
    }

    /// An engine whose jobs run on the backends `backends` hands out.
    pub fn spawn_with(waker: Option<Waker>, backends: Box<dyn BackendProvider>) -> Engine {
        let (command_tx, command_rx) = crossbeam_channel::unbounded();
        let (event_tx, event_rx) = crossbeam_channel::unbounded();
        let loop_tx = command_tx.clone();
        let devices = DeviceList::default();
        let published = devices.clone();
        let thread = std::thread::Builder::new()
            .name("vkperft-engine".into())
            .spawn(move || engine_loop(command_rx, loop_tx, event_tx, waker, backends, published))
            .expect("spawning the engine thread");
        Engine {
            commands: command_tx,
            events: event_rx,
            devices,
            thread: Some(thread),
            next_id: 1,
        }
    }

    /// A fresh job id for [`Engine::run`].
    pub fn next_job_id(&mut self) -> JobId {
        let id = JobId(self.next_id);
        self.next_id += 1;
        id
    }

    pub fn send(&self, command: Command) {
        // A send fails only once the engine thread has ended, when there is nothing to do.
        let _ = self.commands.send(Message::Command(command));
    }

    pub fn run(&self, job: Job) {
        self.send(Command::Run(Box::new(job)));
    }

    pub fn cancel(&self, id: JobId) {
        self.send(Command::Cancel(id));
    }

    pub fn events(&self) -> &Receiver<Event> {
        &self.events
    }

    /// Asks for the device list ([`Engine::devices`]); the waker is called when it is there.
    pub fn list_devices(&self) {
        self.send(Command::ListDevices);
    }

    /// The Vulkan devices (usable or not), once listed after [`Engine::list_devices`].
    pub fn devices(&self) -> Option<&[DeviceInfo]> {
        self.devices.get().map(Vec::as_slice)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.send(Command::Shutdown);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn engine_loop(
    commands: Receiver<Message>,
    loopback: Sender<Message>,
    events: Sender<Event>,
    waker: Option<Waker>,
    backends: Box<dyn BackendProvider>,
    devices: DeviceList,
) {
    let mut queue: VecDeque<Job> = VecDeque::new();
    let mut running: Option<Running> = None;
    // Whether the device list was asked for: it is made once.
    let mut listing = false;
    // Lent to one job thread at a time (jobs run one after another).
    let backends = Arc::new(Mutex::new(backends));
    let emit = {
        let waker = waker.clone();
        move |event: Event| {
            let _ = events.send(event);
            if let Some(waker) = &waker {
                waker();
            }
        }
    };
    let emit = Arc::new(emit);
    loop {
        if running.is_none() {
            if let Some(job) = queue.pop_front() {
                let cancel = Arc::new(AtomicBool::new(false));
                let id = job.id;
                let (thread_cancel, emit, loopback, backends) = (
                    cancel.clone(),
                    emit.clone(),
                    loopback.clone(),
                    backends.clone(),
                );
                let thread = std::thread::Builder::new()
                    .name(format!("vkperft-job-{}", id.0))
                    .spawn(move || {
                        let mut backends = backends.lock().unwrap_or_else(|e| e.into_inner());
                        run_job(&job, &mut **backends, &thread_cancel, &*emit);
                        let _ = loopback.send(Message::JobEnded(id));
                    })
                    .expect("spawning a job thread");
                running = Some(Running { id, cancel, thread });
            }
        }
        let Ok(message) = commands.recv() else {
            break;
        };
        match message {
            Message::Command(Command::Run(job)) => queue.push_back(*job),
            Message::Command(Command::Cancel(id)) => {
                if let Some(run) = running.as_ref().filter(|r| r.id == id) {
                    run.cancel.store(true, Ordering::Relaxed);
                } else if let Some(index) = queue.iter().position(|job| job.id == id) {
                    queue.remove(index);
                    emit(Event::Cancelled { job: id });
                }
            }
            Message::Command(Command::ListDevices) => {
                if !listing {
                    listing = true;
                    // Waits for a running job's backends; the engine thread stays free.
                    let (devices, backends, waker) =
                        (devices.clone(), backends.clone(), waker.clone());
                    std::thread::Builder::new()
                        .name("vkperft-devices".into())
                        .spawn(move || {
                            let list = backends.lock().unwrap_or_else(|e| e.into_inner()).devices();
                            let _ = devices.set(list);
                            if let Some(waker) = &waker {
                                waker();
                            }
                        })
                        .expect("spawning the device lister");
                }
            }
            Message::Command(Command::Shutdown) => break,
            Message::JobEnded(id) => {
                if let Some(run) = running.take_if(|r| r.id == id) {
                    let _ = run.thread.join();
                }
            }
        }
    }
    if let Some(run) = running.take() {
        run.cancel.store(true, Ordering::Relaxed);
        let _ = run.thread.join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::run_control::RunControl;
    use crate::backend::{Backend, BackendError, Device, RunError, RunOutcome, RunRequest};
    use crate::chess::Position;
    use crate::chess::Zobrist;
    use crate::count::Counts;
    use crate::cpu::backend::CpuBackend;
    use crate::engine::event::{EngineError, PerftResult};
    use crate::engine::job::BackendChoice;
    use crate::engine::provider::Resolved;
    use crate::tt::{TtConfig, TtMode};
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    fn job(engine: &mut Engine, depth: u32, mode: TtMode) -> Job {
        Job {
            id: engine.next_job_id(),
            position: Position::startpos(),
            depth,
            backend: BackendChoice::Cpu,
            threads: 2,
            zobrist_seed: 1,
            tt: TtConfig::new(mode, 1 << 20),
            tt_size_chosen: true,
            gpu: Default::default(),
            keep_table: false,
            move_stats: false,
            stats_every_depth: false,
        }
    }

    /// Events of one job up to and including its final event.
    fn events_until_end(engine: &Engine, id: JobId) -> Vec<Event> {
        let mut events = Vec::new();
        while let Ok(event) = engine.events().recv_timeout(Duration::from_secs(60)) {
            assert_eq!(event.job(), id);
            let end = matches!(
                event,
                Event::Finished { .. } | Event::Failed { .. } | Event::Cancelled { .. }
            );
            events.push(event);
            if end {
                return events;
            }
        }
        panic!("no final event for {id:?}");
    }

    #[test]
    fn run_reports_start_roots_and_result() {
        let mut engine = Engine::spawn(None);
        let job = job(&mut engine, 4, TtMode::Fast);
        let id = job.id;
        engine.run(job);
        let events = events_until_end(&engine, id);
        assert!(matches!(events[0], Event::Started { .. }));
        let roots: Vec<(String, Counts)> = events
            .iter()
            .filter_map(|e| match e {
                Event::RootMoveDone { mv, counts, .. } => Some((mv.to_string(), **counts)),
                _ => None,
            })
            .collect();
        assert_eq!(roots.len(), 20);
        let Some(Event::Finished { result, .. }) = events.last() else {
            panic!("expected Finished, got {:?}", events.last());
        };
        assert_eq!(result.counts.nodes, 197_281);
        assert_eq!(roots.iter().map(|(_, c)| c.nodes).sum::<u128>(), 197_281);
        assert!(result.tt.as_ref().is_some_and(|tt| tt.total.probes > 0));
    }

    fn finished(engine: &Engine, job: Job) -> PerftResult {
        let id = job.id;
        engine.run(job);
        match events_until_end(engine, id).pop() {
            Some(Event::Finished { result, .. }) => *result,
            other => panic!("expected Finished, got {other:?}"),
        }
    }

    fn probes(result: &PerftResult) -> u64 {
        result.tt.as_ref().map_or(0, |tt| tt.total.probes)
    }

    /// A job with `keep_table` finds the entries of the previous job when that one finished
    /// with the same table and seed, and starts empty otherwise.
    #[test]
    fn keep_table_reuses_only_a_matching_finished_table() {
        let mut engine = Engine::spawn(None);
        let plain = job(&mut engine, 4, TtMode::Fast);
        let first = finished(&engine, plain);
        let mut again = job(&mut engine, 4, TtMode::Fast);
        again.keep_table = true;
        let kept = finished(&engine, again);
        assert_eq!(kept.counts.nodes, 197_281);
        // The search probes once per item of ply 2; the kept table's statistics go on from
        // the first job's, and most of the second job's probes hit (a few slots were
        // overwritten).
        assert_eq!(probes(&first), 400);
        assert_eq!(probes(&kept), 800);
        let hits = |result: &PerftResult| result.tt.as_ref().map_or(0, |tt| tt.total.hits);
        assert!(hits(&kept) - hits(&first) > 300, "{}", hits(&kept));

        // Another seed: a new table.
        let mut other_seed = job(&mut engine, 4, TtMode::Fast);
        other_seed.keep_table = true;
        other_seed.zobrist_seed = 2;
        let fresh = finished(&engine, other_seed);
        assert_eq!(fresh.counts.nodes, 197_281);
        assert_eq!((probes(&fresh), hits(&fresh)), (400, hits(&first)));

        // Without keep_table, the same seed: a new table too.
        let mut without = job(&mut engine, 4, TtMode::Fast);
        without.zobrist_seed = 2;
        let emptied = finished(&engine, without);
        assert_eq!((probes(&emptied), hits(&emptied)), (400, hits(&first)));
    }

    #[test]
    fn cancel_is_prompt_and_the_engine_is_reusable() {
        let wakes = Arc::new(AtomicUsize::new(0));
        let counter = wakes.clone();
        let mut engine = Engine::spawn(Some(Arc::new(move || {
            counter.fetch_add(1, Ordering::Relaxed);
        })));
        let long = job(&mut engine, 9, TtMode::Off);
        let long_id = long.id;
        engine.run(long);
        // Wait until it is really running, then cancel.
        loop {
            let event = engine
                .events()
                .recv_timeout(Duration::from_secs(10))
                .expect("the long job reports");
            if matches!(event, Event::Progress { .. }) {
                break;
            }
        }
        engine.cancel(long_id);
        // Start position perft(9) takes minutes here: ending with Cancelled, before any
        // result and with work left, is the cancel taking effect.
        let events = events_until_end(&engine, long_id);
        assert!(matches!(events.last(), Some(Event::Cancelled { .. })));
        assert!(!events.iter().any(|e| matches!(e, Event::Finished { .. })));
        let last_progress = events.iter().rev().find_map(|e| match e {
            Event::Progress { progress, .. } => Some(progress),
            _ => None,
        });
        if let Some(progress) = last_progress {
            assert!(progress.tasks_done < progress.tasks_total, "{progress:?}");
        }

        let short = job(&mut engine, 3, TtMode::Verified);
        let short_id = short.id;
        engine.run(short);
        match events_until_end(&engine, short_id).last() {
            Some(Event::Finished { result, .. }) => assert_eq!(result.counts.nodes, 8_902),
            other => panic!("expected Finished, got {other:?}"),
        }
        assert!(wakes.load(Ordering::Relaxed) > 0);
    }

    #[test]
    fn queued_jobs_run_in_order_and_can_be_cancelled_before_they_start() {
        let mut engine = Engine::spawn(None);
        let first = job(&mut engine, 5, TtMode::Off);
        let second = job(&mut engine, 2, TtMode::Off);
        let third = job(&mut engine, 3, TtMode::Off);
        let (first_id, second_id, third_id) = (first.id, second.id, third.id);
        engine.run(first);
        engine.run(second);
        engine.run(third);
        engine.cancel(second_id);
        let mut finished = Vec::new();
        let mut cancelled = Vec::new();
        while finished.len() + cancelled.len() < 3 {
            match engine.events().recv_timeout(Duration::from_secs(60)) {
                Ok(Event::Finished { job, result }) => finished.push((job, result.counts.nodes)),
                Ok(Event::Cancelled { job }) => cancelled.push(job),
                Ok(_) => {}
                Err(err) => panic!("engine went quiet: {err}"),
            }
        }
        assert_eq!(finished, vec![(first_id, 4_865_609), (third_id, 8_902)]);
        assert_eq!(cancelled, vec![second_id]);
    }

    #[test]
    fn bad_jobs_fail_with_a_reason() {
        let mut engine = Engine::spawn(None);
        let mut deep = job(&mut engine, crate::backend::MAX_DEPTH + 1, TtMode::Off);
        deep.depth = crate::backend::MAX_DEPTH + 1;
        let deep_id = deep.id;
        engine.run(deep);
        assert!(matches!(
            events_until_end(&engine, deep_id).last(),
            Some(Event::Failed {
                error: crate::engine::event::EngineError::DepthOutOfRange { .. },
                ..
            })
        ));
        let mut no_table = job(&mut engine, 3, TtMode::Fast);
        no_table.tt.bytes = 0;
        let no_table_id = no_table.id;
        engine.run(no_table);
        assert!(matches!(
            events_until_end(&engine, no_table_id).last(),
            Some(Event::Failed {
                error: crate::engine::event::EngineError::Tt(_),
                ..
            })
        ));
    }

    /// A backend with a bug: its runs panic.
    struct PanickingBackend;

    impl Backend for PanickingBackend {
        fn device(&self, _: &RunRequest) -> Device {
            Device::Cpu { threads: 1 }
        }

        fn prepare(&mut self, _: &TtConfig, _: &Zobrist) -> Result<(), BackendError> {
            Ok(())
        }

        fn run(&mut self, _: &RunRequest, _: &RunControl<'_>) -> Result<RunOutcome, RunError> {
            panic!("a bug in the backend")
        }
    }

    /// The buggy backend for the first job, the CPU afterwards; counts resets.
    struct FirstJobPanics {
        jobs: usize,
        resets: Arc<AtomicUsize>,
        buggy: PanickingBackend,
        cpu: CpuBackend,
    }

    impl BackendProvider for FirstJobPanics {
        fn backend_for(
            &mut self,
            _job: &Job,
            _cancel: &AtomicBool,
        ) -> Result<Resolved<'_>, RunError> {
            self.jobs += 1;
            let backend: &mut dyn Backend = if self.jobs == 1 {
                &mut self.buggy
            } else {
                &mut self.cpu
            };
            Ok(Resolved {
                backend,
                note: None,
                holds_table: false,
            })
        }

        fn reset(&mut self) {
            self.resets.fetch_add(1, Ordering::Relaxed);
        }
    }

    #[test]
    fn a_panicking_job_fails_and_the_engine_runs_the_next() {
        let resets = Arc::new(AtomicUsize::new(0));
        let mut engine = Engine::spawn_with(
            None,
            Box::new(FirstJobPanics {
                jobs: 0,
                resets: resets.clone(),
                buggy: PanickingBackend,
                cpu: CpuBackend::default(),
            }),
        );
        let buggy = job(&mut engine, 3, TtMode::Off);
        let buggy_id = buggy.id;
        engine.run(buggy);
        match events_until_end(&engine, buggy_id).last() {
            Some(Event::Failed {
                error: EngineError::Panicked(message),
                ..
            }) => assert!(message.contains("a bug in the backend"), "{message}"),
            other => panic!("expected Failed with the panic, got {other:?}"),
        }
        assert_eq!(resets.load(Ordering::Relaxed), 1);

        let next = job(&mut engine, 3, TtMode::Fast);
        let next_id = next.id;
        engine.run(next);
        match events_until_end(&engine, next_id).last() {
            Some(Event::Finished { result, .. }) => assert_eq!(result.counts.nodes, 8_902),
            other => panic!("expected Finished, got {other:?}"),
        }
    }

    /// A provider that counts how often it is asked for the devices.
    struct CountingDevices(Arc<AtomicUsize>);

    impl BackendProvider for CountingDevices {
        fn backend_for(&mut self, _: &Job, _: &AtomicBool) -> Result<Resolved<'_>, RunError> {
            unreachable!("no job runs")
        }

        fn reset(&mut self) {}

        fn devices(&mut self) -> Vec<crate::gpu::DeviceInfo> {
            self.0.fetch_add(1, Ordering::Relaxed);
            Vec::new()
        }
    }

    /// The window asks for the devices at start (and a redrawn panel may ask again): the
    /// engine lists them once, off its own thread, and wakes the asker when they are there.
    #[test]
    fn the_devices_are_listed_once_off_the_callers_thread() {
        let asked = Arc::new(AtomicUsize::new(0));
        let woken = Arc::new(AtomicUsize::new(0));
        let waker_count = woken.clone();
        let waker: Waker = Arc::new(move || {
            waker_count.fetch_add(1, Ordering::Relaxed);
        });
        let engine = Engine::spawn_with(Some(waker), Box::new(CountingDevices(asked.clone())));
        assert!(engine.devices().is_none(), "nothing is listed unasked");
        engine.list_devices();
        engine.list_devices();
        let deadline = std::time::Instant::now() + Duration::from_secs(120);
        while engine.devices().is_none() || woken.load(Ordering::Relaxed) == 0 {
            assert!(std::time::Instant::now() < deadline, "no device list came");
            std::thread::sleep(Duration::from_millis(5));
        }
        engine.list_devices();
        drop(engine);
        assert_eq!(asked.load(Ordering::Relaxed), 1);
        assert_eq!(woken.load(Ordering::Relaxed), 1);
    }
}

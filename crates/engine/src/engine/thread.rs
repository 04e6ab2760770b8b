//! The engine thread and its clients. A client ([`Engine`]) is a handle on the thread: the
//! window, a suite's run and the command line each hold one. Clients of one engine share its
//! thread, its backends (a Vulkan device is opened once, a table sized once) and its queue;
//! each receives the events of its own jobs only, on a channel of its own, and can cancel only
//! its own jobs. What the thread does with their messages: [`super::dispatch`].

use super::backends::Backends;
use super::dispatch::{engine_loop, Command, DeviceList, Message};
use super::event::Event;
use super::job::{Job, JobId};
use super::provider::BackendProvider;
use super::route::{ClientId, Route, Waker};
use crate::gpu::DeviceInfo;
use crossbeam_channel::{Receiver, Sender};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// A client of an engine thread. [`Engine::spawn`] starts a thread and its first client;
/// `clone` adds another client of the same thread. The thread shuts down when its last client
/// is dropped; a client dropped earlier takes its jobs with it (the running one is cancelled).
pub struct Engine {
    client: ClientId,
    events: Receiver<Event>,
    thread: Arc<EngineThread>,
}

impl Engine {
    /// An engine on this machine's backends: the CPU and its Vulkan devices. `waker` is called
    /// after each event of this client's jobs.
    pub fn spawn(waker: Option<Waker>) -> Engine {
        Engine::spawn_with(waker, Box::new(Backends::default()))
    }

    /// An engine whose jobs run on the backends `backends` hands out.
    pub fn spawn_with(waker: Option<Waker>, backends: Box<dyn BackendProvider>) -> Engine {
        Engine::join(Arc::new(EngineThread::spawn(backends)), waker)
    }

    /// A new client of `thread`, woken by `waker`.
    fn join(thread: Arc<EngineThread>, waker: Option<Waker>) -> Engine {
        let client = thread.next_client_id();
        let (events_tx, events) = crossbeam_channel::unbounded();
        thread.send(Message::Joined(
            client,
            Route {
                events: events_tx,
                waker,
            },
        ));
        Engine {
            client,
            events,
            thread,
        }
    }

    fn send(&self, command: Command) {
        self.thread.send(Message::Command(self.client, command));
    }

    /// A fresh job id for [`Engine::run`], unique among every client of this engine.
    pub fn next_job_id(&self) -> JobId {
        self.thread.next_job_id()
    }

    /// Queues `job`; it runs once the jobs sent before it, by any client, have ended.
    pub fn run(&self, job: Job) {
        self.send(Command::Run(Box::new(job)));
    }

    /// Cancels this client's job `id`, running or queued; another client's job is left alone.
    pub fn cancel(&self, id: JobId) {
        self.send(Command::Cancel(id));
    }

    /// The events of this client's jobs.
    pub fn events(&self) -> &Receiver<Event> {
        &self.events
    }

    /// Asks for the device list ([`Engine::devices`]); the waker of the client that asked
    /// first is called when it is there.
    pub fn list_devices(&self) {
        self.send(Command::ListDevices);
    }

    /// The Vulkan devices (usable or not), once listed after [`Engine::list_devices`].
    pub fn devices(&self) -> Option<&[DeviceInfo]> {
        self.thread.devices()
    }
}

impl Clone for Engine {
    /// Another client of the same engine thread, with a channel of its own and no waker (its
    /// owner waits for its events).
    fn clone(&self) -> Engine {
        Engine::join(self.thread.clone(), None)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.thread.send(Message::Left(self.client));
    }
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("client", &self.client.0)
            .finish_non_exhaustive()
    }
}

/// The engine thread and what its clients share: shut down and joined when the last client
/// lets go of it.
pub(super) struct EngineThread {
    commands: Sender<Message>,
    devices: DeviceList,
    /// Job ids are unique across clients, so a client can only cancel its own jobs.
    next_job: AtomicU64,
    next_client: AtomicU64,
    thread: Option<JoinHandle<()>>,
}

impl EngineThread {
    /// A thread whose jobs run on the backends `backends` hands out.
    pub(super) fn spawn(backends: Box<dyn BackendProvider>) -> EngineThread {
        let (command_tx, command_rx) = crossbeam_channel::unbounded();
        let loopback = command_tx.clone();
        let devices = DeviceList::default();
        let published = devices.clone();
        let thread = std::thread::Builder::new()
            .name("vkperft-engine".into())
            .spawn(move || engine_loop(command_rx, loopback, backends, published))
            .expect("spawning the engine thread");
        EngineThread {
            commands: command_tx,
            devices,
            next_job: AtomicU64::new(1),
            next_client: AtomicU64::new(1),
            thread: Some(thread),
        }
    }

    pub(super) fn send(&self, message: Message) {
        // A send fails only once the engine thread has ended, when there is nothing to do.
        let _ = self.commands.send(message);
    }

    pub(super) fn next_job_id(&self) -> JobId {
        JobId(self.next_job.fetch_add(1, Ordering::Relaxed))
    }

    pub(super) fn next_client_id(&self) -> ClientId {
        ClientId(self.next_client.fetch_add(1, Ordering::Relaxed))
    }

    pub(super) fn devices(&self) -> Option<&[DeviceInfo]> {
        self.devices.get().map(Vec::as_slice)
    }
}

impl Drop for EngineThread {
    fn drop(&mut self) {
        self.send(Message::Shutdown);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
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
    use std::sync::atomic::AtomicBool;
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    fn job(engine: &Engine, depth: u32, mode: TtMode) -> Job {
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
        let engine = Engine::spawn(None);
        let job = job(&engine, 4, TtMode::Fast);
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
        let engine = Engine::spawn(None);
        let plain = job(&engine, 4, TtMode::Fast);
        let first = finished(&engine, plain);
        let mut again = job(&engine, 4, TtMode::Fast);
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
        let mut other_seed = job(&engine, 4, TtMode::Fast);
        other_seed.keep_table = true;
        other_seed.zobrist_seed = 2;
        let fresh = finished(&engine, other_seed);
        assert_eq!(fresh.counts.nodes, 197_281);
        assert_eq!((probes(&fresh), hits(&fresh)), (400, hits(&first)));

        // Without keep_table, the same seed: a new table too.
        let mut without = job(&engine, 4, TtMode::Fast);
        without.zobrist_seed = 2;
        let emptied = finished(&engine, without);
        assert_eq!((probes(&emptied), hits(&emptied)), (400, hits(&first)));
    }

    #[test]
    fn cancel_is_prompt_and_the_engine_is_reusable() {
        let wakes = Arc::new(AtomicUsize::new(0));
        let counter = wakes.clone();
        let engine = Engine::spawn(Some(Arc::new(move || {
            counter.fetch_add(1, Ordering::Relaxed);
        })));
        let long = job(&engine, 9, TtMode::Off);
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

        let short = job(&engine, 3, TtMode::Verified);
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
        let engine = Engine::spawn(None);
        let first = job(&engine, 5, TtMode::Off);
        let second = job(&engine, 2, TtMode::Off);
        let third = job(&engine, 3, TtMode::Off);
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
        let engine = Engine::spawn(None);
        let mut deep = job(&engine, crate::backend::MAX_DEPTH + 1, TtMode::Off);
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
        let mut no_table = job(&engine, 3, TtMode::Fast);
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
        let engine = Engine::spawn_with(
            None,
            Box::new(FirstJobPanics {
                jobs: 0,
                resets: resets.clone(),
                buggy: PanickingBackend,
                cpu: CpuBackend::default(),
            }),
        );
        let buggy = job(&engine, 3, TtMode::Off);
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

        let next = job(&engine, 3, TtMode::Fast);
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

    fn is_end(event: &Event) -> bool {
        matches!(
            event,
            Event::Finished { .. } | Event::Failed { .. } | Event::Cancelled { .. }
        )
    }

    /// The events `engine` receives until `ends` of its jobs have ended.
    fn events_of(engine: &Engine, ends: usize) -> Vec<Event> {
        let mut events = Vec::new();
        while events.iter().filter(|e| is_end(e)).count() < ends {
            match engine.events().recv_timeout(Duration::from_secs(60)) {
                Ok(event) => events.push(event),
                Err(error) => panic!("no end of {ends} jobs: {error}"),
            }
        }
        events
    }

    /// Each finished job's nodes, in the order they finished.
    fn finished_nodes(events: &[Event]) -> Vec<(JobId, u128)> {
        events
            .iter()
            .filter_map(|event| match event {
                Event::Finished { job, result } => Some((*job, result.counts.nodes)),
                _ => None,
            })
            .collect()
    }

    /// Two clients send jobs in turn: the jobs run one after another in the order sent, and
    /// each client receives every event of its own jobs and none of the other's.
    #[test]
    fn two_clients_receive_only_their_own_jobs_events() {
        let first = Engine::spawn(None);
        let second = first.clone();
        let (a1, b1, a2, b2) = (
            job(&first, 4, TtMode::Off),
            job(&second, 3, TtMode::Off),
            job(&first, 2, TtMode::Off),
            job(&second, 1, TtMode::Off),
        );
        let ids = [a1.id, b1.id, a2.id, b2.id];
        assert_eq!(
            ids.iter().collect::<std::collections::BTreeSet<_>>().len(),
            4
        );
        first.run(a1);
        second.run(b1);
        first.run(a2);
        second.run(b2);
        let firsts = events_of(&first, 2);
        let seconds = events_of(&second, 2);
        assert!(firsts.iter().all(|e| [ids[0], ids[2]].contains(&e.job())));
        assert!(seconds.iter().all(|e| [ids[1], ids[3]].contains(&e.job())));
        assert_eq!(
            finished_nodes(&firsts),
            vec![(ids[0], 197_281), (ids[2], 400)]
        );
        assert_eq!(
            finished_nodes(&seconds),
            vec![(ids[1], 8_902), (ids[3], 20)]
        );
        for (events, count) in [(&firsts, 20 + 20), (&seconds, 20 + 20)] {
            let roots = events
                .iter()
                .filter(|e| matches!(e, Event::RootMoveDone { .. }))
                .count();
            assert_eq!(roots, count);
        }
        std::thread::sleep(Duration::from_millis(50));
        assert!(first.events().try_recv().is_err(), "nothing more came");
        assert!(second.events().try_recv().is_err(), "nothing more came");
    }

    /// A client cannot cancel another's job, a cancel of its own leaves the other's queued job
    /// to run, and a client dropped while its job runs takes that job with it.
    #[test]
    fn a_clients_cancel_and_departure_touch_only_its_own_jobs() {
        let first = Engine::spawn(None);
        let second = first.clone();
        // Start position perft(9) takes minutes here: a job of it that ends was cancelled.
        let long = job(&first, 9, TtMode::Off);
        let long_id = long.id;
        first.run(long);
        loop {
            let event = first.events().recv_timeout(Duration::from_secs(30));
            if matches!(event, Ok(Event::Progress { .. })) {
                break;
            }
            assert!(event.is_ok(), "the long job reports");
        }
        let short = job(&second, 3, TtMode::Off);
        let short_id = short.id;
        second.run(short);
        second.cancel(long_id);
        // The other client's cancel went before these: the long job still runs.
        for _ in 0..3 {
            let event = first.events().recv_timeout(Duration::from_secs(10));
            assert!(
                matches!(event, Ok(Event::Progress { .. })),
                "the long job goes on: {event:?}"
            );
        }
        first.cancel(long_id);
        let firsts = events_of(&first, 1);
        assert!(matches!(firsts.last(), Some(Event::Cancelled { job }) if *job == long_id));
        assert_eq!(
            finished_nodes(&events_of(&second, 1)),
            vec![(short_id, 8_902)]
        );

        let third = first.clone();
        third.run(job(&third, 9, TtMode::Off));
        drop(third);
        let after = job(&second, 2, TtMode::Off);
        let after_id = after.id;
        second.run(after);
        assert_eq!(
            finished_nodes(&events_of(&second, 1)),
            vec![(after_id, 400)]
        );
        assert!(first.events().try_recv().is_err(), "nothing of the third's");
    }
}

//! The engine thread and its channels.
//!
//! Commands go in (`Run`, `Cancel`, `Shutdown`); events come out. Jobs run one at a time, each
//! on its own thread, so the engine thread stays free to take a `Cancel` at once; `Run` while a
//! job is running queues the job.

use super::event::Event;
use super::job::{Job, JobId};
use super::runner::run_job;
use crossbeam_channel::{Receiver, Sender};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

#[derive(Debug)]
pub enum Command {
    Run(Box<Job>),
    Cancel(JobId),
    Shutdown,
}

/// Internal messages of the engine thread: commands, and the end of the running job.
enum Message {
    Command(Command),
    JobEnded(JobId),
}

/// Called after every event, e.g. to wake a GUI (`ctx.request_repaint()`).
pub type Waker = Arc<dyn Fn() + Send + Sync>;

pub struct Engine {
    commands: Sender<Message>,
    events: Receiver<Event>,
    thread: Option<JoinHandle<()>>,
    next_id: u64,
}

struct Running {
    id: JobId,
    cancel: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

impl Engine {
    pub fn spawn(waker: Option<Waker>) -> Engine {
        let (command_tx, command_rx) = crossbeam_channel::unbounded();
        let (event_tx, event_rx) = crossbeam_channel::unbounded();
        let loop_tx = command_tx.clone();
        let thread = std::thread::Builder::new()
            .name("vkperft-engine".into())
            .spawn(move || engine_loop(command_rx, loop_tx, event_tx, waker))
            .expect("spawning the engine thread");
        Engine {
            commands: command_tx,
            events: event_rx,
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
) {
    let mut queue: VecDeque<Job> = VecDeque::new();
    let mut running: Option<Running> = None;
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
                let (thread_cancel, emit, loopback) =
                    (cancel.clone(), emit.clone(), loopback.clone());
                let thread = std::thread::Builder::new()
                    .name(format!("vkperft-job-{}", id.0))
                    .spawn(move || {
                        run_job(&job, &thread_cancel, &*emit);
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

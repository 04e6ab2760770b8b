//! The engine thread's loop: it takes its clients' messages, runs their jobs one at a time
//! (whoever sent them, in the order sent), each on a thread of its own so that a `Cancel` is
//! taken at once, and routes each job's events to the client that sent it. The device list is
//! made off the engine thread too, and published once.

use super::event::Event;
use super::job::{Job, JobId};
use super::provider::BackendProvider;
use super::route::{ClientId, Route, Waker};
use super::runner::run_job;
use crate::gpu::DeviceInfo;
use crossbeam_channel::{Receiver, Sender};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;

/// What a client asks of the engine thread.
#[derive(Debug)]
pub(super) enum Command {
    Run(Box<Job>),
    Cancel(JobId),
    /// List the Vulkan devices (once; [`super::Engine::devices`] has them once the first
    /// asker's waker is called).
    ListDevices,
}

/// Messages of the engine thread: clients' commands, their arrival and departure, and the end
/// of the running job.
pub(super) enum Message {
    /// A client's events go along `Route` from now on.
    Joined(ClientId, Route),
    /// A client let go of its handle: its running job is cancelled and its queued jobs dropped.
    Left(ClientId),
    Command(ClientId, Command),
    JobEnded(JobId),
    /// The last client let go.
    Shutdown,
}

/// The device list as the engine publishes it: unset until listed.
pub(super) type DeviceList = Arc<OnceLock<Vec<DeviceInfo>>>;

/// The job on its thread.
struct Running {
    client: ClientId,
    id: JobId,
    cancel: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

/// Runs `job` on a thread of its own, its events along `route`; the thread tells `loopback`
/// when the job has ended.
fn start(
    client: ClientId,
    job: Job,
    route: Route,
    backends: &Arc<Mutex<Box<dyn BackendProvider>>>,
    loopback: &Sender<Message>,
) -> Running {
    let cancel = Arc::new(AtomicBool::new(false));
    let id = job.id;
    let (thread_cancel, loopback, backends) = (cancel.clone(), loopback.clone(), backends.clone());
    let thread = std::thread::Builder::new()
        .name(format!("vkperft-job-{}", id.0))
        .spawn(move || {
            let mut backends = backends.lock().unwrap_or_else(|e| e.into_inner());
            run_job(&job, &mut **backends, &thread_cancel, &|event| {
                route.emit(event)
            });
            let _ = loopback.send(Message::JobEnded(id));
        })
        .expect("spawning a job thread");
    Running {
        client,
        id,
        cancel,
        thread,
    }
}

pub(super) fn engine_loop(
    commands: Receiver<Message>,
    loopback: Sender<Message>,
    backends: Box<dyn BackendProvider>,
    devices: DeviceList,
) {
    let mut routes: HashMap<ClientId, Route> = HashMap::new();
    let mut queue: VecDeque<(ClientId, Job)> = VecDeque::new();
    let mut running: Option<Running> = None;
    // Whether the device list was asked for: it is made once.
    let mut listing = false;
    // Lent to one job thread at a time (jobs run one after another).
    let backends = Arc::new(Mutex::new(backends));
    loop {
        while running.is_none() {
            let Some((client, job)) = queue.pop_front() else {
                break;
            };
            // A client that left took its queued jobs with it; one without a route has no
            // one to report to.
            if let Some(route) = routes.get(&client) {
                running = Some(start(client, job, route.clone(), &backends, &loopback));
            }
        }
        let Ok(message) = commands.recv() else {
            break;
        };
        match message {
            Message::Joined(client, route) => {
                routes.insert(client, route);
            }
            Message::Left(client) => {
                routes.remove(&client);
                queue.retain(|(owner, _)| *owner != client);
                if let Some(run) = running.as_ref().filter(|r| r.client == client) {
                    run.cancel.store(true, Ordering::Relaxed);
                }
            }
            Message::Command(client, Command::Run(job)) => queue.push_back((client, *job)),
            Message::Command(client, Command::Cancel(id)) => {
                let own = |owner: ClientId, job: JobId| owner == client && job == id;
                if let Some(run) = running.as_ref().filter(|r| own(r.client, r.id)) {
                    run.cancel.store(true, Ordering::Relaxed);
                } else if let Some(index) = queue.iter().position(|(o, job)| own(*o, job.id)) {
                    queue.remove(index);
                    if let Some(route) = routes.get(&client) {
                        route.emit(Event::Cancelled { job: id });
                    }
                }
            }
            Message::Command(client, Command::ListDevices) => {
                if !listing {
                    listing = true;
                    let waker = routes.get(&client).and_then(|route| route.waker.clone());
                    list_devices(devices.clone(), backends.clone(), waker);
                }
            }
            Message::Shutdown => break,
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

/// Lists the devices into `devices` on a thread of its own (it waits for a running job's
/// backends; the engine thread stays free), then calls `waker`.
fn list_devices(
    devices: DeviceList,
    backends: Arc<Mutex<Box<dyn BackendProvider>>>,
    waker: Option<Waker>,
) {
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

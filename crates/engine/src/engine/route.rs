//! Where a client's events go: each client of the engine has a channel of its own, and the
//! engine sends a job's events along the route of the client that sent it.

use super::event::Event;
use crossbeam_channel::Sender;
use std::sync::Arc;

/// Called after every event of a client's jobs, e.g. to wake a GUI (`ctx.request_repaint()`).
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// Which client sent a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct ClientId(pub(super) u64);

/// Where a client's events go: its channel, and its waker.
#[derive(Clone)]
pub(super) struct Route {
    pub(super) events: Sender<Event>,
    pub(super) waker: Option<Waker>,
}

impl Route {
    pub(super) fn emit(&self, event: Event) {
        // The client may have let go in the meantime; its events go nowhere then.
        let _ = self.events.send(event);
        if let Some(waker) = &self.waker {
            waker();
        }
    }
}

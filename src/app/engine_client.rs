//! The app's handle on the engine thread: jobs go out as commands, events come back over a
//! channel that the UI drains every frame; the engine's waker repaints the window. A suite run
//! on vkperft is another client of the same engine (one device opened, one table sized).

use crate::engine::Waker;
use crate::engine::{BackendProvider, Engine, Event, Job, JobId};
use crate::gpu::DeviceInfo;
use std::sync::{Arc, Mutex};

pub struct EngineClient {
    engine: Engine,
    /// The context to repaint, known from the first frame on.
    repaint: Arc<Mutex<Option<egui::Context>>>,
}

impl EngineClient {
    pub fn spawn(backends: Box<dyn BackendProvider>) -> EngineClient {
        let repaint: Arc<Mutex<Option<egui::Context>>> = Arc::new(Mutex::new(None));
        let target = repaint.clone();
        let waker: Waker = Arc::new(move || {
            if let Ok(slot) = target.lock() {
                if let Some(ctx) = slot.as_ref() {
                    ctx.request_repaint();
                }
            }
        });
        let engine = Engine::spawn_with(Some(waker), backends);
        // The backend box needs the devices; the engine lists them off the UI thread.
        engine.list_devices();
        EngineClient { engine, repaint }
    }

    pub fn attach(&self, ctx: &egui::Context) {
        if let Ok(mut slot) = self.repaint.lock() {
            if slot.is_none() {
                *slot = Some(ctx.clone());
            }
        }
    }

    pub fn next_job_id(&self) -> JobId {
        self.engine.next_job_id()
    }

    /// Another client of the window's engine, for a suite: its jobs queue with the window's
    /// and its events go to it alone.
    pub fn another_client(&self) -> Engine {
        self.engine.clone()
    }

    pub fn run(&self, job: Job) {
        self.engine.run(job);
    }

    pub fn cancel(&self, id: JobId) {
        self.engine.cancel(id);
    }

    /// The Vulkan devices, once the engine has listed them.
    pub fn devices(&self) -> Option<&[DeviceInfo]> {
        self.engine.devices()
    }

    /// Every event that has arrived, without waiting.
    pub fn drain(&self) -> Vec<Event> {
        self.engine.events().try_iter().collect()
    }
}

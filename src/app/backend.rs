//! The backends the run panel offers: the CPU, and every usable Vulkan device the machine has
//! (listed once per process).

use crate::engine::BackendChoice;
use crate::gpu::list_devices;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BackendSelection {
    Cpu,
    /// A Vulkan device by its index in `vkperft devices`.
    Vulkan {
        device: usize,
    },
}

/// Usable Vulkan devices: index and name.
fn vulkan_devices() -> &'static [(usize, String)] {
    static DEVICES: OnceLock<Vec<(usize, String)>> = OnceLock::new();
    DEVICES.get_or_init(|| {
        list_devices()
            .map(|devices| {
                devices
                    .into_iter()
                    .filter(|d| d.usable())
                    .map(|d| (d.index, d.name))
                    .collect()
            })
            .unwrap_or_default()
    })
}

impl BackendSelection {
    pub fn label(self) -> String {
        match self {
            BackendSelection::Cpu => "CPU".to_string(),
            BackendSelection::Vulkan { device } => {
                let name = vulkan_devices()
                    .iter()
                    .find(|(index, _)| *index == device)
                    .map_or("unavailable", |(_, name)| name.as_str());
                format!("Vulkan {device}: {name}")
            }
        }
    }

    pub fn choice(self) -> BackendChoice {
        match self {
            BackendSelection::Cpu => BackendChoice::Cpu,
            BackendSelection::Vulkan { .. } => BackendChoice::Vulkan,
        }
    }

    /// The Vulkan device index, for a Vulkan selection.
    pub fn device(self) -> Option<usize> {
        match self {
            BackendSelection::Cpu => None,
            BackendSelection::Vulkan { device } => Some(device),
        }
    }

    /// Whether the thread count applies.
    pub fn uses_threads(self) -> bool {
        self == BackendSelection::Cpu
    }
}

pub fn available_backends() -> Vec<BackendSelection> {
    std::iter::once(BackendSelection::Cpu)
        .chain(
            vulkan_devices()
                .iter()
                .map(|&(device, _)| BackendSelection::Vulkan { device }),
        )
        .collect()
}

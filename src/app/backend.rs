//! The backends the run panel offers: the CPU, and every usable Vulkan device the machine has
//! (listed once, by the engine, off the UI thread).

use crate::engine::BackendChoice;
use crate::gpu::DeviceInfo;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BackendSelection {
    Cpu,
    /// A Vulkan device by its index in `vkperft devices`.
    Vulkan {
        device: usize,
    },
}

impl BackendSelection {
    /// `CPU` or `Vulkan 0: <name>`; `devices`: the list, if the engine has made it.
    pub fn label(self, devices: Option<&[DeviceInfo]>) -> String {
        match self {
            BackendSelection::Cpu => "CPU".to_string(),
            BackendSelection::Vulkan { device } => {
                let name = match devices {
                    None => "listing devices…",
                    Some(devices) => usable(devices)
                        .find(|d| d.index == device)
                        .map_or("unavailable", |d| d.name.as_str()),
                };
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

fn usable(devices: &[DeviceInfo]) -> impl Iterator<Item = &DeviceInfo> {
    devices.iter().filter(|d| d.usable())
}

/// The CPU and every usable device of `devices`.
pub fn available_backends(devices: &[DeviceInfo]) -> Vec<BackendSelection> {
    std::iter::once(BackendSelection::Cpu)
        .chain(usable(devices).map(|d| BackendSelection::Vulkan { device: d.index }))
        .collect()
}

/// The selection of the usable device called `name`, if `devices` has one.
pub fn device_named(devices: &[DeviceInfo], name: &str) -> Option<BackendSelection> {
    usable(devices)
        .find(|d| d.name == name)
        .map(|d| BackendSelection::Vulkan { device: d.index })
}

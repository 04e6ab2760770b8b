//! Which backend ran a job, and on what: a type, where a name would let a misspelt string
//! through.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The kinds of backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendKind {
    Cpu,
    Vulkan,
}

impl BackendKind {
    /// `cpu` or `vulkan`, as the CLI, the JSON output and the journals write it.
    pub const fn name(self) -> &'static str {
        match self {
            BackendKind::Cpu => "cpu",
            BackendKind::Vulkan => "vulkan",
        }
    }
}

impl fmt::Display for BackendKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What ran a job: the CPU backend with its threads, or a Vulkan device by name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Device {
    Cpu { threads: usize },
    Vulkan { name: String },
}

impl Device {
    pub fn kind(&self) -> BackendKind {
        match self {
            Device::Cpu { .. } => BackendKind::Cpu,
            Device::Vulkan { .. } => BackendKind::Vulkan,
        }
    }

    /// The kind and what ran it, for people: `cpu (16 thread(s))`, `vulkan (NVIDIA H200)`.
    pub fn summary(&self) -> String {
        format!("{} ({})", self.kind(), self.detail())
    }

    /// What ran it without the kind, for people: `2 thread(s)` or the device's name.
    pub fn detail(&self) -> String {
        match self {
            Device::Cpu { threads } => format!("{threads} thread(s)"),
            Device::Vulkan { name } => name.clone(),
        }
    }
}

/// `cpu, 2 threads` or `vulkan, <device name>`.
impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Device::Cpu { threads } => write!(f, "cpu, {threads} threads"),
            Device::Vulkan { name } => write!(f, "vulkan, {name}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_names_its_kind_and_what_ran() {
        let cpu = Device::Cpu { threads: 2 };
        assert_eq!(cpu.kind(), BackendKind::Cpu);
        assert_eq!(
            (cpu.detail(), cpu.to_string()),
            ("2 thread(s)".into(), "cpu, 2 threads".into())
        );
        let gpu = Device::Vulkan {
            name: "llvmpipe".into(),
        };
        assert_eq!(gpu.kind().name(), "vulkan");
        assert_eq!(
            (gpu.detail(), gpu.to_string()),
            ("llvmpipe".into(), "vulkan, llvmpipe".into())
        );
    }
}

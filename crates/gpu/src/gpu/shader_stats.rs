//! What the driver's compiler made of the search stages: registers, spills, scratch, code size,
//! as `VK_KHR_pipeline_executable_properties` reports them (`vkperft shader-stats`).
//!
//! Only pipelines are created: no memory and no queue submission, so this works on RADV's null
//! device (`RADV_FORCE_FAMILY=navi21`), which runs AMD's real compiler on any machine.

use super::error::GpuError;
use super::slider_attacks::SliderAttacks;
use super::vk::device::{required_compute_queue, DeviceInfo, Instance};
pub use super::vk::executable_stats::{ExecutableStats, StatValue};
use super::vk::pipelines::{Pipelines, Stage};
use super::vk::shared::{DeviceShared, Purpose};

/// The stages a search dispatches: without a table, and in the table build (`_tt`), where
/// `dedup` also runs; `*_stats` are those of a move-type statistics run. The stages that
/// generate moves are reported once per way of finding slider attacks (`_fills`, `_lookups`).
const SEARCH_STAGES: [(Stage, bool); 13] = [
    (Stage::Expand, false),
    (Stage::Leaf, false),
    (Stage::Upsweep, false),
    (Stage::ExpandStats, false),
    (Stage::LeafStats, false),
    (Stage::UpsweepStats, false),
    (Stage::Expand, true),
    (Stage::Leaf, true),
    (Stage::Upsweep, true),
    (Stage::ExpandStats, true),
    (Stage::LeafStats, true),
    (Stage::UpsweepStats, true),
    (Stage::Dedup, true),
];

/// The device statistics were read from, and the statistics.
#[derive(Clone, Debug)]
pub struct ShaderStats {
    pub device: DeviceInfo,
    pub executables: Vec<ExecutableStats>,
}

/// Creates the search pipelines on `requested` (an index of `vkperft devices`, usable or not),
/// or on the first device in the usual order of preference that has the extension, and reads
/// their statistics. The table builds are included where the device has their features.
pub fn shader_stats(requested: Option<usize>) -> Result<ShaderStats, GpuError> {
    let instance = Instance::new()?;
    let (physical_devices, infos) = instance.described_devices()?;
    let extension = ash::khr::pipeline_executable_properties::NAME;
    let mut with_extension = Vec::new();
    for (info, &physical) in infos.iter().zip(&physical_devices) {
        if instance.device_has_extension(physical, extension)? {
            with_extension.push(info.index);
        }
    }
    let lacking = |info: &DeviceInfo| format!("device {} ({})", info.index, info.name);
    let index = match requested {
        Some(index) => {
            let info = infos.get(index).ok_or(GpuError::NoSuchDevice {
                index,
                count: infos.len(),
            })?;
            if !with_extension.contains(&index) {
                return Err(GpuError::NoPipelineStatistics(lacking(info)));
            }
            index
        }
        // The usual order of preference; memory does not matter here.
        None => infos
            .iter()
            .filter(|info| with_extension.contains(&info.index))
            .min_by_key(|info| (info.kind, info.index))
            .map(|info| info.index)
            .ok_or_else(|| {
                if infos.is_empty() {
                    GpuError::NoDevice
                } else {
                    let all: Vec<String> = infos.iter().map(lacking).collect();
                    GpuError::NoPipelineStatistics(all.join(", "))
                }
            })?,
    };
    let info = infos[index].clone();
    let physical = physical_devices[index];
    for (has, feature) in [
        (info.shader_int64, "shaderInt64"),
        (info.buffer_device_address, "bufferDeviceAddress"),
    ] {
        if !has {
            return Err(GpuError::DeviceUnsuitable {
                index,
                name: info.name,
                reason: format!("it lacks {feature}, which every stage needs"),
            });
        }
    }
    let family = required_compute_queue(&instance.instance, physical, index, &info)?;
    let with_tt = info.tt_missing.is_empty();
    let shared = DeviceShared::open(
        instance,
        physical,
        info.clone(),
        family,
        Purpose::PipelineStatistics,
    )?;
    let mut executables = Vec::new();
    for build_tt in [false, true] {
        if build_tt && !with_tt {
            continue;
        }
        let variants = SliderAttacks::ALL
            .into_iter()
            .map(|sliders| {
                let mut pipelines = Pipelines::for_statistics(&shared, build_tt, sliders)?;
                for stage in [Stage::ExpandStats, Stage::LeafStats, Stage::UpsweepStats] {
                    pipelines.add_stage(stage)?;
                }
                Ok((sliders, pipelines))
            })
            .collect::<Result<Vec<_>, GpuError>>()?;
        for &(stage, stage_tt) in SEARCH_STAGES.iter().filter(|(_, tt)| *tt == build_tt) {
            let name = if stage_tt {
                format!("{}_tt", stage.name())
            } else {
                stage.name().to_string()
            };
            if stage.generates_moves() {
                for (sliders, pipelines) in &variants {
                    let name = format!("{name}_{}", sliders.name());
                    executables.extend(pipelines.executable_stats(stage, &name)?);
                }
            } else {
                let pipelines = &variants[0].1;
                executables.extend(pipelines.executable_stats(stage, &name)?);
            }
        }
    }
    Ok(ShaderStats {
        device: info,
        executables,
    })
}

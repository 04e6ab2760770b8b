//! What the driver's compiler made of the search stages: registers, spills, scratch, code size,
//! as `VK_KHR_pipeline_executable_properties` reports them (`vkperft shader-stats`).
//!
//! Only pipelines are created: no memory and no queue submission, so this works on RADV's null
//! device (`RADV_FORCE_FAMILY=navi21`), which runs AMD's real compiler on any machine.

use super::context::{DeviceShared, Purpose};
use super::device::{compute_queue_family, DeviceInfo, Instance};
use super::error::{vk_error, GpuError};
use super::pipelines::{Pipelines, Stage};
use super::slider_attacks::SliderAttacks;
use ash::vk;
use std::ffi::CStr;

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

/// One statistic's value, in the format the driver gave it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StatValue {
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
}

/// The statistics of one executable (a compiled shader) of one pipeline.
#[derive(Clone, Debug, PartialEq)]
pub struct ExecutableStats {
    /// The stage, with `_tt` for the table build and the slider attacks where the stage
    /// generates moves: `expand_lookups`, `leaf_tt_fills`, `upsweep`, ...
    pub pipeline: String,
    pub executable: String,
    pub description: String,
    pub subgroup_size: u32,
    /// (name, value) in the driver's order.
    pub stats: Vec<(String, StatValue)>,
}

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
    let family = compute_queue_family(&instance.instance, physical).ok_or_else(|| {
        GpuError::DeviceUnsuitable {
            index,
            name: info.name.clone(),
            reason: "no compute queue".into(),
        }
    })?;
    let with_tt = info.tt_missing.is_empty();
    let shared = DeviceShared::open(
        instance,
        physical,
        info.clone(),
        family,
        Purpose::PipelineStatistics,
    )?;
    let loader =
        ash::khr::pipeline_executable_properties::Device::new(shared.instance(), &shared.device);
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
                    executables.extend(pipeline_stats(&loader, pipelines.pipeline(stage), &name)?);
                }
            } else {
                let pipelines = &variants[0].1;
                executables.extend(pipeline_stats(&loader, pipelines.pipeline(stage), &name)?);
            }
        }
    }
    Ok(ShaderStats {
        device: info,
        executables,
    })
}

fn pipeline_stats(
    loader: &ash::khr::pipeline_executable_properties::Device,
    pipeline: vk::Pipeline,
    name: &str,
) -> Result<Vec<ExecutableStats>, GpuError> {
    let pipeline_info = vk::PipelineInfoKHR::default().pipeline(pipeline);
    // SAFETY: the pipeline is live and was created with CAPTURE_STATISTICS on a device with
    // pipelineExecutableInfo enabled.
    let properties = unsafe { loader.get_pipeline_executable_properties(&pipeline_info) }
        .map_err(vk_error("vkGetPipelineExecutablePropertiesKHR"))?;
    let text = |text: Result<&CStr, _>| {
        text.map(|c: &CStr| c.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let mut executables = Vec::new();
    for (index, executable) in properties.iter().enumerate() {
        let executable_info = vk::PipelineExecutableInfoKHR::default()
            .pipeline(pipeline)
            .executable_index(index as u32);
        // SAFETY: as above; the index is one the driver listed.
        let statistics = unsafe { loader.get_pipeline_executable_statistics(&executable_info) }
            .map_err(vk_error("vkGetPipelineExecutableStatisticsKHR"))?;
        let stats = statistics
            .iter()
            .map(|statistic| {
                // SAFETY: the union member read is the one `format` names.
                let value = unsafe {
                    match statistic.format {
                        vk::PipelineExecutableStatisticFormatKHR::BOOL32 => {
                            StatValue::Bool(statistic.value.b32 == vk::TRUE)
                        }
                        vk::PipelineExecutableStatisticFormatKHR::INT64 => {
                            StatValue::Int(statistic.value.i64)
                        }
                        vk::PipelineExecutableStatisticFormatKHR::FLOAT64 => {
                            StatValue::Float(statistic.value.f64)
                        }
                        _ => StatValue::UInt(statistic.value.u64),
                    }
                };
                (text(statistic.name_as_c_str()), value)
            })
            .collect();
        executables.push(ExecutableStats {
            pipeline: name.to_string(),
            executable: text(executable.name_as_c_str()),
            description: text(executable.description_as_c_str()),
            subgroup_size: executable.subgroup_size,
            stats,
        });
    }
    Ok(executables)
}

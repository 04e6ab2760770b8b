//! The driver's statistics of a pipeline's executables (`VK_KHR_pipeline_executable_properties`),
//! read for `vkperft shader-stats`.

use super::pipelines::{Pipelines, Stage};
use super::shared::Purpose;
use crate::gpu::error::{vk_error, GpuError};
use ash::vk;
use std::ffi::CStr;

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

impl Pipelines {
    /// The driver's statistics of the executables of `stage`'s pipeline, reported as `name`;
    /// the pipelines must be those of [`Pipelines::for_statistics`].
    pub fn executable_stats(
        &self,
        stage: Stage,
        name: &str,
    ) -> Result<Vec<ExecutableStats>, GpuError> {
        assert!(
            self.shared.purpose == Purpose::PipelineStatistics
                && self
                    .flags
                    .contains(vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR),
            "statistics are read only of pipelines created for them"
        );
        let loader = ash::khr::pipeline_executable_properties::Device::new(
            self.shared.instance(),
            &self.shared.device,
        );
        let pipeline = self.pipeline(stage);
        let pipeline_info = vk::PipelineInfoKHR::default().pipeline(pipeline);
        // SAFETY: the pipeline is live (owned by `self`) and was created with CAPTURE_STATISTICS
        // on a device with the extension and pipelineExecutableInfo enabled (checked above).
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
}

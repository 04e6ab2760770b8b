//! The compute stages: SPIR-V compiled by `build.rs` from `glsl/*.comp`, one pipeline each,
//! sharing one descriptor set layout (the storage buffers of `shader_layout::BINDING_*`) and the
//! `Step` push constants. Every stage exists in two builds, with and without the GPU
//! transposition table; a runner uses one of them for all its stages, with the slider attacks
//! that suit its device (a specialization constant).

use super::buffer::GpuBuffer;
use super::context::Context;
use super::recorder::Recorder;
use super::shared::{DeviceShared, Purpose};
use crate::gpu::error::{vk_error, GpuError};
use crate::gpu::layouts::{Control, StepConstants};
use crate::gpu::shader_layout::{
    BINDING_CHUNK_ARRAYS, BINDING_CONTROL, BINDING_COUNT, BINDING_TABLES, BINDING_TT_PARAMS,
    BINDING_TT_STATS, BINDING_WORK, BINDING_ZOBRIST, SPEC_SLIDER_ATTACKS, WORKGROUP_SIZE,
};
use crate::gpu::slider_attacks::SliderAttacks;
use ash::vk;
use std::cell::Cell;
use std::io::Cursor;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

macro_rules! spirv {
    ($name:literal) => {
        include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".spv"))
    };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Expand,
    Leaf,
    Upsweep,
    /// The stages of a move-type statistics run (`expand_stats.comp`, `leaf_stats.comp`,
    /// `upsweep_stats.comp`): they carry every position's statistics beside its counts, the
    /// leaf tallying them. Not among [`Stage::ALL`]: built when a statistics run needs them
    /// ([`Pipelines::add_stage`]), so the node count's pipelines are what they were.
    ExpandStats,
    LeafStats,
    UpsweepStats,
    LayoutProbe,
    KeyProbe,
    Dedup,
    NextLevel,
    ProbeSelfTest,
    /// The probe self-test with the table's exact entries read in a loop, the form that
    /// lavapipe 22.3 miscompiles (`glsl/common/tt_probe.glsl`): not among [`Stage::ALL`], built only
    /// for the test that shows the self-test catches it ([`Pipelines::add_stage`]).
    ProbeSelfTestLooped,
}

impl Stage {
    /// The stages every runner builds.
    pub const ALL: [Stage; 8] = [
        Stage::Expand,
        Stage::Leaf,
        Stage::Upsweep,
        Stage::LayoutProbe,
        Stage::KeyProbe,
        Stage::Dedup,
        Stage::NextLevel,
        Stage::ProbeSelfTest,
    ];

    /// The stage's name, as its shader file is named.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Expand => "expand",
            Stage::Leaf => "leaf",
            Stage::Upsweep => "upsweep",
            Stage::ExpandStats => "expand_stats",
            Stage::LeafStats => "leaf_stats",
            Stage::UpsweepStats => "upsweep_stats",
            Stage::LayoutProbe => "layout_probe",
            Stage::KeyProbe => "key_probe",
            Stage::Dedup => "dedup",
            Stage::NextLevel => "next_level",
            Stage::ProbeSelfTest => "probe_self_test",
            Stage::ProbeSelfTestLooped => "probe_self_test_looped",
        }
    }

    /// Whether the stage generates moves (and so depends on how slider attacks are found).
    pub fn generates_moves(self) -> bool {
        matches!(
            self,
            Stage::Expand | Stage::Leaf | Stage::ExpandStats | Stage::LeafStats
        )
    }

    /// The stage a move-type statistics run dispatches in place of this one.
    pub fn with_move_stats(self) -> Stage {
        match self {
            Stage::Expand => Stage::ExpandStats,
            Stage::Leaf => Stage::LeafStats,
            Stage::Upsweep => Stage::UpsweepStats,
            other => other,
        }
    }

    fn spirv(self, with_tt: bool) -> &'static [u8] {
        match (self, with_tt) {
            (Stage::Expand, false) => spirv!("expand"),
            (Stage::Expand, true) => spirv!("expand_tt"),
            (Stage::Leaf, false) => spirv!("leaf"),
            (Stage::Leaf, true) => spirv!("leaf_tt"),
            (Stage::ExpandStats, false) => spirv!("expand_stats"),
            (Stage::ExpandStats, true) => spirv!("expand_stats_tt"),
            (Stage::LeafStats, false) => spirv!("leaf_stats"),
            (Stage::LeafStats, true) => spirv!("leaf_stats_tt"),
            (Stage::UpsweepStats, false) => spirv!("upsweep_stats"),
            (Stage::UpsweepStats, true) => spirv!("upsweep_stats_tt"),
            (Stage::Upsweep, false) => spirv!("upsweep"),
            (Stage::Upsweep, true) => spirv!("upsweep_tt"),
            (Stage::LayoutProbe, false) => spirv!("layout_probe"),
            (Stage::LayoutProbe, true) => spirv!("layout_probe_tt"),
            (Stage::KeyProbe, false) => spirv!("key_probe"),
            (Stage::KeyProbe, true) => spirv!("key_probe_tt"),
            (Stage::Dedup, false) => spirv!("dedup"),
            (Stage::Dedup, true) => spirv!("dedup_tt"),
            (Stage::NextLevel, false) => spirv!("next_level"),
            (Stage::NextLevel, true) => spirv!("next_level_tt"),
            (Stage::ProbeSelfTest, false) => spirv!("probe_self_test"),
            (Stage::ProbeSelfTest, true) => spirv!("probe_self_test_tt"),
            (Stage::ProbeSelfTestLooped, false) => spirv!("probe_self_test_looped"),
            (Stage::ProbeSelfTestLooped, true) => spirv!("probe_self_test_looped_tt"),
        }
    }
}

/// The buffers bound to the descriptor set, by binding.
pub struct Bindings<'a> {
    pub tables: &'a GpuBuffer,
    /// The `ChunkArrays` block: the addresses of the level arrays' segments.
    pub chunk_arrays: &'a GpuBuffer,
    pub control: &'a GpuBuffer,
    pub tt_params: &'a GpuBuffer,
    pub zobrist: &'a GpuBuffer,
    pub tt_stats: &'a GpuBuffer,
    pub work: &'a GpuBuffer,
}

pub struct Pipelines {
    pub(super) shared: Arc<DeviceShared>,
    /// Workgroups one dispatch may have (the device's `maxComputeWorkGroupCount[0]`, or less).
    max_workgroups: u32,
    /// Dispatches recorded so far.
    dispatches: Cell<u64>,
    /// The most workgroups of a dispatch sized on the host since [`Pipelines::reset_widest`].
    widest_dispatch: Cell<u32>,
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
    pool: vk::DescriptorPool,
    set: vk::DescriptorSet,
    /// What every pipeline is built with (for [`Pipelines::add_stage`]).
    with_tt: bool,
    sliders: SliderAttacks,
    pub(super) flags: vk::PipelineCreateFlags,
    pipelines: Vec<(Stage, vk::Pipeline)>,
}

impl Pipelines {
    /// The pipelines of every stage, in the build with the GPU transposition table if
    /// `with_tt` (the device must have the features it needs); dispatches have at most
    /// `max_workgroups` (>= 1) workgroups.
    /// `None` when `cancel` was set before the last pipeline was built: a driver may take a
    /// second to compile one (lavapipe does so when it is created).
    pub fn new(
        shared: &Arc<DeviceShared>,
        with_tt: bool,
        max_workgroups: u32,
        sliders: SliderAttacks,
        cancel: &AtomicBool,
    ) -> Result<Option<Pipelines>, GpuError> {
        Pipelines::with_flags(
            shared,
            with_tt,
            max_workgroups,
            sliders,
            vk::PipelineCreateFlags::empty(),
            cancel,
        )
    }

    /// The pipelines of every stage, created only to read the driver's statistics of them (the
    /// device was opened for `Purpose::PipelineStatistics`).
    pub fn for_statistics(
        shared: &Arc<DeviceShared>,
        with_tt: bool,
        sliders: SliderAttacks,
    ) -> Result<Pipelines, GpuError> {
        let never = AtomicBool::new(false);
        let pipelines = Pipelines::with_flags(
            shared,
            with_tt,
            1,
            sliders,
            vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR,
            &never,
        )?;
        Ok(pipelines.expect("nothing cancels them"))
    }

    fn with_flags(
        shared: &Arc<DeviceShared>,
        with_tt: bool,
        max_workgroups: u32,
        sliders: SliderAttacks,
        flags: vk::PipelineCreateFlags,
        cancel: &AtomicBool,
    ) -> Result<Option<Pipelines>, GpuError> {
        let mut pipelines = Pipelines {
            shared: shared.clone(),
            max_workgroups: max_workgroups.max(1),
            dispatches: Cell::new(0),
            widest_dispatch: Cell::new(0),
            set_layout: vk::DescriptorSetLayout::null(),
            layout: vk::PipelineLayout::null(),
            pool: vk::DescriptorPool::null(),
            set: vk::DescriptorSet::null(),
            with_tt,
            sliders,
            flags,
            pipelines: Vec::new(),
        };
        // Filled in step by step; Drop destroys whatever was created if a step fails.
        let complete = pipelines.create(cancel)?;
        Ok(complete.then_some(pipelines))
    }

    fn create(&mut self, cancel: &AtomicBool) -> Result<bool, GpuError> {
        let device = &self.shared.device;
        let bindings: Vec<vk::DescriptorSetLayoutBinding> = (0..BINDING_COUNT)
            .map(|binding| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(binding)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect();
        let set_layout_info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
        // SAFETY: valid device; create infos outlive the calls; every handle created here is
        // destroyed in Drop.
        unsafe {
            self.set_layout = device
                .create_descriptor_set_layout(&set_layout_info, None)
                .map_err(vk_error("vkCreateDescriptorSetLayout"))?;
            let push_range = [vk::PushConstantRange::default()
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
                .offset(0)
                .size(size_of::<StepConstants>() as u32)];
            let set_layouts = [self.set_layout];
            let layout_info = vk::PipelineLayoutCreateInfo::default()
                .set_layouts(&set_layouts)
                .push_constant_ranges(&push_range);
            self.layout = device
                .create_pipeline_layout(&layout_info, None)
                .map_err(vk_error("vkCreatePipelineLayout"))?;
            let pool_sizes = [vk::DescriptorPoolSize::default()
                .ty(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(BINDING_COUNT)];
            let pool_info = vk::DescriptorPoolCreateInfo::default()
                .max_sets(1)
                .pool_sizes(&pool_sizes);
            self.pool = device
                .create_descriptor_pool(&pool_info, None)
                .map_err(vk_error("vkCreateDescriptorPool"))?;
            let alloc_info = vk::DescriptorSetAllocateInfo::default()
                .descriptor_pool(self.pool)
                .set_layouts(&set_layouts);
            self.set = device
                .allocate_descriptor_sets(&alloc_info)
                .map_err(vk_error("vkAllocateDescriptorSets"))?[0];
        }
        for stage in Stage::ALL {
            if cancel.load(Ordering::Relaxed) {
                return Ok(false);
            }
            self.add_stage(stage)?;
        }
        Ok(true)
    }

    /// Builds the pipeline of `stage` (one not among [`Stage::ALL`]) unless it is built.
    pub fn add_stage(&mut self, stage: Stage) -> Result<(), GpuError> {
        if self.pipelines.iter().any(|&(built, _)| built == stage) {
            return Ok(());
        }
        let device = &self.shared.device;
        let code =
            ash::util::read_spv(&mut Cursor::new(stage.spirv(self.with_tt))).map_err(|err| {
                GpuError::BadShader {
                    stage: stage.name(),
                    reason: err.to_string(),
                }
            })?;
        // Stages without the move generator do not declare the constant and ignore it.
        let slider_constant = self.sliders.constant().to_ne_bytes();
        let map = [vk::SpecializationMapEntry::default()
            .constant_id(SPEC_SLIDER_ATTACKS)
            .offset(0)
            .size(size_of::<u32>())];
        let specialization = vk::SpecializationInfo::default()
            .map_entries(&map)
            .data(&slider_constant);
        let module_info = vk::ShaderModuleCreateInfo::default().code(&code);
        // SAFETY: valid device; the create infos outlive the calls; the module is destroyed
        // here and the pipeline in Drop.
        unsafe {
            let module = device
                .create_shader_module(&module_info, None)
                .map_err(vk_error("vkCreateShaderModule"))?;
            let stage_info = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(module)
                .name(c"main")
                .specialization_info(&specialization);
            let pipeline_info = [vk::ComputePipelineCreateInfo::default()
                .flags(self.flags)
                .stage(stage_info)
                .layout(self.layout)];
            let created =
                device.create_compute_pipelines(vk::PipelineCache::null(), &pipeline_info, None);
            device.destroy_shader_module(module, None);
            let pipeline = created
                .map_err(|(_, result)| GpuError::from_vk("vkCreateComputePipelines", result))?[0];
            self.pipelines.push((stage, pipeline));
        }
        Ok(())
    }

    /// The pipeline of `stage`; it must have been built.
    pub fn pipeline(&self, stage: Stage) -> vk::Pipeline {
        self.pipelines
            .iter()
            .find(|&&(built, _)| built == stage)
            .map(|&(_, pipeline)| pipeline)
            .unwrap_or_else(|| panic!("the pipeline of {stage:?} was never built"))
    }

    /// Points the descriptor set at `bindings`, once no submission of `context` (the context
    /// of this device that records the pipelines' dispatches) can still be using it.
    pub fn bind(&self, context: &Context, bindings: &Bindings) -> Result<(), GpuError> {
        context.wait_all()?;
        let buffers = [
            (BINDING_TABLES, bindings.tables),
            (BINDING_CHUNK_ARRAYS, bindings.chunk_arrays),
            (BINDING_CONTROL, bindings.control),
            (BINDING_TT_PARAMS, bindings.tt_params),
            (BINDING_ZOBRIST, bindings.zobrist),
            (BINDING_TT_STATS, bindings.tt_stats),
            (BINDING_WORK, bindings.work),
        ];
        let infos: Vec<[vk::DescriptorBufferInfo; 1]> = buffers
            .iter()
            .map(|&(_, buffer)| {
                [vk::DescriptorBufferInfo::default()
                    .buffer(buffer.buffer)
                    .offset(0)
                    .range(vk::WHOLE_SIZE)]
            })
            .collect();
        let writes: Vec<vk::WriteDescriptorSet> = buffers
            .iter()
            .zip(&infos)
            .map(|(&(binding, _), info)| {
                vk::WriteDescriptorSet::default()
                    .dst_set(self.set)
                    .dst_binding(binding)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .buffer_info(info)
            })
            .collect();
        // SAFETY: no pending submission uses the set (every slot was waited for above), and
        // the buffers are live (borrowed); their owners keep them until the set points
        // elsewhere or the device is idle.
        unsafe { self.shared.device.update_descriptor_sets(&writes, &[]) };
        Ok(())
    }

    /// Records a dispatch of `stage` over `invocations` threads with `step` as push constants,
    /// in as many dispatches as the workgroup limit needs, each with `step.first_invocation`
    /// advanced to its first thread.
    pub fn record_dispatch(
        &self,
        recorder: &Recorder,
        stage: Stage,
        step: &StepConstants,
        invocations: u32,
    ) {
        self.record_bind(recorder, stage);
        for (first_invocation, groups) in dispatch_parts(invocations, self.max_workgroups) {
            let part = StepConstants {
                first_invocation: step.first_invocation + first_invocation,
                ..*step
            };
            recorder.push_constants(self.layout, bytemuck::bytes_of(&part));
            recorder.dispatch(groups);
            self.dispatches.set(self.dispatches.get() + 1);
            self.widest_dispatch
                .set(self.widest_dispatch.get().max(groups));
        }
    }

    /// Records one dispatch of `stage` over the whole of `step.level`, its workgroups read from
    /// that level's entry in `control` (the `Control` block) when the dispatch runs.
    pub fn record_indirect_dispatch(
        &self,
        recorder: &Recorder,
        stage: Stage,
        step: &StepConstants,
        control: &GpuBuffer,
    ) {
        self.record_bind(recorder, stage);
        let step = StepConstants {
            first_invocation: 0,
            ..*step
        };
        recorder.push_constants(self.layout, bytemuck::bytes_of(&step));
        recorder.dispatch_indirect(control, Control::groups_offset(step.level));
        self.dispatches.set(self.dispatches.get() + 1);
    }

    /// Binds `stage`'s pipeline and the descriptor set.
    fn record_bind(&self, recorder: &Recorder, stage: Stage) {
        recorder.bind_compute(self.pipeline(stage), self.layout, self.set);
    }

    /// Dispatches recorded since the pipelines were created.
    pub fn dispatches(&self) -> u64 {
        self.dispatches.get()
    }

    /// The most workgroups of a dispatch sized on the host (not an indirect one) since the last
    /// [`Pipelines::reset_widest`].
    pub fn widest_dispatch(&self) -> u32 {
        self.widest_dispatch.get()
    }

    pub fn reset_widest(&self) {
        self.widest_dispatch.set(0);
    }
}

/// The dispatches covering `invocations` threads with at most `max_workgroups` workgroups each:
/// (first invocation, workgroups); none for no invocations.
fn dispatch_parts(invocations: u32, max_workgroups: u32) -> Vec<(u32, u32)> {
    let groups = invocations.div_ceil(WORKGROUP_SIZE);
    (0..groups)
        .step_by(max_workgroups as usize)
        .map(|first_group| {
            let part = (groups - first_group).min(max_workgroups);
            (first_group * WORKGROUP_SIZE, part)
        })
        .collect()
}

impl Drop for Pipelines {
    fn drop(&mut self) {
        let device = &self.shared.device;
        // SAFETY: no submission uses these objects any more (a device opened for statistics
        // never submits, and has no queue to wait for: RADV's null device); destroying null
        // handles is allowed.
        unsafe {
            if self.shared.purpose == Purpose::Compute {
                let _ = device.device_wait_idle();
            }
            for &(_, pipeline) in &self.pipelines {
                device.destroy_pipeline(pipeline, None);
            }
            device.destroy_descriptor_pool(self.pool, None);
            device.destroy_pipeline_layout(self.layout, None);
            device.destroy_descriptor_set_layout(self.set_layout, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The memory model and capabilities a SPIR-V module declares.
    fn memory_model(spirv: &[u8]) -> (u32, Vec<u32>) {
        const OP_CAPABILITY: u32 = 17;
        const OP_MEMORY_MODEL: u32 = 14;
        let words = ash::util::read_spv(&mut Cursor::new(spirv)).expect("valid SPIR-V");
        let (mut model, mut capabilities) = (None, Vec::new());
        let mut at = 5;
        while at < words.len() {
            let (opcode, length) = (words[at] & 0xffff, (words[at] >> 16) as usize);
            match opcode {
                OP_CAPABILITY => capabilities.push(words[at + 1]),
                OP_MEMORY_MODEL => model = Some(words[at + 2]),
                _ => {}
            }
            at += length.max(1);
        }
        (model.expect("an OpMemoryModel"), capabilities)
    }

    #[test]
    fn table_builds_use_the_vulkan_memory_model_at_device_scope() {
        const GLSL450: u32 = 1;
        const VULKAN: u32 = 3;
        const VULKAN_MEMORY_MODEL: u32 = 5345;
        const DEVICE_SCOPE: u32 = 5346;
        for stage in Stage::ALL {
            let (model, capabilities) = memory_model(stage.spirv(true));
            assert_eq!(model, VULKAN, "{stage:?} with a table");
            assert!(capabilities.contains(&VULKAN_MEMORY_MODEL), "{stage:?}");
            // The stages that probe and store entries use device-scope atomics.
            if matches!(stage, Stage::Expand | Stage::Leaf | Stage::Upsweep) {
                assert!(capabilities.contains(&DEVICE_SCOPE), "{stage:?}");
            }
            let (model, capabilities) = memory_model(stage.spirv(false));
            assert_eq!(model, GLSL450, "{stage:?} without a table");
            assert!(!capabilities.contains(&VULKAN_MEMORY_MODEL), "{stage:?}");
        }
    }

    #[test]
    fn dispatches_cover_every_invocation_within_the_limit() {
        assert!(dispatch_parts(0, 7).is_empty());
        assert_eq!(dispatch_parts(64, 7), vec![(0, 1)]);
        assert_eq!(dispatch_parts(65, 1), vec![(0, 1), (64, 1)]);
        for (invocations, limit) in [(1000, 1), (1000, 7), (64 * 14, 7), (5, 65_535)] {
            let parts = dispatch_parts(invocations, limit);
            let mut covered = 0;
            for &(first, groups) in &parts {
                assert_eq!(first, covered * WORKGROUP_SIZE);
                assert!((1..=limit).contains(&groups));
                covered += groups;
            }
            assert_eq!(covered, invocations.div_ceil(WORKGROUP_SIZE));
        }
    }
}

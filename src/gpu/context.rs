//! The logical device: queue, memory allocator, command buffers and fences, and the one way
//! work is submitted (record, submit, wait with a timeout), timed on the device where it can
//! be. Two submissions may be pending at once, each in a slot of its own.
//!
//! Destruction order is explicit: buffers hold an `Arc<DeviceShared>` and are freed first; when
//! the last reference goes, the allocator is dropped, then the command pool and fences, then the
//! device, then the instance.

use super::device::{choose_device, compute_queue_family, DeviceInfo, Instance};
use super::error::{vk_error, GpuError};
use ash::vk;
use gpu_allocator::vulkan::{Allocator, AllocatorCreateDesc};
use std::cell::Cell;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long one submission may run before it counts as hung.
pub const FENCE_TIMEOUT: Duration = Duration::from_secs(60);

pub struct DeviceShared {
    /// `None` only on a device opened for [`Purpose::PipelineStatistics`].
    allocator: Option<Mutex<Allocator>>,
    pub device: ash::Device,
    pub info: DeviceInfo,
    pub purpose: Purpose,
    instance: Instance,
}

/// What a logical device is opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Searches: memory, queue submissions.
    Compute,
    /// Only to create pipelines and read the driver's statistics of them
    /// (`VK_KHR_pipeline_executable_properties`, which the device must have): no allocator, so
    /// that a device without memory (RADV's null device) opens too.
    PipelineStatistics,
}

impl DeviceShared {
    /// Opens `physical` with one queue of `family` and, where the device has them, the
    /// features of the table's shader build.
    pub fn open(
        instance: Instance,
        physical: vk::PhysicalDevice,
        info: DeviceInfo,
        family: u32,
        purpose: Purpose,
    ) -> Result<Arc<DeviceShared>, GpuError> {
        let priorities = [1.0f32];
        let queue_info = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        // Every stage reaches the chunk's arrays by device address; the TT build of the
        // shaders also needs 64-bit buffer atomics and the Vulkan memory model at device scope.
        // Enable them wherever the device has them.
        let with_tt = info.tt_missing.is_empty();
        let mut vulkan12 = vk::PhysicalDeviceVulkan12Features::default()
            .shader_buffer_int64_atomics(with_tt)
            .buffer_device_address(info.buffer_device_address)
            .vulkan_memory_model(with_tt)
            .vulkan_memory_model_device_scope(with_tt);
        let statistics = purpose == Purpose::PipelineStatistics;
        let mut executable_info =
            vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default()
                .pipeline_executable_info(true);
        let mut features = vk::PhysicalDeviceFeatures2::default()
            .features(vk::PhysicalDeviceFeatures::default().shader_int64(true));
        if info.buffer_device_address {
            features = features.push_next(&mut vulkan12);
        }
        if statistics {
            features = features.push_next(&mut executable_info);
        }
        // A portability implementation (MoltenVK) must be told that its subset is accepted.
        let mut extension_names = Vec::new();
        if instance.device_has_extension(physical, ash::khr::portability_subset::NAME)? {
            extension_names.push(ash::khr::portability_subset::NAME.as_ptr());
        }
        if statistics {
            extension_names.push(ash::khr::pipeline_executable_properties::NAME.as_ptr());
        }
        let device_info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queue_info)
            .enabled_extension_names(&extension_names)
            .push_next(&mut features);
        // SAFETY: `physical` belongs to `instance`; the create info outlives the call.
        let device = unsafe {
            instance
                .instance
                .create_device(physical, &device_info, None)
        }
        .map_err(vk_error("vkCreateDevice"))?;
        let allocator = if statistics {
            None
        } else {
            let created = Allocator::new(&AllocatorCreateDesc {
                instance: instance.instance.clone(),
                device: device.clone(),
                physical_device: physical,
                debug_settings: Default::default(),
                buffer_device_address: info.buffer_device_address,
                allocation_sizes: Default::default(),
            });
            match created {
                Ok(allocator) => Some(Mutex::new(allocator)),
                Err(err) => {
                    // SAFETY: nothing else was created from the device yet.
                    unsafe { device.destroy_device(None) };
                    return Err(GpuError::OutOfMemory(err.to_string()));
                }
            }
        };
        Ok(Arc::new(DeviceShared {
            allocator,
            device,
            info,
            purpose,
            instance,
        }))
    }

    pub fn instance(&self) -> &ash::Instance {
        &self.instance.instance
    }

    pub fn allocator(&self) -> &Mutex<Allocator> {
        self.allocator
            .as_ref()
            .expect("only a device opened for Purpose::Compute allocates memory")
    }
}

impl Drop for DeviceShared {
    fn drop(&mut self) {
        // The allocator frees its memory blocks, which needs the device.
        self.allocator = None;
        // SAFETY: every buffer, pipeline and pool of this device has been destroyed (they hold
        // an Arc of this struct or are owned by the Context, which drops them first).
        unsafe { self.device.destroy_device(None) };
        // `instance` is dropped after this, destroying the instance last.
        let _ = &self.instance;
    }
}

/// Submissions that may be on the device at once: a chunk runs while the host records the
/// next one (the scheduler's slots).
pub use super::scheduler::SLOTS;

/// A device ready for compute work.
pub struct Context {
    pub shared: Arc<DeviceShared>,
    queue: vk::Queue,
    command_pool: vk::CommandPool,
    slots: [Slot; SLOTS],
    /// Start and end timestamps of each slot's submission; `None` when the queue has no
    /// timestamps.
    timer: Option<Timer>,
    /// Waits for a pending submission so far (the work counters' host waits).
    host_waits: Cell<u64>,
}

/// One submission at a time: its command buffer, and the fence it signals.
struct Slot {
    command_buffer: vk::CommandBuffer,
    fence: vk::Fence,
    /// Submitted and not yet waited for.
    pending: Cell<bool>,
    /// When it was submitted.
    submitted: Cell<Option<Instant>>,
}

/// A query pool of two timestamps per slot and how to turn their difference into time.
struct Timer {
    pool: vk::QueryPool,
    /// Nanoseconds per timestamp tick (`timestampPeriod`).
    tick_ns: f64,
    /// The bits a timestamp of this queue holds (`timestampValidBits`).
    valid_mask: u64,
}

impl Context {
    /// Opens `requested` (an index of `vkperft devices`), or the preferred usable device.
    pub fn new(requested: Option<usize>) -> Result<Context, GpuError> {
        let instance = Instance::new()?;
        let (physical_devices, infos) = instance.described_devices()?;
        let index = choose_device(&infos, requested)?;
        let physical = physical_devices[index];
        let info = infos[index].clone();
        // SAFETY: `physical` belongs to `instance`.
        let (tick_ns, families) = unsafe {
            (
                instance
                    .instance
                    .get_physical_device_properties(physical)
                    .limits
                    .timestamp_period,
                instance
                    .instance
                    .get_physical_device_queue_family_properties(physical),
            )
        };
        let family = compute_queue_family(&instance.instance, physical).ok_or_else(|| {
            GpuError::DeviceUnsuitable {
                index,
                name: info.name.clone(),
                reason: "no compute queue".into(),
            }
        })?;
        let shared = DeviceShared::open(instance, physical, info, family, Purpose::Compute)?;
        let device = &shared.device;
        // SAFETY: family index was validated above; queue 0 exists in it.
        let queue = unsafe { device.get_device_queue(family, 0) };
        let pool_info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(family)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        // SAFETY: valid device and create info.
        let command_pool = unsafe { device.create_command_pool(&pool_info, None) }
            .map_err(vk_error("vkCreateCommandPool"))?;
        // From here on, `Drop` destroys whatever was created (null handles are skipped by
        // Vulkan), so every failure below just returns.
        let mut context = Context {
            shared: shared.clone(),
            queue,
            command_pool,
            slots: std::array::from_fn(|_| Slot {
                command_buffer: vk::CommandBuffer::null(),
                fence: vk::Fence::null(),
                pending: Cell::new(false),
                submitted: Cell::new(None),
            }),
            timer: None,
            host_waits: Cell::new(0),
        };
        let alloc_info = vk::CommandBufferAllocateInfo::default()
            .command_pool(command_pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(SLOTS as u32);
        // SAFETY: the pool was just created on this device.
        let command_buffers = unsafe { device.allocate_command_buffers(&alloc_info) }
            .map_err(vk_error("vkAllocateCommandBuffers"))?;
        for (slot, command_buffer) in context.slots.iter_mut().zip(command_buffers) {
            slot.command_buffer = command_buffer;
            // SAFETY: valid device.
            slot.fence = unsafe { device.create_fence(&vk::FenceCreateInfo::default(), None) }
                .map_err(vk_error("vkCreateFence"))?;
        }
        let timestamp_bits = families[family as usize].timestamp_valid_bits;
        if timestamp_bits != 0 && tick_ns > 0.0 {
            let pool_info = vk::QueryPoolCreateInfo::default()
                .query_type(vk::QueryType::TIMESTAMP)
                .query_count(2 * SLOTS as u32);
            // SAFETY: valid device and create info.
            let pool = unsafe { device.create_query_pool(&pool_info, None) }
                .map_err(vk_error("vkCreateQueryPool"))?;
            context.timer = Some(Timer {
                pool,
                tick_ns: f64::from(tick_ns),
                valid_mask: u64::MAX >> (64 - timestamp_bits.min(64)),
            });
        }
        Ok(context)
    }

    pub fn device(&self) -> &ash::Device {
        &self.shared.device
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.shared.info
    }

    /// How many times the host has waited for a pending submission.
    pub fn host_waits(&self) -> u64 {
        self.host_waits.get()
    }

    /// Records commands with `record`, submits them and waits for them to finish (in slot 0,
    /// after any submission still pending there). Returns how long they ran on the device, as
    /// [`Context::wait`] does.
    pub fn submit_and_wait(
        &self,
        record: impl FnOnce(&ash::Device, vk::CommandBuffer),
    ) -> Result<Duration, GpuError> {
        self.submit(0, record)?;
        self.wait(0)
    }

    /// Records commands with `record` and submits them in `slot` (first waiting for what is
    /// still pending there) without waiting for them. Submissions run in the order they were
    /// made, each after the one before has finished: every command buffer starts with a
    /// barrier on all earlier work of the queue.
    pub fn submit(
        &self,
        slot: usize,
        record: impl FnOnce(&ash::Device, vk::CommandBuffer),
    ) -> Result<(), GpuError> {
        if self.slots[slot].pending.get() {
            self.wait(slot)?;
        }
        let Slot {
            command_buffer,
            fence,
            ..
        } = self.slots[slot];
        let device = self.device();
        let begin = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: the command buffer is not in use: its last submission was waited for above.
        unsafe {
            device
                .reset_command_buffer(command_buffer, vk::CommandBufferResetFlags::empty())
                .map_err(vk_error("vkResetCommandBuffer"))?;
            device
                .begin_command_buffer(command_buffer, &begin)
                .map_err(vk_error("vkBeginCommandBuffer"))?;
        }
        // Earlier submissions are ordered before this one's commands, and their writes made
        // visible to them (a fence wait, or none when they are still running, orders nothing).
        record_barrier(device, command_buffer);
        if let Some(timer) = &self.timer {
            let first = 2 * slot as u32;
            // SAFETY: the command buffer is recording; the pool holds two queries per slot.
            // The start is latched once every earlier command of the queue has finished, so a
            // submission queued behind another is not charged for the other's time.
            unsafe {
                device.cmd_reset_query_pool(command_buffer, timer.pool, first, 2);
                device.cmd_write_timestamp(
                    command_buffer,
                    vk::PipelineStageFlags::BOTTOM_OF_PIPE,
                    timer.pool,
                    first,
                );
            }
        }
        record(device, command_buffer);
        record_host_read_barrier(device, command_buffer);
        if let Some(timer) = &self.timer {
            // SAFETY: as above.
            unsafe {
                device.cmd_write_timestamp(
                    command_buffer,
                    vk::PipelineStageFlags::BOTTOM_OF_PIPE,
                    timer.pool,
                    2 * slot as u32 + 1,
                );
            }
        }
        let command_buffers = [command_buffer];
        let submit = [vk::SubmitInfo::default().command_buffers(&command_buffers)];
        // SAFETY: the recorded commands reference live resources owned by the caller, who
        // keeps them alive until the slot is waited for; the fence is unsignaled (reset after
        // each wait).
        unsafe {
            device
                .end_command_buffer(command_buffer)
                .map_err(vk_error("vkEndCommandBuffer"))?;
            device
                .queue_submit(self.queue, &submit, fence)
                .map_err(vk_error("vkQueueSubmit"))?;
        }
        self.slots[slot].pending.set(true);
        self.slots[slot].submitted.set(Some(Instant::now()));
        Ok(())
    }

    /// Waits for the submission of `slot` to finish (at once if none is pending). Returns how
    /// long it ran on the device, from timestamps, or where the queue has none, the host's time
    /// from submission to the fence (which also counts the submission's overhead).
    pub fn wait(&self, slot: usize) -> Result<Duration, GpuError> {
        let Slot {
            fence,
            ref pending,
            ref submitted,
            ..
        } = self.slots[slot];
        if !pending.get() {
            return Ok(Duration::ZERO);
        }
        self.host_waits.set(self.host_waits.get() + 1);
        let device = self.device();
        let timeout_ns = FENCE_TIMEOUT.as_nanos() as u64;
        // SAFETY: the fence belongs to this device.
        let waited = unsafe { device.wait_for_fences(&[fence], true, timeout_ns) };
        match waited {
            Ok(()) => {}
            Err(vk::Result::TIMEOUT) => {
                // The queue may still use the command buffer: wait for it before reuse.
                // SAFETY: valid device.
                let _ = unsafe { device.device_wait_idle() };
                pending.set(false);
                // SAFETY: the device is idle; the fence is not in use.
                let _ = unsafe { device.reset_fences(&[fence]) };
                return Err(GpuError::Timeout(FENCE_TIMEOUT.as_secs()));
            }
            Err(result) => return Err(GpuError::from_vk("vkWaitForFences", result)),
        }
        let host_time = submitted.get().map_or(Duration::ZERO, |at| at.elapsed());
        pending.set(false);
        // SAFETY: the fence is signaled and not in use.
        unsafe { device.reset_fences(&[fence]) }.map_err(vk_error("vkResetFences"))?;
        let Some(timer) = &self.timer else {
            return Ok(host_time);
        };
        let mut stamps = [0u64; 2];
        // SAFETY: both queries were written by the finished submission.
        unsafe {
            device.get_query_pool_results(
                timer.pool,
                2 * slot as u32,
                &mut stamps,
                vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
            )
        }
        .map_err(vk_error("vkGetQueryPoolResults"))?;
        let ticks = stamps[1].wrapping_sub(stamps[0]) & timer.valid_mask;
        Ok(Duration::from_nanos((ticks as f64 * timer.tick_ns) as u64))
    }
}

/// Makes every shader and transfer write of the submission available to the host before its
/// fence signals, so mapped reads after the wait see them (host-visible memory here is always
/// host-coherent: gpu-allocator asks for it). Host writes need no barrier: a queue submission
/// makes the host writes before it visible to the device.
fn record_host_read_barrier(device: &ash::Device, command_buffer: vk::CommandBuffer) {
    let barrier = [vk::MemoryBarrier::default()
        .src_access_mask(vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE)
        .dst_access_mask(vk::AccessFlags::HOST_READ)];
    // SAFETY: the command buffer is recording.
    unsafe {
        device.cmd_pipeline_barrier(
            command_buffer,
            vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::HOST,
            vk::DependencyFlags::empty(),
            &barrier,
            &[],
            &[],
        );
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        let device = &self.shared.device;
        // SAFETY: waiting for idle guarantees the pool, fences and queries are no longer in use;
        // destroying null handles (of a context whose creation failed part-way) is allowed.
        unsafe {
            let _ = device.device_wait_idle();
            if let Some(timer) = &self.timer {
                device.destroy_query_pool(timer.pool, None);
            }
            for slot in &self.slots {
                device.destroy_fence(slot.fence, None);
            }
            device.destroy_command_pool(self.command_pool, None);
        }
    }
}

/// Orders earlier commands (of this and earlier submissions of the queue) before later ones and
/// makes their writes visible to later shader reads, transfers and indirect dispatches.
pub fn record_barrier(device: &ash::Device, command_buffer: vk::CommandBuffer) {
    let barrier = [vk::MemoryBarrier::default()
        .src_access_mask(vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE)
        .dst_access_mask(
            vk::AccessFlags::SHADER_READ
                | vk::AccessFlags::SHADER_WRITE
                | vk::AccessFlags::TRANSFER_READ
                | vk::AccessFlags::TRANSFER_WRITE
                | vk::AccessFlags::INDIRECT_COMMAND_READ,
        )];
    let stages = vk::PipelineStageFlags::COMPUTE_SHADER
        | vk::PipelineStageFlags::TRANSFER
        | vk::PipelineStageFlags::DRAW_INDIRECT;
    // SAFETY: the command buffer is recording.
    unsafe {
        device.cmd_pipeline_barrier(
            command_buffer,
            stages,
            stages,
            vk::DependencyFlags::empty(),
            &barrier,
            &[],
            &[],
        );
    }
}

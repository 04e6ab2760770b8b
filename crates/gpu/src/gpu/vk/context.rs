//! A device ready for compute work: its queue, command buffers and fences, and the one way
//! work is submitted (record, submit, wait with a timeout), timed on the device where it can
//! be. Two submissions may be pending at once, each in a slot of its own.
//!
//! Destruction order is explicit: the context destroys its command pool, fences and queries
//! once the device is idle, then drops its reference to the device (`shared.rs`), which goes
//! with the last one, after every buffer and pipeline that holds one.

use super::device::{choose_device, required_compute_queue, DeviceInfo, Instance};
use super::recorder::Recorder;
use super::shared::{DeviceShared, Purpose};
use crate::gpu::error::{vk_error, GpuError};
use ash::vk;
use std::cell::Cell;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long one submission may run before it counts as hung.
pub const FENCE_TIMEOUT: Duration = Duration::from_secs(60);

/// Submissions that may be on the device at once: a chunk runs while the host records the
/// next one (the scheduler's slots).
pub use crate::gpu::scheduler::SLOTS;

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
        let family = required_compute_queue(&instance.instance, physical, index, &info)?;
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
    pub fn submit_and_wait(&self, record: impl FnOnce(&Recorder)) -> Result<Duration, GpuError> {
        self.submit(0, record)?;
        self.wait(0)
    }

    /// Records commands with `record` and submits them in `slot` (first waiting for what is
    /// still pending there) without waiting for them. Submissions run in the order they were
    /// made, each after the one before has finished: every command buffer starts with a
    /// barrier on all earlier work of the queue.
    pub fn submit(&self, slot: usize, record: impl FnOnce(&Recorder)) -> Result<(), GpuError> {
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
        let recorder = Recorder::new(device, command_buffer);
        // Earlier submissions are ordered before this one's commands, and their writes made
        // visible to them (a fence wait, or none when they are still running, orders nothing).
        recorder.barrier();
        if let Some(timer) = &self.timer {
            // The start is latched once every earlier command of the queue has finished, so a
            // submission queued behind another is not charged for the other's time.
            let first = 2 * slot as u32;
            recorder.reset_queries(timer.pool, first, 2);
            recorder.write_timestamp(timer.pool, first);
        }
        record(&recorder);
        recorder.host_read_barrier();
        if let Some(timer) = &self.timer {
            recorder.write_timestamp(timer.pool, 2 * slot as u32 + 1);
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

    /// Waits for the submissions of every slot to finish.
    pub fn wait_all(&self) -> Result<(), GpuError> {
        for slot in 0..SLOTS {
            self.wait(slot)?;
        }
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

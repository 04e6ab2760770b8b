//! Storage buffers with memory from `gpu-allocator`, freed on drop.

use super::shared::DeviceShared;
use crate::gpu::error::{vk_error, GpuError};
use ash::vk;
use gpu_allocator::vulkan::{Allocation, AllocationCreateDesc, AllocationScheme};
use gpu_allocator::MemoryLocation;
use std::sync::Arc;

pub struct GpuBuffer {
    pub buffer: vk::Buffer,
    pub size: u64,
    allocation: Option<Allocation>,
    shared: Arc<DeviceShared>,
}

impl GpuBuffer {
    pub fn new(
        shared: &Arc<DeviceShared>,
        name: &str,
        size: u64,
        location: MemoryLocation,
    ) -> Result<GpuBuffer, GpuError> {
        GpuBuffer::create(shared, name, size, location, false)
    }

    /// A device-local buffer in its own allocation that shaders reach by its device address
    /// (the device must have been created with buffer device addresses).
    pub fn new_addressable(
        shared: &Arc<DeviceShared>,
        name: &str,
        size: u64,
    ) -> Result<GpuBuffer, GpuError> {
        GpuBuffer::create(shared, name, size, MemoryLocation::GpuOnly, true)
    }

    fn create(
        shared: &Arc<DeviceShared>,
        name: &str,
        size: u64,
        location: MemoryLocation,
        addressable: bool,
    ) -> Result<GpuBuffer, GpuError> {
        let device = &shared.device;
        // Indirect: the control block holds the workgroup counts of indirect dispatches.
        let mut usage = vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::TRANSFER_SRC
            | vk::BufferUsageFlags::TRANSFER_DST
            | vk::BufferUsageFlags::INDIRECT_BUFFER;
        if addressable {
            usage |= vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
        }
        let info = vk::BufferCreateInfo::default()
            .size(size.max(4))
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: valid device and create info.
        let buffer =
            unsafe { device.create_buffer(&info, None) }.map_err(vk_error("vkCreateBuffer"))?;
        // SAFETY: the buffer was just created on this device.
        let requirements = unsafe { device.get_buffer_memory_requirements(buffer) };
        let allocated = shared
            .allocator()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .allocate(&AllocationCreateDesc {
                name,
                requirements,
                location,
                linear: true,
                allocation_scheme: if addressable {
                    AllocationScheme::DedicatedBuffer(buffer)
                } else {
                    AllocationScheme::GpuAllocatorManaged
                },
            });
        let allocation = match allocated {
            Ok(allocation) => allocation,
            Err(err) => {
                // SAFETY: the buffer has no memory bound and is unused.
                unsafe { device.destroy_buffer(buffer, None) };
                return Err(GpuError::OutOfMemory(format!(
                    "{name} ({} MiB): {err}",
                    size >> 20
                )));
            }
        };
        // SAFETY: the allocation satisfies the buffer's requirements and is not bound elsewhere.
        let bound =
            unsafe { device.bind_buffer_memory(buffer, allocation.memory(), allocation.offset()) };
        let gpu_buffer = GpuBuffer {
            buffer,
            size,
            allocation: Some(allocation),
            shared: shared.clone(),
        };
        bound.map_err(vk_error("vkBindBufferMemory"))?;
        Ok(gpu_buffer)
    }

    /// The address shaders reach an addressable buffer by.
    pub fn device_address(&self) -> u64 {
        let info = vk::BufferDeviceAddressInfo::default().buffer(self.buffer);
        // SAFETY: the buffer is live, was created with SHADER_DEVICE_ADDRESS usage and its
        // memory is bound.
        unsafe { self.shared.device.get_buffer_device_address(&info) }
    }

    /// The host-visible bytes of a buffer allocated in host-visible memory.
    pub fn mapped(&self) -> Option<&[u8]> {
        self.allocation
            .as_ref()
            .and_then(Allocation::mapped_slice)
            .map(|bytes| &bytes[..self.size as usize])
    }

    pub fn mapped_mut(&mut self) -> Option<&mut [u8]> {
        let size = self.size as usize;
        self.allocation
            .as_mut()
            .and_then(Allocation::mapped_slice_mut)
            .map(|bytes| &mut bytes[..size])
    }
}

impl Drop for GpuBuffer {
    fn drop(&mut self) {
        // SAFETY: the owner waits for the queue to be idle before dropping buffers it used.
        unsafe { self.shared.device.destroy_buffer(self.buffer, None) };
        if let Some(allocation) = self.allocation.take() {
            let _ = self
                .shared
                .allocator()
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .free(allocation);
        }
    }
}

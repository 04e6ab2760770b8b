//! The logical device and its memory allocator, shared by everything created on it.
//!
//! Destruction order is explicit: buffers and pipelines hold an `Arc<DeviceShared>` and are
//! freed first; when the last reference goes, the allocator is dropped, then the device, then
//! the instance.

use super::device::{DeviceInfo, Instance};
use crate::gpu::error::{vk_error, GpuError};
use ash::vk;
use gpu_allocator::vulkan::{Allocator, AllocatorCreateDesc};
use std::sync::{Arc, Mutex};

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

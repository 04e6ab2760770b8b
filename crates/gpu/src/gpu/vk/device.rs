//! Vulkan instance creation and the list of devices with what vkperft needs of them.

use crate::gpu::error::{vk_error, GpuError};
use ash::vk;
use std::ffi::CStr;

/// Physical device type, in the order vkperft prefers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DeviceKind {
    Discrete,
    Integrated,
    Virtual,
    Cpu,
    Other,
}

impl DeviceKind {
    fn from_vk(kind: vk::PhysicalDeviceType) -> DeviceKind {
        match kind {
            vk::PhysicalDeviceType::DISCRETE_GPU => DeviceKind::Discrete,
            vk::PhysicalDeviceType::INTEGRATED_GPU => DeviceKind::Integrated,
            vk::PhysicalDeviceType::VIRTUAL_GPU => DeviceKind::Virtual,
            vk::PhysicalDeviceType::CPU => DeviceKind::Cpu,
            _ => DeviceKind::Other,
        }
    }

    /// A GPU of its own, as opposed to Vulkan implemented on the CPU (lavapipe, SwiftShader).
    pub fn is_gpu(self) -> bool {
        matches!(
            self,
            DeviceKind::Discrete | DeviceKind::Integrated | DeviceKind::Virtual
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            DeviceKind::Discrete => "discrete",
            DeviceKind::Integrated => "integrated",
            DeviceKind::Virtual => "virtual",
            DeviceKind::Cpu => "cpu",
            DeviceKind::Other => "other",
        }
    }
}

#[derive(Clone, Debug)]
pub struct MemoryHeap {
    pub bytes: u64,
    pub device_local: bool,
    /// What this process may allocate from the heap now (`VK_EXT_memory_budget`'s heap budget
    /// less its usage); `None` where the device does not say.
    pub free: Option<u64>,
}

/// What `vkperft devices` shows of one device.
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    pub index: usize,
    pub name: String,
    pub kind: DeviceKind,
    pub driver: String,
    pub api_version: String,
    pub heaps: Vec<MemoryHeap>,
    pub shader_int64: bool,
    pub buffer_int64_atomics: bool,
    pub buffer_device_address: bool,
    /// `vulkanMemoryModel` with `vulkanMemoryModelDeviceScope`: the table's seqlock is written
    /// for it.
    pub vulkan_memory_model: bool,
    /// Subgroup add, min and prefix sums, elect and broadcast in compute shaders (basic,
    /// arithmetic and ballot operations).
    pub subgroup_arithmetic: bool,
    pub subgroup_size: u32,
    pub max_storage_buffer_range: u32,
    /// `maxMemoryAllocationSize` (Vulkan 1.1): the largest allocation, which bounds a chunk
    /// array's segments.
    pub max_memory_allocation_size: u64,
    /// `maxComputeWorkGroupCount[0]`: workgroups one dispatch may have.
    pub max_workgroups: u32,
    /// A GPU that drives no display (see `Instance::drives_no_display`): no watchdog limits
    /// how long a submission may run on it.
    pub headless: bool,
    pub has_compute_queue: bool,
    /// Why vkperft cannot run on it; empty when it can.
    pub missing: Vec<String>,
    /// Why the transposition table cannot run on it (only `--tt off` can); empty when it can.
    pub tt_missing: Vec<String>,
}

impl DeviceInfo {
    pub fn usable(&self) -> bool {
        self.missing.is_empty()
    }

    pub fn supports_tt(&self) -> bool {
        self.usable() && self.tt_missing.is_empty()
    }

    /// The largest device-local heap (or the largest heap when none is device-local).
    fn main_heap(&self) -> Option<&MemoryHeap> {
        let by_size = |heap: &&MemoryHeap| heap.bytes;
        self.heaps
            .iter()
            .filter(|h| h.device_local)
            .max_by_key(by_size)
            .or_else(|| self.heaps.iter().max_by_key(by_size))
    }

    /// The size of the main heap.
    pub fn memory_bytes(&self) -> u64 {
        self.main_heap().map_or(0, |heap| heap.bytes)
    }

    /// What of the main heap is free for this process: the driver's budget where it gives
    /// one, else the whole heap.
    pub fn free_memory_bytes(&self) -> u64 {
        self.main_heap()
            .map_or(0, |heap| heap.free.unwrap_or(heap.bytes).min(heap.bytes))
    }
}

/// An instance with the loader that created it; destroyed on drop.
pub struct Instance {
    pub entry: ash::Entry,
    pub instance: ash::Instance,
    /// `VK_KHR_display`, where the loader has it: which displays a device drives.
    display: Option<ash::khr::display::Instance>,
}

impl Instance {
    pub fn new() -> Result<Instance, GpuError> {
        // SAFETY: loading the system's Vulkan loader library; its symbols are resolved by ash.
        let entry =
            unsafe { ash::Entry::load() }.map_err(|err| GpuError::NoLoader(err.to_string()))?;
        let app_info = vk::ApplicationInfo::default()
            .application_name(c"vkperft")
            .api_version(vk::API_VERSION_1_2);
        let layers = validation_layers(&entry)?;
        let layer_names: Vec<*const std::ffi::c_char> = layers.iter().map(|l| l.as_ptr()).collect();
        // SAFETY: a plain query of the loader.
        let available = unsafe { entry.enumerate_instance_extension_properties(None) }
            .map_err(vk_error("vkEnumerateInstanceExtensionProperties"))?;
        let has_extension = |wanted: &CStr| {
            available
                .iter()
                .any(|extension| extension.extension_name_as_c_str() == Ok(wanted))
        };
        let mut extension_names = Vec::new();
        let has_display =
            has_extension(ash::khr::display::NAME) && has_extension(ash::khr::surface::NAME);
        if has_display {
            extension_names.push(ash::khr::surface::NAME.as_ptr());
            extension_names.push(ash::khr::display::NAME.as_ptr());
        }
        let mut flags = vk::InstanceCreateFlags::empty();
        // Without this opt-in the loader hides portability drivers (MoltenVK on macOS).
        if has_extension(ash::khr::portability_enumeration::NAME) {
            extension_names.push(ash::khr::portability_enumeration::NAME.as_ptr());
            flags |= vk::InstanceCreateFlags::ENUMERATE_PORTABILITY_KHR;
        }
        // Under the validation layer, synchronization validation also reports hazards between
        // submissions, stages and the host.
        let enabled_validation = [vk::ValidationFeatureEnableEXT::SYNCHRONIZATION_VALIDATION];
        let mut validation_features =
            vk::ValidationFeaturesEXT::default().enabled_validation_features(&enabled_validation);
        let mut create_info = vk::InstanceCreateInfo::default()
            .application_info(&app_info)
            .enabled_layer_names(&layer_names)
            .flags(flags);
        if !layers.is_empty() {
            extension_names.push(ash::ext::validation_features::NAME.as_ptr());
            create_info = create_info.push_next(&mut validation_features);
        }
        let create_info = create_info.enabled_extension_names(&extension_names);
        // SAFETY: the create info and what it points to live until the call returns.
        let instance = unsafe { entry.create_instance(&create_info, None) }
            .map_err(vk_error("vkCreateInstance"))?;
        let display = has_display.then(|| ash::khr::display::Instance::new(&entry, &instance));
        Ok(Instance {
            entry,
            instance,
            display,
        })
    }

    /// Whether `physical` drives no display, as far as can be told: `VK_KHR_display` lists none
    /// for it and no desktop session runs here (`DISPLAY` and `WAYLAND_DISPLAY` unset; a
    /// compositor may own displays that the extension does not list). `false` when unknown.
    fn drives_no_display(&self, physical: vk::PhysicalDevice) -> bool {
        let Some(display) = &self.display else {
            return false;
        };
        let desktop = ["DISPLAY", "WAYLAND_DISPLAY"]
            .iter()
            .any(|name| std::env::var_os(name).is_some_and(|value| !value.is_empty()));
        // SAFETY: `physical` belongs to this instance, which has the extension enabled.
        let listed = unsafe { display.get_physical_device_display_properties(physical) };
        !desktop && listed.is_ok_and(|displays| displays.is_empty())
    }

    /// Whether `physical` offers the device extension `name`.
    pub fn device_has_extension(
        &self,
        physical: vk::PhysicalDevice,
        name: &CStr,
    ) -> Result<bool, GpuError> {
        // SAFETY: `physical` belongs to this instance.
        let extensions = unsafe {
            self.instance
                .enumerate_device_extension_properties(physical)
        }
        .map_err(vk_error("vkEnumerateDeviceExtensionProperties"))?;
        Ok(extensions
            .iter()
            .any(|extension| extension.extension_name_as_c_str() == Ok(name)))
    }

    /// Every physical device with what `vkperft devices` shows of it, in the same order.
    pub fn described_devices(
        &self,
    ) -> Result<(Vec<vk::PhysicalDevice>, Vec<DeviceInfo>), GpuError> {
        let physical_devices = self.physical_devices()?;
        let infos = physical_devices
            .iter()
            .enumerate()
            .map(|(index, &physical)| self.describe(index, physical))
            .collect();
        Ok((physical_devices, infos))
    }

    pub fn physical_devices(&self) -> Result<Vec<vk::PhysicalDevice>, GpuError> {
        // SAFETY: the instance is valid for the lifetime of `self`.
        unsafe { self.instance.enumerate_physical_devices() }
            .map_err(vk_error("vkEnumeratePhysicalDevices"))
    }

    pub fn describe(&self, index: usize, physical: vk::PhysicalDevice) -> DeviceInfo {
        let instance = &self.instance;
        let mut subgroup = vk::PhysicalDeviceSubgroupProperties::default();
        let mut driver = vk::PhysicalDeviceDriverProperties::default();
        let mut maintenance3 = vk::PhysicalDeviceMaintenance3Properties::default();
        let mut properties2 = vk::PhysicalDeviceProperties2::default()
            .push_next(&mut subgroup)
            .push_next(&mut maintenance3);
        // SAFETY: `physical` came from this instance.
        let api_version = unsafe { instance.get_physical_device_properties(physical) }.api_version;
        // Driver properties are core in Vulkan 1.2; older devices may not fill them.
        let has_driver_properties = api_version >= vk::API_VERSION_1_2;
        if has_driver_properties {
            properties2 = properties2.push_next(&mut driver);
        }
        // SAFETY: the chained structs live until the call returns.
        unsafe { instance.get_physical_device_properties2(physical, &mut properties2) };
        let properties = properties2.properties;

        // Vulkan 1.2 core features: 64-bit buffer atomics, buffer device addresses and the
        // memory model.
        let mut vulkan12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut features2 = vk::PhysicalDeviceFeatures2::default();
        if has_driver_properties {
            features2 = features2.push_next(&mut vulkan12);
        }
        // SAFETY: as above.
        unsafe { instance.get_physical_device_features2(physical, &mut features2) };
        let shader_int64 = features2.features.shader_int64 == vk::TRUE;
        let buffer_int64_atomics = vulkan12.shader_buffer_int64_atomics == vk::TRUE;
        let buffer_device_address = vulkan12.buffer_device_address == vk::TRUE;
        let vulkan_memory_model = vulkan12.vulkan_memory_model == vk::TRUE
            && vulkan12.vulkan_memory_model_device_scope == vk::TRUE;
        let subgroup_arithmetic = subgroup
            .supported_stages
            .contains(vk::ShaderStageFlags::COMPUTE)
            && subgroup.supported_operations.contains(
                vk::SubgroupFeatureFlags::BASIC
                    | vk::SubgroupFeatureFlags::ARITHMETIC
                    | vk::SubgroupFeatureFlags::BALLOT,
            );

        let has_budget = self
            .device_has_extension(physical, ash::ext::memory_budget::NAME)
            .unwrap_or(false);
        let mut budget = vk::PhysicalDeviceMemoryBudgetPropertiesEXT::default();
        let mut memory2 = vk::PhysicalDeviceMemoryProperties2::default();
        if has_budget {
            memory2 = memory2.push_next(&mut budget);
        }
        // SAFETY: as above; the budget struct is chained only where the extension exists.
        unsafe { instance.get_physical_device_memory_properties2(physical, &mut memory2) };
        let memory = memory2.memory_properties;
        let heaps: Vec<MemoryHeap> = memory.memory_heaps[..memory.memory_heap_count as usize]
            .iter()
            .enumerate()
            .map(|(index, heap)| MemoryHeap {
                bytes: heap.size,
                device_local: heap.flags.contains(vk::MemoryHeapFlags::DEVICE_LOCAL),
                free: has_budget
                    .then(|| budget.heap_budget[index].saturating_sub(budget.heap_usage[index])),
            })
            .collect();
        let has_compute_queue = compute_queue_family(instance, physical).is_some();

        let c_text = |text: Result<&CStr, _>| {
            text.map(|c: &CStr| c.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        let driver_text = if has_driver_properties {
            let name = c_text(driver.driver_name_as_c_str());
            let info = c_text(driver.driver_info_as_c_str());
            format!("{name} {info}").trim().to_string()
        } else {
            format!("driver version {:#x}", properties.driver_version)
        };
        let mut missing = Vec::new();
        if api_version < vk::API_VERSION_1_1 {
            missing.push("Vulkan 1.1".to_string());
        }
        if !shader_int64 {
            missing.push("shaderInt64 (64-bit integers in shaders)".to_string());
        }
        if !has_compute_queue {
            missing.push("a compute queue".to_string());
        }
        if !subgroup_arithmetic {
            missing.push("subgroup arithmetic and ballot in compute shaders".to_string());
        }
        // A device without device-local memory cannot hold the search buffers: RADV's null
        // device (`RADV_FORCE_FAMILY`), which compiles pipelines but runs nothing, is one.
        if !heaps.iter().any(|heap| heap.device_local && heap.bytes > 0) {
            missing.push("a device-local memory heap".to_string());
        }
        // Every stage reaches the chunk's arrays by device address (`gpu/chunk_arrays.rs`).
        if !has_driver_properties {
            missing.push("Vulkan 1.2".to_string());
        }
        if !buffer_device_address {
            missing.push("bufferDeviceAddress".to_string());
        }
        let mut tt_missing = Vec::new();
        if !buffer_int64_atomics {
            tt_missing.push("shaderBufferInt64Atomics (64-bit buffer atomics)".to_string());
        }
        if !vulkan_memory_model {
            tt_missing.push("vulkanMemoryModel with device scope".to_string());
        }
        DeviceInfo {
            index,
            name: c_text(properties.device_name_as_c_str()),
            kind: DeviceKind::from_vk(properties.device_type),
            driver: driver_text,
            api_version: format!(
                "{}.{}.{}",
                vk::api_version_major(api_version),
                vk::api_version_minor(api_version),
                vk::api_version_patch(api_version)
            ),
            heaps,
            shader_int64,
            buffer_int64_atomics,
            buffer_device_address,
            vulkan_memory_model,
            subgroup_arithmetic,
            subgroup_size: subgroup.subgroup_size,
            max_storage_buffer_range: properties.limits.max_storage_buffer_range,
            max_memory_allocation_size: maintenance3.max_memory_allocation_size,
            max_workgroups: properties.limits.max_compute_work_group_count[0],
            headless: DeviceKind::from_vk(properties.device_type).is_gpu()
                && self.drives_no_display(physical),
            has_compute_queue,
            missing,
            tt_missing,
        }
    }
}

/// Set to 1 to run under the Khronos validation layer (Debian: vulkan-validationlayers), which
/// reports every misuse of the API on stderr.
pub const VALIDATION_ENV: &str = "VKPERFT_VALIDATION";
const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";

fn validation_layers(entry: &ash::Entry) -> Result<Vec<&'static CStr>, GpuError> {
    if std::env::var_os(VALIDATION_ENV).is_none_or(|v| v == "0") {
        return Ok(Vec::new());
    }
    // SAFETY: a plain query of the loader.
    let available = unsafe { entry.enumerate_instance_layer_properties() }
        .map_err(vk_error("vkEnumerateInstanceLayerProperties"))?;
    if available
        .iter()
        .any(|layer| layer.layer_name_as_c_str() == Ok(VALIDATION_LAYER))
    {
        Ok(vec![VALIDATION_LAYER])
    } else {
        Err(GpuError::NoValidationLayer {
            variable: VALIDATION_ENV,
            layer: VALIDATION_LAYER.to_string_lossy().into_owned(),
        })
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        // SAFETY: every object created from this instance is destroyed before it (the context
        // that owns a device drops the device first).
        unsafe { self.instance.destroy_instance(None) };
    }
}

/// A queue family that supports compute.
pub fn compute_queue_family(instance: &ash::Instance, physical: vk::PhysicalDevice) -> Option<u32> {
    // SAFETY: `physical` came from `instance`.
    let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
    families
        .iter()
        .position(|family| family.queue_flags.contains(vk::QueueFlags::COMPUTE))
        .map(|index| index as u32)
}

/// The compute queue family of device `index` (`info`) that a run needs: a device without one
/// is unsuitable.
pub fn required_compute_queue(
    instance: &ash::Instance,
    physical: vk::PhysicalDevice,
    index: usize,
    info: &DeviceInfo,
) -> Result<u32, GpuError> {
    compute_queue_family(instance, physical).ok_or_else(|| GpuError::DeviceUnsuitable {
        index,
        name: info.name.clone(),
        reason: "no compute queue".into(),
    })
}

/// Every Vulkan device with its capabilities.
pub fn list_devices() -> Result<Vec<DeviceInfo>, GpuError> {
    Ok(Instance::new()?.described_devices()?.1)
}

/// The device `--backend auto` runs on: the first usable GPU of the most preferred kind
/// (discrete, integrated, virtual); none when the only devices run on the CPU, where the CPU
/// backend is faster.
pub fn auto_device(devices: &[DeviceInfo]) -> Option<usize> {
    devices
        .iter()
        .filter(|d| d.usable() && d.kind.is_gpu())
        .min_by_key(|d| (d.kind, d.index))
        .map(|d| d.index)
}

/// The device the Vulkan backend opens: `requested` if given (and usable), else the first usable one
/// of the most preferred kind (discrete, integrated, virtual, CPU).
pub fn choose_device(devices: &[DeviceInfo], requested: Option<usize>) -> Result<usize, GpuError> {
    if devices.is_empty() {
        return Err(GpuError::NoDevice);
    }
    if let Some(index) = requested {
        let device = devices.get(index).ok_or(GpuError::NoSuchDevice {
            index,
            count: devices.len(),
        })?;
        if !device.usable() {
            return Err(GpuError::DeviceUnsuitable {
                index,
                name: device.name.clone(),
                reason: format!("it lacks {}", device.missing.join(", ")),
            });
        }
        return Ok(index);
    }
    devices
        .iter()
        .filter(|d| d.usable())
        .min_by_key(|d| (d.kind, d.index))
        .map(|d| d.index)
        .ok_or_else(|| {
            let reasons: Vec<String> = devices
                .iter()
                .map(|d| format!("{} lacks {}", d.name, d.missing.join(", ")))
                .collect();
            GpuError::NoUsableDevice(reasons.join("; "))
        })
}

//! `vkperft devices`: every Vulkan device, what vkperft needs of it, and which it would pick.

use super::args::DevicesArgs;
use super::error::{CliError, CliResult};
use super::output;
use serde_json::json;
use vkperft::engine::DEFAULT_TT_MB;
use vkperft::gpu::device::{auto_device, choose_device};
use vkperft::gpu::slider_attacks::SliderAttacks;
use vkperft::gpu::{list_devices, memory_defaults, DeviceInfo, Submissions};

pub fn run(args: &DevicesArgs) -> CliResult {
    let devices = list_devices().map_err(CliError::runtime)?;
    let chosen = choose_device(&devices, None).ok();
    let auto = auto_device(&devices);
    if args.json {
        let value = json!({
            "devices": devices.iter().map(device_json).collect::<Vec<_>>(),
            "chosen": chosen,
            "auto": auto,
        });
        return output::write_stdout(&format!("{value}\n"));
    }
    let mut text = String::new();
    for device in &devices {
        text += &device_text(device, chosen == Some(device.index));
    }
    text += &match chosen {
        Some(index) => {
            format!("--backend vulkan runs on device {index} (--device N picks another)\n")
        }
        None if devices.is_empty() => "no Vulkan device found; vkperft runs on the CPU\n".into(),
        None => "no usable Vulkan device; vkperft runs on the CPU\n".into(),
    };
    text += &match auto {
        Some(index) => format!("--backend auto (the default) runs on device {index}\n"),
        None => "--backend auto (the default) runs on the CPU backend: no usable GPU, and Vulkan \
                 on the CPU is slower than the CPU backend\n"
            .into(),
    };
    output::write_stdout(&text)
}

fn gib(bytes: u64) -> String {
    format!("{:.1} GiB", bytes as f64 / f64::from(1 << 30))
}

fn device_text(device: &DeviceInfo, chosen: bool) -> String {
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let heaps: Vec<String> = device
        .heaps
        .iter()
        .map(|h| {
            let local = if h.device_local { " device-local" } else { "" };
            format!("{}{local}", gib(h.bytes))
        })
        .collect();
    let status = if !device.usable() {
        format!("cannot run: lacks {}", device.missing.join(", "))
    } else if device.supports_tt() {
        "usable, with every TT mode".to_string()
    } else {
        format!(
            "usable with --tt off only: the GPU TT needs {}",
            device.tt_missing.join(", ")
        )
    };
    let defaults = memory_defaults(device);
    let table = defaults.table_bytes.map_or_else(
        || format!("{DEFAULT_TT_MB} MiB (its memory is the host's)"),
        |bytes| {
            format!(
                "{} (free memory less the chunk buffers and a reserve)",
                gib(bytes)
            )
        },
    );
    format!(
        "{marker} device {index}: {name} ({kind})\n    driver: {driver}, Vulkan {api}\n    \
         memory heaps: {heaps}; free: {free}\n    defaults: chunk buffers {chunks} \
         ({positions} positions in {chunk_segments} segments of {segment_mb} MiB), table {table}, \
         submissions {submissions} ({display})\n    \
         shaderInt64: {int64}, 64-bit buffer atomics: {atomics}, \
         buffer device address: {address}, memory model: {memory_model}, subgroup size: {subgroup} (arithmetic: {arithmetic}), \
         max storage buffer range: {range} MiB, max memory allocation: {allocation} MiB, \
         max workgroups per dispatch: {workgroups}, \
         slider attacks: {sliders}\n    {status}\n",
        marker = if chosen { "*" } else { " " },
        index = device.index,
        name = device.name,
        kind = device.kind.name(),
        driver = device.driver,
        api = device.api_version,
        heaps = heaps.join(", "),
        free = gib(defaults.free),
        submissions = Submissions::Auto.resolve(device).name(),
        display = if device.headless {
            "a GPU that drives no display"
        } else {
            "a display may be attached, or Vulkan on the CPU"
        },
        chunks = gib(defaults.chunk_bytes),
        positions = defaults.chunk_positions,
        chunk_segments = defaults.chunk_segments,
        segment_mb = defaults.chunk_segment_bytes >> 20,
        allocation = device.max_memory_allocation_size >> 20,
        int64 = yes_no(device.shader_int64),
        atomics = yes_no(device.buffer_int64_atomics),
        address = yes_no(device.buffer_device_address),
        memory_model = yes_no(device.vulkan_memory_model),
        subgroup = device.subgroup_size,
        arithmetic = yes_no(device.subgroup_arithmetic),
        range = device.max_storage_buffer_range >> 20,
        workgroups = device.max_workgroups,
        sliders = SliderAttacks::for_device(device).name(),
    )
}

fn device_json(device: &DeviceInfo) -> serde_json::Value {
    let defaults = memory_defaults(device);
    json!({
        "index": device.index,
        "name": device.name,
        "type": device.kind.name(),
        "driver": device.driver,
        "api_version": device.api_version,
        "heaps": device.heaps.iter().map(|h| json!({"bytes": h.bytes, "device_local": h.device_local, "free": h.free})).collect::<Vec<_>>(),
        "free_memory": defaults.free,
        "default_chunk_bytes": defaults.chunk_bytes,
        "default_chunk_positions": defaults.chunk_positions,
        "default_chunk_segments": defaults.chunk_segments,
        "chunk_segment_bytes": defaults.chunk_segment_bytes,
        "default_table_bytes": defaults.table_bytes,
        "headless": device.headless,
        "default_submissions": Submissions::Auto.resolve(device).name(),
        "shader_int64": device.shader_int64,
        "buffer_int64_atomics": device.buffer_int64_atomics,
        "buffer_device_address": device.buffer_device_address,
        "vulkan_memory_model": device.vulkan_memory_model,
        "subgroup_size": device.subgroup_size,
        "subgroup_arithmetic": device.subgroup_arithmetic,
        "max_storage_buffer_range": device.max_storage_buffer_range,
        "max_memory_allocation_size": device.max_memory_allocation_size,
        "max_workgroups": device.max_workgroups,
        "slider_attacks": SliderAttacks::for_device(device).name(),
        "usable": device.usable(),
        "missing": device.missing,
        "tt": device.supports_tt(),
        "tt_missing": device.tt_missing,
    })
}

//! The command line's Vulkan parts: `devices`, `--backend vulkan|auto`, `--device`,
//! `--gpu-mem-mb`, and their errors. Needs a Vulkan device (lavapipe in CI).

mod common;

use common::{run_vkperft, Run};
use serde_json::Value;

fn vkperft(args: &[&str]) -> Run {
    run_vkperft(args, &[])
}

fn json(args: &[&str]) -> (Value, Run) {
    let run = vkperft(args);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    let value = serde_json::from_str(&run.stdout).expect("one JSON object");
    (value, run)
}

#[test]
fn devices_lists_a_usable_device_and_the_choice() {
    let run = vkperft(&["devices"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for field in [
        "device 0:",
        "driver:",
        "memory heaps:",
        "shaderInt64:",
        "64-bit buffer atomics:",
        "subgroup size:",
        "max storage buffer range:",
        "vkperft would run on device",
    ] {
        assert!(
            run.stdout.contains(field),
            "missing {field}:\n{}",
            run.stdout
        );
    }
    let (value, _) = json(&["devices", "--json"]);
    let devices = value["devices"].as_array().expect("devices array");
    assert!(!devices.is_empty());
    let chosen = value["chosen"].as_u64().expect("a device is chosen") as usize;
    assert_eq!(devices[chosen]["usable"], true);
    for key in [
        "index",
        "name",
        "type",
        "driver",
        "heaps",
        "shader_int64",
        "buffer_int64_atomics",
        "subgroup_size",
        "max_storage_buffer_range",
        "missing",
    ] {
        assert!(devices[0].get(key).is_some(), "missing {key}");
    }
}

#[test]
fn vulkan_perft_has_the_cpu_output_shapes() {
    let args = [
        "perft",
        "--backend",
        "vulkan",
        "--tt",
        "off",
        "--depth",
        "4",
    ];
    let (value, _) = json(&[&args[..], &["--json", "--divide"]].concat());
    assert_eq!(value["backend"], "vulkan");
    assert_eq!(value["nodes"], "197281");
    assert!(value["device"].as_str().is_some_and(|d| !d.is_empty()));
    assert_eq!(value["divide"].as_array().map(Vec::len), Some(20));
    let run = vkperft(&[&args[..], &["--divide"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.ends_with("\nNodes searched: 197281\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("e2e4: 13160\n"), "{}", run.stdout);
}

#[test]
fn auto_says_which_backend_it_chose() {
    let (value, run) = json(&["perft", "--depth", "3", "--tt", "off", "--json"]);
    assert_eq!(value["backend"], "vulkan");
    assert!(run.stderr.contains("auto: using Vulkan"), "{}", run.stderr);
    let (value, run) = json(&["perft", "--depth", "3", "--tt", "fast", "--json"]);
    assert_eq!(value["backend"], "vulkan");
    assert!(run.stderr.contains("auto: using Vulkan"), "{}", run.stderr);
    assert_eq!(value["nodes"], "8902");
    assert_eq!(value["tt"]["mode"], "fast");
}

#[test]
fn a_tiny_gpu_budget_gives_the_same_count() {
    let (value, _) = json(&[
        "perft",
        "--backend",
        "vulkan",
        "--tt",
        "off",
        "--gpu-mem-mb",
        "1",
        "--depth",
        "5",
        "--fen",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "--json",
    ]);
    assert_eq!(value["nodes"], "193690690");
}

#[test]
fn vulkan_input_errors_exit_2() {
    for args in [
        // More table than the device has memory.
        &[
            "perft",
            "--backend",
            "vulkan",
            "--tt",
            "fast",
            "--tt-mb",
            "100000000",
            "--depth",
            "3",
        ][..],
        &[
            "perft",
            "--backend",
            "vulkan",
            "--tt",
            "off",
            "--device",
            "999",
            "--depth",
            "3",
        ],
        &[
            "perft",
            "--backend",
            "vulkan",
            "--tt",
            "off",
            "--gpu-mem-mb",
            "0",
            "--depth",
            "3",
        ],
    ] {
        let run = vkperft(args);
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
        assert!(
            run.stderr.starts_with("error: "),
            "{args:?}: {}",
            run.stderr
        );
    }
}

#[test]
fn bench_runs_on_vulkan() {
    let (value, _) = json(&[
        "bench",
        "--backend",
        "vulkan",
        "--tt",
        "off",
        "--quick",
        "--json",
    ]);
    assert_eq!(value["backend"], "vulkan");
    assert_eq!(value["positions"].as_array().map(Vec::len), Some(6));
}

#[test]
fn no_validation_layer_messages() {
    let run = run_vkperft(
        &[
            "perft",
            "--backend",
            "vulkan",
            "--tt",
            "off",
            "--gpu-mem-mb",
            "1",
            "--depth",
            "5",
            "--json",
        ],
        &[("VKPERFT_VALIDATION", "1")],
    );
    let text = format!("{}{}", run.stdout, run.stderr);
    assert_eq!(run.code, 0, "{text}");
    assert!(!text.contains("Validation Error"), "{text}");
    assert!(!text.contains("VUID-"), "{text}");
    assert!(text.contains("\"nodes\":\"4865609\""), "{text}");
}

#[test]
fn no_validation_layer_messages_with_a_gpu_table() {
    for mode in ["fast", "verified", "certify"] {
        let run = run_vkperft(
            &[
                "perft",
                "--backend",
                "vulkan",
                "--tt",
                mode,
                "--tt-mb",
                "4",
                "--depth",
                "5",
                "--json",
            ],
            &[("VKPERFT_VALIDATION", "1")],
        );
        let text = format!("{}{}", run.stdout, run.stderr);
        assert_eq!(run.code, 0, "{mode}: {text}");
        assert!(!text.contains("Validation Error"), "{mode}: {text}");
        assert!(!text.contains("VUID-"), "{mode}: {text}");
        assert!(text.contains("\"nodes\":\"4865609\""), "{mode}: {text}");
    }
}

#[test]
fn without_a_vulkan_driver_auto_falls_back_and_vulkan_fails_clearly() {
    let no_driver = [
        ("VK_ICD_FILENAMES", "/nonexistent/icd.json"),
        ("VK_DRIVER_FILES", "/nonexistent/icd.json"),
    ];
    let run_without_driver = |args: &[&str]| run_vkperft(args, &no_driver);
    let auto = run_without_driver(&["perft", "--tt", "off", "--depth", "3", "--json"]);
    assert_eq!(auto.code, 0, "{}", auto.stderr);
    assert!(
        auto.stderr.contains("auto: no usable Vulkan device"),
        "{}",
        auto.stderr
    );
    assert!(
        auto.stdout.contains("\"backend\":\"cpu\""),
        "{}",
        auto.stdout
    );
    assert!(
        auto.stdout.contains("\"nodes\":\"8902\""),
        "{}",
        auto.stdout
    );

    let vulkan = run_without_driver(&[
        "perft",
        "--backend",
        "vulkan",
        "--tt",
        "off",
        "--depth",
        "3",
    ]);
    assert_eq!(vulkan.code, 1, "{}{}", vulkan.stdout, vulkan.stderr);
    assert!(vulkan.stdout.is_empty(), "{}", vulkan.stdout);
    assert!(
        vulkan.stderr.starts_with("error: no Vulkan driver found"),
        "{}",
        vulkan.stderr
    );
    assert!(!vulkan.stderr.contains("panicked"), "{}", vulkan.stderr);

    let devices = run_without_driver(&["devices"]);
    assert!(!devices.stderr.contains("panicked"), "{}", devices.stderr);
}

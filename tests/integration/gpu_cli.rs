//! The command line's Vulkan parts: `devices`, `--backend vulkan|auto`, `--device`,
//! `--gpu-mem-mb`, and their errors. Needs a Vulkan device (lavapipe in CI).

use crate::common::{run_vkperft, Run};
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
        "slider attacks:",
        "--backend vulkan runs on device",
        "--backend auto (the default) runs on",
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
    // auto takes a GPU, never Vulkan on the CPU.
    match value["auto"].as_u64() {
        Some(auto) => {
            let kind = &devices[auto as usize]["type"];
            assert!(["discrete", "integrated", "virtual"].contains(&kind.as_str().unwrap_or("")));
            assert_eq!(devices[auto as usize]["usable"], true);
        }
        None => assert!(value["auto"].is_null()),
    }
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
        "max_memory_allocation_size",
        "default_chunk_segments",
        "chunk_segment_bytes",
        "missing",
        "slider_attacks",
    ] {
        assert!(devices[0].get(key).is_some(), "missing {key}");
    }
    // Fills on a CPU implementation of Vulkan, lookups on a GPU.
    for device in devices {
        let expected = if device["type"] == "cpu" {
            "fills"
        } else {
            "lookups"
        };
        assert_eq!(device["slider_attacks"], expected, "{device}");
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

/// `auto` takes the GPU `vkperft devices` names for it; with none (lavapipe is Vulkan on the
/// CPU, not a GPU) it takes the CPU backend without opening a device, and says so once. Jobs of
/// depth 5 or less run on the CPU whatever the devices.
#[test]
fn auto_takes_a_gpu_or_the_cpu_and_says_which_once() {
    let (devices, _) = json(&["devices", "--json"]);
    let expected_backend = if devices["auto"].is_null() {
        "cpu"
    } else {
        "vulkan"
    };
    for mode in ["off", "fast"] {
        let (value, run) = json(&["perft", "--depth", "6", "--tt", mode, "--json"]);
        assert_eq!(value["backend"], expected_backend, "{}", run.stderr);
        assert_eq!(value["nodes"], "119060324");
        let note = match expected_backend {
            "cpu" => "auto: using the CPU: ",
            _ => "auto: using Vulkan on ",
        };
        assert!(run.stderr.starts_with(note), "{}", run.stderr);
        assert_eq!(run.stderr.matches("auto:").count(), 1, "{}", run.stderr);
    }
    // Twelve jobs (six positions, with and without a table), all shallow: one note.
    let bench = vkperft(&["bench", "--quick", "--json"]);
    assert_eq!(bench.code, 0, "{}", bench.stderr);
    assert_eq!(bench.stderr.matches("auto:").count(), 1, "{}", bench.stderr);
    assert!(
        bench
            .stderr
            .contains("depth 5 or less is counted before a device"),
        "{}",
        bench.stderr
    );
    // Vulkan on the CPU still runs when asked for.
    let (value, _) = json(&[
        "perft",
        "--depth",
        "3",
        "--tt",
        "off",
        "--backend",
        "vulkan",
        "--json",
    ]);
    assert_eq!(value["backend"], "vulkan");
    assert_eq!(value["nodes"], "8902");
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

/// A Vulkan perft of `fen` (the start position if empty) with `variable=value` in the
/// environment gives `nodes` with the table in `mode`.
fn perft_with_override(
    variable: &str,
    value: &str,
    mode: &str,
    fen: &str,
    depth: &str,
    nodes: &str,
) {
    let mut args = vec![
        "perft",
        "--backend",
        "vulkan",
        "--tt",
        mode,
        "--depth",
        depth,
        "--json",
    ];
    if !fen.is_empty() {
        args.extend(["--fen", fen]);
    }
    let run = run_vkperft(&args, &[(variable, value)]);
    assert_eq!(run.code, 0, "{variable}={value} {mode}: {}", run.stderr);
    assert!(
        run.stdout.contains(&format!("\"nodes\":\"{nodes}\"")),
        "{variable}={value} {mode}: {}",
        run.stdout
    );
}

/// `variable=value` is refused as bad input, naming the variable.
fn override_is_refused(variable: &str, value: &str) {
    let run = run_vkperft(
        &["perft", "--backend", "vulkan", "--depth", "2"],
        &[(variable, value)],
    );
    assert_eq!(run.code, 2, "{variable}={value}: {}", run.stderr);
    assert!(run.stderr.contains(variable), "{}", run.stderr);
}

/// `VKPERFT_MAX_WORKGROUPS` lowers the workgroups per dispatch: counts stay exact in every
/// mode; a value that is not a positive number is refused.
#[test]
fn the_workgroup_override_keeps_counts_exact() {
    for mode in ["off", "fast", "verified", "certify"] {
        perft_with_override("VKPERFT_MAX_WORKGROUPS", "7", mode, "", "4", "197281");
    }
    for bad in ["0", "many"] {
        override_is_refused("VKPERFT_MAX_WORKGROUPS", bad);
    }
}

/// `VKPERFT_SLIDERS` forces how slider attacks are found: both give exact counts with and
/// without a table; anything else is refused.
#[test]
fn the_slider_override_keeps_counts_exact() {
    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for sliders in ["fills", "lookups"] {
        for mode in ["off", "fast"] {
            perft_with_override("VKPERFT_SLIDERS", sliders, mode, KIWIPETE, "3", "97862");
        }
    }
    override_is_refused("VKPERFT_SLIDERS", "magic");
}

/// `VKPERFT_CHUNK_SEGMENT_BYTES` and `VKPERFT_CHUNK_FIRST_POSITION` move the chunk arrays into
/// tiny segments and past 4 GiB of byte offsets: counts stay exact in every mode and the
/// result says how many segments the arrays take; bad values are refused (exit 2) with what
/// is expected.
#[test]
fn the_chunk_segment_overrides_keep_counts_exact() {
    const SEGMENTS: &str = "VKPERFT_CHUNK_SEGMENT_BYTES";
    const FIRST: &str = "VKPERFT_CHUNK_FIRST_POSITION";
    for mode in ["off", "fast", "verified", "certify"] {
        perft_with_override(SEGMENTS, "256", mode, "", "4", "197281");
    }
    for mode in ["off", "certify"] {
        perft_with_override(FIRST, "1342176824", mode, "", "4", "197281");
    }
    let run = run_vkperft(
        &["perft", "--backend", "vulkan", "--depth", "3", "--json"],
        &[(SEGMENTS, "4096")],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: Value = serde_json::from_str(&run.stdout).expect("one JSON object");
    let segments = value["work"]["chunk_segments"].as_u64().expect("segments");
    assert!(segments > 6, "{}", run.stdout);
    let text = run_vkperft(
        &["perft", "--backend", "vulkan", "--depth", "2"],
        &[(SEGMENTS, "4096")],
    );
    assert!(text.stdout.contains(" segments), "), "{}", text.stdout);
    for (variable, bad, expected) in [
        (SEGMENTS, "300", "a power of two from 256 to 2147483648"),
        (SEGMENTS, "128", "a power of two from 256 to 2147483648"),
        (SEGMENTS, "big", "a power of two from 256 to 2147483648"),
        (FIRST, "-5", "a whole number below 2147483647"),
        (FIRST, "2147483647", "a whole number below 2147483647"),
        // Room for no chunk below index 2^31 - 1.
        (FIRST, "2147483000", "leaves room for a chunk"),
    ] {
        let run = run_vkperft(
            &["perft", "--backend", "vulkan", "--depth", "2"],
            &[(variable, bad)],
        );
        assert_eq!(run.code, 2, "{variable}={bad}: {}", run.stderr);
        assert!(
            run.stderr.contains(&format!("{variable}={bad}")) && run.stderr.contains(expected),
            "{variable}={bad}: {}",
            run.stderr
        );
    }
}

/// RADV's null device (`RADV_FORCE_FAMILY`: an AMD GPU without hardware, from Debian's
/// mesa-vulkan-drivers) has no device-local memory: listed as unusable with the reason, and
/// neither `auto` nor `--backend vulkan` picks it.
#[test]
fn a_device_without_memory_is_listed_as_unusable() {
    let run = run_vkperft(&["devices", "--json"], &[("RADV_FORCE_FAMILY", "navi21")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: Value = serde_json::from_str(&run.stdout).expect("one JSON object");
    let devices = value["devices"].as_array().expect("devices");
    let null = devices
        .iter()
        .find(|d| {
            d["name"]
                .as_str()
                .is_some_and(|n| n.contains("Null hardware"))
        })
        .unwrap_or_else(|| panic!("RADV's null device is listed: {}", run.stdout));
    assert_eq!(null["usable"], false);
    assert!(
        null["missing"]
            .to_string()
            .contains("device-local memory heap"),
        "{null}"
    );
    assert_ne!(value["auto"], null["index"]);
    assert_ne!(value["chosen"], null["index"]);
    let perft = run_vkperft(
        &["perft", "--depth", "3", "--tt", "off", "--json"],
        &[("RADV_FORCE_FAMILY", "navi21")],
    );
    assert_eq!(perft.code, 0, "{}", perft.stderr);
    assert!(
        perft.stdout.contains("\"nodes\":\"8902\""),
        "{}",
        perft.stdout
    );
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
fn bench_runs_every_tt_mode_on_vulkan() {
    let (value, run) = json(&[
        "bench",
        "--backend",
        "vulkan",
        "--modes",
        "fast,verified,certify",
        "--quick",
        "--json",
    ]);
    assert_eq!(value["backend"], "vulkan");
    let positions = value["positions"].as_array().expect("positions");
    for position in positions {
        for mode in ["off", "fast", "verified", "certify"] {
            assert!(position[mode]["nps"].is_number(), "{mode}: {}", run.stdout);
        }
    }
}

/// Every key of a JSON object, and of the objects and first array elements below it, as paths.
fn key_paths(value: &Value, prefix: &str, paths: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let path = format!("{prefix}/{key}");
                key_paths(child, &path, paths);
                paths.push(path);
            }
        }
        Value::Array(items) => {
            if let Some(first) = items.first() {
                key_paths(first, &format!("{prefix}[]"), paths);
            }
        }
        _ => {}
    }
}

/// The GPU's `tt` report has exactly the CPU's keys, and a 12-bit certify run on the GPU is
/// exact while it counts false hits.
#[test]
fn gpu_table_report_has_the_cpu_keys() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let run_on = |backend: &str| {
        json(&[
            "perft",
            "--fen",
            kiwipete,
            "--depth",
            "5",
            "--backend",
            backend,
            "--tt",
            "certify",
            "--verifier-bits",
            "12",
            "--tt-mb",
            "1",
            "--json",
        ])
        .0
    };
    let (gpu, cpu) = (run_on("vulkan"), run_on("cpu"));
    let paths = |value: &Value| {
        let mut paths = Vec::new();
        key_paths(&value["tt"], "tt", &mut paths);
        paths.sort();
        paths
    };
    assert!(!paths(&cpu).is_empty());
    assert_eq!(paths(&gpu), paths(&cpu));
    assert_eq!(gpu["backend"], "vulkan");
    assert_eq!(gpu["nodes"], "193690690");
    assert_eq!(gpu["tt"]["mode"], "certify");
    let hits = gpu["tt"]["hits"].as_u64().expect("hits");
    let misses = gpu["tt"]["misses"].as_u64().expect("misses");
    assert_eq!(gpu["tt"]["probes"].as_u64(), Some(hits + misses));
    assert!(gpu["tt"]["false_hits"].as_u64() > Some(0), "{gpu}");
}

/// `--tt-split` reaches the GPU's fast table: `shared` keeps no compact slots, the default
/// gives depth 2 its own at 48 verifier bits, and the text names both widths in its risk line.
#[test]
fn the_table_split_is_chosen_and_reported() {
    let run = |split: &str, json_output: bool| {
        let mut args = vec![
            "perft",
            "--depth",
            "5",
            "--backend",
            "vulkan",
            "--tt",
            "fast",
            "--tt-mb",
            "4",
        ];
        if !split.is_empty() {
            args.extend(["--tt-split", split]);
        }
        if json_output {
            args.push("--json");
        }
        let run = vkperft(&args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        run
    };
    let tt = |split: &str| {
        let value: Value = serde_json::from_str(&run(split, true).stdout).expect("JSON");
        assert_eq!(value["nodes"], "4865609", "{split}");
        value["tt"].clone()
    };
    let depth_two_bits = |tt: &Value| {
        tt["per_depth"]
            .as_array()
            .and_then(|depths| depths.iter().find(|d| d["depth"] == 2))
            .map(|d| d["verifier_bits"].clone())
    };
    let shared = tt("shared");
    assert_eq!(shared["compact_slots"], 0, "{shared}");
    assert_eq!(depth_two_bits(&shared), Some(Value::from(64)));
    for split in ["", "distinct", "fixed"] {
        let split_tt = tt(split);
        assert!(
            split_tt["compact_slots"].as_u64() > Some(0),
            "{split}: {split_tt}"
        );
        assert_eq!(depth_two_bits(&split_tt), Some(Value::from(48)), "{split}");
    }
    let text = run("", false).stdout;
    assert!(
        text.contains("compact slots hold depth 2 alone, verifier 48 bits"),
        "{text}"
    );
    assert!(
        text.contains("risk at 48 (depth 2) and 64 bits: "),
        "{text}"
    );
    let refused = vkperft(&["perft", "--depth", "1", "--tt-split", "half"]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
}

#[test]
fn cross_check_on_vulkan_agrees() {
    let (value, run) = json(&[
        "perft",
        "--backend",
        "vulkan",
        "--depth",
        "5",
        "--tt",
        "fast",
        "--cross-check",
        "--json",
    ]);
    assert_eq!(value["backend"], "vulkan");
    assert_eq!(value["cross_check"]["agrees"], true, "{}", run.stdout);
    assert_eq!(value["cross_check"]["nodes"], "4865609");
}

/// No validation-layer message (synchronization validation included) without a table (on a 1 MiB budget that forces many chunks) or
/// with one in each mode.
#[test]
fn no_validation_layer_messages() {
    for (mode, memory_flag, mb) in [
        ("off", "--gpu-mem-mb", "1"),
        ("fast", "--tt-mb", "4"),
        ("verified", "--tt-mb", "4"),
        ("certify", "--tt-mb", "4"),
    ] {
        let run = run_vkperft(
            &[
                "perft",
                "--backend",
                "vulkan",
                "--tt",
                mode,
                memory_flag,
                mb,
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
        assert!(!text.contains("SYNC-"), "{mode}: {text}");
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
    let auto = run_without_driver(&["perft", "--tt", "off", "--depth", "6", "--json"]);
    assert_eq!(auto.code, 0, "{}", auto.stderr);
    assert!(
        auto.stderr
            .contains("auto: using the CPU: no Vulkan device"),
        "{}",
        auto.stderr
    );
    assert!(
        auto.stdout.contains("\"backend\":\"cpu\""),
        "{}",
        auto.stdout
    );
    assert!(
        auto.stdout.contains("\"nodes\":\"119060324\""),
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

/// A plan computed on Vulkan, one GPU table kept across its units, merges to the exact total
/// and divide; the journal names the backend.
#[test]
fn work_units_on_vulkan_merge_exactly() {
    let dir = std::env::temp_dir().join(format!("vkperft-work-vulkan-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let plan = dir.join("plan").to_string_lossy().into_owned();
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let split = vkperft(&[
        "work",
        "split",
        "--fen",
        kiwipete,
        "--depth",
        "4",
        "--split-ply",
        "1",
        "--out",
        &plan,
    ]);
    assert_eq!(split.code, 0, "{}", split.stderr);
    let run = vkperft(&[
        "work",
        "run",
        &plan,
        "--backend",
        "vulkan",
        "--tt",
        "verified",
        "--tt-mb",
        "16",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("48 units computed"),
        "{}",
        run.stdout
    );
    let (merged, _) = json(&["work", "merge", &plan, "--json", "--divide"]);
    assert_eq!(merged["nodes"], "4085603");
    assert_eq!(merged["modes"], serde_json::json!(["verified"]));
    let (perft, _) = json(&[
        "perft",
        "--fen",
        kiwipete,
        "--depth",
        "4",
        "--backend",
        "cpu",
        "--tt",
        "off",
        "--divide",
        "--json",
    ]);
    assert_eq!(merged["divide"], perft["divide"]);
    let journal = std::fs::read_dir(dir.join("plan").join("journal"))
        .expect("a journal")
        .map(|e| std::fs::read_to_string(e.expect("entry").path()).expect("text"))
        .collect::<String>();
    assert_eq!(journal.matches("\"backend\":\"vulkan\"").count(), 48);
    let _ = std::fs::remove_dir_all(&dir);
}

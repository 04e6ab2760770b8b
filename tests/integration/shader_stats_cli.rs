//! `vkperft shader-stats` on RADV's null device (`RADV_FORCE_FAMILY`: AMD's real compiler with
//! no hardware, from Debian's mesa-vulkan-drivers, which CI installs) and on lavapipe, whose
//! driver reports no statistics.

use crate::common::run_vkperft;
use serde_json::Value;

const PIPELINES: [&str; 21] = [
    "expand_fills",
    "expand_lookups",
    "leaf_fills",
    "leaf_lookups",
    "upsweep",
    "expand_stats_fills",
    "expand_stats_lookups",
    "leaf_stats_fills",
    "leaf_stats_lookups",
    "upsweep_stats",
    "expand_tt_fills",
    "expand_tt_lookups",
    "leaf_tt_fills",
    "leaf_tt_lookups",
    "upsweep_tt",
    "expand_stats_tt_fills",
    "expand_stats_tt_lookups",
    "leaf_stats_tt_fills",
    "leaf_stats_tt_lookups",
    "upsweep_stats_tt",
    "dedup_tt",
];

#[test]
fn null_devices_report_registers_of_every_search_pipeline() {
    for family in ["navi21", "vega10"] {
        let env = [("RADV_FORCE_FAMILY", family)];
        let run = run_vkperft(&["shader-stats", "--json"], &env);
        assert_eq!(run.code, 0, "{family}: {}", run.stderr);
        let list: Value = serde_json::from_str(&run.stdout).expect("a JSON list");
        let list = list.as_array().expect("a JSON list");
        let names: Vec<&str> = list
            .iter()
            .map(|executable| executable["pipeline"].as_str().expect("a name"))
            .collect();
        assert_eq!(names, PIPELINES, "{family}");
        for executable in list {
            assert_eq!(executable["subgroup_size"], 64, "{family}: {executable}");
            assert!(executable["executable"].is_string(), "{executable}");
            let stats = &executable["stats"];
            for stat in [
                "VGPRs",
                "SGPRs",
                "Spilled VGPRs",
                "Scratch size",
                "Code size",
            ] {
                assert!(
                    stats[stat].as_u64().is_some(),
                    "{family}: {stat}: {executable}"
                );
            }
            assert!(stats["VGPRs"].as_u64() > Some(0), "{executable}");
            // The stages that generate moves keep their occupancy without spilling: on RDNA2
            // (navi21) at most 96 vector registers, 10 of 16 waves per SIMD, in the lookups
            // variant GPUs run, at most 104, 8 waves, in the fills variant made for CPU
            // devices; on GCN (vega10, registers allocated by fours, 256 per lane) 2 of 10
            // waves per SIMD in both, as the driver reports them. The stages of statistics
            // runs, builds of their own, take more (the leaf) but spill no register of either
            // kind, but for the statistics leaf's fills variant: made for CPU devices, where no
            // register is spilled, it runs on a GPU only when forced (`VKPERFT_SLIDERS`), and
            // may spill a few vector registers there.
            let name = executable["pipeline"].as_str().expect("a name");
            if name.contains("_stats") {
                let forced_only = name.starts_with("leaf_stats") && name.ends_with("fills");
                let spills = if forced_only { 16 } else { 0 };
                assert!(
                    stats["Spilled VGPRs"].as_u64() <= Some(spills),
                    "{family}: {executable}"
                );
                assert_eq!(stats["Spilled SGPRs"], 0, "{family}: {executable}");
                if !forced_only {
                    assert_eq!(stats["Scratch size"], 0, "{family}: {executable}");
                }
            } else if name.starts_with("expand") || name.starts_with("leaf") {
                let fills = name.ends_with("fills");
                let (registers, waves) = match (family, fills) {
                    ("navi21", true) => (104, 8),
                    ("navi21", false) => (96, 10),
                    _ => (128, 2),
                };
                assert!(
                    stats["VGPRs"].as_u64() <= Some(registers),
                    "{family}: {executable}"
                );
                assert!(
                    stats["Subgroups per SIMD"].as_u64() >= Some(waves),
                    "{family}: {executable}"
                );
                assert_eq!(stats["Spilled VGPRs"], 0, "{family}: {executable}");
                assert_eq!(stats["Scratch size"], 0, "{family}: {executable}");
            }
        }
        let text = run_vkperft(&["shader-stats"], &env);
        assert_eq!(text.code, 0, "{}", text.stderr);
        assert!(text.stdout.contains("RADV"), "{}", text.stdout);
        let header = text.stdout.lines().nth(1).expect("a header row");
        for name in PIPELINES {
            assert!(
                header.split_whitespace().any(|cell| cell == name),
                "{header}"
            );
        }
        assert!(
            text.stdout.lines().any(|line| line.starts_with("VGPRs")),
            "{}",
            text.stdout
        );
    }
}

#[test]
fn a_driver_without_statistics_is_named_with_a_clear_error() {
    let devices = run_vkperft(&["devices", "--json"], &[]);
    assert_eq!(devices.code, 0, "{}", devices.stderr);
    let devices: Value = serde_json::from_str(&devices.stdout).expect("JSON");
    let lavapipe = devices["devices"]
        .as_array()
        .expect("a device list")
        .iter()
        .find(|device| {
            device["name"]
                .as_str()
                .is_some_and(|n| n.contains("llvmpipe"))
        })
        .expect("lavapipe is installed (mesa-vulkan-drivers)");
    let index = lavapipe["index"].to_string();
    let run = run_vkperft(&["shader-stats", "--device", &index], &[]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stderr.contains("VK_KHR_pipeline_executable_properties"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("llvmpipe"), "{}", run.stderr);
    let missing = run_vkperft(&["shader-stats", "--device", "99"], &[]);
    assert_eq!(missing.code, 2, "{}", missing.stderr);
    assert!(missing.stderr.contains("99"), "{}", missing.stderr);
}

//! The probe self-test at device open: it passes, catches a miscompiled probe, and a device
//! that fails it runs `--tt off` only.

use super::*;

/// The probe self-test the opening ran passes again, and leaves no table behind: runs after it
/// stay exact.
#[test]
fn the_probe_self_test_passes_and_leaves_no_table() {
    let mut gpu = backend();
    gpu.runner_mut()
        .probe_self_test(SelfTestProbe::Shipped)
        .expect("the shipped probe agrees with the CPU");
    let params = gpu.runner().table_params_in_use().expect("read back");
    assert_eq!(params.mode, 0, "the shaders still see a table: {params:?}");
    let pos = position("kiwipete");
    let expected = cpu_divide(&pos, 4);
    exact_gpu_run(
        &mut gpu,
        &pos,
        4,
        &config(TtMode::Certify, MIB, DEFAULT_VERIFIER_BITS),
        &expected,
    );
}

/// lavapipe 22.3 miscompiles the exact entries probed in a loop (`glsl/common/tt_probe.glsl`): the
/// self-test run with that probe fails, in the two modes with exact entries (the statistics of
/// their probes are lost), naming what differed. (Elsewhere the looped probe may well be right,
/// and nothing is asserted of it.)
#[test]
fn the_probe_self_test_catches_the_looped_exact_probe() {
    let mut gpu = backend();
    let looped = gpu
        .runner_mut()
        .probe_self_test(SelfTestProbe::LoopedExactWays);
    if gpu
        .runner()
        .device_info()
        .driver
        .starts_with("llvmpipe Mesa 22.3")
    {
        let Err(GpuError::TableProbeMismatch { differences, .. }) = &looped else {
            panic!("the looped probe passed: {looped:?}");
        };
        assert!(
            differences.contains("verified probes: device 0"),
            "{differences}"
        );
        assert!(
            differences.contains("certify probes: device 0"),
            "{differences}"
        );
        assert!(!differences.contains("fast "), "{differences}");
    }
    gpu.runner_mut()
        .probe_self_test(SelfTestProbe::Shipped)
        .expect("the shipped probe still agrees with the CPU");
}

/// A device whose probe disagrees at the opening (here: opened checking the looped probe, on
/// lavapipe 22.3) refuses every table mode with what differed, and still counts `--tt off`.
#[test]
fn a_device_whose_probe_disagrees_runs_without_a_table_only() {
    let mut gpu = VulkanBackend::new(&GpuOptions {
        self_test: SelfTestProbe::LoopedExactWays,
        ..GpuOptions::default()
    })
    .expect("the device opens");
    if !gpu
        .runner()
        .device_info()
        .driver
        .starts_with("llvmpipe Mesa 22.3")
    {
        return;
    }
    assert!(!gpu.runner().supports_tt());
    for mode in TABLE_MODES {
        let refused = gpu.prepare_table(
            &config(mode, MIB, DEFAULT_VERIFIER_BITS),
            &Zobrist::default(),
        );
        assert!(
            matches!(refused, Err(GpuError::TableProbeMismatch { .. })),
            "{mode}: {refused:?}"
        );
    }
    let pos = position("kiwipete");
    let off = config(TtMode::Off, MIB, DEFAULT_VERIFIER_BITS);
    let (divide, stats) = gpu_run(
        &mut gpu,
        &pos,
        4,
        &off,
        &Zobrist::default(),
        &common::silent_control(),
    );
    assert!(stats.is_none());
    assert_eq!(nodes_by_move(&divide), nodes_by_move(&cpu_divide(&pos, 4)));
}

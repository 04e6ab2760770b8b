//! Build-time generation of SPIR-V for every compute shader in `glsl/` (a GLSL error fails the
//! build and names the file and line).

// The build script uses only the shader definitions.
#[allow(dead_code)]
#[path = "../chess/src/chess/castling_files.rs"]
mod castling_files;
#[allow(dead_code)]
#[path = "../chess/src/chess/nybble_codes.rs"]
mod nybble_codes;
#[path = "src/gpu/shader_layout.rs"]
mod shader_layout;
#[path = "../table/src/tt/shader_shared.rs"]
mod tt_shader_shared;

use std::path::{Path, PathBuf};

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    compile_shaders(&out);
}

/// The shader compiler: `$GLSLC` if set, else `glslc` from the PATH (Debian and Ubuntu:
/// package `glslc`; elsewhere shaderc's or the Vulkan SDK's).
fn glslc() -> PathBuf {
    println!("cargo:rerun-if-env-changed=GLSLC");
    std::env::var_os("GLSLC").map_or_else(|| PathBuf::from("glslc"), PathBuf::from)
}

/// glslc's optimisation of a stage: `-O`, but none for the leaf of statistics runs, whose
/// nested move loops glslc's optimiser inlines and unrolls for minutes (4-5 min a build here,
/// 2 MB of SPIR-V) where the driver's compiler, which inlines them too, needs no help.
fn optimization(stage: &std::ffi::OsStr) -> &'static str {
    if stage == "leaf_stats" {
        "-O0"
    } else {
        "-O"
    }
}

fn compile_shaders(out: &Path) {
    println!("cargo:rerun-if-changed=glsl");
    println!("cargo:rerun-if-changed=src/gpu/shader_layout.rs");
    println!("cargo:rerun-if-changed=../chess/src/chess/nybble_codes.rs");
    println!("cargo:rerun-if-changed=../chess/src/chess/castling_files.rs");
    println!("cargo:rerun-if-changed=../table/src/tt/shader_shared.rs");
    let glsl = Path::new("glsl");
    let glslc = glslc();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(glsl)
        .expect("glsl/ exists")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "comp"))
        .collect();
    entries.sort();
    let defines: Vec<String> = shader_layout::SHADER_DEFINES
        .iter()
        .chain(tt_shader_shared::SHADER_DEFINES.iter())
        .map(|&(name, value)| (name, value))
        .chain(
            nybble_codes::SHADER_DEFINES
                .iter()
                .chain(castling_files::SHADER_DEFINES.iter())
                .map(|&(name, value)| (name, u32::from(value))),
        )
        .map(|(name, value)| format!("-D{name}={value}u"))
        .collect();
    // Every stage twice: with the GPU transposition table (`<stage>_tt.spv`) for devices with
    // the features it needs, and without (`<stage>.spv`) for the others. All compile at once,
    // one process each.
    let mut compiles = Vec::new();
    for (suffix, gpu_tt) in [("", 0), ("_tt", 1)] {
        for path in &entries {
            let stem = path.file_stem().expect("a .comp file has a stem");
            let target = out.join(format!("{}{suffix}.spv", stem.to_string_lossy()));
            let child = std::process::Command::new(&glslc)
                .arg("--target-env=vulkan1.1")
                .arg(optimization(stem))
                .arg(format!("-DGPU_TT={gpu_tt}"))
                .args(&defines)
                .arg("-I")
                .arg(glsl.join("common"))
                .arg("-o")
                .arg(&target)
                .arg(path)
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap_or_else(|err| {
                    panic!(
                        "cannot run the shader compiler `{}`: {err}; install glslc (Debian and \
                         Ubuntu: `apt install glslc`; elsewhere shaderc or the Vulkan SDK) or \
                         point GLSLC at it",
                        glslc.display()
                    )
                });
            compiles.push((gpu_tt, child));
        }
    }
    let failures: Vec<String> = compiles
        .into_iter()
        .filter_map(|(gpu_tt, child)| {
            let output = child.wait_with_output().expect("glslc ran");
            // glslc's message already reads `file:line: error: ...`.
            (!output.status.success()).then(|| {
                format!(
                    "GPU_TT={gpu_tt}: {}",
                    String::from_utf8_lossy(&output.stderr).trim()
                )
            })
        })
        .collect();
    if !failures.is_empty() {
        panic!(
            "{} shader(s) failed to compile:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
}

//! Rules of the source tree that the compiler does not check by itself: no source file over
//! 800 lines, and `unsafe` allowed in four modules only: `src/gpu/` (Vulkan), the table's
//! prefetch hint (`src/tt/prefetch.rs`) and lazily backed arrays (`src/tt/zeroed_array.rs`),
//! and the specialised generator's slider lookups
//! (entering the BMI2 build after run-time detection, and the unchecked attack-set load). The
//! package denies `unsafe_code`; this checks that those exemptions stay the only ones.

use std::path::{Path, PathBuf};

const MAX_LINES: usize = 800;

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a readable entry").path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
}

fn sources() -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() > 50, "{} files", files.len());
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable source");
            (path, text)
        })
        .collect()
}

#[test]
fn no_source_file_is_over_800_lines() {
    let long: Vec<String> = sources()
        .iter()
        .filter(|(_, text)| text.lines().count() > MAX_LINES)
        .map(|(path, text)| format!("{} ({} lines)", path.display(), text.lines().count()))
        .collect();
    assert!(long.is_empty(), "{long:?}");
}

#[test]
fn unsafe_code_is_allowed_for_four_modules_only() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
            .expect("Cargo.toml");
    assert!(manifest.contains("unsafe_code = \"deny\""));
    let exemptions: Vec<String> = sources()
        .iter()
        .flat_map(|(path, text)| {
            text.lines()
                .enumerate()
                .filter(|(_, line)| line.contains("allow(unsafe_code)"))
                .map(move |(number, line)| format!("{}:{}: {line}", path.display(), number + 1))
        })
        .collect();
    assert_eq!(exemptions.len(), 4, "{exemptions:?}");
    let read = |path: &str| {
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).expect(path)
    };
    assert!(read("src/lib.rs").contains("#[allow(unsafe_code)]\npub mod gpu;"));
    assert!(read("src/tt/mod.rs").contains("#[allow(unsafe_code)]\nmod prefetch;"));
    assert!(read("src/tt/mod.rs").contains("#[allow(unsafe_code)]\nmod zeroed_array;"));
    assert!(read("src/chess/specialized/mod.rs").contains("#[allow(unsafe_code)]\nmod sliders;"));
    // The prefetch module is one small function.
    let prefetch = read("src/tt/prefetch.rs");
    assert_eq!(prefetch.matches("unsafe {").count(), 1);
    assert!(prefetch.lines().count() < 40);
    // The array module: allocation, deallocation, the slice view and its Send and Sync.
    let zeroed_array = read("src/tt/zeroed_array.rs");
    assert_eq!(zeroed_array.matches("unsafe {").count(), 4);
    assert_eq!(zeroed_array.matches("unsafe impl").count(), 2);
    assert!(zeroed_array.lines().count() < 140);
    // The slider module: the BMI2 entry, its PEXT instruction and the attack-set load.
    let sliders = read("src/chess/specialized/sliders.rs");
    assert_eq!(sliders.matches("unsafe {").count(), 3);
}

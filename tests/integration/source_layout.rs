//! Rules of the source tree that the compiler does not check by itself: no source file over
//! 800 lines, no source files importing each other in a circle, the layers inside each crate,
//! and `unsafe` allowed in four modules only: `gpu/vk/` (the Vulkan calls, in `crates/gpu`),
//! the table's prefetch hint (`tt/prefetch.rs`) and lazily backed arrays
//! (`tt/zeroed_array.rs`, both in `crates/table`), and the specialised generator's slider
//! lookups (`chess/specialized/sliders.rs` in `crates/chess`: entering the BMI2 build after
//! run-time detection, and the unchecked attack-set load). The workspace denies
//! `unsafe_code`; this checks that those exemptions stay the only ones.
//!
//! A source file is named by its path under its crate's `src/` (`gpu/vk/mod.rs`): the
//! crates' top modules have different names, so that path says which crate it is in.

use std::collections::{BTreeMap, BTreeSet};
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

/// The workspace's folder.
fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The member crates' folders (`crates/<name>`), each with its own `src/`.
fn member_crates() -> Vec<PathBuf> {
    let mut crates: Vec<PathBuf> = std::fs::read_dir(workspace().join("crates"))
        .expect("crates/")
        .map(|entry| entry.expect("a readable entry").path())
        .filter(|path| path.join("Cargo.toml").is_file())
        .collect();
    crates.sort();
    crates
}

/// Every crate's `src/`: the application's and the member crates'.
fn source_roots() -> Vec<PathBuf> {
    std::iter::once(workspace().join("src"))
        .chain(member_crates().iter().map(|krate| krate.join("src")))
        .collect()
}

/// A source file's path under its crate's `src/`, with `/` between folders.
fn module_file(path: &Path) -> String {
    let root = source_roots()
        .into_iter()
        .find(|root| path.starts_with(root))
        .unwrap_or_else(|| panic!("{} is in no crate's src/", path.display()));
    path.strip_prefix(root)
        .expect("a file under its root")
        .to_string_lossy()
        .replace('\\', "/")
}

/// A file of a member crate's root (`lib.rs`): it declares its modules and names the lower
/// crates' (`use vkperft_chess::chess;`), imports nothing of its own.
fn is_member_root(path: &Path) -> bool {
    module_file(path) == "lib.rs" && !path.starts_with(workspace().join("src"))
}

fn sources() -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    for root in source_roots() {
        rust_files(&root, &mut files);
    }
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
    let manifest = std::fs::read_to_string(workspace().join("Cargo.toml")).expect("Cargo.toml");
    assert!(manifest.contains("[workspace.lints.rust]\nunsafe_code = \"deny\""));
    assert!(manifest.contains("[lints]\nworkspace = true"));
    // Every crate takes the workspace's lints; those with no exemption forbid unsafe code
    // outright.
    for krate in member_crates() {
        let manifest = std::fs::read_to_string(krate.join("Cargo.toml")).expect("Cargo.toml");
        assert!(
            manifest.contains("[lints]\nworkspace = true"),
            "{}",
            krate.display()
        );
        let name = krate.file_name().expect("a name").to_string_lossy();
        let lib = std::fs::read_to_string(krate.join("src/lib.rs")).expect("lib.rs");
        let exempt = ["chess", "table", "gpu"].contains(&name.as_ref());
        assert_eq!(
            !lib.contains("#![forbid(unsafe_code)]"),
            exempt,
            "{}",
            krate.display()
        );
    }
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
    let read = |path: &str| std::fs::read_to_string(workspace().join(path)).expect(path);
    assert!(read("src/lib.rs").contains("#![forbid(unsafe_code)]"));
    assert!(read("crates/gpu/src/gpu/mod.rs").contains("#[allow(unsafe_code)]\npub mod vk;"));
    assert!(read("crates/table/src/tt/mod.rs").contains("#[allow(unsafe_code)]\nmod prefetch;"));
    assert!(read("crates/table/src/tt/mod.rs").contains("#[allow(unsafe_code)]\nmod zeroed_array;"));
    assert!(read("crates/chess/src/chess/specialized/mod.rs")
        .contains("#[allow(unsafe_code)]\nmod sliders;"));
    // The prefetch module is one small function.
    let prefetch = read("crates/table/src/tt/prefetch.rs");
    assert_eq!(prefetch.matches("unsafe {").count(), 1);
    assert!(prefetch.lines().count() < 40);
    // The array module: allocation, the huge-page advice, deallocation, the slice view and its
    // Send and Sync.
    let zeroed_array = read("crates/table/src/tt/zeroed_array.rs");
    assert_eq!(zeroed_array.matches("unsafe {").count(), 5);
    assert_eq!(zeroed_array.matches("unsafe impl").count(), 2);
    assert!(zeroed_array.lines().count() < 180);
    // The slider module: the six BMI2 entries (perft, leaf count, perft with statistics, the
    // last ply with statistics, any legal move, work out of line), its PEXT instruction and the
    // attack-set load.
    let sliders = read("crates/chess/src/chess/specialized/sliders.rs");
    assert_eq!(sliders.matches("unsafe {").count(), 8);
}

/// The files whose modules may hold unsafe code, as paths under their crate's `src/` (a
/// folder's path ends with `/`).
const UNSAFE_MODULES: [&str; 4] = [
    "gpu/vk/",
    "tt/prefetch.rs",
    "tt/zeroed_array.rs",
    "chess/specialized/sliders.rs",
];

/// Whether `line`, without its comment, has the keyword `unsafe`.
fn has_unsafe_keyword(line: &str) -> bool {
    let code = line.split("//").next().unwrap_or_default();
    code.match_indices("unsafe").any(|(at, word)| {
        let identifier = |c: char| c.is_alphanumeric() || c == '_';
        let before = code[..at].chars().next_back();
        let after = code[at + word.len()..].chars().next();
        !before.is_some_and(identifier) && !after.is_some_and(identifier)
    })
}

#[test]
fn unsafe_appears_only_in_the_allowed_modules() {
    assert!(has_unsafe_keyword("    let x = unsafe { f() };"));
    assert!(has_unsafe_keyword("unsafe impl Send for A {}"));
    assert!(!has_unsafe_keyword("// SAFETY: nothing unsafe here"));
    assert!(!has_unsafe_keyword("#[allow(unsafe_code)]"));
    assert!(!has_unsafe_keyword("let unsafe_count = 1; // unsafe"));
    let mut allowed_used = BTreeSet::new();
    let mut outside = Vec::new();
    for (path, text) in sources() {
        let file = module_file(&path);
        let module = UNSAFE_MODULES.iter().find(|module| {
            if module.ends_with('/') {
                file.starts_with(*module)
            } else {
                file == **module
            }
        });
        for (number, line) in text.lines().enumerate() {
            if !has_unsafe_keyword(line) {
                continue;
            }
            match module {
                Some(module) => {
                    allowed_used.insert(*module);
                }
                None => outside.push(format!("{}:{}: {line}", path.display(), number + 1)),
            }
        }
    }
    assert!(
        outside.is_empty(),
        "unsafe outside its modules:\n{}",
        outside.join("\n")
    );
    // Each exemption is still needed.
    assert_eq!(allowed_used.len(), UNSAFE_MODULES.len(), "{allowed_used:?}");
    // The exemptions sit on those modules' declarations and nowhere else.
    let declarations: BTreeSet<String> = sources()
        .iter()
        .flat_map(|(path, text)| {
            let file = PathBuf::from(module_file(path));
            let lines: Vec<&str> = text.lines().collect();
            lines
                .iter()
                .enumerate()
                .filter(|(_, line)| line.contains("allow(unsafe_code)"))
                .map(|(number, line)| {
                    assert_eq!(line.trim(), "#[allow(unsafe_code)]", "{}", file.display());
                    let declared = lines
                        .get(number + 1)
                        .map(|next| without_visibility(next.trim()));
                    let module = declared
                        .and_then(|item| item.strip_prefix("mod ")?.strip_suffix(';'))
                        .unwrap_or_else(|| panic!("{}: no module after the allow", file.display()));
                    let folder = file
                        .parent()
                        .expect("a folder")
                        .to_string_lossy()
                        .replace('\\', "/");
                    format!("{folder}/{module}")
                        .trim_start_matches('/')
                        .to_string()
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let expected: BTreeSet<String> = UNSAFE_MODULES
        .iter()
        .map(|module| {
            module
                .trim_end_matches('/')
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect();
    assert_eq!(declarations, expected);
}

/// An item's text with its visibility (`pub`, `pub(crate)`, ...) taken off.
fn without_visibility(item: &str) -> &str {
    item.strip_prefix("pub ")
        .or_else(|| {
            item.strip_prefix("pub(")?
                .split_once(") ")
                .map(|(_, rest)| rest)
        })
        .unwrap_or(item)
}

/// The module a source file defines, as its path from its crate's root: the binary's
/// (`src/main.rs` and `src/cli/`) or the library's (every other file).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Module {
    binary: bool,
    path: Vec<String>,
}

impl Module {
    fn of(file: &str) -> Module {
        let stem = file.strip_suffix(".rs").unwrap_or(file);
        let mut path: Vec<String> = stem.split('/').map(String::from).collect();
        if path.last().is_some_and(|last| last == "mod") {
            path.pop();
        }
        let binary = path[0] == "main" || path[0] == "cli";
        if path == ["lib"] || path == ["main"] {
            path.clear();
        }
        Module { binary, path }
    }
}

/// The paths of a `use` tree, braces expanded: `a::{b, c::{d, self}}` gives `a::b`, `a::c::d`
/// and `a::c`; a glob or a rename names the path before it.
fn use_paths(tree: &str, prefix: &[String], paths: &mut Vec<Vec<String>>) {
    let segments = |text: &str| -> Vec<String> {
        text.split("::")
            .map(str::trim)
            .filter(|segment| !segment.is_empty() && *segment != "*")
            .map(String::from)
            .collect()
    };
    let tree = tree.trim();
    let mut path = prefix.to_vec();
    let Some(open) = tree.find('{') else {
        let named = segments(tree.split(" as ").next().unwrap_or(tree));
        if named != ["self"] || prefix.is_empty() {
            path.extend(named);
        }
        paths.push(path);
        return;
    };
    path.extend(segments(&tree[..open]));
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut depth, mut start) = (0, 0);
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                use_paths(&inner[start..at], &path, paths);
                start = at + 1;
            }
            _ => {}
        }
    }
    if !inner[start..].trim().is_empty() {
        use_paths(&inner[start..], &path, paths);
    }
}

/// The paths a piece of code names that may lead to another source file: the trees of its
/// `use` items (each starting a line, as rustfmt writes them), and paths written inline that
/// start with `crate`, `self`, `super` or one of `children` (strings included, `$crate` in
/// macros not).
fn named_paths(code: &str, children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut rest = String::new();
    let mut lines = code.lines();
    while let Some(line) = lines.next() {
        let Some(tree) = without_visibility(line.trim_start()).strip_prefix("use ") else {
            rest.push_str(line);
            rest.push('\n');
            continue;
        };
        let mut statement = tree.to_string();
        while !statement.contains(';') {
            let Some(next) = lines.next() else { break };
            statement.push_str(next);
        }
        use_paths(
            statement.split(';').next().unwrap_or_default(),
            &[],
            &mut paths,
        );
    }
    let in_path = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':';
    let mut previous = ' ';
    for run in rest.split_inclusive(|c: char| !in_path(c)) {
        let path_text = run.trim_end_matches(|c: char| !in_path(c));
        let path: Vec<String> = path_text
            .split("::")
            .filter(|segment| !segment.is_empty())
            .map(String::from)
            .collect();
        let rooted = path.first().is_some_and(|first| {
            ["crate", "self", "super"].contains(&first.as_str()) || children.contains(first)
        });
        if previous != '$' && rooted && path.len() > 1 && path_text.contains("::") {
            paths.push(path);
        }
        previous = run.chars().last().unwrap_or(' ');
    }
    paths
}

/// A file's code outside its inline modules (`None`) and inside each (`mod tests { ... }`,
/// opened at the start of a line and closed by the next line that is only `}`, as rustfmt
/// leaves a module at the top level).
fn inline_modules(code: &str) -> Vec<(Option<String>, String)> {
    let mut parts = vec![(None, String::new())];
    let mut inside = false;
    for line in code.lines() {
        let opened = without_visibility(line)
            .strip_prefix("mod ")
            .and_then(|rest| rest.strip_suffix(" {"));
        if let (Some(name), false) = (opened, inside) {
            parts.push((Some(name.to_string()), String::new()));
            inside = true;
        } else if inside && line == "}" {
            parts.push((None, String::new()));
            inside = false;
        } else {
            let part = &mut parts.last_mut().expect("a part").1;
            part.push_str(line);
            part.push('\n');
        }
    }
    parts
}

/// Each source file (named by its path under its crate's `src/`; the member crates' roots left
/// out) with the files it imports from. A path goes to the
/// file of its longest prefix that is a module file: `crate::a::b::C` to `a/b.rs` (or
/// `a/b/mod.rs`), or to `a.rs` when `b` has no file of its own, so an item a module re-exports
/// counts as the re-exporting file's. Declaring a module (`mod a;`) is no import; paths from
/// other crates (`vkperft::`, `std::`) are not followed, but a lower crate's module named
/// through its re-export (`crate::chess::Board` in the GPU crate) is.
fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    let files: Vec<(String, String)> = sources()
        .into_iter()
        .filter(|(path, _)| !is_member_root(path))
        .map(|(path, text)| (module_file(&path), text))
        .collect();
    let modules: BTreeMap<Module, &str> = files
        .iter()
        .map(|(file, _)| (Module::of(file), file.as_str()))
        .collect();
    let file_of = |binary: bool, path: &[String]| -> Option<String> {
        (0..=path.len()).rev().find_map(|len| {
            let prefix = Module {
                binary,
                path: path[..len].to_vec(),
            };
            modules.get(&prefix).map(|file| file.to_string())
        })
    };
    let no_children = BTreeSet::new();
    files
        .iter()
        .map(|(file, text)| {
            let module = Module::of(file);
            let code: String = text
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .map(|line| format!("{line}\n"))
                .collect();
            let children: BTreeSet<String> = code
                .lines()
                .filter_map(|line| {
                    let item = without_visibility(line.trim());
                    Some(item.strip_prefix("mod ")?.strip_suffix(';')?.to_string())
                })
                .collect();
            let mut imports = BTreeSet::new();
            for (inline, part) in inline_modules(&code) {
                let here: Vec<String> = module.path.iter().cloned().chain(inline.clone()).collect();
                let children = if inline.is_none() {
                    &children
                } else {
                    &no_children
                };
                for path in named_paths(&part, children) {
                    let absolute: Vec<String> = match path[0].as_str() {
                        "crate" => path[1..].to_vec(),
                        "self" | "super" => {
                            let mut base = here.clone();
                            let ups = path.iter().take_while(|s| *s == "self" || *s == "super");
                            for segment in ups.clone() {
                                if segment == "super" {
                                    base.pop();
                                }
                            }
                            base.extend(path[ups.count()..].iter().cloned());
                            base
                        }
                        _ => module.path.iter().chain(&path).cloned().collect(),
                    };
                    if let Some(target) = file_of(module.binary, &absolute) {
                        if target != *file {
                            imports.insert(target);
                        }
                    }
                }
            }
            (file.clone(), imports)
        })
        .collect()
}

/// The sets of files that reach each other through their imports (the graph's strongly
/// connected components of more than one file), each sorted.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<Vec<String>> {
    let reachable: BTreeMap<&String, BTreeSet<&String>> = graph
        .keys()
        .map(|from| {
            let mut seen = BTreeSet::new();
            let mut stack = vec![from];
            while let Some(file) = stack.pop() {
                for target in &graph[file] {
                    if seen.insert(target) {
                        stack.push(target);
                    }
                }
            }
            (from, seen)
        })
        .collect();
    reachable
        .iter()
        .filter(|(file, ahead)| ahead.contains(*file))
        .map(|(file, ahead)| {
            ahead
                .iter()
                .filter(|other| reachable[*other].contains(*file))
                .map(|other| other.to_string())
                .collect()
        })
        .collect()
}

#[test]
fn no_source_files_import_each_other_in_a_circle() {
    let graph = import_graph();
    // The parser sees a `use` of a sibling, a re-export of a child, and a child called by name.
    assert!(graph["chess/position.rs"].contains("chess/setup.rs"));
    assert!(graph["chess/mod.rs"].contains("chess/position.rs"));
    assert!(graph["cli/mod.rs"].contains("cli/perft.rs"));
    let found = circles(&graph);
    let described: Vec<String> = found
        .iter()
        .map(|circle| {
            let arrows: Vec<String> = circle
                .iter()
                .map(|file| {
                    let inside: Vec<&String> =
                        graph[file].iter().filter(|t| circle.contains(t)).collect();
                    format!("  {file} -> {inside:?}")
                })
                .collect();
            format!("a circle of {} files:\n{}", circle.len(), arrows.join("\n"))
        })
        .collect();
    assert!(found.is_empty(), "\n{}", described.join("\n"));
}

/// The layers of the source tree, lowest first (docs/design.md, "Layout"): a file imports from
/// its own folder and from the folders of lower layers only, so no folder imports one that
/// imports it back. Between crates Cargo enforces it (a crate names only the crates below it);
/// this checks it inside each crate too. `backend` is the contract between a run and where it runs: below both backends,
/// which it never names, and below the engine that picks one.
const LAYERS: &[&[&str]] = &[
    &["chess", "child_lines"],
    &["count", "hunt"],
    &["reference", "tt"],
    &["work_counters"],
    &["backend"],
    &["cpu", "unique", "gpu"],
    &["engine"],
    &["work", "suite"],
    &["app"],
    &["cli"],
];

/// The top-level module a source file belongs to: its first folder or its file's stem, the
/// binary's files (`main.rs`, `cli/`) together; `None` for `lib.rs`, which only declares.
fn folder_of(file: &str) -> Option<&str> {
    let first = file.split('/').next().unwrap_or(file);
    match first.strip_suffix(".rs").unwrap_or(first) {
        "lib" => None,
        "main" => Some("cli"),
        folder => Some(folder),
    }
}

/// The crates, lowest first, and the top modules of each (the application's `src/` holds the
/// window and, in its binary, the command line).
const CRATES: &[(&str, &[&str])] = &[
    ("crates/chess", &["chess", "child_lines", "count", "hunt"]),
    ("crates/table", &["reference", "tt"]),
    ("crates/run", &["work_counters", "backend"]),
    ("crates/cpu", &["cpu", "unique"]),
    ("crates/gpu", &["gpu"]),
    ("crates/engine", &["engine", "work", "suite"]),
    (".", &["app", "cli"]),
];

#[test]
fn each_crate_holds_consecutive_layers() {
    let mut listed: Vec<PathBuf> = CRATES
        .iter()
        .filter(|(folder, _)| *folder != ".")
        .map(|(folder, _)| workspace().join(folder))
        .collect();
    listed.sort();
    assert_eq!(member_crates(), listed);
    for (folder, modules) in CRATES {
        let src = workspace().join(folder).join("src");
        let mut found: Vec<String> = std::fs::read_dir(&src)
            .expect("src/")
            .map(|entry| entry.expect("a readable entry").path())
            .filter_map(|path| folder_of(&module_file(&path)).map(String::from))
            .collect();
        found.sort();
        found.dedup();
        let mut expected: Vec<String> = modules.iter().map(|m| m.to_string()).collect();
        expected.sort();
        assert_eq!(found, expected, "{folder}");
    }
    // Walking up the layers never steps down a crate.
    let crate_of = |module: &str| {
        CRATES
            .iter()
            .position(|(_, modules)| modules.contains(&module))
    };
    let walked: Vec<usize> = LAYERS
        .iter()
        .flat_map(|layer| layer.iter())
        .map(|module| crate_of(module).unwrap_or_else(|| panic!("{module} in no crate")))
        .collect();
    assert!(
        walked.windows(2).all(|pair| pair[0] <= pair[1]),
        "{walked:?}"
    );
}

fn layer_of(folder: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&folder))
}

#[test]
fn every_import_runs_down_the_layers() {
    let graph = import_graph();
    let unplaced: BTreeSet<&str> = graph
        .keys()
        .filter_map(|file| folder_of(file))
        .filter(|folder| layer_of(folder).is_none())
        .collect();
    assert!(unplaced.is_empty(), "folders in no layer: {unplaced:?}");
    let upward: Vec<String> = graph
        .iter()
        .filter_map(|(file, imports)| Some((file, folder_of(file)?, imports)))
        .flat_map(|(file, folder, imports)| {
            imports.iter().filter_map(move |target| {
                let target_folder = folder_of(target)?;
                let runs_down =
                    target_folder == folder || layer_of(target_folder) < layer_of(folder);
                (!runs_down).then(|| format!("{file} imports {target}"))
            })
        })
        .collect();
    assert!(
        upward.is_empty(),
        "imports against the layers:\n{}",
        upward.join("\n")
    );
    // The rule bites: the CPU backend does import the contract, and the contract no backend.
    assert!(graph["cpu/backend.rs"].contains("backend/mod.rs"));
    assert!(layer_of("backend") < layer_of("cpu"));
}

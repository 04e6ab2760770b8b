//! The documents: every relative link in README.md, CONTRIBUTING.md and docs/*.md resolves (the
//! file, and the heading an anchor names), every `vkperft` command line in their code blocks
//! parses, and the README stays short.
//!
//! The clap definitions live in the binary (src/cli/), not the library, so each command line is
//! given to the binary with `--help` appended: clap checks the subcommand, every flag and every
//! value before it, and a line that parses prints its help and runs nothing.

use crate::common::{run_vkperft, SCRIPTED_SUBCOMMANDS};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

const README_MAX_LINES: usize = 200;

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, CONTRIBUTING.md and every page of docs/, as repository-relative paths.
fn documents() -> Vec<PathBuf> {
    let mut documents = vec![PathBuf::from("README.md"), PathBuf::from("CONTRIBUTING.md")];
    let mut pages: Vec<PathBuf> = std::fs::read_dir(repository().join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.expect("a readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .map(|path| {
            path.strip_prefix(repository())
                .expect("inside the repository")
                .to_path_buf()
        })
        .collect();
    pages.sort();
    assert!(pages.len() >= 10, "docs/ has only {} pages", pages.len());
    documents.extend(pages);
    documents
}

fn read(document: &Path) -> String {
    std::fs::read_to_string(repository().join(document))
        .unwrap_or_else(|err| panic!("{}: {err}", document.display()))
}

/// A fenced code block: its info string (`sh`, `text`, ...) and its lines.
struct CodeBlock {
    info: String,
    first_line: usize,
    lines: Vec<String>,
}

/// The document split into prose lines (with their line numbers) and fenced code blocks.
fn split_markdown(text: &str) -> (Vec<(usize, String)>, Vec<CodeBlock>) {
    let mut prose = Vec::new();
    let mut blocks = Vec::new();
    let mut open: Option<CodeBlock> = None;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        match (&mut open, line.trim_start().strip_prefix("```")) {
            (None, Some(info)) => {
                open = Some(CodeBlock {
                    info: info.trim().to_owned(),
                    first_line: number + 1,
                    lines: Vec::new(),
                })
            }
            (Some(_), Some(_)) => blocks.extend(open.take()),
            (Some(block), None) => block.lines.push(line.to_owned()),
            (None, None) => prose.push((number, line.to_owned())),
        }
    }
    assert!(open.is_none(), "a code block is never closed");
    (prose, blocks)
}

/// GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every anchor of a document's headings, with GitHub's `-1`, `-2` suffixes for repeats.
fn anchors(text: &str) -> BTreeSet<String> {
    let (prose, _) = split_markdown(text);
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut anchors = BTreeSet::new();
    for (_, line) in prose {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let base = slug(heading.trim_start_matches('#').replace('`', "").as_str());
        let repeats = seen.entry(base.clone()).or_insert(0);
        anchors.insert(match *repeats {
            0 => base.clone(),
            n => format!("{base}-{n}"),
        });
        *repeats += 1;
    }
    anchors
}

/// The targets of a prose line's links and images, `[text](target)`, outside inline code.
fn link_targets(line: &str) -> Vec<String> {
    let mut outside_code = String::new();
    for (index, part) in line.split('`').enumerate() {
        if index % 2 == 0 {
            outside_code += part;
        }
    }
    let mut targets = Vec::new();
    let mut rest = outside_code.as_str();
    while let Some(start) = rest.find("](") {
        let after = &rest[start + 2..];
        let end = after
            .find(')')
            .expect("a link's target is closed on its line");
        targets.push(after[..end].trim().to_owned());
        rest = &after[end..];
    }
    targets
}

#[test]
fn relative_links_resolve() {
    let mut checked = 0;
    let mut broken = Vec::new();
    for document in documents() {
        let text = read(&document);
        let (prose, _) = split_markdown(&text);
        let folder = document.parent().expect("a file has a folder");
        for (number, line) in prose {
            for target in link_targets(&line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (path, anchor) = match target.split_once('#') {
                    Some((path, anchor)) => (path, Some(anchor)),
                    None => (target.as_str(), None),
                };
                let linked = if path.is_empty() {
                    document.clone()
                } else {
                    folder.join(path)
                };
                let place = format!("{}:{number}: {target}", document.display());
                checked += 1;
                let full = repository().join(&linked);
                if !full.exists() {
                    broken.push(format!("{place}: no file {}", linked.display()));
                    continue;
                }
                if let Some(anchor) = anchor {
                    assert!(
                        linked.extension().is_some_and(|ext| ext == "md"),
                        "{place}: an anchor into a file that is not Markdown"
                    );
                    if !anchors(&read(&linked)).contains(anchor) {
                        broken.push(format!("{place}: no heading #{anchor}"));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked >= 50, "only {checked} relative links found");
}

/// A shell line split into words as sh would (quotes, backslashes), cut into commands at
/// `|`, `;`, `&`, `<` and `>`, with `#` comments dropped.
fn shell_commands(line: &str) -> Vec<Vec<String>> {
    let mut commands = vec![Vec::new()];
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                let word = word.get_or_insert_with(String::new);
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                let word = word.get_or_insert_with(String::new);
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        c => word.push(c),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            '#' if word.is_none() => break,
            c if c.is_whitespace() => {
                let last = commands.last_mut().expect("never empty");
                last.extend(word.take());
            }
            '|' | ';' | '&' | '<' | '>' => {
                let last = commands.last_mut().expect("never empty");
                last.extend(word.take());
                commands.push(Vec::new());
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    commands.last_mut().expect("never empty").extend(word);
    commands.retain(|command| !command.is_empty());
    commands
}

/// The shell lines of a code block: every line of a `sh` block (but here-documents), the
/// `$ ` lines of a `text` block (a transcript, whose other lines are output); lines ending in
/// `\` joined with the next.
fn shell_lines(block: &CodeBlock) -> Vec<(usize, String)> {
    let transcript = match block.info.as_str() {
        "sh" | "bash" | "shell" => false,
        "text" | "console" => true,
        _ => return Vec::new(),
    };
    let mut lines = Vec::new();
    let mut here_document_end: Option<String> = None;
    let mut continued: Option<(usize, String)> = None;
    for (offset, line) in block.lines.iter().enumerate() {
        let number = block.first_line + offset;
        if let Some(end) = &here_document_end {
            if line.trim() == end {
                here_document_end = None;
            }
            continue;
        }
        let line = match continued.take() {
            Some((start, mut joined)) => {
                joined.push(' ');
                joined += line.trim();
                (start, joined)
            }
            None if transcript => match line.strip_prefix("$ ") {
                Some(command) => (number, command.to_owned()),
                None => continue,
            },
            None => (number, line.clone()),
        };
        if let Some(joined) = line.1.strip_suffix('\\') {
            continued = Some((line.0, joined.to_owned()));
            continue;
        }
        if let Some((_, end)) = line.1.split_once("<<") {
            here_document_end = Some(end.trim().trim_matches('\'').to_owned());
        }
        lines.push(line);
    }
    lines
}

/// The arguments given to vkperft (or to `scripts/run`, which passes them on, or to the
/// container image, whose entry point it is) in a command, after whatever runs it
/// (`taskset -c 0`, `kubectl exec ... --`, `podman run ...`, variable assignments).
fn vkperft_arguments(command: &[String]) -> Option<Vec<String>> {
    let runs_image = command.len() > 1
        && ["podman", "docker"].contains(&command[0].as_str())
        && command[1] == "run";
    let program = command.iter().position(|word| {
        let name = word.rsplit('/').next().expect("split yields a part");
        // `container:/path/vkperft` names a file in a container, not a command.
        (name == "vkperft" && !word.contains(':'))
            || word.ends_with("scripts/run")
            || (runs_image && name.starts_with("vkperft:"))
    })?;
    Some(
        command[program + 1..]
            .iter()
            // A wrapper script's "$@": the arguments it is given, none here.
            .filter(|word| word.as_str() != "$@")
            .cloned()
            .collect(),
    )
}

/// The commands of a YAML block's `command: ["vkperft", ...]` lists (a Kubernetes container's),
/// which may span lines.
fn yaml_commands(block: &CodeBlock) -> Vec<(usize, Vec<String>)> {
    if block.info != "yaml" {
        return Vec::new();
    }
    let mut commands = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (offset, line) in block.lines.iter().enumerate() {
        let list = match (open.take(), line.trim().strip_prefix("command:")) {
            (Some((start, list)), _) => (start, list + line.trim()),
            (None, Some(list)) => (block.first_line + offset, list.trim().to_owned()),
            (None, None) => continue,
        };
        if !list.1.ends_with(']') {
            open = Some(list);
            continue;
        }
        let words: Vec<String> = serde_json::from_str(&list.1)
            .unwrap_or_else(|err| panic!("line {}: {}: {err}", list.0, list.1));
        commands.push((list.0, words));
    }
    assert!(open.is_none(), "a command list is never closed");
    commands
}

#[test]
fn command_lines_in_the_documents_parse() {
    let mut checked = BTreeSet::new();
    let mut failures = Vec::new();
    for document in documents() {
        let (_, blocks) = split_markdown(&read(&document));
        for block in &blocks {
            let shell = shell_lines(block).into_iter().flat_map(|(number, line)| {
                shell_commands(&line)
                    .into_iter()
                    .map(move |command| (number, command))
            });
            for (number, command) in shell.chain(yaml_commands(block)) {
                let Some(mut arguments) = vkperft_arguments(&command) else {
                    continue;
                };
                if !checked.insert(arguments.clone()) {
                    continue;
                }
                arguments.push("--help".to_owned());
                let arguments: Vec<&str> = arguments.iter().map(String::as_str).collect();
                let run = run_vkperft(&arguments, &[]);
                if run.code != 0 {
                    failures.push(format!(
                        "{}:{number}: vkperft {}\n{}",
                        document.display(),
                        arguments[..arguments.len() - 1].join(" "),
                        run.stderr.trim()
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "command lines that do not parse:\n{}",
        failures.join("\n\n")
    );
    assert!(
        checked.len() >= 40,
        "only {} command lines found",
        checked.len()
    );
    let subcommands: BTreeSet<&str> = checked
        .iter()
        .filter_map(|arguments| arguments.first().map(String::as_str))
        .collect();
    for subcommand in SCRIPTED_SUBCOMMANDS {
        assert!(
            subcommands.contains(subcommand),
            "no command line of `vkperft {subcommand}` in the documents (found {subcommands:?})"
        );
    }
}

#[test]
fn a_command_line_that_does_not_parse_is_found() {
    let block = CodeBlock {
        info: "text".to_owned(),
        first_line: 1,
        lines: vec![
            "$ vkperft perft --depth 5 \\".to_owned(),
            "    --no-such-flag | head".to_owned(),
            "Nodes searched: 4865609".to_owned(),
        ],
    };
    let lines = shell_lines(&block);
    assert_eq!(lines.len(), 1, "{:?}", lines);
    let commands = shell_commands(&lines[0].1);
    let mut arguments = vkperft_arguments(&commands[0]).expect("a vkperft command");
    assert_eq!(arguments, ["perft", "--depth", "5", "--no-such-flag"]);
    arguments.push("--help".to_owned());
    let arguments: Vec<&str> = arguments.iter().map(String::as_str).collect();
    let run = run_vkperft(&arguments, &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--no-such-flag"), "{}", run.stderr);
}

#[test]
fn shell_words_follow_quotes_comments_and_pipes() {
    let commands = shell_commands(
        r#"RADV_FORCE_FAMILY=navi21 taskset -c 0 vkperft hunt --uci "engine --bug x" --fen 'a b' | tail -1 # note"#,
    );
    assert_eq!(
        commands,
        [
            vec![
                "RADV_FORCE_FAMILY=navi21",
                "taskset",
                "-c",
                "0",
                "vkperft",
                "hunt",
                "--uci",
                "engine --bug x",
                "--fen",
                "a b"
            ],
            vec!["tail", "-1"],
        ]
    );
    assert_eq!(
        vkperft_arguments(&commands[0]).expect("a vkperft command"),
        ["hunt", "--uci", "engine --bug x", "--fen", "a b"]
    );
    let image = shell_commands("podman run --rm --device /dev/dri vkperft:0.1.0 devices --json");
    assert_eq!(
        vkperft_arguments(&image[0]).expect("the image's entry point"),
        ["devices", "--json"]
    );
    let tag = shell_commands("podman tag vkperft:0.1.0 REGISTRY/vkperft:0.1.0");
    assert_eq!(vkperft_arguments(&tag[0]), None);
}

#[test]
fn anchors_are_github_slugs() {
    let text = "# Top\n## What the backend needs from a device\n```sh\n# not a heading\n```\n\
                ## `work` and `unique`\n## Top\n";
    let anchors: Vec<String> = anchors(text).into_iter().collect();
    assert_eq!(
        anchors,
        [
            "top",
            "top-1",
            "what-the-backend-needs-from-a-device",
            "work-and-unique"
        ]
    );
}

#[test]
fn readme_is_short() {
    let lines = read(Path::new("README.md")).lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines; the guide in docs/ is the place for more"
    );
}

#[test]
fn yaml_command_lists_are_read_across_lines() {
    let block = CodeBlock {
        info: "yaml".to_owned(),
        first_line: 10,
        lines: vec![
            "      containers:".to_owned(),
            "          command: [\"vkperft\", \"work\",".to_owned(),
            "                    \"run\", \"/plans/p11\"]".to_owned(),
        ],
    };
    let commands = yaml_commands(&block);
    assert_eq!(commands.len(), 1);
    assert_eq!(commands[0].0, 11);
    assert_eq!(
        vkperft_arguments(&commands[0].1).expect("a vkperft command"),
        ["work", "run", "/plans/p11"]
    );
}

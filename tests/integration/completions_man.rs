//! `vkperft completions SHELL` and `vkperft man`: the bash script parses and completes, and the
//! manual pages render with man and groff without warnings (both installed by scripts/setup).

use crate::common::{run_vkperft, SCRIPTED_SUBCOMMANDS};
use std::path::Path;
use std::process::{Command, Stdio};

fn completions(shell: &str) -> String {
    let run = run_vkperft(&["completions", shell], &[]);
    assert_eq!(run.code, 0, "completions {shell}: {}", run.stderr);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    run.stdout
}

/// Runs `program args` with `input` on stdin; its exit code, stdout and stderr.
fn run_with_input(program: &str, args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(program)
        .args(args)
        .env("MANWIDTH", "80")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|err| panic!("{program}: {err} (scripts/setup installs it)"));
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_owned();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        stdin
            .write_all(input.as_bytes())
            .expect("the input is read");
    });
    let output = child.wait_with_output().expect("it runs");
    writer.join().expect("the writer ends");
    (
        output.status.code().expect("exited, not killed"),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn bash_completion_parses_and_completes_subcommands_and_flags() {
    let script = completions("bash");
    let (code, _, stderr) = run_with_input("bash", &["-n"], &script);
    assert_eq!(code, 0, "bash -n: {stderr}");
    // Source the script and ask its function what `vkperft per<TAB>` and
    // `vkperft perft --tt <TAB>` complete to, as bash's completion would.
    let probe = format!(
        "{script}\n\
         COMP_WORDS=(vkperft per); COMP_CWORD=1; _vkperft vkperft per vkperft\n\
         echo \"words: ${{COMPREPLY[*]}}\"\n\
         COMP_WORDS=(vkperft perft --tt ''); COMP_CWORD=3; _vkperft vkperft '' --tt\n\
         echo \"modes: ${{COMPREPLY[*]}}\"\n"
    );
    let (code, stdout, stderr) = run_with_input("bash", &[], &probe);
    assert_eq!(code, 0, "{stderr}");
    let words = stdout
        .lines()
        .find_map(|line| line.strip_prefix("words: "))
        .expect("the first probe printed");
    let mut words: Vec<&str> = words.split_whitespace().collect();
    words.sort_unstable();
    assert_eq!(words, ["perft", "perftree"], "{stdout}");
    let modes = stdout
        .lines()
        .find_map(|line| line.strip_prefix("modes: "))
        .expect("the second probe printed");
    let modes: Vec<&str> = modes.split_whitespace().collect();
    assert_eq!(modes, ["off", "fast", "verified", "certify"], "{stdout}");
}

#[test]
fn every_shell_gets_a_script_naming_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let script = completions(shell);
        for subcommand in SCRIPTED_SUBCOMMANDS.into_iter().chain(["gui"]) {
            assert!(
                script.contains(subcommand),
                "{shell}: no {subcommand} in its completions"
            );
        }
    }
}

#[test]
fn an_unknown_shell_is_refused() {
    let run = run_vkperft(&["completions", "tcsh"], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("powershell"), "{}", run.stderr);
}

/// Renders a page with `man -l` and with groff (warnings on); both must be silent on stderr.
fn assert_renders(name: &str, page: &str, expected: &str) {
    let (code, text, stderr) = run_with_input("man", &["-l", "-"], page);
    assert_eq!(code, 0, "man -l {name}: {stderr}");
    assert!(stderr.trim().is_empty(), "man -l {name}: {stderr}");
    assert!(text.contains("NAME"), "{name}: {text}");
    assert!(text.contains(expected), "{name} lacks {expected}: {text}");
    let (code, _, stderr) = run_with_input("groff", &["-man", "-Tutf8", "-ww", "-z"], page);
    assert_eq!(code, 0, "groff {name}: {stderr}");
    assert!(stderr.trim().is_empty(), "groff {name}: {stderr}");
}

#[test]
fn the_manual_page_renders() {
    let run = run_vkperft(&["man"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_renders("vkperft.1", &run.stdout, "shader-stats");
}

#[test]
fn a_page_per_subcommand_renders() {
    let folder = std::env::temp_dir().join(format!("vkperft-man-{}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("a temporary folder");
    let folder_arg = folder.to_str().expect("a UTF-8 temporary path");
    let run = run_vkperft(&["man", "--dir", folder_arg], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let read = |name: &str| {
        std::fs::read_to_string(folder.join(name)).unwrap_or_else(|err| panic!("{name}: {err}"))
    };
    for (name, expected) in [
        ("vkperft.1", "perftree"),
        ("vkperft-perft.1", "--verifier-bits"),
        ("vkperft-hunt.1", "--timeout-s"),
        ("vkperft-suite.1", "--max-nodes"),
        ("vkperft-work-run.1", "--shard-from-env"),
        ("vkperft-work-slurm.1", "--max-parallel"),
        ("vkperft-completions.1", "powershell"),
    ] {
        assert_renders(name, &read(name), expected);
    }
    let pages = std::fs::read_dir(&folder).expect("written").count();
    std::fs::remove_dir_all(&folder).expect("removed");
    assert!(pages >= 18, "only {pages} pages written");
}

#[test]
fn man_refuses_a_folder_that_does_not_exist() {
    let missing = Path::new(env!("CARGO_MANIFEST_DIR")).join("no-such-folder");
    let run = run_vkperft(&["man", "--dir", missing.to_str().expect("UTF-8")], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("no-such-folder"), "{}", run.stderr);
}

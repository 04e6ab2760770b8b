//! Build-time embedding of the git commit the program is built from (`VKPERFT_GIT_COMMIT`, for
//! certificates).

use std::path::Path;

fn main() {
    embed_commit();
}

/// The output of `git <args>` in the crate's folder, if git runs and succeeds.
fn git(args: &[&str]) -> Option<String> {
    let output = std::process::Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    (output.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

/// `VKPERFT_GIT_COMMIT`: `git rev-parse HEAD`, or `unknown` outside a git checkout. The build
/// runs again when HEAD or the branch it names moves (files that exist only: cargo reruns a
/// build script every time for a listed file that is missing).
fn embed_commit() {
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=VKPERFT_GIT_COMMIT={commit}");
    let mut watched = vec!["HEAD".to_string()];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(branch);
    }
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
            if Path::new(&path).is_file() {
                println!("cargo:rerun-if-changed={path}");
            }
        }
    }
}

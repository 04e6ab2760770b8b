//! The real window under Xvfb: `vkperft gui --screenshot` opens it, runs the default job,
//! saves a PNG of the window and exits. Skipped (with a message) where `xvfb-run` is missing.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn xvfb_run() -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("xvfb-run"))
            .find(|path| path.is_file())
    })
}

#[test]
fn window_opens_runs_and_saves_a_screenshot() {
    let Some(xvfb_run) = xvfb_run() else {
        eprintln!("SKIPPED: xvfb-run not found (Debian package `xvfb`); the window was not tested");
        return;
    };
    let dir = std::env::temp_dir().join(format!("vkperft-gui-smoke-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("creating a temporary directory");
    let png = dir.join("window.png");
    let mut child = Command::new(xvfb_run)
        .args(["-a", "-s", "-screen 0 1400x900x24"])
        .arg(env!("CARGO_BIN_EXE_vkperft"))
        .args(["gui", "--screenshot"])
        .arg(&png)
        // A fresh home keeps the smoke run away from the user's remembered settings.
        .env("HOME", &dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting xvfb-run");
    let deadline = Instant::now() + Duration::from_secs(240);
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for the window") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the window did not exit within 240 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let output = child.wait_with_output().expect("reading stderr");
    assert!(
        status.success(),
        "vkperft gui --screenshot failed ({status}):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let image = image::open(&png)
        .expect("the screenshot is a PNG")
        .to_rgba8();
    assert!(
        image.width() >= 1000 && image.height() >= 600,
        "screenshot is only {}x{}",
        image.width(),
        image.height()
    );
    let first = image.get_pixel(0, 0);
    assert!(
        image.pixels().any(|pixel| pixel != first),
        "the screenshot is a single colour"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

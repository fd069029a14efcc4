//! The page of `qiyi play` in a real browser: `tests/browser/test_boards.py` drives
//! headless Chromium through Selenium over every board (see `tests/browser/README.md`).
//! The module's name sorts first, so the longest test starts first and the rest fill
//! the other test threads around it.

use std::path::PathBuf;
use std::process::Command;

/// The page itself, in a real browser: `tests/browser/test_boards.py` drives headless
/// Chromium through Selenium over every board. Without Chromium, chromedriver or Selenium
/// the test says so loudly and passes, except under CI (`CI=true`), where it fails.
#[test]
fn the_page_plays_in_a_real_browser() {
    let root = env!("CARGO_MANIFEST_DIR");
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    let output = Command::new("python3")
        .arg(format!("{root}/tests/browser/test_boards.py"))
        .args(["--bin", env!("CARGO_BIN_EXE_qiyi"), "--screenshots"])
        .arg(&shots)
        .output();
    let output = match output {
        Ok(output) => output,
        Err(e) => return missing(&format!("python3 does not run: {e}")),
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if stderr.contains("cannot run the browser tests") {
        return missing(&stderr);
    }
    assert!(
        output.status.success(),
        "the browser tests failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
    eprintln!("browser tests: {}", stdout.lines().last().unwrap_or(""));
}

/// The browser tests cannot run here: a failure under CI, a loud note elsewhere.
fn missing(why: &str) {
    let message = format!(
        "THE BROWSER TESTS DID NOT RUN: {why}\n(apt-get install chromium chromium-driver; \
         python3 -m pip install selenium)"
    );
    assert!(std::env::var_os("CI").is_none(), "{message}");
    eprintln!("{message}");
}

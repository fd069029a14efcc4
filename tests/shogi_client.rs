//! cshogi's `cshogi.usi.Engine` (a real USI client nobody here wrote) drives the binary:
//! see `tests/shogi_client.py`. cshogi must be installed (`pip install cshogi`, done by
//! `.ci/run`); without it this test fails rather than skips.

use std::process::Command;

#[test]
fn cshogi_usi_client_plays_ponders_mates_and_declares() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/shogi_client.py");
    let output = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_qiyi"))
        .output()
        .expect("python3 runs (install Python 3 and `pip install cshogi`)");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "cshogi USI client failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("all checks passed"), "{stdout}");
}

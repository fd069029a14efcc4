//! python-chess's `chess.engine` (a real UCI client nobody here wrote) drives the binary:
//! see `tests/chess_client.py`. python-chess must be installed (`pip install chess`,
//! done by `.ci/run`); without it this test fails rather than skips.

use std::process::Command;

#[test]
fn python_chess_engine_client_plays_analyses_and_ponders() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/chess_client.py");
    let output = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_qiyi"))
        .output()
        .expect("python3 runs (install Python 3 and `pip install chess`)");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "python-chess client failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("all checks passed"), "{stdout}");
}

//! `qiyi tune --check`: the error on lines the fit never trains on, reported beside the
//! held-out error, so that a refit can be judged on positions self-play does not reach.

use std::path::PathBuf;
use std::process::Command;

/// The training error and the `check` error on each progress line `qiyi tune` writes
/// to stderr.
fn errors(stderr: &str) -> Vec<(String, String)> {
    stderr
        .lines()
        .filter_map(|line| {
            let training = line.split("error ").nth(1)?.split(' ').next()?;
            let check = line.split(", check ").nth(1)?.split(')').next()?;
            Some((training.to_string(), check.to_string()))
        })
        .collect()
}

#[test]
fn the_check_lines_are_scored_but_never_fitted() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tune-check");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // White has an extra knight, on a different square in each position, and wins three
    // games of four from it.
    let mut train = String::new();
    for sq in 0..8 {
        let fen = format!("4k3/pppp4/8/8/8/{}/PPPP4/4K3 w - - 0 1", knight_rank(sq));
        for result in ["1", "1", "1", "0"] {
            train.push_str(&format!("{fen} | {result}\n"));
        }
    }
    // The same lines, and the same positions with every result turned round.
    let turned = train
        .replace("| 1", "| x")
        .replace("| 0", "| 1")
        .replace("| x", "| 0");
    let path = |name: &str| dir.join(name);
    std::fs::write(path("train.txt"), &train).unwrap();
    std::fs::write(path("turned.txt"), &turned).unwrap();

    let tune = |check: Option<&str>, out: &str| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_qiyi"));
        command
            .args(["tune", "--epochs", "20", "--rate", "5", "--data"])
            .arg(path("train.txt"))
            .arg("--out")
            .arg(path(out));
        if let Some(check) = check {
            command.arg("--check").arg(path(check));
        }
        let run = command.output().unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
        (run.status.success(), stderr)
    };
    let read = |name: &str| std::fs::read_to_string(path(name)).unwrap();

    // Checked against its own lines, the error is the training error, before and after.
    let (ok, stderr) = tune(Some("train.txt"), "same.rs");
    assert!(ok, "{stderr}");
    let same = errors(&stderr);
    assert_eq!(same.len(), 2, "{stderr}");
    assert!(
        same.iter().all(|(training, check)| training == check),
        "{stderr}"
    );

    // Against the turned results it differs, and the fit is the one without a check.
    let (ok, stderr) = tune(Some("turned.txt"), "turned.rs");
    assert!(ok, "{stderr}");
    assert!(
        errors(&stderr)
            .iter()
            .all(|(training, check)| training != check),
        "{stderr}"
    );
    let (ok, stderr) = tune(None, "plain.rs");
    assert!(ok && !stderr.contains("check"), "{stderr}");
    assert_eq!(read("turned.rs"), read("plain.rs"));
    assert_eq!(read("same.rs"), read("plain.rs"));

    // A check file that cannot be read stops the run.
    let (ok, _) = tune(Some("absent.txt"), "absent.rs");
    assert!(!ok);
}

/// The third rank of a FEN with White's knight on file `file` (0 = a).
fn knight_rank(file: usize) -> String {
    let mut rank = String::new();
    if file > 0 {
        rank.push_str(&file.to_string());
    }
    rank.push('N');
    if file < 7 {
        rank.push_str(&(7 - file).to_string());
    }
    rank
}

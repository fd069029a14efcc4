//! OpenBench's client runs `<engine> bench` and reads the build's signature and speed from
//! the last line that names them, with the patterns its `bench.py` uses; this test reads
//! qiyi's bench output with those same patterns (in Python, as the client does) and
//! checks they find the node count the games' own lines add up to.

use std::process::Command;

/// OpenBench's reading of bench output, as its client does it: lines from the last up,
/// non-alphanumerics turned to spaces, the first match of each pattern kept.
const CLIENT_PARSE: &str = r#"
import re, sys
nps = bench = None
for line in sys.stdin.read().strip().split('\n')[::-1]:
    line = re.sub(r'[^a-zA-Z0-9 ]+', ' ', line)
    found_nps = re.search(r'(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)', line, re.IGNORECASE)
    found_bench = re.search(r'(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)', line, re.IGNORECASE)
    if found_nps and not nps: nps = found_nps.group()
    if found_bench and not bench: bench = found_bench.group()
print(int(re.search(r'\d+', bench).group()), int(re.search(r'\d+', nps).group()))
"#;

#[test]
fn openbench_reads_the_bench_signature_and_speed() {
    let out = Command::new(env!("CARGO_BIN_EXE_qiyi"))
        .args(["bench", "--game", "all", "--depth", "3"])
        .output()
        .expect("qiyi runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // Each game's line gives its nodes; the signature is their sum.
    let games: u64 = text
        .lines()
        .filter(|l| l.contains(" bench depth "))
        .map(|l| {
            let after = l.split(": nodes ").nth(1).expect(l);
            after
                .split_whitespace()
                .next()
                .unwrap()
                .parse::<u64>()
                .unwrap()
        })
        .sum();
    assert!(games > 0, "{text}");
    let last = text.lines().last().unwrap();
    assert_eq!(last.split_whitespace().nth(1), Some("nodes"), "{last}");
    assert_eq!(last.split_whitespace().nth(3), Some("nps"), "{last}");

    let mut python = Command::new("python3")
        .args(["-c", CLIENT_PARSE])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    use std::io::Write;
    python
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let parsed = python.wait_with_output().unwrap();
    assert!(
        parsed.status.success(),
        "the client's parse failed on:\n{text}"
    );
    let parsed = String::from_utf8(parsed.stdout).unwrap();
    let fields: Vec<u64> = parsed
        .split_whitespace()
        .map(|f| f.parse().unwrap())
        .collect();
    assert_eq!(fields[0], games, "signature read from:\n{text}");
    let nps: u64 = last.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert_eq!(fields[1], nps, "speed read from:\n{text}");
}

//! Every integration test in one binary. Each `tests/<name>.rs` is the module `<name>`
//! here, with the helpers of `tests/common/` shared by all: every test binary costs a
//! full optimised link, so there is one (`autotests = false` and one `[[test]]` in
//! Cargo.toml). With thirty binaries `cargo test --release` from an empty target directory
//! took 889 s here; with one, 491 s (both under load). A new test file must be declared
//! below; `every_test_file_is_declared` fails otherwise. In a test file the shared helpers
//! are `crate::common` (`use crate::common::Engine;`), not `mod common;`.

mod common;

mod browser;
mod chess960_protocol;
mod chess_client;
mod chess_nnue;
mod chess_perft;
mod chess_python;
mod chess_result;
mod chess_search;
mod chess_strength;
mod conformance;
mod foursquare_bench_positions;
mod foursquare_perft;
mod foursquare_search;
mod foursquare_tablebase;
mod foursquare_tablebase_protocol;
mod junqi_dark;
mod junqi_nnue;
mod junqi_perft;
mod junqi_protocol;
mod junqi_search;
mod openbench;
mod play;
mod protocol_every_game;
mod referee;
mod shogi_client;
mod shogi_nnue;
mod shogi_perft;
mod shogi_protocol;
mod shogi_python;
mod shogi_search;
mod tune_check;
mod ugi_game;
mod ugi_protocol;

/// A file in `tests/` that is not declared above as a module would never be compiled,
/// let alone run, now that cargo no longer makes a binary of each.
#[test]
fn every_test_file_is_declared() {
    let declared = include_str!("main.rs");
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let name = path.file_stem().unwrap().to_str().unwrap();
        if name == "main" {
            continue;
        }
        files += 1;
        assert!(
            declared.lines().any(|l| l == format!("mod {name};")),
            "tests/{name}.rs is not declared in tests/main.rs: add `mod {name};`"
        );
    }
    assert!(files >= 30, "only {files} test files found in {dir}");
}

/// `src/main.rs` is built without a test harness (`test = false` in Cargo.toml): a unit
/// test there would never run. Tests of what it does belong in the library or here.
#[test]
fn the_binary_has_no_unit_tests() {
    let main = include_str!("../src/main.rs");
    assert!(
        !main.contains("#[test]") && !main.contains("#[cfg(test)]"),
        "src/main.rs has tests, which cargo test skips: remove `test = false` from its \
         [[bin]] in Cargo.toml"
    );
}

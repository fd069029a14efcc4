//! The table on disk, so that the engine loads in milliseconds what takes seconds to solve.
//!
//! File layout (little-endian), 32 bytes of header then one byte per entry:
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `QIYIFSTB` |
//! | 8..12 | format version ([`FORMAT`]) |
//! | 12..16 | number of entries |
//! | 16..24 | rules signature: a hash of the moves generated in a spread of positions |
//! | 24..32 | FNV-1a checksum of the entries |
//!
//! A file is used only when every field matches this build, and then a spread of entries
//! must still agree with their successors; anything else (an older format, a change to
//! the move generator, a truncated or damaged file) is rebuilt and rewritten.

use super::index::{self, SIZE};
use super::{Tablebase, mover_position};
use crate::core::{MoveList, fnv1a};
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"QIYIFSTB";
/// Bumped whenever the layout or the meaning of an entry changes.
const FORMAT: u32 = 1;
const HEADER: usize = 32;
/// Entries whose moves make up the rules signature, and which are checked after loading.
const SAMPLE_STRIDE: usize = 101;
/// The cache file's name under `<cache dir>/qiyi/`.
const FILE_NAME: &str = "foursquare-tablebase.bin";

/// Why a table file was not used.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read (including: it does not exist).
    Io(io::Error),
    /// The file was read but is not a table this build can trust.
    Invalid(String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(e) => write!(f, "{e}"),
            LoadError::Invalid(why) => f.write_str(why),
        }
    }
}

/// `$XDG_CACHE_HOME/qiyi/...`, else `~/.cache/qiyi/...` (the XDG base directory rules:
/// a relative `XDG_CACHE_HOME` is ignored); `None` when neither is known.
pub fn cache_path() -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute());
    let base = xdg.or_else(|| {
        std::env::var_os("HOME")
            .filter(|home| !home.is_empty())
            .map(|home| PathBuf::from(home).join(".cache"))
    })?;
    Some(base.join("qiyi").join(FILE_NAME))
}

/// The table from the cache when it holds a valid one, otherwise solved afresh and
/// written back. A cache that cannot be written costs only a warning.
pub fn load_or_build() -> Tablebase {
    let Some(path) = cache_path() else {
        log::warn!("no cache directory (neither XDG_CACHE_HOME nor HOME): solving FourSquare");
        return Tablebase::solve();
    };
    match load(&path) {
        Ok(table) => {
            log::info!("FourSquare tablebase loaded from {}", path.display());
            return table;
        }
        Err(LoadError::Io(e)) if e.kind() == io::ErrorKind::NotFound => {
            log::info!("no FourSquare tablebase at {}: solving", path.display());
        }
        Err(e) => log::warn!(
            "FourSquare tablebase {} not used ({e}): solving again",
            path.display()
        ),
    }
    let table = Tablebase::solve();
    match save(&table, &path) {
        Ok(()) => log::info!("FourSquare tablebase written to {}", path.display()),
        Err(e) => log::warn!(
            "could not write the FourSquare tablebase to {}: {e}",
            path.display()
        ),
    }
    table
}

/// Writes the table to `path`, creating its directory. The file appears whole or not at
/// all (written aside, then renamed), so a reader never sees half a table, even when
/// several engines build at once.
pub fn save(table: &Tablebase, path: &Path) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let entries = table.as_bytes();
    let mut bytes = Vec::with_capacity(HEADER + entries.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&FORMAT.to_le_bytes());
    bytes.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&rules_signature().to_le_bytes());
    bytes.extend_from_slice(&fnv1a(entries).to_le_bytes());
    bytes.extend_from_slice(entries);
    let mut aside = path.as_os_str().to_owned();
    aside.push(format!(".{}.tmp", std::process::id()));
    let aside = PathBuf::from(aside);
    let written = std::fs::File::create(&aside)
        .and_then(|mut file| file.write_all(&bytes).and_then(|()| file.sync_all()))
        .and_then(|()| std::fs::rename(&aside, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&aside);
    }
    written
}

/// Reads a table written by [`save`] and checks that this build can trust it.
pub fn load(path: &Path) -> Result<Tablebase, LoadError> {
    let bytes = std::fs::read(path).map_err(LoadError::Io)?;
    let invalid = |why: String| Err(LoadError::Invalid(why));
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return invalid("not a qiyi FourSquare tablebase".into());
    }
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let long = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    if word(8) != FORMAT {
        return invalid(format!("format {}, this build reads {FORMAT}", word(8)));
    }
    let entries = &bytes[HEADER..];
    if word(12) as usize != SIZE || entries.len() != SIZE {
        return invalid(format!(
            "{} entries (header says {}), need {SIZE}",
            entries.len(),
            word(12)
        ));
    }
    if long(16) != rules_signature() {
        return invalid("made by a build whose move generator differs".into());
    }
    if long(24) != fnv1a(entries) {
        return invalid("checksum mismatch: the file is damaged".into());
    }
    let table = Tablebase {
        entries: entries.into(),
    };
    if let Some(entry) = (0..SIZE)
        .step_by(SAMPLE_STRIDE)
        .find(|&entry| table.check_entry(entry).is_err())
    {
        return invalid(format!("entry {entry} disagrees with its successors"));
    }
    Ok(table)
}

/// A hash of the format, the index and the moves (with their captures) of a spread of
/// entries: a table solved under other rules, or with another numbering, does not match.
fn rules_signature() -> u64 {
    let mut hash = fnv1a(&FORMAT.to_le_bytes()) ^ SIZE as u64;
    for entry in (0..SIZE).step_by(SAMPLE_STRIDE) {
        let (mover, other) = index::position(entry);
        let mut moves = MoveList::new();
        mover_position(mover, other).generate_moves(&mut moves);
        for mv in moves.iter() {
            let code = u64::from(mv.from) | u64::from(mv.to) << 8 | u64::from(mv.capture) << 16;
            hash = (hash ^ code ^ (entry as u64) << 24).wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

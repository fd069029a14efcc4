//! The record file of `qiyi play`, kept on a thread of its own.

use std::path::PathBuf;
use std::sync::mpsc::{Sender, channel};

/// Starts the thread that keeps the record file: a disk write takes milliseconds, which
/// the table would otherwise add to every move's way to the pages. Each record is written
/// beside the file and renamed over it, so the file is never half written; when several
/// wait, only the latest is written.
pub fn record_writer(path: PathBuf) -> anyhow::Result<Sender<String>> {
    let (sender, texts) = channel::<String>();
    std::thread::Builder::new()
        .name("record".into())
        .spawn(move || {
            let mut fresh = path.clone().into_os_string();
            fresh.push(".new");
            while let Ok(mut text) = texts.recv() {
                while let Ok(newer) = texts.try_recv() {
                    text = newer;
                }
                let written =
                    std::fs::write(&fresh, text).and_then(|()| std::fs::rename(&fresh, &path));
                if let Err(e) = written {
                    log::error!("cannot write the record {}: {e}", path.display());
                }
            }
        })?;
    Ok(sender)
}

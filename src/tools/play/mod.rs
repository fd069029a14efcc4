//! `qiyi play`: a board in the browser where people play against engines.
//!
//! The server is the referee: it keeps the whole game, judges every move by the game's own
//! rules and drives each engine seat as a protocol process (exactly as `qiyi referee`
//! does), while each browser page receives only what its seat may see and sends intents.
//! The page's protocol is in `docs/play.md`.
//!
//! - `http`: the listener, the token and `Origin` checks, the page's assets, the record.
//! - `socket`: one page's WebSocket, between the browser and the table.
//! - `table`: the table thread: seats, connections, engine workers, clocks.
//! - `record`: the record file, rewritten after every change on a thread of its own.
//! - `judge`: one game in progress as the table asks about it ([`judge::Judge`]); its
//!   `two_player` and `junqi` modules are the games.
//! - `worker`: one engine process on a thread of its own, so that a search never holds up
//!   the table.

mod http;
mod judge;
mod record;
mod socket;
mod table;
mod worker;

use crate::games::GameKind;
use crate::games::junqi::dark::Info;
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;

/// The longest an engine may think per move: the engine's own cap.
const MAX_MOVETIME: u64 = 60_000;

/// The settings of `qiyi play`.
#[derive(Clone, Debug, clap::Args)]
pub struct Config {
    /// The game: chess, shogi, junqi or foursquare.
    #[arg(long, default_value = "junqi")]
    pub game: String,
    /// A seat a person plays, by name (junqi S E N W; chess white black; shogi sente
    /// gote; foursquare black white); repeat it for several people, each gets a URL.
    /// The first seat by default.
    #[arg(long = "seat", value_name = "SEAT")]
    pub seats: Vec<String>,
    /// The engine for the other seats, a command line split as a shell would; repeat it
    /// to give each engine seat its own, in seat order (the last one fills the rest). By
    /// default this program.
    #[arg(long = "engine", value_name = "COMMAND")]
    pub engines: Vec<String>,
    /// Junqi: what each seat may see of the others' lineups.
    #[arg(long, default_value = "dark")]
    pub info: Info,
    /// Milliseconds per engine move.
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// Seconds per move for people (0: no clock). Out of time is a `timeout` ply in Junqi
    /// and a lost game elsewhere.
    #[arg(long, default_value_t = 0)]
    pub clock: u64,
    /// The port to listen on; 0 takes any free port (printed).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// The address to listen on. Anything but loopback lets other machines reach the
    /// board (they still need a seat's token).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// Where the game record is written as the game goes (replayable after a crash).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Open each seat's URL in the system's browser.
    #[arg(long)]
    pub open_browser: bool,
}

/// Serves the board until the process is ended (Ctrl-C); engine processes end with it,
/// since their input closes.
pub fn run(config: &Config) -> anyhow::Result<()> {
    let kind = GameKind::from_name(&config.game).ok_or_else(|| {
        anyhow::anyhow!(
            "unknown game '{}'; one of chess, shogi, junqi, foursquare",
            config.game
        )
    })?;
    if config.movetime == 0 || config.movetime > MAX_MOVETIME {
        anyhow::bail!(
            "--movetime {}: give 1 to {MAX_MOVETIME} milliseconds",
            config.movetime
        );
    }
    let judge = judge::new(kind, config.info);
    let names = judge.seat_names();
    let mut humans = Vec::new();
    for name in &config.seats {
        let seat = names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "unknown seat '{name}' in {kind}; one of {}",
                    names.join(", ")
                )
            })?;
        if humans.contains(&seat) {
            anyhow::bail!("seat {name} given twice");
        }
        humans.push(seat);
    }
    if humans.is_empty() {
        humans.push(0);
    }
    let engines = if config.engines.is_empty() {
        vec![this_engine(kind)?]
    } else {
        config.engines.clone()
    };
    let record = match &config.record {
        Some(path) => path.clone(),
        None => std::env::temp_dir().join(format!(
            "qiyi-play-{}.txt",
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        )),
    };
    let listener = TcpListener::bind((config.bind.as_str(), config.port))
        .map_err(|e| anyhow::anyhow!("cannot listen on {}:{}: {e}", config.bind, config.port))?;
    let port = listener.local_addr()?.port();
    let tokens: Vec<String> = humans.iter().map(|_| token()).collect();
    let settings = table::Settings {
        humans: humans.clone(),
        engines,
        movetime: config.movetime,
        clock: config.clock,
        record: record.clone(),
    };
    let table = table::start(judge, settings)?;
    // A page is reached at the address it was bound to; loopback names all mean this host.
    let host = match config.bind.as_str() {
        "0.0.0.0" | "::" | "127.0.0.1" => "127.0.0.1",
        other => other,
    };
    let server = Arc::new(http::Server::new(tokens.clone(), host, port, table));
    println!("qiyi play: {kind}, record {}", record.display());
    for (token, seat) in tokens.iter().zip(&humans) {
        let url = format!("http://{host}:{port}/{token}/");
        println!("seat {}: {url}", names[*seat]);
        if config.open_browser {
            open_browser(&url);
        }
    }
    log::info!("listening on {}:{port}", config.bind);
    for stream in listener.incoming() {
        match stream {
            Ok(stream) => {
                let server = Arc::clone(&server);
                let spawned = std::thread::Builder::new()
                    .name("http".into())
                    .spawn(move || http::serve(stream, &server));
                if let Err(e) = spawned {
                    log::error!("cannot start a connection thread: {e}");
                }
            }
            Err(e) => log::warn!("accept failed: {e}"),
        }
    }
    Ok(())
}

/// The command line of this program's engine for `kind`, quoted for the engine driver's
/// shell-like splitting (the path may hold spaces or quotes).
fn this_engine(kind: GameKind) -> anyhow::Result<String> {
    let exe = std::env::current_exe()?;
    let quoted = exe.display().to_string().replace('\'', "'\\''");
    Ok(format!("'{quoted}' --game {kind}"))
}

/// A fresh secret for a seat's URL: 128 random bits in hex.
fn token() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// Asks the desktop to open `url`; a failure only costs the user a click.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        log::warn!("cannot open a browser ({opener}): {e}");
    }
}

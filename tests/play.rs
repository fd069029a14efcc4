//! `qiyi play` driven as a browser would: HTTP for the page, a WebSocket for the game.
//! Whole games of all four games against qiyi engines, the dark game's filtering checked
//! on every message, bad input answered with one error and nothing changed, the token and
//! `Origin` checks, and engines that crash or hang forfeiting while the game goes on.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::client::IntoClientRequest;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// How long any one wait may take before the test fails: generous, since the machine's
/// speed varies; nothing here measures speed.
const PATIENCE: Duration = Duration::from_secs(60);

/// A running `qiyi play`, ended when dropped.
struct Server {
    child: Child,
    /// Each person's page, as printed.
    urls: Vec<String>,
    port: u16,
    record: PathBuf,
}

impl Server {
    fn start(name: &str, args: &[&str]) -> Server {
        let record = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("play-{name}.txt"));
        let _ = std::fs::remove_file(&record);
        let mut child = Command::new(env!("CARGO_BIN_EXE_qiyi"))
            .arg("play")
            .args(args)
            .args(["--port", "0", "--record", record.to_str().unwrap()])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("qiyi play starts");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let first = lines.next().expect("a first line").unwrap();
        assert!(first.starts_with("qiyi play:"), "{first}");
        let mut urls = Vec::new();
        let people = args.iter().filter(|&&a| a == "--seat").count().max(1);
        for _ in 0..people {
            let line = lines.next().expect("a URL line").unwrap();
            let url = line.split_whitespace().last().unwrap().to_string();
            assert!(url.starts_with("http://127.0.0.1:"), "{line}");
            urls.push(url);
        }
        let port = urls[0]
            .split(':')
            .nth(2)
            .unwrap()
            .split('/')
            .next()
            .unwrap();
        let port = port.parse().unwrap();
        Server {
            child,
            urls,
            port,
            record,
        }
    }

    fn record(&self) -> String {
        std::fs::read_to_string(&self.record).unwrap_or_default()
    }

    /// The record once it says what `done` asks: it is written a moment after the pages
    /// hear of a change.
    fn record_until(&self, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let record = self.record();
            if done(&record) {
                return record;
            }
            assert!(Instant::now() < deadline, "the record stayed {record}");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The record once it holds `plies` plies.
    fn record_of(&self, plies: usize) -> String {
        self.record_until(|record| recorded_plies(record) == plies)
    }
}

/// The plies of a record's `position ... moves ...` line.
fn recorded_plies(record: &str) -> usize {
    record
        .lines()
        .find(|l| l.starts_with("position "))
        .and_then(|line| line.split_once(" moves "))
        .map_or(0, |(_, moves)| moves.split_whitespace().count())
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A plain HTTP GET; the status code and the body.
fn get(port: u16, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = answer
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

/// One page's WebSocket.
struct Page {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    /// The last `state` received.
    state: Value,
    /// Every message received, as text.
    seen: Vec<String>,
}

impl Page {
    fn open(url: &str, origin: &str) -> Result<Page, String> {
        let ws = format!("{}ws", url.replacen("http://", "ws://", 1));
        let mut request = ws.into_client_request().unwrap();
        if !origin.is_empty() {
            request
                .headers_mut()
                .insert("Origin", origin.parse().unwrap());
        }
        let (socket, _) = tungstenite::connect(request).map_err(|e| e.to_string())?;
        if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
            stream.set_read_timeout(Some(PATIENCE)).unwrap();
        }
        let mut page = Page {
            socket,
            state: Value::Null,
            seen: Vec::new(),
        };
        let hello = page.next();
        assert_eq!(hello["type"], "hello", "{hello}");
        page.until(|m| m["type"] == "state");
        Ok(page)
    }

    /// The page of server `server`'s first person, from its own origin.
    fn of(server: &Server) -> Page {
        Page::open(
            &server.urls[0],
            &format!("http://127.0.0.1:{}", server.port),
        )
        .unwrap()
    }

    fn send(&mut self, message: Value) {
        self.socket
            .send(Message::text(message.to_string()))
            .unwrap();
    }

    fn next(&mut self) -> Value {
        loop {
            match self
                .socket
                .read()
                .expect("the server keeps the socket open")
            {
                Message::Text(text) => {
                    self.seen.push(text.to_string());
                    let message: Value = serde_json::from_str(&text).unwrap();
                    if message["type"] == "state" {
                        self.state = message.clone();
                    }
                    return message;
                }
                Message::Close(_) => panic!("the server closed the socket"),
                _ => {}
            }
        }
    }

    fn until(&mut self, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            assert!(
                Instant::now() < deadline,
                "waited too long; last {}",
                self.state
            );
            let message = self.next();
            if done(&message) {
                return message;
            }
        }
    }

    /// Waits until it is this page's turn or the game is over; `true` for the turn.
    fn my_turn(&mut self) -> bool {
        let ready = |m: &Value| {
            m["type"] == "state"
                && (m["phase"] == "over"
                    || (m["phase"] == "play" && m["turn"] == m["you"] && has_moves(m)))
        };
        if !ready(&self.state) {
            self.until(ready);
        }
        self.state["phase"] == "play"
    }

    /// Plays a move; the state is unknown until the server's next one.
    fn play(&mut self, text: &Value) {
        self.send(json!({"type": "move", "move": text}));
        self.state = Value::Null;
    }

    /// Sends `message`, which must be refused with one error (states of moves made
    /// meanwhile by others may come first).
    fn refused(&mut self, message: Value) -> String {
        self.send(message);
        let answer = self.until(|m| m["type"] != "state");
        assert_eq!(answer["type"], "error", "{answer}");
        answer["message"].as_str().unwrap().to_string()
    }
}

fn has_moves(state: &Value) -> bool {
    state["legal"].as_array().is_some_and(|l| !l.is_empty())
}

/// Plays random legal moves for the page until the game ends; the number played.
fn play_out(page: &mut Page, rng: &mut StdRng) -> usize {
    let mut played = 0;
    while page.my_turn() {
        let legal = page.state["legal"].as_array().unwrap().clone();
        let choice = legal.choose(rng).unwrap();
        page.play(&choice["text"]);
        played += 1;
    }
    played
}

fn full_game(game: &str, extra: &[&str]) -> (Server, Page) {
    let mut args = vec!["--game", game, "--movetime", "40"];
    args.extend_from_slice(extra);
    let server = Server::start(game, &args);
    let mut page = Page::of(&server);
    let mut rng = StdRng::seed_from_u64(7);
    let played = play_out(&mut page, &mut rng);
    assert!(played > 0, "{game}: the person never moved");
    assert_eq!(page.state["phase"], "over");
    assert!(
        page.state["result"]["text"]
            .as_str()
            .is_some_and(|t| !t.is_empty()),
        "{}",
        page.state
    );
    (server, page)
}

#[test]
fn chess_shogi_and_foursquare_play_to_the_end() {
    for (game, seat) in [
        ("foursquare", "black"),
        ("chess", "black"),
        ("shogi", "sente"),
    ] {
        let (server, page) = full_game(game, &["--seat", seat]);
        let record = server.record_until(|r| !r.is_empty() && !r.contains("in progress"));
        let moves = page.state["moves"].as_array().unwrap().len();
        // The record holds every ply, as `position ... moves ...`.
        let line = record.lines().find(|l| l.starts_with("position ")).unwrap();
        let recorded = line
            .split_once(" moves ")
            .map_or(0, |(_, m)| m.split_whitespace().count());
        assert_eq!(recorded, moves, "{game}: {record}");
        assert!(
            record.starts_with(&format!("# qiyi play: {game}")),
            "{record}"
        );
    }
}

#[test]
fn a_chess960_game_starts_from_a_drawn_position_and_replays() {
    let server = Server::start("chess960", &["--game", "chess", "--movetime", "30"]);
    let mut page = Page::of(&server);
    page.send(json!({"type": "options", "chess960": true}));
    page.until(|m| m["type"] == "state");
    page.send(json!({"type": "new_game"}));
    page.until(|m| m["type"] == "state" && m["board"]["chess960"] == true);
    let mut rng = StdRng::seed_from_u64(3);
    for _ in 0..6 {
        assert!(page.my_turn());
        let legal = page.state["legal"].as_array().unwrap().clone();
        page.play(&legal.choose(&mut rng).unwrap()["text"]);
    }
    page.my_turn();
    let record = server.record_of(page.state["moves"].as_array().unwrap().len());
    assert!(record.contains("Chess960"), "{record}");
    page.send(json!({"type": "replay", "record": record}));
    let replay = page.until(|m| m["type"] == "replay");
    let frames = replay["frames"].as_array().unwrap();
    assert_eq!(
        frames.len(),
        page.state["moves"].as_array().unwrap().len() + 1
    );
    assert_eq!(
        frames.last().unwrap()["board"]["position"],
        page.state["board"]["position"]
    );
}

/// The ranks a dark-game seat was shown, checked on every message: a piece of another seat
/// carries a rank only when it is a flag made public.
fn assert_sees_only_its_own(message: &Value, you: u64) {
    let Some(pieces) = message["board"]["pieces"].as_array() else {
        return;
    };
    let public = message["board"]["public_flags"].as_array().unwrap();
    for piece in pieces {
        if piece["seat"] == you || piece["rank"].is_null() {
            continue;
        }
        assert_eq!(piece["rank"], "l", "a rank leaked: {piece}");
        assert!(public.contains(&piece["at"]), "a flag leaked: {piece}");
    }
}

#[test]
fn a_dark_junqi_game_never_shows_a_hidden_rank() {
    let server = Server::start(
        "junqi-dark",
        &[
            "--game",
            "junqi",
            "--info",
            "dark",
            "--seat",
            "N",
            "--movetime",
            "40",
        ],
    );
    let mut page = Page::of(&server);
    assert_eq!(page.state["phase"], "deploy");
    assert_eq!(page.state["you"], 2);
    let slots = page.state["deploy"]["slots"].as_array().unwrap().len();
    assert_eq!(slots, 25);
    // A lineup against the rules: the flag outside the headquarters.
    let lineup = page.state["deploy"]["lineup"].as_str().unwrap().to_string();
    let bad: String = lineup.chars().rev().collect();
    let error = page.refused(json!({"type": "lineup", "lineup": bad}));
    assert!(error.contains('N'), "{error}");
    page.send(json!({"type": "random_lineup"}));
    page.until(|m| m["type"] == "state");
    page.send(json!({"type": "ready"}));
    // The odds panel: what an engine told only N's view infers of the hidden pieces.
    page.send(json!({"type": "options", "odds": true}));
    let odds = page.until(|m| m["type"] == "odds");
    let pieces = odds["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), 75, "{odds}");
    for piece in pieces {
        let total: u64 = piece["odds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o[1].as_u64().unwrap())
            .sum();
        assert!((90..=110).contains(&total), "{piece}");
    }
    page.send(json!({"type": "options", "odds": false}));
    // The record link, while the game goes on, gives N's view: every other lineup `-`.
    let token = server.urls[0]
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap();
    let (status, record) = get(server.port, &format!("/{token}/record"), &[]);
    assert_eq!(status, 200);
    let setup = record
        .lines()
        .find(|l| l.starts_with("position setup"))
        .unwrap();
    for seat in ["S", "E", "W"] {
        assert!(setup.contains(&format!("{seat}:- ")), "{setup}");
    }
    assert!(!setup.contains("N:- "), "{setup}");
    let mut rng = StdRng::seed_from_u64(11);
    let played = play_out(&mut page, &mut rng);
    assert!(played > 0);
    assert_eq!(page.state["phase"], "over");
    // Every message: no rank of another seat, and no other seat's lineup anywhere.
    let record = server.record_until(|r| r.contains(" plies; ") && !r.contains("in progress"));
    let setup = record
        .lines()
        .find(|l| l.starts_with("position setup"))
        .unwrap_or_else(|| panic!("no setup in the record: {record}"));
    let lineups: Vec<&str> = setup
        .split_whitespace()
        .filter_map(|t| t.split_once(':'))
        .filter(|(seat, _)| seat.len() == 1)
        .map(|(_, lineup)| lineup)
        .collect();
    assert_eq!(lineups.len(), 4, "{setup}");
    for text in &page.seen {
        let message: Value = serde_json::from_str(text).unwrap();
        assert_sees_only_its_own(&message, 2);
        for (seat, lineup) in lineups.iter().enumerate() {
            if seat != 2 {
                assert!(
                    !text.contains(lineup),
                    "seat {seat}'s lineup leaked: {text}"
                );
            }
        }
    }
    // The whole record replays ply by ply to the position the game ended in.
    page.send(json!({"type": "replay", "record": record}));
    let replay = page.until(|m| m["type"] == "replay");
    let frames = replay["frames"].as_array().unwrap();
    let last = frames.last().unwrap();
    let shown: Vec<&Value> = page.state["board"]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .collect();
    let replayed: Vec<&Value> = last["board"]["pieces"].as_array().unwrap().iter().collect();
    assert_eq!(shown.len(), replayed.len());
    for (a, b) in shown.iter().zip(&replayed) {
        assert_eq!((&a["at"], &a["seat"]), (&b["at"], &b["seat"]));
    }
}

#[test]
fn bad_messages_get_one_error_and_change_nothing() {
    let server = Server::start(
        "bad",
        &["--game", "chess", "--seat", "white", "--movetime", "30"],
    );
    let mut page = Page::of(&server);
    page.play(&json!("e2e4"));
    page.my_turn();
    let record = server.record_of(page.state["moves"].as_array().unwrap().len());
    let state = page.state.clone();
    let start = page.seen.len();
    let cases = [
        json!("not an object"),
        json!({"no": "type"}),
        json!({"type": "dance"}),
        json!({"type": "move"}),
        json!({"type": "move", "move": 5}),
        json!({"type": "move", "move": "e2e5"}),
        json!({"type": "move", "move": "e7e5"}),
        json!({"type": "lineup", "lineup": "abc"}),
        json!({"type": "ready"}),
        json!({"type": "options", "movetime": 0}),
        json!({"type": "options", "skill": 21}),
        json!({"type": "options", "odds": "yes"}),
        json!({"type": "new_game", "seat": "purple"}),
        json!({"type": "new_game", "seat": 7}),
        json!({"type": "replay", "record": "position startpos moves e2e4 e2e4"}),
        json!({"type": "replay", "record": "nothing"}),
    ];
    for case in cases {
        page.refused(case);
    }
    for raw in ["{", "", "\u{0}\u{1}", &"[".repeat(10_000)] {
        page.socket.send(Message::text(raw)).unwrap();
        assert_eq!(page.next()["type"], "error", "{raw:.20}");
    }
    page.socket.send(Message::binary(vec![1, 2, 3])).unwrap();
    assert_eq!(page.next()["type"], "error");
    // Nothing was answered but the errors: no state, so nothing changed.
    let states = page.seen[start..]
        .iter()
        .filter(|m| m.contains("\"type\":\"state\""))
        .count();
    assert_eq!(states, 0);
    assert_eq!(server.record(), record);
    // Still the same game: a valid move is played from the same position.
    let legal = state["legal"].as_array().unwrap();
    page.send(json!({"type": "move", "move": legal[0]["text"]}));
    let after = page.until(|m| m["type"] == "state");
    assert_eq!(
        after["moves"].as_array().unwrap().len(),
        state["moves"].as_array().unwrap().len() + 1
    );
    // A frame over the limit is refused and ends that connection alone.
    page.my_turn();
    page.socket
        .send(Message::text("x".repeat(100_000)))
        .unwrap();
    let answer = page.socket.read();
    assert!(
        matches!(&answer, Ok(Message::Text(t)) if t.contains("error")) || answer.is_err(),
        "{answer:?}"
    );
    let mut again = Page::of(&server);
    assert_eq!(again.state["phase"], "play");
    again.my_turn();
}

#[test]
fn tokens_and_origins_are_checked() {
    let server = Server::start("tokens", &["--game", "foursquare"]);
    let url = &server.urls[0];
    let token = url.trim_end_matches('/').rsplit('/').next().unwrap();
    let port = server.port;
    assert_eq!(get(port, &format!("/{token}/"), &[]).0, 200);
    assert_eq!(get(port, &format!("/{token}/app.js"), &[]).0, 200);
    assert_eq!(get(port, &format!("/{token}/record"), &[]).0, 200);
    assert_eq!(get(port, &format!("/?token={token}"), &[]).0, 303);
    for path in [
        "/",
        "/app.js",
        "/0123/",
        "/ws",
        &format!("/{token}x/"),
        "/?token=abc",
    ] {
        assert_eq!(get(port, path, &[]).0, 403, "{path}");
    }
    let foreign = [("Origin", "http://evil.example")];
    assert_eq!(get(port, &format!("/{token}/"), &foreign).0, 403);
    assert_eq!(get(port, &format!("/{token}/nothing"), &[]).0, 404);
    let own = format!("http://127.0.0.1:{port}");
    assert!(Page::open(url, &own).is_ok());
    assert!(Page::open(url, &format!("http://localhost:{port}")).is_ok());
    assert!(Page::open(url, "http://evil.example").is_err());
    assert!(Page::open(url, "").is_err());
    let wrong = url.replace(token, "ffffffffffffffffffffffffffffffff");
    assert!(Page::open(&wrong, &own).is_err());
}

#[test]
fn two_people_each_see_their_own_seat() {
    let server = Server::start(
        "two-people",
        &[
            "--game",
            "junqi",
            "--seat",
            "S",
            "--seat",
            "E",
            "--movetime",
            "30",
        ],
    );
    let mut south = Page::open(
        &server.urls[0],
        &format!("http://127.0.0.1:{}", server.port),
    )
    .unwrap();
    let mut east = Page::open(
        &server.urls[1],
        &format!("http://127.0.0.1:{}", server.port),
    )
    .unwrap();
    assert_eq!(south.state["you"], 0);
    assert_eq!(east.state["you"], 1);
    assert_eq!(east.state["seats"][0]["player"], "human");
    for page in [&mut south, &mut east] {
        page.send(json!({"type": "ready"}));
    }
    assert!(south.my_turn());
    // East may not move for South.
    let text = south.state["legal"][0]["text"].clone();
    east.refused(json!({"type": "move", "move": text}));
    south.play(&text);
    assert!(east.my_turn());
    assert_sees_only_its_own(&east.state, 1);
    assert_sees_only_its_own(&south.state, 0);
}

/// A UGI engine in `sh` that answers the handshake and then, at its first `go`, does
/// `then` (exit, or nothing at all).
fn fake_engine(then: &str) -> String {
    format!(
        "sh -c 'while read -r line; do case $line in ugi) echo ugiok;; isready) echo readyok;; \
         quit) exit 0;; go\\ deploy) echo deploy adgicegebigckhfdjhjkfljhi;; go*) {then};; \
         esac; done'"
    )
}

#[test]
fn engines_that_crash_or_hang_forfeit_and_the_game_goes_on() {
    let qiyi = format!("{} --game junqi", env!("CARGO_BIN_EXE_qiyi"));
    let crash = fake_engine("exit 1");
    let hang = fake_engine("sleep 1000");
    let server = Server::start(
        "forfeits",
        &[
            "--game",
            "junqi",
            "--info",
            "open",
            "--seat",
            "S",
            "--movetime",
            "40",
            "--engine",
            &qiyi,
            "--engine",
            &crash,
            "--engine",
            &hang,
        ],
    );
    let mut page = Page::of(&server);
    page.send(json!({"type": "ready"}));
    // N crashes at its first turn and is out; W never answers, so its turns are played
    // as timeouts until MaxPasses puts it out too; the game goes on between S and E.
    let mut rng = StdRng::seed_from_u64(5);
    while page.my_turn() {
        if page.state["seats"][2]["out"] == true && page.state["seats"][3]["out"] == true {
            break;
        }
        let legal = page.state["legal"].as_array().unwrap().clone();
        page.play(&legal.choose(&mut rng).unwrap()["text"]);
    }
    assert_eq!(page.state["seats"][2]["out"], true, "{}", page.state);
    assert_eq!(page.state["seats"][3]["out"], true, "{}", page.state);
    // Each event is told once, in the state of the change it caused.
    let events: Vec<String> = page
        .seen
        .iter()
        .filter_map(|text| serde_json::from_str::<Value>(text).ok())
        .flat_map(|m| m["events"].as_array().cloned().unwrap_or_default())
        .map(|e| e["text"].as_str().unwrap_or("").to_string())
        .collect();
    let gone = events
        .iter()
        .filter(|e| e.contains("N's engine is gone"))
        .count();
    assert_eq!(gone, 1, "{events:?}");
    let events = events.join("\n");
    assert!(
        events.contains("W's engine did not answer in time"),
        "{events}"
    );
    // In the open game a forfeit is the resign it equals.
    let record = server.record_until(|r| r.contains("resign") && r.matches("timeout").count() >= 5);
    assert!(record.contains("timeout"), "{record}");
}

#[test]
fn a_persons_clock_runs_out() {
    let server = Server::start("clock", &["--game", "foursquare", "--clock", "1"]);
    let mut page = Page::of(&server);
    assert_eq!(page.state["clock"], 1, "{}", page.state);
    let over = page.until(|m| m["type"] == "state" && m["phase"] == "over");
    let text = over["result"]["text"].as_str().unwrap();
    assert!(text.contains("black ran out of time"), "{text}");
    assert_eq!(over["result"]["winner"], 1);
}

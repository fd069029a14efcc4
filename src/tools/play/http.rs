//! The HTTP side of `qiyi play`: one request per connection, parsed with `httparse`, every
//! path under a seat's token (`/<token>/...`), the WebSocket upgrade handed to `socket`.
//!
//! A hand-written server of this size beats a framework here: the program is built on
//! threads, serves a handful of compiled-in files and one socket per page, and a fresh
//! clone should not compile an async runtime for that.

use super::socket;
use super::table::{Event, Table};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// The longest request head accepted.
const MAX_HEAD: usize = 16 * 1024;
/// How long a client has to send its request head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);

/// The page's files, compiled in: name, content type, text.
const ASSETS: [(&str, &str, &str); 18] = [
    ("index.html", HTML, include_str!("web/index.html")),
    ("style.css", CSS, include_str!("web/style.css")),
    ("app.js", JS, include_str!("web/app.js")),
    ("state.js", JS, include_str!("web/state.js")),
    ("page.js", JS, include_str!("web/page.js")),
    ("connection.js", JS, include_str!("web/connection.js")),
    ("messages.js", JS, include_str!("web/messages.js")),
    ("board.js", JS, include_str!("web/board.js")),
    ("panels.js", JS, include_str!("web/panels.js")),
    ("clock.js", JS, include_str!("web/clock.js")),
    ("replay.js", JS, include_str!("web/replay.js")),
    ("controls.js", JS, include_str!("web/controls.js")),
    ("ranks.js", JS, include_str!("web/ranks.js")),
    ("svg.js", JS, include_str!("web/svg.js")),
    ("junqi.js", JS, include_str!("web/junqi.js")),
    ("chess.js", JS, include_str!("web/chess.js")),
    ("shogi.js", JS, include_str!("web/shogi.js")),
    ("foursquare.js", JS, include_str!("web/foursquare.js")),
];
const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";

/// What every connection thread shares.
pub struct Server {
    /// Each person's secret, by person.
    tokens: Vec<String>,
    /// The origins a page of this server has.
    origins: [String; 3],
    table: Table,
    /// A directory the assets are read from instead of the compiled-in copies, for work
    /// on the page without rebuilding (`QIYI_PLAY_ASSETS`).
    assets_dir: Option<std::path::PathBuf>,
}

impl Server {
    /// A server for `tokens`' people, reached at `host` (and loopback) on `port`.
    pub fn new(tokens: Vec<String>, host: &str, port: u16, table: Table) -> Server {
        Server {
            tokens,
            origins: [
                format!("http://{host}:{port}"),
                format!("http://127.0.0.1:{port}"),
                format!("http://localhost:{port}"),
            ],
            table,
            assets_dir: std::env::var_os("QIYI_PLAY_ASSETS").map(Into::into),
        }
    }

    /// The person a token stands for; every byte compared, so timing tells nothing of a
    /// prefix.
    fn person(&self, token: &str) -> Option<usize> {
        self.tokens.iter().position(|t| {
            t.len() == token.len()
                && t.bytes()
                    .zip(token.bytes())
                    .fold(0, |acc, (a, b)| acc | (a ^ b))
                    == 0
        })
    }

    fn asset(&self, name: &str) -> Option<(&'static str, Vec<u8>)> {
        let &(_, kind, text) = ASSETS.iter().find(|(n, _, _)| *n == name)?;
        if let Some(dir) = &self.assets_dir
            && let Ok(bytes) = std::fs::read(dir.join(name))
        {
            return Some((kind, bytes));
        }
        Some((kind, text.as_bytes().to_vec()))
    }
}

/// A parsed request head: what routing needs.
struct Request {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Serves one connection: a request, or a WebSocket for as long as the page stays.
pub fn serve(mut stream: TcpStream, server: &Server) {
    let request = match read_head(&mut stream) {
        Ok(request) => request,
        Err(why) => {
            respond(&mut stream, 400, "text/plain", why.as_bytes(), &[]);
            return;
        }
    };
    if request.method != "GET" {
        respond(&mut stream, 405, "text/plain", b"only GET", &[]);
        return;
    }
    // `/?token=T`, the form some launchers print, goes to the page's own address.
    if let Some(token) = request.path.strip_prefix("/?token=") {
        if server.person(token).is_some() {
            to_page(&mut stream, token);
        } else {
            respond(&mut stream, 403, "text/plain", b"wrong token", &[]);
        }
        return;
    }
    let path = request.path.split('?').next().unwrap_or("");
    let mut parts = path.trim_start_matches('/').splitn(2, '/');
    let token = parts.next().unwrap_or("");
    let Some(person) = server.person(token) else {
        respond(
            &mut stream,
            403,
            "text/plain",
            b"wrong or missing token",
            &[],
        );
        return;
    };
    let Some(rest) = parts.next() else {
        to_page(&mut stream, token);
        return;
    };
    // A browser names the page's origin on anything scripted; another origin is another
    // web page trying to drive the game.
    let origin = request.header("Origin");
    if origin.is_some_and(|o| !server.origins.iter().any(|allowed| allowed == o)) {
        respond(&mut stream, 403, "text/plain", b"foreign origin", &[]);
        return;
    }
    match rest {
        "ws" => {
            if origin.is_none() {
                respond(
                    &mut stream,
                    403,
                    "text/plain",
                    b"a WebSocket needs an Origin",
                    &[],
                );
                return;
            }
            match upgrade(&mut stream, &request) {
                Ok(()) => socket::run(stream, person, server.table.clone()),
                Err(why) => respond(&mut stream, 400, "text/plain", why.as_bytes(), &[]),
            }
        }
        "record" => {
            let (sender, answer) = std::sync::mpsc::channel();
            server.table.send(Event::Record { person, sender });
            match answer.recv_timeout(Duration::from_secs(5)) {
                Ok(text) => respond(
                    &mut stream,
                    200,
                    "text/plain; charset=utf-8",
                    text.as_bytes(),
                    &[(
                        "Content-Disposition",
                        "attachment; filename=\"qiyi-game.txt\"",
                    )],
                ),
                Err(_) => respond(&mut stream, 503, "text/plain", b"the table is busy", &[]),
            }
        }
        name => {
            let name = if name.is_empty() { "index.html" } else { name };
            match server.asset(name) {
                Some((kind, body)) => respond(&mut stream, 200, kind, &body, &[]),
                None => respond(&mut stream, 404, "text/plain", b"not found", &[]),
            }
        }
    }
}

/// Reads and parses the request head.
fn read_head(stream: &mut TcpStream) -> Result<Request, String> {
    stream
        .set_read_timeout(Some(HEAD_TIMEOUT))
        .map_err(|e| e.to_string())?;
    let mut bytes = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    loop {
        if bytes.windows(4).any(|w| w == b"\r\n\r\n") {
            break;
        }
        if bytes.len() > MAX_HEAD {
            return Err("request head too large".into());
        }
        match stream.read(&mut chunk) {
            Ok(0) => return Err("connection closed before the request ended".into()),
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            Err(e) => return Err(format!("cannot read the request: {e}")),
        }
    }
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut parsed = httparse::Request::new(&mut headers);
    match parsed.parse(&bytes) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => return Err("incomplete request".into()),
        Err(e) => return Err(format!("bad request: {e}")),
    }
    Ok(Request {
        method: parsed.method.unwrap_or("").to_string(),
        path: parsed.path.unwrap_or("").to_string(),
        headers: parsed
            .headers
            .iter()
            .map(|h| {
                (
                    h.name.to_string(),
                    String::from_utf8_lossy(h.value).into_owned(),
                )
            })
            .collect(),
    })
}

/// Answers a WebSocket handshake (RFC 6455: version 13, the accept key from the client's).
fn upgrade(stream: &mut TcpStream, request: &Request) -> Result<(), String> {
    let wants = |name: &str, word: &str| {
        request.header(name).is_some_and(|v| {
            v.split(',')
                .any(|part| part.trim().eq_ignore_ascii_case(word))
        })
    };
    if !wants("Upgrade", "websocket") || !wants("Connection", "upgrade") {
        return Err("expected a WebSocket upgrade".into());
    }
    if request.header("Sec-WebSocket-Version") != Some("13") {
        return Err("WebSocket version 13 only".into());
    }
    let key = request
        .header("Sec-WebSocket-Key")
        .ok_or("no Sec-WebSocket-Key")?;
    let accept = tungstenite::handshake::derive_accept_key(key.trim().as_bytes());
    let head = format!(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Accept: {accept}\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).map_err(|e| e.to_string())
}

/// Sends the browser to the page of the seat `token` opens, `/<token>/`.
fn to_page(stream: &mut TcpStream, token: &str) {
    let location = format!("/{token}/");
    respond(stream, 303, "text/plain", b"", &[("Location", &location)]);
}

/// Writes a whole response and ends the exchange.
fn respond(stream: &mut TcpStream, status: u16, kind: &str, body: &[u8], extra: &[(&str, &str)]) {
    let reason = match status {
        200 => "OK",
        303 => "See Other",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        _ => "Service Unavailable",
    };
    let mut head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
         Referrer-Policy: no-referrer\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in extra {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let _ = stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body))
        .and_then(|()| stream.flush());
}

#[cfg(test)]
mod tests {
    use super::ASSETS;

    /// A page file left out of the list fails only in a browser, as a missing module:
    /// every file of `web/` is served, and every module a served file imports.
    #[test]
    fn every_page_file_is_served() {
        let served = |name: &str| ASSETS.iter().any(|(n, _, _)| *n == name);
        let web = concat!(env!("CARGO_MANIFEST_DIR"), "/src/tools/play/web");
        for entry in std::fs::read_dir(web).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            assert!(served(&name), "web/{name} is not served");
        }
        for (name, _, text) in ASSETS {
            for import in text.split("from './").skip(1) {
                let module = import.split('\'').next().unwrap();
                assert!(
                    served(module),
                    "{name} imports {module}, which is not served"
                );
            }
        }
    }
}

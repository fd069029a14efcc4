//! One page's WebSocket: text frames of JSON in, the table's messages out.
//!
//! One thread per page polls both ways: the socket with a short read timeout, then the
//! table's outgoing messages, so a move reaches the page within [`POLL`] of being made
//! without a second thread writing to the same socket.

use super::table::{Event, Table};
use std::net::TcpStream;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{TryRecvError, channel};
use std::time::Duration;
use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{Error, Message, WebSocket};

/// The longest a message waits for the socket thread.
const POLL: Duration = Duration::from_millis(10);
/// The largest message a page may send.
pub const MAX_MESSAGE: usize = 64 * 1024;

/// Numbers connections so the table can tell them apart.
static NEXT: AtomicU64 = AtomicU64::new(1);

/// Runs the socket of `person`'s page until either side closes it.
pub fn run(stream: TcpStream, person: usize, table: Table) {
    if let Err(e) = stream.set_read_timeout(Some(POLL)) {
        log::warn!("cannot set the socket's timeout: {e}");
        return;
    }
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE));
    let mut socket = WebSocket::from_raw_socket(stream, Role::Server, Some(config));
    let conn = NEXT.fetch_add(1, Ordering::Relaxed);
    let (sender, outgoing) = channel();
    table.send(Event::Join {
        conn,
        person,
        sender,
    });
    loop {
        match socket.read() {
            Ok(Message::Text(text)) => {
                table.send(Event::Intent {
                    conn,
                    person,
                    text: text.to_string(),
                });
            }
            Ok(Message::Binary(_)) => {
                if send(
                    &mut socket,
                    &error("binary frames are not read; send JSON text"),
                ) {
                    break;
                }
            }
            Ok(Message::Close(_)) => break,
            Ok(_) => {}
            Err(Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(Error::Capacity(e)) => {
                // The frame cannot be read past; say why, then end the connection (the
                // page reconnects and is sent the game again).
                let _ = send(&mut socket, &error(&format!("message refused: {e}")));
                let _ = socket.close(None);
                let _ = socket.flush();
                break;
            }
            Err(e) => {
                log::debug!("socket {conn}: {e}");
                break;
            }
        }
        let closed = loop {
            match outgoing.try_recv() {
                Ok(text) => {
                    if send(&mut socket, &text) {
                        break true;
                    }
                }
                Err(TryRecvError::Empty) => break false,
                Err(TryRecvError::Disconnected) => break true,
            }
        };
        if closed {
            break;
        }
        // Pongs and close replies queued by `read`.
        match socket.flush() {
            Ok(()) => {}
            Err(Error::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(_) => break,
        }
    }
    table.send(Event::Leave { conn });
}

/// Sends one text message; `true` when the connection is gone.
fn send(socket: &mut WebSocket<TcpStream>, text: &str) -> bool {
    socket.send(Message::text(text)).is_err()
}

/// An `error` message for the page.
pub fn error(message: &str) -> String {
    serde_json::json!({"type": "error", "message": message}).to_string()
}

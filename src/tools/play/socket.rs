//! One page's WebSocket: text frames of JSON in, the table's messages out.
//!
//! Two threads per page and one writer: the reader blocks on the socket and hands each
//! message to the table; the writer alone writes to the socket, in order, both what the
//! table sends and what the reader's WebSocket must answer itself (pongs, the closing
//! handshake). Nothing polls, so a message leaves as soon as the table sends it.

use super::table::{Event, Table};
use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use tungstenite::protocol::frame::Frame;
use tungstenite::protocol::frame::coding::{Data, OpCode};
use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{Error, Message, WebSocket};

/// The largest message a page may send.
pub const MAX_MESSAGE: usize = 64 * 1024;

/// Numbers connections so the table can tell them apart.
static NEXT: AtomicU64 = AtomicU64::new(1);

/// What the writer is given.
enum Out {
    /// A message for the page, framed by the writer.
    Text(String),
    /// Bytes the reader's WebSocket wrote (its automatic replies), already framed.
    Raw(Vec<u8>),
    /// Close the connection once what came before is written.
    Close,
}

/// Where the table sends a page's messages.
#[derive(Clone)]
pub struct Page(Sender<Out>);

impl Page {
    /// Queues a message for the page; `false` once the page is gone.
    pub fn send(&self, text: String) -> bool {
        self.0.send(Out::Text(text)).is_ok()
    }
}

/// The reader's side of the socket: reads from the connection, and hands anything its
/// WebSocket writes to the writer instead of writing it.
struct ReadHalf {
    stream: TcpStream,
    writer: Sender<Out>,
}

impl Read for ReadHalf {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.stream.read(buf)
    }
}

impl Write for ReadHalf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.writer
            .send(Out::Raw(buf.to_vec()))
            .map_err(|_| std::io::ErrorKind::BrokenPipe)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs the socket of `person`'s page until either side closes it.
pub fn run(stream: TcpStream, person: usize, table: Table) {
    // Small frames go out at once: with Nagle's algorithm a frame written in two parts
    // waits for the page's delayed acknowledgement, tens of milliseconds.
    let write_stream = match stream
        .set_read_timeout(None)
        .and_then(|()| stream.set_nodelay(true))
        .and_then(|()| stream.try_clone())
    {
        Ok(clone) => clone,
        Err(e) => {
            log::warn!("cannot set up the socket: {e}");
            return;
        }
    };
    let (sender, outgoing) = channel();
    let writer = std::thread::Builder::new()
        .name("page writer".into())
        .spawn(move || {
            let mut stream = write_stream;
            for out in outgoing {
                let written = match out {
                    Out::Text(text) => {
                        let mut bytes = Vec::with_capacity(text.len() + 10);
                        Frame::message(text, OpCode::Data(Data::Text), true)
                            .format(&mut bytes)
                            .map_err(std::io::Error::other)
                            .and_then(|()| stream.write_all(&bytes))
                    }
                    Out::Raw(bytes) => stream.write_all(&bytes),
                    Out::Close => {
                        let mut bytes = Vec::new();
                        let _ = Frame::close(None).format(&mut bytes);
                        let _ = stream.write_all(&bytes);
                        break;
                    }
                };
                if written.is_err() {
                    break;
                }
            }
            // Wakes the reader, whose blocking read then ends.
            let _ = stream.shutdown(Shutdown::Both);
        });
    if let Err(e) = writer {
        log::warn!("cannot start a page's writer: {e}");
        return;
    }
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE));
    let half = ReadHalf {
        stream,
        writer: sender.clone(),
    };
    let mut socket = WebSocket::from_raw_socket(half, Role::Server, Some(config));
    let conn = NEXT.fetch_add(1, Ordering::Relaxed);
    table.send(Event::Join {
        conn,
        person,
        page: Page(sender.clone()),
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
                let _ = sender.send(Out::Text(error(
                    "binary frames are not read; send JSON text",
                )));
            }
            Ok(Message::Close(_)) => break,
            Ok(_) => {}
            Err(Error::Capacity(e)) => {
                // The frame cannot be read past; say why, then end the connection (the
                // page reconnects and is sent the game again).
                let _ = sender.send(Out::Text(error(&format!("message refused: {e}"))));
                let _ = sender.send(Out::Close);
                break;
            }
            Err(e) => {
                log::debug!("socket {conn}: {e}");
                break;
            }
        }
    }
    table.send(Event::Leave { conn });
}

/// An `error` message for the page.
pub fn error(message: &str) -> String {
    serde_json::json!({"type": "error", "message": message}).to_string()
}

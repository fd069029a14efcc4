//! FSN, FourSquare's position notation: `<rows> <side> [ply]`.
//!
//! Rows run from rank 4 down to rank 1, separated by `/`; `b` is a black piece, `w` a
//! white one, a digit 1–4 a run of empty points and `.` one empty point. Each row holds
//! exactly four points. The side is `b` or `w`; the optional ply count defaults to 0.
//! Parsing is strict — a position typed wrongly should be refused, not guessed at — and
//! printing gives the canonical digit form, with the ply count only when it is nonzero.

use super::board::{BLACK, Position, WHITE};
use std::fmt;

/// Why a string is not FSN; every message quotes the offending field or token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FsnError {
    /// The text has no fields at all.
    Empty,
    /// The rows are not followed by a side to move.
    MissingSide { rows: String },
    /// A field after the ply count.
    ExtraField(String),
    /// The rows field does not hold exactly four `/`-separated rows.
    RowCount { rows: String, found: usize },
    /// A character that is none of `b`, `w`, `.`, `1`–`4`.
    BadChar { row: String, ch: char },
    /// A row that describes other than four points.
    RowLength {
        row: String,
        rank: usize,
        points: usize,
    },
    /// More than the four pieces a side starts with.
    TooManyPieces {
        rows: String,
        colour: &'static str,
        count: u32,
    },
    /// A side to move other than `b` or `w`.
    BadSide(String),
    /// A ply count that is not a plain non-negative 32-bit integer.
    BadPly(String),
}

impl fmt::Display for FsnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FsnError::Empty => write!(f, "empty FSN: expected '<rows> <side> [ply]'"),
            FsnError::MissingSide { rows } => {
                write!(f, "FSN '{rows}' lacks the side to move ('b' or 'w')")
            }
            FsnError::ExtraField(token) => {
                write!(f, "unexpected field '{token}' after the FSN ply count")
            }
            FsnError::RowCount { rows, found } => {
                write!(
                    f,
                    "FSN rows '{rows}' hold {found} rows separated by '/', need 4"
                )
            }
            FsnError::BadChar { row, ch } => write!(
                f,
                "bad character '{ch}' in FSN row '{row}' (use b, w, 1-4 or .)"
            ),
            FsnError::RowLength { row, rank, points } => write!(
                f,
                "FSN row '{row}' (rank {rank}) describes {points} points, need exactly 4"
            ),
            FsnError::TooManyPieces {
                rows,
                colour,
                count,
            } => {
                write!(
                    f,
                    "FSN rows '{rows}' give {colour} {count} pieces, at most 4"
                )
            }
            FsnError::BadSide(token) => {
                write!(f, "bad side to move '{token}' in FSN, need 'b' or 'w'")
            }
            FsnError::BadPly(token) => write!(
                f,
                "bad ply count '{token}' in FSN, need a non-negative integer"
            ),
        }
    }
}

impl std::error::Error for FsnError {}

/// Reads one row (`rank` is 1..=4, for messages) into black and white 4-bit masks by file.
fn parse_row(row: &str, rank: usize) -> Result<(u16, u16), FsnError> {
    let (mut black, mut white) = (0u16, 0u16);
    let mut points = 0usize;
    for ch in row.chars() {
        match ch {
            'b' | 'w' => {
                // Past the fourth point the row is already wrong; keep counting so the
                // message can say how long it is, but set no bit out of range.
                if points < 4 {
                    *if ch == 'b' { &mut black } else { &mut white } |= 1 << points;
                }
                points += 1;
            }
            '.' => points += 1,
            '1'..='4' => points += usize::from(ch as u8 - b'0'),
            _ => {
                return Err(FsnError::BadChar {
                    row: row.to_string(),
                    ch,
                });
            }
        }
    }
    if points != 4 {
        return Err(FsnError::RowLength {
            row: row.to_string(),
            rank,
            points,
        });
    }
    Ok((black, white))
}

impl Position {
    /// Parses FSN; the position comes without a ply limit (`MaxPlies` is a rule setting,
    /// applied afterwards).
    pub fn from_fsn(text: &str) -> Result<Position, FsnError> {
        let mut fields = text.split_whitespace();
        let rows = fields.next().ok_or(FsnError::Empty)?;
        let side = fields.next().ok_or_else(|| FsnError::MissingSide {
            rows: rows.to_string(),
        })?;
        let ply = fields.next();
        if let Some(extra) = fields.next() {
            return Err(FsnError::ExtraField(extra.to_string()));
        }

        let row_list: Vec<&str> = rows.split('/').collect();
        if row_list.len() != 4 {
            return Err(FsnError::RowCount {
                rows: rows.to_string(),
                found: row_list.len(),
            });
        }
        let mut pieces = [0u16; 2];
        for (i, row) in row_list.iter().enumerate() {
            let rank = 4 - i;
            let (black, white) = parse_row(row, rank)?;
            pieces[BLACK] |= black << ((rank - 1) * 4);
            pieces[WHITE] |= white << ((rank - 1) * 4);
        }
        for (player, colour) in [(BLACK, "Black"), (WHITE, "White")] {
            let count = pieces[player].count_ones();
            if count > 4 {
                return Err(FsnError::TooManyPieces {
                    rows: rows.to_string(),
                    colour,
                    count,
                });
            }
        }

        let side = match side {
            "b" => BLACK,
            "w" => WHITE,
            other => return Err(FsnError::BadSide(other.to_string())),
        };
        let ply = match ply {
            None => 0,
            // `u32::from_str` would also take a leading '+'; FSN wants bare digits.
            Some(token) if token.bytes().all(|b| b.is_ascii_digit()) => token
                .parse::<u32>()
                .map_err(|_| FsnError::BadPly(token.to_string()))?,
            Some(token) => return Err(FsnError::BadPly(token.to_string())),
        };
        Ok(Position {
            pieces,
            side,
            ply,
            max_plies: 0,
        })
    }

    /// The canonical FSN: digit runs for empty points, the ply count only when nonzero.
    pub fn fsn(&self) -> String {
        let mut out = String::with_capacity(24);
        for rank in (0..4).rev() {
            let mut empty = 0u8;
            for file in 0..4 {
                let bit = 1u16 << (rank * 4 + file);
                let piece = if self.pieces[BLACK] & bit != 0 {
                    'b'
                } else if self.pieces[WHITE] & bit != 0 {
                    'w'
                } else {
                    empty += 1;
                    continue;
                };
                if empty > 0 {
                    out.push(char::from(b'0' + empty));
                    empty = 0;
                }
                out.push(piece);
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(if self.side == BLACK { 'b' } else { 'w' });
        if self.ply != 0 {
            out.push(' ');
            out.push_str(&self.ply.to_string());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_reads_and_prints() {
        let pos = Position::from_fsn("bbbb/4/4/wwww b").unwrap();
        assert_eq!(pos.pieces(BLACK), 0xF000);
        assert_eq!(pos.pieces(WHITE), 0x000F);
        assert_eq!(pos.side, BLACK);
        assert_eq!(pos.ply(), 0);
        assert_eq!(pos.fsn(), "bbbb/4/4/wwww b");
    }

    #[test]
    fn round_trips() {
        for fsn in [
            "bbbb/4/4/wwww b",
            "bbbb/4/4/wwww w",
            "b2b/1w2/w3/1b1w w 17",
            "4/4/4/4 b",
            "b3/4/4/3w w 4294967295",
            "1b1b/w2w/2b1/w3 b 3",
            "bwbw/wbwb/4/4 w",
        ] {
            let pos = Position::from_fsn(fsn).unwrap();
            assert_eq!(pos.fsn(), fsn);
        }
    }

    #[test]
    fn dots_and_split_runs_read_as_canonical() {
        for (input, canonical) in [
            ("bbbb/..../4/wwww b", "bbbb/4/4/wwww b"),
            ("b..b/1.1./22/w.w. w 0", "b2b/4/4/w1w1 w"),
            ("  bbbb/4/4/wwww   b  5 ", "bbbb/4/4/wwww b 5"),
            ("bbbb/4/4/wwww b 007", "bbbb/4/4/wwww b 7"),
        ] {
            assert_eq!(
                Position::from_fsn(input).unwrap().fsn(),
                canonical,
                "{input}"
            );
        }
    }

    #[test]
    fn invalid_inputs_name_the_bad_token() {
        // (input, text the error message must contain)
        let cases: &[(&str, &str)] = &[
            ("", "empty"),
            ("   ", "empty"),
            ("bbbb/4/4/wwww", "'bbbb/4/4/wwww'"),
            ("bbbb/4/4/wwww b 0 x", "'x'"),
            ("bbbb/4/wwww b", "'bbbb/4/wwww'"),
            ("bbbb/4/4/4/wwww b", "'bbbb/4/4/4/wwww'"),
            ("bbbb/4/4/wwww/ b", "'bbbb/4/4/wwww/'"),
            ("bbbx/4/4/wwww b", "'x'"),
            ("bbbb/4/4/wwwW b", "'W'"),
            ("bbbb/0/4/wwww b", "'0'"),
            ("bbbb/5/4/wwww b", "'5'"),
            ("bbbb/4/4/ww-w b", "'-'"),
            ("bbbb/4/4/wwwwé b", "'é'"),
            ("bbbbb/4/4/wwww b", "'bbbbb'"),
            ("bbb/4/4/wwww b", "'bbb'"),
            ("bbbb/3/4/wwww b", "'3'"),
            ("bbbb/41/4/wwww b", "'41'"),
            ("bbbb//4/wwww b", "''"),
            ("bbbb/bb2/4/wwww b", "Black 6"),
            ("bbbb/4/ww2/wwww b", "White 6"),
            ("bbbb/4/4/wwww x", "'x'"),
            ("bbbb/4/4/wwww B", "'B'"),
            ("bbbb/4/4/wwww bw", "'bw'"),
            ("bbbb/4/4/wwww b -1", "'-1'"),
            ("bbbb/4/4/wwww b +1", "'+1'"),
            ("bbbb/4/4/wwww b 1.5", "'1.5'"),
            ("bbbb/4/4/wwww b 4294967296", "'4294967296'"),
            ("bbbb/4/4/wwww b ten", "'ten'"),
        ];
        for &(input, needle) in cases {
            let err = Position::from_fsn(input).expect_err(input);
            let message = err.to_string();
            assert!(
                message.contains(needle),
                "{input:?} gave {message:?}, expected {needle:?}"
            );
        }
    }

    /// A poor man's fuzzer: random strings over FSN's alphabet and some strangers never
    /// panic, and whatever parses prints back to something that parses to the same.
    #[test]
    fn arbitrary_text_never_panics() {
        let alphabet: Vec<char> = "bw.012345/ /  -+x9é\t".chars().collect();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut parsed = 0;
        for _ in 0..200_000 {
            let len = (next() % 24) as usize;
            let text: String = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            // Bias towards the right shape so that some inputs get deep into the parser.
            let text = if next() % 2 == 0 {
                format!("{text}/4/4/wwww b")
            } else {
                text
            };
            if let Ok(pos) = Position::from_fsn(&text) {
                parsed += 1;
                assert_eq!(Position::from_fsn(&pos.fsn()), Ok(pos), "{text:?}");
            }
        }
        assert!(parsed > 0);
    }

    #[test]
    fn row_errors_say_which_rank() {
        let err = Position::from_fsn("bbbb/4/w/wwww b").unwrap_err();
        assert_eq!(
            err,
            FsnError::RowLength {
                row: "w".into(),
                rank: 2,
                points: 1
            }
        );
    }
}

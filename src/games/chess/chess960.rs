//! Chess960's 960 start positions by their standard numbers (Scharnagl's scheme), so a
//! game can start from any of them; number 518 is the standard position.

/// The Shredder-FEN of start position `number` (taken modulo 960): the castling field
/// names the rooks' files, which leaves no doubt which rook castles.
pub fn chess960_start(number: u32) -> String {
    let mut n = number % 960;
    let mut rank: [Option<char>; 8] = [None; 8];
    // The light-squared bishop on b, d, f or h; the dark-squared one on a, c, e or g.
    rank[(2 * (n % 4) + 1) as usize] = Some('B');
    n /= 4;
    rank[(2 * (n % 4)) as usize] = Some('B');
    n /= 4;
    place(&mut rank, (n % 6) as usize, 'Q');
    n /= 6;
    // The ten ways to put two knights on the five squares left, in order.
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (first, second) = KNIGHTS[n as usize];
    // The second knight's index counts the squares left once the first is placed.
    place(&mut rank, second, 'N');
    place(&mut rank, first, 'N');
    // Rook, king, rook on the three squares left.
    for piece in ['R', 'K', 'R'] {
        place(&mut rank, 0, piece);
    }
    let white: String = rank.iter().map(|p| p.unwrap_or('?')).collect();
    let files: Vec<char> = (0..8)
        .filter(|&f| rank[f] == Some('R'))
        .map(|f| char::from(b'a' + f as u8))
        .collect();
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {}{}{}{} - 0 1",
        white.to_ascii_lowercase(),
        files[1].to_ascii_uppercase(),
        files[0].to_ascii_uppercase(),
        files[1],
        files[0]
    )
}

/// Puts `piece` on the `index`-th empty square of `rank`.
fn place(rank: &mut [Option<char>; 8], index: usize, piece: char) {
    if let Some(square) = rank.iter_mut().filter(|p| p.is_none()).nth(index) {
        *square = Some(piece);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, MoveList};
    use crate::games::chess::Position;

    #[test]
    fn numbers_give_the_standard_table() {
        assert_eq!(
            chess960_start(518),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
        assert!(chess960_start(0).starts_with("bbqnnrkr/"));
        assert!(chess960_start(959).starts_with("rkrnnqbb/"));
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let fen = chess960_start(n);
            assert!(seen.insert(fen.clone()), "{fen}");
            let mut pos = Position::from_notation(&fen).unwrap();
            pos.set_rule_option("UCI_Chess960", "true").unwrap();
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            // Sixteen pawn moves; two for a knight, one from a corner; and castling where
            // the king and its rook only swap squares (king f1 and rook g1 castle short,
            // king d1 and rook c1 long), which is legal from the start.
            let back = &fen[fen.rfind('/').unwrap() + 1..][..8];
            let knights: usize = back
                .char_indices()
                .filter(|&(_, c)| c == 'N')
                .map(|(file, _)| if file == 0 || file == 7 { 1 } else { 2 })
                .sum();
            let castlings = usize::from(&back[5..7] == "KR") + usize::from(&back[2..4] == "RK");
            assert_eq!(moves.len(), 16 + knights + castlings, "{fen}");
        }
    }
}

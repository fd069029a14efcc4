//! FourSquare values by plain minimax over the rules (the `Game` trait), sharing nothing
//! with the tablebase or the search: the independent reference the tablebase and search
//! tests compare against.

use qiyi::core::{Game, MoveList, Outcome};
use qiyi::games::foursquare::Position;

/// A value proven by minimax for the side to move, with the plies until the game ends
/// (the winner hurrying, the loser delaying).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proven {
    Win(u32),
    Loss(u32),
}

/// The value of `pos` if the game is decided within `depth` plies whatever the loser
/// does; `None` otherwise (undecided that soon, or drawn). No pruning of any kind.
pub fn minimax(pos: &mut Position, depth: u32) -> Option<Proven> {
    if let Some(outcome) = pos.result() {
        return match outcome {
            Outcome::Draw => None,
            Outcome::Win(team) if team == pos.team_to_move() => Some(Proven::Win(0)),
            Outcome::Win(_) => Some(Proven::Loss(0)),
        };
    }
    if depth == 0 {
        return None;
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let mut fastest_win: Option<u32> = None;
    let mut slowest_loss = Some(0);
    for &mv in moves.iter() {
        pos.make_move(mv);
        let child = minimax(pos, depth - 1);
        pos.unmake_move(mv, ());
        match child {
            Some(Proven::Loss(n)) => {
                fastest_win = Some(fastest_win.map_or(n + 1, |w| w.min(n + 1)))
            }
            Some(Proven::Win(n)) => slowest_loss = slowest_loss.map(|l: u32| l.max(n + 1)),
            None => slowest_loss = None,
        }
    }
    fastest_win
        .map(Proven::Win)
        .or(slowest_loss.map(Proven::Loss))
}

/// A random position with 2 to 4 pieces a side and either side to move, as FSN.
pub fn random_fsn(mut next: impl FnMut(u32) -> u32) -> String {
    let mut squares: Vec<usize> = (0..16).collect();
    for i in (1..16).rev() {
        squares.swap(i, next(i as u32 + 1) as usize);
    }
    let black = 2 + next(3) as usize;
    let white = 2 + next(3) as usize;
    let mut board = ['.'; 16];
    for &sq in &squares[..black] {
        board[sq] = 'b';
    }
    for &sq in &squares[black..black + white] {
        board[sq] = 'w';
    }
    let rows: Vec<String> = (0..4)
        .rev()
        .map(|rank| board[rank * 4..rank * 4 + 4].iter().collect())
        .collect();
    let side = if next(2) == 0 { 'b' } else { 'w' };
    format!("{} {side}", rows.join("/"))
}

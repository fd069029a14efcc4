//! Iterative deepening and the root: each iteration searches the root moves inside an
//! aspiration window around the last score, the main thread reports and decides whether
//! to start another (asking `time` how long a settled answer deserves), and the answer
//! is the best line, a helper's deeper one, or a weakened choice among the best few.

use super::tt::Bound;
use super::worker::{INFINITY, Worker};
use super::{Report, ReportFn, SearchResult, Skill};
use crate::core::{Evaluator, Game, MATE, MAX_PLY, Score, mate_in};
use std::sync::atomic::Ordering;

/// Half-width of the first aspiration window.
const ASPIRATION: Score = 25;
/// How long a search runs before an aspiration failure gets an `info` line of its own:
/// the short searches of fast games would flood the GUI.
const REPORT_BOUNDS_AFTER: std::time::Duration = std::time::Duration::from_secs(1);

impl<'a, G: Game, E: Evaluator<G>> Worker<'a, G, E> {
    /// Iterative deepening. Only the main thread (id 0) reports and applies the limits;
    /// helpers search one ply deeper on odd ids so that the threads spread over depths.
    pub fn iterate(
        &mut self,
        mut report: Option<&mut ReportFn<'_, G::Move>>,
    ) -> SearchResult<G::Move> {
        let limits = self.shared.limits;
        let max_depth = limits
            .depth
            .map_or(MAX_PLY as u32 - 1, |d| d.clamp(1, MAX_PLY as u32 - 1));
        let mut completed = 0;
        let mut reported_best = None;
        let mut depth = 1 + (self.id % 2) as u32;
        while depth <= max_depth {
            for rm in &mut self.root_moves {
                rm.previous = rm.score;
            }
            for pv_index in 0..self.shared.multipv {
                self.seldepth = 0;
                self.aspiration(depth as i32, pv_index, report.as_deref_mut());
                self.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            completed = depth;
            if self.id != 0 && self.shared.multipv == 1 {
                self.shared.offer(self.report(depth, 0));
            }
            if let Some(report) = report.as_mut() {
                for index in 0..self.shared.multipv {
                    report(&self.report(depth, index));
                }
                reported_best = Some(self.root_moves[0].mv);
            }
            if self.id == 0 && self.iteration_ends_search(depth) {
                break;
            }
            // Helpers skip every other depth, so they run ahead of the main thread and
            // fill the shared table with deeper results than it has.
            depth += if self.id > 0 && depth >= 4 { 2 } else { 1 };
        }
        self.publish_nodes();
        if self.id == 0
            && let Some(skill) = self.shared.skill
        {
            return self.line_result(self.weakened_choice(skill), completed);
        }
        // A helper that got deeper than the main thread has the better answer.
        if self.id == 0
            && let Some(deeper) = self.shared.deeper_than(completed)
        {
            if let Some(report) = report.as_mut() {
                report(&Report {
                    nodes: self.shared.total_nodes(),
                    time: self.shared.control.elapsed(),
                    ..deeper.clone()
                });
            }
            return SearchResult {
                best: deeper.pv.first().copied(),
                ponder: deeper.pv.get(1).copied(),
                score: deeper.score,
                depth: deeper.depth,
                nodes: self.nodes,
            };
        }
        // An interrupted iteration may still have found a better move: say so before it
        // becomes the `bestmove`. The moves not yet searched might be better still, so its
        // score is a lower bound.
        if let Some(report) = report.as_mut()
            && reported_best != Some(self.root_moves[0].mv)
        {
            report(&Report {
                bound: Some(Bound::Lower),
                ..self.report(completed.max(1), 0)
            });
        }
        self.line_result(0, completed)
    }

    /// The answer of a search that plays root line `index`, `depth` its last completed
    /// iteration.
    fn line_result(&self, index: usize, depth: u32) -> SearchResult<G::Move> {
        let line = &self.root_moves[index];
        SearchResult {
            best: Some(line.mv),
            ponder: line.pv.get(1).copied(),
            score: line.settled_score(),
            depth,
            nodes: self.nodes,
        }
    }

    /// The root line a weakened search plays, among its best few ([`Skill::choose`]); a
    /// line whose iteration was cut short is never chosen.
    fn weakened_choice(&self, skill: Skill) -> usize {
        let lines = self.shared.multipv.min(self.root_moves.len());
        skill.choose(
            self.root_moves[..lines]
                .iter()
                .map(|line| (line.score != -INFINITY).then_some(line.score)),
        )
    }

    /// Whether the main thread should not start another iteration.
    fn iteration_ends_search(&mut self, depth: u32) -> bool {
        let shared = self.shared;
        let limits = shared.limits;
        if let Some(mate) = limits.mate {
            let score = self.root_moves[0].score;
            if score >= mate_in((2 * mate as usize).saturating_sub(1)) {
                return true;
            }
        }
        if shared.control.is_pondering() || limits.infinite {
            return false;
        }
        if limits
            .depth
            .is_some_and(|d| shared.deepest_depth.load(Ordering::Relaxed) >= d)
        {
            return true;
        }
        if let Some(nodes) = limits.nodes
            && shared.total_nodes() >= nodes
        {
            return true;
        }
        // With a single legal move under a clock, thinking cannot change the answer.
        let clock_only = limits.depth.is_none() && limits.movetime.is_none();
        if clock_only && self.root_moves.len() == 1 && depth >= 1 && shared.budget.soft.is_some() {
            return true;
        }
        let Some(soft) = shared.budget.soft else {
            return false;
        };
        // A soft limit as far as the hard one leaves nothing to scale: the time is to be
        // spent (byoyomi).
        if !clock_only || shared.budget.hard == Some(soft) {
            return shared.control.elapsed() >= soft;
        }
        let best = &self.root_moves[0];
        let percent = self
            .stability
            .percent(best.mv, best.score, depth, best.nodes, self.nodes);
        shared.control.elapsed() >= shared.budget.scaled(soft, percent)
    }

    fn report(&self, depth: u32, index: usize) -> Report<G::Move> {
        let rm = &self.root_moves[index];
        let score = rm.settled_score();
        Report {
            depth,
            seldepth: rm.seldepth.max(depth as usize) as u32,
            multipv: index + 1,
            score: score.clamp(-MATE, MATE),
            bound: None,
            nodes: self.shared.total_nodes().max(self.nodes),
            time: self.shared.control.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            pv: rm.pv.clone(),
            worlds: None,
        }
    }

    /// Searches the root for `pv_index` with a window around the previous score, widening
    /// it on failure. A failure in a long search is reported as the bound it is, so a GUI
    /// sees at once which way the score is going.
    fn aspiration(
        &mut self,
        depth: i32,
        pv_index: usize,
        mut report: Option<&mut ReportFn<'_, G::Move>>,
    ) {
        let previous = self.root_moves[pv_index].previous;
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE - MAX_PLY as Score {
            (
                (previous - delta).max(-INFINITY),
                (previous + delta).min(INFINITY),
            )
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.root(depth, alpha, beta, pv_index);
            self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                return;
            }
            let failed_low = score <= alpha && alpha > -INFINITY;
            let failed_high = score >= beta && beta < INFINITY;
            if (failed_low || failed_high)
                && let Some(report) = report.as_mut()
                && self.shared.control.elapsed() >= REPORT_BOUNDS_AFTER
            {
                report(&Report {
                    bound: Some(if failed_low {
                        Bound::Upper
                    } else {
                        Bound::Lower
                    }),
                    ..self.report(depth as u32, pv_index)
                });
            }
            if failed_low {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if failed_high {
                beta = (score + delta).min(INFINITY);
            } else {
                return;
            }
            delta += delta;
        }
    }

    fn root(&mut self, depth: i32, mut alpha: Score, beta: Score, pv_index: usize) -> Score {
        self.root_depth = depth as usize;
        let mut best = -INFINITY;
        let team = self.pos.team_to_move();
        self.nodes += 1;
        for i in pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            self.played[0] = Some((mv, self.pos.piece_to(mv) as u32));
            let nodes_before = self.nodes;
            let undo = self.play(mv);
            let same = self.pos.team_to_move() == team;
            let value = if i == pv_index {
                self.child(alpha, beta, depth - 1, 1, same, true)
            } else {
                let v = self.child(alpha, alpha + 1, depth - 1, 1, same, false);
                if v > alpha && v < beta {
                    self.child(alpha, beta, depth - 1, 1, same, true)
                } else {
                    v
                }
            };
            self.take_back(mv, undo);
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_index || value > alpha {
                rm.score = value;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1]);
                best = best.max(value);
                if value > alpha {
                    alpha = value;
                }
                if value >= beta {
                    break;
                }
            } else {
                rm.score = -INFINITY;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::super::worker::tests::with_chess_worker;
    use crate::core::Game;
    use crate::games::chess;
    use crate::search::Limits;

    #[test]
    fn root_moves_count_the_nodes_searched_under_them() {
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        with_chess_worker(&chess::Position::start_position(), limits, |worker, _| {
            worker.iterate(None);
            let under: Vec<u64> = worker.root_moves.iter().map(|rm| rm.nodes).collect();
            let total: u64 = under.iter().sum();
            // Every node lies under one root move but the root itself, once per search of
            // it (an iteration, or a window of one).
            assert!(total < worker.nodes && worker.nodes - total < 50);
            assert!(under.iter().all(|&n| n > 0), "every move was searched");
        });
    }
}

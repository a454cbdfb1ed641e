//! The search's per-ply stack: what the node at each ply of the current path
//! leaves for the nodes below it (the move it played, its static
//! evaluation, the move a singular-extension test leaves out, its principal
//! variation) and its killers. One entry a ply instead of one vector a
//! field, so that everything a ply knows is in one place and the stack is
//! allocated once per thread ([`super::thread::ThreadData`]).

use crate::score::INF;
use movegen::Move;

/// Deepest ply searched.
pub const MAX_PLY: usize = 120;

/// Entries of the stack: plies `0..=MAX_PLY` and one past the deepest, which
/// a node at [`MAX_PLY`] clears before it returns.
pub(crate) const STACK_LEN: usize = MAX_PLY + 2;

/// What one ply of the current path knows.
#[derive(Clone, Debug)]
pub(crate) struct StackEntry {
    /// The two quiet moves that last cut off at this ply, newest first
    /// (kept from one search of a game to the next, moved to the plies
    /// they have from the new root).
    pub killers: [Option<Move>; 2],
    /// The continuation table's index ([`super::history::piece_to`]) of
    /// the move played from this ply (`None`: a null move, or
    /// `continuation_history` off).
    pub played_piece_to: Option<usize>,
    /// The move the search of this ply leaves out (`None`: an ordinary
    /// search): the singular-extension test searches a node's other moves
    /// at the node's own ply, and that search neither takes a cutoff from
    /// the node's table entry nor stores one, prunes by null move or
    /// reverse futility, or tries ProbCut.
    pub excluded: Option<Move>,
    /// Static evaluation of the main-search node at this ply (`-INF` in
    /// check), for the improving test.
    pub static_eval: i32,
    /// Principal variation of the node at this ply.
    pub pv: Vec<Move>,
}

impl Default for StackEntry {
    fn default() -> Self {
        StackEntry {
            killers: [None; 2],
            played_piece_to: None,
            excluded: None,
            static_eval: -INF,
            pv: Vec::new(),
        }
    }
}

/// The stack of a thread: [`STACK_LEN`] entries once allocated.
#[derive(Clone, Debug, Default)]
pub(crate) struct Stack {
    /// By ply.
    pub entries: Vec<StackEntry>,
}

impl Stack {
    /// Every entry as a new search finds it, killers aside: nothing played
    /// or left out, no evaluation, empty lines (their room kept).
    pub fn reset_path(&mut self) {
        self.entries.resize_with(STACK_LEN, StackEntry::default);
        for e in &mut self.entries {
            e.played_piece_to = None;
            e.excluded = None;
            e.static_eval = -INF;
            e.pv.clear();
        }
    }

    /// Forgets every killer.
    pub fn clear_killers(&mut self) {
        for e in &mut self.entries {
            e.killers = [None; 2];
        }
    }

    /// The killers of a search whose root was `moved` plies before the new
    /// one's, moved to the plies they have from the new root: those of ply
    /// `moved + k` become those of ply `k`, the deepest plies get none. All
    /// are forgotten unless `moved` is at least one and below the stack's
    /// length (the game did not move forward, or moved past them).
    pub fn shift_killers(&mut self, moved: usize) {
        let n = self.entries.len();
        if !(1..n).contains(&moved) {
            self.clear_killers();
            return;
        }
        for k in 0..n {
            self.entries[k].killers = if k + moved < n {
                self.entries[k + moved].killers
            } else {
                [None; 2]
            };
        }
    }
}

impl std::ops::Index<usize> for Stack {
    type Output = StackEntry;
    #[inline]
    fn index(&self, ply: usize) -> &StackEntry {
        &self.entries[ply]
    }
}

impl std::ops::IndexMut<usize> for Stack {
    #[inline]
    fn index_mut(&mut self, ply: usize) -> &mut StackEntry {
        &mut self.entries[ply]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::variants::Chess;
    use movegen::Position;

    #[test]
    fn killers_move_with_the_root_and_the_path_resets() {
        let pos = Position::<Chess>::startpos();
        let (a, b) = (pos.legal_moves()[0], pos.legal_moves()[1]);
        let mut s = Stack::default();
        s.reset_path();
        assert_eq!(s.entries.len(), STACK_LEN);
        s[3].killers = [Some(a), None];
        s[STACK_LEN - 1].killers = [Some(b), None];
        s[5].pv.push(a);
        s.shift_killers(2);
        assert_eq!(s[1].killers, [Some(a), None]);
        assert_eq!(s[3].killers, [None, None]);
        assert_eq!(s[STACK_LEN - 3].killers, [Some(b), None]);
        assert_eq!(s[STACK_LEN - 1].killers, [None, None], "none from beyond");
        s.reset_path();
        assert_eq!(s[5].pv.len(), 0);
        assert_eq!(s[1].killers, [Some(a), None], "killers outlive the path");
        s.shift_killers(0);
        assert!(s.entries.iter().all(|e| e.killers == [None, None]));
    }
}

//! A fixed-capacity move list that lives on the stack: the search and perft create one per
//! node, so it must never touch the allocator nor pay to initialise unused slots.

use std::mem::MaybeUninit;

/// Enough for every game here: shogi's known maximum is 593 legal moves.
const CAPACITY: usize = 640;

/// A list of at most 640 moves.
pub struct MoveList<M: Copy> {
    len: usize,
    items: [MaybeUninit<M>; CAPACITY],
}

impl<M: Copy> MoveList<M> {
    /// An empty list.
    #[inline]
    pub fn new() -> Self {
        MoveList {
            len: 0,
            items: [const { MaybeUninit::uninit() }; CAPACITY],
        }
    }

    /// Appends a move. Panics past the capacity, which no legal position reaches.
    #[inline]
    pub fn push(&mut self, mv: M) {
        self.items[self.len] = MaybeUninit::new(mv);
        self.len += 1;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub fn as_slice(&self) -> &[M] {
        // SAFETY: the first `len` slots were written by `push`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<M>(), self.len) }
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        // SAFETY: the first `len` slots were written by `push`.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast::<M>(), self.len) }
    }

    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.as_slice().iter()
    }

    /// Keeps the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&M) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            // SAFETY: i < len, so the slot is initialised.
            let mv = unsafe { self.items[i].assume_init() };
            if keep(&mv) {
                self.items[kept] = MaybeUninit::new(mv);
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl<M: Copy> Default for MoveList<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy> std::ops::Deref for MoveList<M> {
    type Target = [M];
    fn deref(&self) -> &[M] {
        self.as_slice()
    }
}

impl<M: Copy> std::ops::DerefMut for MoveList<M> {
    fn deref_mut(&mut self) -> &mut [M] {
        self.as_mut_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_retain_and_slice() {
        let mut list = MoveList::new();
        for i in 0..10u16 {
            list.push(i);
        }
        list.retain(|&m| m % 3 == 0);
        assert_eq!(list.as_slice(), &[0, 3, 6, 9]);
        list.swap(0, 3);
        assert_eq!(list[0], 9);
        list.clear();
        assert!(list.is_empty());
    }
}

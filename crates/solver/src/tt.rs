//! Transposition table for boolean mate searches.
//!
//! "Mate within n" is monotone in n, so one entry per position keeps two
//! bounds: the smallest n known to succeed and the largest n known to fail.
//! Any query at depth n is answered when n ≥ the success bound or n ≤ the
//! failure bound; everything in between needs a search.

use bastion_core::Move;

/// One slot: 16 bytes.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// Smallest depth proved to succeed (`u8::MAX` = none).
    win: u8,
    /// Largest depth proved to fail (0 = none).
    fail: u8,
    /// The move that proved success, or the refutation that proved failure.
    mv: u16,
    /// Search generation, to prefer overwriting stale entries.
    age: u8,
    /// log2 of the nodes spent on the last failed search of this position:
    /// a large refutation tree marks a near-miss worth trying first next time.
    effort: u8,
}

/// What the table knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// Proved to succeed at this depth.
    Win,
    /// Proved to fail at this depth.
    Fail,
    /// Not known; the stored move (possibly null) is a good first try.
    Unknown(Move),
}

/// A transposition table of the size asked for could not be allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate {mb} MiB for the hash table")]
pub struct AllocError {
    /// The size asked for, in MiB.
    pub mb: usize,
}

/// A two-way set-associative table of mate bounds.
pub struct Table {
    slots: Vec<[Entry; 2]>,
    mask: usize,
    age: u8,
}

impl Table {
    /// A table of about `mb` megabytes (at least one bucket, rounded down to a power of two).
    /// Panics when the memory is not available: for sizes fixed in code; a size from a
    /// user goes through [`Table::try_new`].
    pub fn new(mb: usize) -> Table {
        Table::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Like [`Table::new`], but an error instead of an abort when the memory is not
    /// available (a size from the user, such as `solve --hash`).
    pub fn try_new(mb: usize) -> Result<Table, AllocError> {
        let bytes = mb.max(1).checked_mul(1 << 20).ok_or(AllocError { mb })?;
        let buckets = (bytes / std::mem::size_of::<[Entry; 2]>()).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        let mut slots = Vec::new();
        slots.try_reserve_exact(buckets).map_err(|_| AllocError { mb })?;
        slots.resize(buckets, [Entry::default(); 2]);
        Ok(Table { slots, mask: buckets - 1, age: 0 })
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|b| *b = [Entry::default(); 2]);
        self.age = 0;
    }

    /// Starts a new search generation (old entries become preferred victims).
    pub fn new_generation(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key as usize ^ (key >> 32) as usize) & self.mask
    }

    /// Looks `key` up for a query at depth `n`.
    #[inline]
    pub fn probe(&self, key: u64, n: u8) -> Probe {
        let b = &self.slots[self.bucket(key)];
        for e in b {
            if e.key == key && (e.win != 0 || e.fail != 0 || e.mv != 0) {
                if n >= e.win {
                    return Probe::Win;
                }
                if n <= e.fail {
                    return Probe::Fail;
                }
                return Probe::Unknown(Move::from_raw(e.mv));
            }
        }
        Probe::Unknown(Move::NULL)
    }

    /// Asks the CPU to start loading `key`'s bucket: a probe soon after
    /// then finds it in cache instead of waiting on memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = &self.slots[self.bucket(key)] as *const [Entry; 2] as *const i8;
            // SAFETY: prefetching is only a hint; the address is inside `slots`.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The move stored for `key` (null if none): the proving move of a win,
    /// or the refutation of a failure.
    #[inline]
    pub fn stored_move(&self, key: u64) -> Move {
        let b = &self.slots[self.bucket(key)];
        b.iter().find(|e| e.key == key).map_or(Move::NULL, |e| Move::from_raw(e.mv))
    }

    /// The effort recorded for `key` (0 if none): log2 of the nodes of its last failed search.
    #[inline]
    pub fn effort(&self, key: u64) -> u8 {
        let b = &self.slots[self.bucket(key)];
        b.iter().find(|e| e.key == key).map_or(0, |e| e.effort)
    }

    /// Records that `key` succeeds (`win`) or fails at depth `n`, with the deciding move.
    #[inline]
    pub fn store(&mut self, key: u64, n: u8, win: bool, mv: Move) {
        self.store_effort(key, n, win, mv, 0);
    }

    /// [`Table::store`] that also records the search effort of a failure.
    #[inline]
    pub fn store_effort(&mut self, key: u64, n: u8, win: bool, mv: Move, effort: u8) {
        let age = self.age;
        let idx = self.bucket(key);
        let b = &mut self.slots[idx];
        let slot = if b[0].key == key {
            0
        } else if b[1].key == key {
            1
        } else {
            // Replace the stale or shallower of the two.
            let worth =
                |e: &Entry| (e.age == age) as u32 * 256 + e.fail.max(if e.win == u8::MAX { 0 } else { e.win }) as u32;
            let v = if worth(&b[0]) <= worth(&b[1]) { 0 } else { 1 };
            b[v] = Entry { key, win: u8::MAX, fail: 0, mv: 0, age, effort: 0 };
            v
        };
        let e = &mut b[slot];
        if e.win == 0 && e.fail == 0 && e.mv == 0 {
            e.win = u8::MAX;
        }
        if win {
            if n < e.win {
                e.win = n;
                e.mv = mv.raw();
            }
        } else if n > e.fail {
            e.fail = n;
            if e.win == u8::MAX {
                e.mv = mv.raw();
            }
            e.effort = e.effort.max(effort);
        }
        e.age = age;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `solve --hash 65536` used to abort the process when the memory was not there.
    #[test]
    fn absurd_sizes_are_an_error_not_an_abort() {
        for mb in [1usize << 30, usize::MAX / 2, usize::MAX] {
            let e = Table::try_new(mb).err().expect("no machine has this much memory");
            assert_eq!(e.to_string(), format!("cannot allocate {mb} MiB for the hash table"));
        }
        assert!(Table::try_new(1).is_ok());
    }

    #[test]
    fn bounds_are_monotone() {
        let mut t = Table::new(1);
        assert_eq!(t.probe(42, 3), Probe::Unknown(Move::NULL));
        t.store(42, 3, false, Move::NULL);
        assert_eq!(t.probe(42, 2), Probe::Fail);
        assert_eq!(t.probe(42, 3), Probe::Fail);
        assert!(matches!(t.probe(42, 4), Probe::Unknown(_)));
        t.store(42, 5, true, Move::NULL);
        assert_eq!(t.probe(42, 6), Probe::Win);
        assert!(matches!(t.probe(42, 4), Probe::Unknown(_)));
    }
}

//! The transposition table: 64-byte buckets of four 16-byte entries, shared by all
//! search threads without locks.
//!
//! Each entry is two `AtomicU64`s: the packed data and `key ^ data`. A reader
//! accepts an entry only if `stored_key ^ data == key`, so a torn write by
//! another thread reads as a miss instead of a wrong move (the "lockless
//! hashing" XOR trick). Moves are kept in 16 bits and always re-checked for
//! legality by the search.
//!
//! Entries can also travel between tables of different processes (the ranks of a cluster
//! search): a table collects the entries its searches store at or above an export depth
//! ([`TranspositionTable::set_export_depth`], [`TranspositionTable::take_exports`]) and
//! stores entries from elsewhere with the normal replacement rule
//! ([`TranspositionTable::import`]). [`TtShare`] follows an [`crate::Engine`]'s table, which
//! the engine replaces when the hash size changes.

use bastion_core::Move;
use std::alloc::Layout;
use std::collections::VecDeque;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicI32, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No information (empty).
    None = 0,
    /// The true value is at most the score (fail low).
    Upper = 1,
    /// The true value is at least the score (fail high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

impl Bound {
    fn from_bits(b: u64) -> Bound {
        match b & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// A decoded table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best or refutation move (may be `Move::NULL`).
    pub mv: Move,
    /// Score relative to the node (see [`crate::score::to_tt`]).
    pub score: i32,
    /// Static evaluation of the node.
    pub eval: i32,
    /// Remaining depth of the search that stored it.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
    /// Whether the node was ever on a principal variation.
    pub pv: bool,
}

#[repr(C)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

#[repr(C, align(64))]
struct Bucket {
    slots: [Slot; 4],
}

// data layout: move 16 | score 16 | eval 16 | depth 8 | bound 2 | pv 1 | generation 5
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool, generation: u8) -> u64 {
    (mv.raw() as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (((depth + 1).clamp(0, 255) as u64) << 48)
        | ((bound as u64) << 56)
        | ((pv as u64) << 58)
        | (((generation & 31) as u64) << 59)
}

fn unpack(d: u64) -> TtEntry {
    TtEntry {
        mv: Move::from_raw(d as u16),
        score: (d >> 16) as u16 as i16 as i32,
        eval: (d >> 32) as u16 as i16 as i32,
        depth: ((d >> 48) & 255) as i32 - 1,
        bound: Bound::from_bits(d >> 56),
        pv: (d >> 58) & 1 != 0,
    }
}

fn generation_of(d: u64) -> u8 {
    ((d >> 59) & 31) as u8
}

/// A table entry as it travels to another table: the position's key and the packed entry,
/// 16 bytes ([`PackedEntry::BYTES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedEntry {
    /// The position's Zobrist key.
    pub key: u64,
    /// The entry, packed as the table keeps it (the generation bits are the sender's and
    /// are replaced on import).
    pub data: u64,
}

impl PackedEntry {
    /// Size of [`PackedEntry::to_bytes`].
    pub const BYTES: usize = 16;

    /// The entry, decoded.
    pub fn entry(&self) -> TtEntry {
        unpack(self.data)
    }

    /// Key then data, little-endian.
    pub fn to_bytes(&self) -> [u8; Self::BYTES] {
        let mut bytes = [0; Self::BYTES];
        bytes[..8].copy_from_slice(&self.key.to_le_bytes());
        bytes[8..].copy_from_slice(&self.data.to_le_bytes());
        bytes
    }

    /// The inverse of [`PackedEntry::to_bytes`].
    pub fn from_bytes(bytes: &[u8; Self::BYTES]) -> PackedEntry {
        let [k0, k1, k2, k3, k4, k5, k6, k7, d0, d1, d2, d3, d4, d5, d6, d7] = *bytes;
        PackedEntry {
            key: u64::from_le_bytes([k0, k1, k2, k3, k4, k5, k6, k7]),
            data: u64::from_le_bytes([d0, d1, d2, d3, d4, d5, d6, d7]),
        }
    }
}

/// How many exported entries a table keeps until they are taken; beyond it the oldest go.
/// A search stores a few thousand entries a second at the depths worth sharing, and the
/// taker comes every few milliseconds, so this is only reached when nobody takes them.
pub const EXPORT_CAPACITY: usize = 4096;

/// Export depth meaning "off": no stored depth reaches it.
const EXPORT_OFF: i32 = i32::MAX;

/// Size of a transparent huge page on x86-64 and most Linux targets.
const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// The buckets, in memory aligned to a huge page and (on Linux) advised to use
/// transparent huge pages. Probes land at random across the table; with 4 KiB pages
/// nearly every one also misses the TLB and walks the page tables. Huge pages made the
/// search 4.5 % faster at 64 MiB (bench nps).
struct Buckets {
    ptr: NonNull<Bucket>,
    len: usize,
    layout: Layout,
}

// SAFETY: `Buckets` owns its allocation like a `Box<[Bucket]>`, and `Bucket` holds only
// atomics, which are `Send` and `Sync`.
unsafe impl Send for Buckets {}
// SAFETY: as above; shared access goes through `&[Bucket]` only.
unsafe impl Sync for Buckets {}

impl Buckets {
    /// `len` (at least 1) empty buckets, or `None` when the memory is not available.
    fn try_new(len: usize) -> Option<Buckets> {
        let len = len.max(1);
        let size = len.checked_mul(std::mem::size_of::<Bucket>())?;
        let align = if size >= HUGE_PAGE { HUGE_PAGE } else { std::mem::align_of::<Bucket>() };
        let layout = Layout::from_size_align(size, align).ok()?;
        // SAFETY: the layout has a non-zero size.
        let ptr = NonNull::new(unsafe { std::alloc::alloc(layout) }.cast::<Bucket>())?;
        #[cfg(target_os = "linux")]
        if align == HUGE_PAGE {
            // SAFETY: the range is our own, page-aligned allocation. The advice is only a
            // hint: if the kernel refuses it, the table works on normal pages.
            unsafe { libc::madvise(ptr.as_ptr().cast(), size, libc::MADV_HUGEPAGE) };
        }
        // SAFETY: all-zero bytes are a valid `Bucket` (four pairs of atomics holding 0, an
        // empty slot). Zeroing after the advice makes the first touches fault in huge pages.
        unsafe { std::ptr::write_bytes(ptr.as_ptr(), 0, len) };
        Some(Buckets { ptr, len, layout })
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // SAFETY: `ptr` points to `len` initialised buckets that live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: allocated in `try_new` with this very layout; buckets need no drop.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) };
    }
}

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: Buckets,
    generation: AtomicU8,
    /// Stores at this depth or deeper are also put in `exports` ([`EXPORT_OFF`]: none).
    export_depth: AtomicI32,
    /// Entries collected for other tables, oldest first, at most [`EXPORT_CAPACITY`].
    exports: Mutex<VecDeque<PackedEntry>>,
}

impl TranspositionTable {
    /// A table of about `mb` mebibytes (at least one bucket).
    ///
    /// # Panics
    /// If the memory cannot be allocated; see [`TranspositionTable::try_new`].
    pub fn new(mb: usize) -> TranspositionTable {
        Self::try_new(mb).expect("transposition table allocation failed")
    }

    /// Like [`TranspositionTable::new`], but `None` when the memory is not available.
    pub fn try_new(mb: usize) -> Option<TranspositionTable> {
        let n = (mb.max(1).checked_mul(1024 * 1024)? / std::mem::size_of::<Bucket>()).max(1);
        Some(TranspositionTable {
            buckets: Buckets::try_new(n)?,
            generation: AtomicU8::new(0),
            export_depth: AtomicI32::new(EXPORT_OFF),
            exports: Mutex::new(VecDeque::new()),
        })
    }

    /// Size in mebibytes.
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Empties the table (and the entries collected for export).
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for s in &b.slots {
                s.key.store(0, Ordering::Relaxed);
                s.data.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
        self.lock_exports().clear();
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn current_generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed) & 31
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto 0..len without a division.
        let idx = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[idx]
    }

    /// Hints the CPU to fetch the bucket of `key` (call before the entry is needed).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        unsafe {
            // SAFETY: prefetching is a hint; the pointer is into our own allocation.
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch(self.bucket(key) as *const Bucket as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for s in &self.bucket(key).slots {
            let d = s.data.load(Ordering::Relaxed);
            let k = s.key.load(Ordering::Relaxed);
            if k ^ d == key && d != 0 {
                return Some(unpack(d));
            }
        }
        None
    }

    /// Stores a result. Replacement: the same key always (keeping an older move when the
    /// new one is null, and not overwriting a much deeper exact entry); otherwise the
    /// slot with the lowest `depth - 8 * age`. At the export depth or deeper, what was
    /// written is also collected for [`TranspositionTable::take_exports`].
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool) {
        let written = self.write(key, mv, score, eval, depth, bound, pv);
        // Off, the export depth is `i32::MAX`: this one compare is all that sharing costs.
        if depth >= self.export_depth.load(Ordering::Relaxed) {
            if let Some(data) = written {
                self.export(PackedEntry { key, data });
            }
        }
    }

    /// Collects an entry for export, dropping the oldest when the buffer is full.
    #[cold]
    #[inline(never)]
    fn export(&self, entry: PackedEntry) {
        let mut exports = self.lock_exports();
        if exports.len() >= EXPORT_CAPACITY {
            exports.pop_front();
        }
        exports.push_back(entry);
    }

    fn lock_exports(&self) -> std::sync::MutexGuard<'_, VecDeque<PackedEntry>> {
        // The buffer holds plain data, valid whatever a panicking holder left in it.
        self.exports.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// From now on, collects every entry stored at `min_depth` or deeper for export;
    /// `None` stops collecting (the default) and drops what was collected.
    pub fn set_export_depth(&self, min_depth: Option<i32>) {
        self.export_depth.store(min_depth.unwrap_or(EXPORT_OFF), Ordering::Relaxed);
        if min_depth.is_none() {
            self.lock_exports().clear();
        }
    }

    /// The entries collected for export since the last call, oldest first (at most
    /// [`EXPORT_CAPACITY`]).
    pub fn take_exports(&self) -> Vec<PackedEntry> {
        self.lock_exports().drain(..).collect()
    }

    /// Stores an entry exported by another table, with the normal replacement rule and
    /// this table's current generation; it is not exported again. False when the entry was
    /// not stored: it holds no bound (an empty slot's data, or garbage), or the table kept
    /// a much deeper entry of the same position.
    pub fn import(&self, entry: PackedEntry) -> bool {
        let e = entry.entry();
        if e.bound == Bound::None {
            return false;
        }
        self.write(entry.key, e.mv, e.score, e.eval, e.depth, e.bound, e.pv).is_some()
    }

    /// [`TranspositionTable::store`] without the export; the packed data written, or `None`
    /// when a deeper entry of the same key was kept.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn write(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool) -> Option<u64> {
        let generation = self.current_generation();
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, s) in bucket.slots.iter().enumerate() {
            let d = s.data.load(Ordering::Relaxed);
            let k = s.key.load(Ordering::Relaxed);
            if d == 0 || k ^ d == key {
                if d != 0 {
                    let old = unpack(d);
                    if bound != Bound::Exact && old.depth > depth + 3 && generation_of(d) == generation {
                        return None;
                    }
                    let mv = if mv.is_null() { old.mv } else { mv };
                    let nd = pack(mv, score, eval, depth, bound, pv, generation);
                    s.data.store(nd, Ordering::Relaxed);
                    s.key.store(key ^ nd, Ordering::Relaxed);
                    return Some(nd);
                }
                victim = i;
                break;
            }
            let age = (generation.wrapping_sub(generation_of(d)) & 31) as i32;
            let worth = unpack(d).depth - 8 * age;
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        let nd = pack(mv, score, eval, depth, bound, pv, generation);
        let s = &bucket.slots[victim];
        s.data.store(nd, Ordering::Relaxed);
        s.key.store(key ^ nd, Ordering::Relaxed);
        Some(nd)
    }

    /// Permille of sampled entries written in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.current_generation();
        let n = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for s in &b.slots {
                let d = s.data.load(Ordering::Relaxed);
                if d != 0 && generation_of(d) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * 4).max(1)) as u32
    }
}

/// The link between an engine's table and other engines' tables (the ranks of a cluster
/// search): entries the engine's searches store at [`TtShare::min_depth`] or deeper are
/// collected for [`TtShare::take`], and [`TtShare::import`] stores other tables' entries in
/// it. Installed with [`crate::Engine::set_tt_share`], it follows the engine to a new table
/// when the hash size changes; it can be used from any thread, during a search too.
#[derive(Debug)]
pub struct TtShare {
    min_depth: i32,
    /// The engine's current table; weak, so that a table the engine has dropped is not kept.
    table: Mutex<Weak<TranspositionTable>>,
    taken: AtomicU64,
    imported: AtomicU64,
}

impl TtShare {
    /// A link that exports entries of at least `min_depth` plies (at least 1: shallower
    /// entries are quiescence results, far too many to send).
    pub fn new(min_depth: i32) -> Arc<TtShare> {
        Arc::new(TtShare {
            min_depth: min_depth.max(1),
            table: Mutex::new(Weak::new()),
            taken: AtomicU64::new(0),
            imported: AtomicU64::new(0),
        })
    }

    /// The depth from which entries are exported.
    pub fn min_depth(&self) -> i32 {
        self.min_depth
    }

    /// Makes `table` the one to export from and import into (the engine calls this whenever
    /// it has a new table).
    pub(crate) fn attach(&self, table: &Arc<TranspositionTable>) {
        table.set_export_depth(Some(self.min_depth));
        *self.lock_table() = Arc::downgrade(table);
    }

    /// Stops exporting from the current table (the engine calls this when the link is removed).
    pub(crate) fn detach(&self) {
        if let Some(table) = self.table() {
            table.set_export_depth(None);
        }
        *self.lock_table() = Weak::new();
    }

    fn lock_table(&self) -> std::sync::MutexGuard<'_, Weak<TranspositionTable>> {
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn table(&self) -> Option<Arc<TranspositionTable>> {
        self.lock_table().upgrade()
    }

    /// The entries collected since the last call, oldest first (none before the link is
    /// installed in an engine).
    pub fn take(&self) -> Vec<PackedEntry> {
        let entries = self.table().map(|t| t.take_exports()).unwrap_or_default();
        self.taken.fetch_add(entries.len() as u64, Ordering::Relaxed);
        entries
    }

    /// Stores other tables' entries in the engine's table ([`TranspositionTable::import`]);
    /// returns how many were stored.
    pub fn import(&self, entries: &[PackedEntry]) -> usize {
        let Some(table) = self.table() else { return 0 };
        let stored = entries.iter().filter(|&&e| table.import(e)).count();
        self.imported.fetch_add(stored as u64, Ordering::Relaxed);
        stored
    }

    /// How many entries [`TtShare::take`] has returned so far.
    pub fn taken(&self) -> u64 {
        self.taken.load(Ordering::Relaxed)
    }

    /// How many entries [`TtShare::import`] has stored so far.
    pub fn imported(&self) -> u64 {
        self.imported.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bastion_core::Position;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let pos = Position::startpos();
        let m = pos.parse_uci("e2e4").unwrap();
        assert!(tt.probe(pos.key()).is_none());
        tt.store(pos.key(), m, -123, 45, 9, Bound::Lower, true);
        let e = tt.probe(pos.key()).unwrap();
        assert_eq!(e, TtEntry { mv: m, score: -123, eval: 45, depth: 9, bound: Bound::Lower, pv: true });
        // A different key in the same table is a miss.
        assert!(tt.probe(pos.key() ^ 1).is_none());
        // Same key with a null move keeps the old move.
        tt.store(pos.key(), Move::NULL, 7, 0, 10, Bound::Exact, false);
        assert_eq!(tt.probe(pos.key()).unwrap().mv, m);
        assert_eq!(tt.probe(pos.key()).unwrap().score, 7);
        tt.clear();
        assert!(tt.probe(pos.key()).is_none());
    }

    #[test]
    fn deep_stores_are_exported_and_imported_elsewhere() {
        let pos = Position::startpos();
        let m = pos.parse_uci("g1f3").unwrap();
        let (from, to) = (TranspositionTable::new(1), TranspositionTable::new(1));
        // Off by default: nothing is collected.
        from.store(11, m, 5, 1, 20, Bound::Exact, false);
        assert!(from.take_exports().is_empty());
        from.set_export_depth(Some(6));
        from.store(12, m, 5, 1, 5, Bound::Exact, false);
        from.store(13, m, -40, 2, 6, Bound::Lower, true);
        from.store(14, Move::NULL, 300, 3, 9, Bound::Upper, false);
        let exported = from.take_exports();
        assert_eq!(exported.iter().map(|e| e.key).collect::<Vec<_>>(), [13, 14]);
        assert!(from.take_exports().is_empty(), "taken entries are gone");
        // Through bytes and into another table, which holds the same entries and (exporting
        // too) does not send them back.
        to.set_export_depth(Some(6));
        to.new_search();
        for e in &exported {
            let back = PackedEntry::from_bytes(&e.to_bytes());
            assert_eq!(back, *e);
            assert!(to.import(back));
        }
        assert!(to.take_exports().is_empty());
        for key in [13, 14] {
            assert_eq!(to.probe(key), from.probe(key));
        }
        assert_eq!(
            to.probe(13).unwrap(),
            TtEntry { mv: m, score: -40, eval: 2, depth: 6, bound: Bound::Lower, pv: true }
        );
        // Off again: nothing more is collected.
        from.set_export_depth(None);
        from.store(15, m, 0, 0, 30, Bound::Exact, false);
        assert!(from.take_exports().is_empty());
    }

    #[test]
    fn imports_follow_the_replacement_rule_and_refuse_empty_entries() {
        let tt = TranspositionTable::new(1);
        // An empty slot's data, or data without a bound, is not an entry.
        assert!(!tt.import(PackedEntry { key: 7, data: 0 }));
        assert!(!tt.import(PackedEntry { key: 7, data: pack(Move::NULL, 1, 1, 9, Bound::None, false, 0) }));
        assert!(tt.probe(7).is_none());
        // A much deeper entry of the same position in this search is kept, as for a store.
        tt.store(7, Move::NULL, 10, 0, 20, Bound::Lower, false);
        assert!(!tt.import(PackedEntry { key: 7, data: pack(Move::NULL, 99, 0, 8, Bound::Lower, false, 0) }));
        assert_eq!(tt.probe(7).unwrap().score, 10);
        assert!(tt.import(PackedEntry { key: 7, data: pack(Move::NULL, 99, 0, 18, Bound::Lower, false, 0) }));
        assert_eq!(tt.probe(7).unwrap().score, 99);
        // Stores that keep the deeper entry export nothing.
        tt.set_export_depth(Some(1));
        tt.store(7, Move::NULL, 5, 0, 2, Bound::Upper, false);
        assert!(tt.take_exports().is_empty());
    }

    #[test]
    fn the_export_buffer_keeps_the_newest_entries() {
        let tt = TranspositionTable::new(1);
        tt.set_export_depth(Some(1));
        let n = EXPORT_CAPACITY as u64 + 10;
        for key in 1..=n {
            tt.store(key, Move::NULL, 0, 0, 1, Bound::Exact, false);
        }
        let exported = tt.take_exports();
        assert_eq!(exported.len(), EXPORT_CAPACITY);
        assert_eq!((exported[0].key, exported[EXPORT_CAPACITY - 1].key), (11, n));
        tt.store(1, Move::NULL, 0, 0, 1, Bound::Exact, false);
        tt.clear();
        assert!(tt.take_exports().is_empty(), "clear drops collected entries");
    }

    #[test]
    fn a_share_follows_the_engine_to_a_new_table() {
        use crate::{Engine, EngineOptions, Limits};
        let opts = EngineOptions { hash_mb: 1, ..EngineOptions::default() };
        let (mut a, mut b) = (Engine::new(opts.clone()), Engine::new(opts.clone()));
        let (to_share, from_share) = (TtShare::new(4), TtShare::new(4));
        let pos = Position::startpos();
        a.set_tt_share(Some(Arc::clone(&from_share)));
        b.set_tt_share(Some(Arc::clone(&to_share)));
        a.search(&pos, &[], &Limits::depth(8), &mut |_| {});
        let entries = from_share.take();
        assert!(!entries.is_empty());
        assert!(entries.iter().all(|e| e.entry().depth >= 4));
        assert_eq!(from_share.taken(), entries.len() as u64);
        let stored = to_share.import(&entries);
        assert!(stored > 0);
        assert_eq!(to_share.imported(), stored as u64);
        // A new hash size is a new table: the link moves with it.
        a.set_options(EngineOptions { hash_mb: 2, ..opts }).unwrap();
        a.search(&pos, &[], &Limits::depth(8), &mut |_| {});
        assert!(!from_share.take().is_empty());
        // Removed, it collects nothing more.
        a.set_tt_share(None);
        a.clear();
        a.search(&pos, &[], &Limits::depth(8), &mut |_| {});
        assert!(from_share.take().is_empty());
    }

    #[test]
    fn large_tables_are_huge_page_aligned_empty_and_usable() {
        for mb in [1, 2, 5, 16] {
            let tt = TranspositionTable::new(mb);
            assert_eq!(tt.size_mb(), mb);
            let addr = tt.buckets.as_ptr() as usize;
            let want = if mb >= 2 { HUGE_PAGE } else { 64 };
            assert_eq!(addr % want, 0, "{mb} MiB table at {addr:#x}");
            assert_eq!(tt.hashfull(), 0);
            assert!(tt.buckets.iter().all(|b| b.slots.iter().all(|s| s.data.load(Ordering::Relaxed) == 0)));
            // The first and the last bucket both take entries.
            let last = u64::MAX;
            tt.store(1, Move::NULL, 5, 0, 3, Bound::Exact, false);
            tt.store(last, Move::NULL, 6, 0, 3, Bound::Exact, false);
            assert_eq!(tt.probe(1).map(|e| e.score), Some(5));
            assert_eq!(tt.probe(last).map(|e| e.score), Some(6));
        }
        // Sizes no allocation can have are refused, not a panic.
        assert!(TranspositionTable::try_new(usize::MAX).is_none());
        assert!(TranspositionTable::try_new(usize::MAX / (1024 * 1024)).is_none());
    }

    #[test]
    fn replacement_prefers_shallow_and_old() {
        let tt = TranspositionTable::new(1);
        let n = tt.buckets.len() as u128;
        // Five keys that land in bucket 0: the shallowest of the first four is replaced.
        let keys: Vec<u64> = (1..=5u64).collect();
        for (i, &k) in keys.iter().take(4).enumerate() {
            assert_eq!(((k as u128 * n) >> 64), 0);
            tt.store(k, Move::NULL, 0, 0, 10 + i as i32, Bound::Exact, false);
        }
        tt.store(keys[4], Move::NULL, 0, 0, 1, Bound::Exact, false);
        assert!(tt.probe(keys[0]).is_none(), "depth-10 entry should be the victim");
        assert!(tt.probe(keys[4]).is_some());
        // After aging, even a deep old entry gives way.
        for _ in 0..3 {
            tt.new_search();
        }
        tt.store(keys[0], Move::NULL, 0, 0, 0, Bound::Exact, false);
        assert!(tt.probe(keys[0]).is_some());
        assert!(tt.hashfull() <= 1000);
    }
}

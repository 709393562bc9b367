//! A bitbase probe allocates nothing: the search calls it at many nodes, and an
//! allocation per probe would cost more than the probe itself. Counted with a
//! global allocator that counts the allocations of the probing thread.

use bastion_core::{Position, TablebaseProbe, Wdl};
use bastion_tablebase::gen::generate;
use bastion_tablebase::{Bitbase, Material, Probers, TableSet};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::Path;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is passed on to the system allocator unchanged; the counter is
// a const-initialised thread-local `Cell`, which does not allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn probing_mapped_bitbases_allocates_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (krk, _) = generate(&Material::parse("KRK").unwrap(), &TableSet::new(), &indicatif::ProgressBar::hidden());
    Bitbase::from_table(&krk).write(dir).unwrap();
    let probers = Probers::open::<&Path>(&[dir], None).unwrap();
    let positions: Vec<Position> = (0..krk.indexer.size())
        .step_by(7)
        .flat_map(|i| bastion_core::Color::ALL.map(|side| krk.indexer.position(i, side)))
        .flatten()
        .flat_map(|p| [p.mirrored(), p])
        .collect();
    assert!(positions.len() > 10_000);
    let tb: &dyn TablebaseProbe = &probers;
    let before = allocations();
    let mut wins = 0;
    for p in &positions {
        wins += usize::from(tb.probe_wdl(p) == Some(Wdl::Win));
    }
    let made = allocations() - before;
    assert_eq!(made, 0, "{made} allocations in {} probes", positions.len());
    assert!(wins > 0);
    // The counter sees this thread's allocations.
    let before = allocations();
    std::hint::black_box(Vec::<u8>::with_capacity(64));
    assert_eq!(allocations() - before, 1);
}

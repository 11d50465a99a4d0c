//! Search memory: big tables of atomics, allocated zeroed and fallibly.
//!
//! Zeroed allocation comes straight from the operating system as pages
//! that are mapped on first touch: making a 1 GiB table takes no time and
//! no memory until the search writes to it, and dropping it gives the
//! memory back. An allocation the system refuses is retried at half the
//! size (with a warning) instead of aborting the process.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ops::Deref;
use std::ptr::NonNull;

/// Types whose all-zero bytes are a valid value.
///
/// # Safety
/// Implement only for types made of integers and atomics of integers.
pub unsafe trait Zeroable: Sized {}

unsafe impl Zeroable for std::sync::atomic::AtomicU32 {}
unsafe impl Zeroable for std::sync::atomic::AtomicU64 {}

/// A fixed-length, zero-initialised slice on the heap.
pub struct Table<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    /// What was allocated (`ptr` lies inside it, aligned for `T`).
    block: NonNull<u8>,
    layout: Layout,
}

/// The alignment the system allocator's zeroed path serves lazily: with a
/// larger one, `alloc_zeroed` writes zeros over every page itself (seconds
/// for gigabytes), so such tables are over-allocated and aligned by hand.
const LAZY_ALIGN: usize = 16;

// The table owns its elements like a `Box<[T]>` does.
unsafe impl<T: Zeroable + Send> Send for Table<T> {}
unsafe impl<T: Zeroable + Sync> Sync for Table<T> {}

impl<T: Zeroable> Table<T> {
    /// `len` zeroed elements, or `None` when the system refuses the memory.
    pub fn try_new(len: usize) -> Option<Self> {
        let len = len.max(1);
        let wanted = Layout::array::<T>(len).ok()?;
        let align = wanted.align();
        let slack = align.saturating_sub(LAZY_ALIGN);
        let layout =
            Layout::from_size_align(wanted.size().checked_add(slack)?, align.min(LAZY_ALIGN))
                .ok()?;
        // SAFETY: the layout has a non-zero size (len >= 1, T is not a ZST:
        // Zeroable types are integers or atomics).
        let block = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        let offset = block.as_ptr().align_offset(align);
        debug_assert!(offset <= slack);
        // SAFETY: offset <= slack, so the aligned run of `len` elements
        // lies inside the block.
        let ptr = unsafe { NonNull::new_unchecked(block.as_ptr().add(offset) as *mut T) };
        Some(Table {
            ptr,
            len,
            block,
            layout,
        })
    }

    /// As many elements as fit in `bytes` (at least `min_len`), halving
    /// the size while the system refuses it. The message says what was
    /// given when it is less than asked.
    pub fn within(bytes: usize, min_len: usize) -> (Self, Option<String>) {
        let size = std::mem::size_of::<T>();
        let wanted = (bytes / size).max(min_len).max(1);
        let mut len = wanted;
        loop {
            if let Some(table) = Self::try_new(len) {
                let warning = (len < wanted).then(|| {
                    format!(
                        "could not allocate {} MiB of search memory; using {} MiB",
                        (wanted * size) >> 20,
                        (len * size) >> 20
                    )
                });
                return (table, warning);
            }
            if len <= min_len.max(1) {
                // Nothing smaller is of use: this is out of memory indeed.
                std::alloc::handle_alloc_error(Layout::array::<T>(len).expect("small layout"));
            }
            len = (len / 2).max(min_len.max(1));
        }
    }

    pub fn bytes(&self) -> usize {
        self.len * std::mem::size_of::<T>()
    }
}

impl<T: Zeroable> Deref for Table<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: ptr points to len initialised (zeroed, valid) elements
        // owned by self.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for Table<T> {
    fn drop(&mut self) {
        // Atomics and integers need no drop of their own.
        // SAFETY: allocated by alloc_zeroed with this very layout.
        unsafe { dealloc(self.block.as_ptr(), self.layout) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn tables_start_zeroed_and_hold_what_is_written() {
        let (table, warning) = Table::<AtomicU64>::within(1 << 20, 1);
        assert!(warning.is_none());
        assert_eq!(table.len(), (1 << 20) / 8);
        assert!(table.iter().all(|w| w.load(Ordering::Relaxed) == 0));
        table[5].store(7, Ordering::Relaxed);
        assert_eq!(table[5].load(Ordering::Relaxed), 7);
        assert_eq!(table.bytes(), 1 << 20);
    }

    #[test]
    fn over_aligned_elements_are_aligned() {
        #[repr(align(64))]
        struct Line([AtomicU64; 8]);
        unsafe impl Zeroable for Line {}
        for len in [1, 3, 1000] {
            let table = Table::<Line>::try_new(len).unwrap();
            assert_eq!(table.as_ptr() as usize % 64, 0);
            assert_eq!(table.len(), len);
            assert!(table.iter().all(|l| l.0[7].load(Ordering::Relaxed) == 0));
            table[len - 1].0[7].store(1, Ordering::Relaxed);
        }
    }

    /// Resident memory of this process, where Linux tells it.
    fn resident_mib() -> Option<usize> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib >> 10)
    }

    #[test]
    fn big_tables_cost_no_memory_until_written() {
        #[repr(align(64))]
        struct Line([AtomicU64; 8]);
        unsafe impl Zeroable for Line {}
        let Some(before) = resident_mib() else {
            eprintln!("*** no /proc/self/status: resident memory not checked ***");
            return;
        };
        // 2 GiB of over-aligned buckets (the transposition table's kind).
        let table = Table::<Line>::try_new(1 << 25).unwrap();
        table[12345].0[3].store(1, Ordering::Relaxed);
        let after = resident_mib().unwrap();
        assert!(
            after < before + 256,
            "a fresh 2 GiB table made {} MiB resident",
            after.saturating_sub(before)
        );
        drop(table);
    }

    #[test]
    fn an_impossible_size_gives_a_smaller_table_and_a_warning() {
        // More than any machine's address space allows: refused outright.
        let (table, warning) = Table::<AtomicU64>::within(usize::MAX / 4, 16);
        assert!(table.len() >= 16);
        let warning = warning.expect("a warning");
        assert!(warning.contains("could not allocate"), "{warning}");
    }
}

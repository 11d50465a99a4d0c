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
}

// The table owns its elements like a `Box<[T]>` does.
unsafe impl<T: Zeroable + Send> Send for Table<T> {}
unsafe impl<T: Zeroable + Sync> Sync for Table<T> {}

impl<T: Zeroable> Table<T> {
    /// `len` zeroed elements, or `None` when the system refuses the memory.
    pub fn try_new(len: usize) -> Option<Self> {
        let len = len.max(1);
        let layout = Layout::array::<T>(len).ok()?;
        // SAFETY: the layout has a non-zero size (len >= 1, T is not a ZST:
        // Zeroable types are integers or atomics).
        let raw = unsafe { alloc_zeroed(layout) } as *mut T;
        NonNull::new(raw).map(|ptr| Table { ptr, len })
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
        let layout = Layout::array::<T>(self.len).expect("the layout it was made with");
        // SAFETY: allocated by alloc_zeroed with this very layout.
        unsafe { dealloc(self.ptr.as_ptr() as *mut u8, layout) }
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
    fn an_impossible_size_gives_a_smaller_table_and_a_warning() {
        // More than any machine's address space allows: refused outright.
        let (table, warning) = Table::<AtomicU64>::within(usize::MAX / 4, 16);
        assert!(table.len() >= 16);
        let warning = warning.expect("a warning");
        assert!(warning.contains("could not allocate"), "{warning}");
    }
}

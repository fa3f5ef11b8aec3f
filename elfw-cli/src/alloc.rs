//! The `elfw` command's memory allocator: the system's, except that large blocks get their
//! own memory mappings backed by transparent huge pages where the kernel offers them, and
//! (with glibc) the heap the rest comes from is backed by huge pages too ([`huge_heap`]).
//!
//! A large link touches well over a hundred megabytes of fresh memory (its tables, the
//! relocation and `.nv.info` lists, the output's staging buffers). Each 4 KiB page of it costs
//! a page fault the first time it is written, and on virtual machines a fault costs
//! microseconds: at 500 inputs the faults took as long as the link's own work. A 2 MiB page
//! is one fault for 512 small ones. Only the mapping of memory changes; what is stored and
//! so the image are the same.

use std::alloc::{GlobalAlloc, Layout, System};

/// Blocks from this size on are mapped on their own (a huge page needs a 2 MiB range).
const LARGE: usize = 2 << 20;

/// [`System`], with blocks of [`LARGE`] bytes or more mapped on their own and marked for huge
/// pages (`MADV_HUGEPAGE`).
pub struct HugeLarge;

fn large(layout: &Layout) -> bool {
    // Mappings are page-aligned: larger alignments stay with the system allocator.
    layout.size() >= LARGE && layout.align() <= 4096
}

/// A fresh zero-filled mapping of `size` bytes marked for huge pages, or null.
fn map(size: usize) -> *mut u8 {
    // SAFETY: an anonymous private mapping at an address the kernel chooses touches no
    // existing memory.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return std::ptr::null_mut();
    }
    advise(p, size);
    p.cast()
}

/// Marks `size` bytes at `p` (a mapping of ours) for huge pages; only a hint.
fn advise(p: *mut libc::c_void, size: usize) {
    // SAFETY: the range is one of our mappings; the advice changes how it is backed, not its
    // contents.
    unsafe {
        libc::madvise(p, size, libc::MADV_HUGEPAGE);
    }
}

// SAFETY: large blocks are whole mappings of at least the requested size, page-aligned (so
// aligned for every layout `large` accepts), released with the size they were made with (the
// layout `dealloc` and `realloc` receive is the one they were allocated with); everything else
// is the system allocator's.
unsafe impl GlobalAlloc for HugeLarge {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if large(&layout) {
            map(layout.size())
        } else {
            // SAFETY: forwarded as received.
            unsafe { System.alloc(layout) }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if large(&layout) {
            // Fresh anonymous memory reads as zeros.
            map(layout.size())
        } else {
            // SAFETY: forwarded as received.
            unsafe { System.alloc_zeroed(layout) }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if large(&layout) {
            // SAFETY: `ptr` is a mapping of `layout.size()` bytes made by `map`.
            unsafe {
                libc::munmap(ptr.cast(), layout.size());
            }
        } else {
            // SAFETY: forwarded as received.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees a valid layout for the new size.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (large(&layout), large(&new_layout)) {
            (false, false) => {
                // SAFETY: forwarded as received.
                unsafe { System.realloc(ptr, layout, new_size) }
            }
            (true, true) => {
                // SAFETY: `ptr` is a mapping of `layout.size()` bytes made by `map`; the
                // kernel moves or resizes it, keeping its contents.
                let p = unsafe {
                    libc::mremap(ptr.cast(), layout.size(), new_size, libc::MREMAP_MAYMOVE)
                };
                if p == libc::MAP_FAILED {
                    return std::ptr::null_mut();
                }
                advise(p, new_size);
                p.cast()
            }
            _ => {
                // Across the threshold: a new block, the contents copied, the old one freed.
                // SAFETY: `new_layout` is valid (the caller's guarantee); the old block holds
                // `layout.size()` readable bytes and is released with its own layout.
                unsafe {
                    let new = self.alloc(new_layout);
                    if !new.is_null() {
                        std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                    new
                }
            }
        }
    }
}

/// Address space the heap reserves ahead (untouched memory costs nothing; the kernel backs
/// what is written, 2 MiB at a time).
#[cfg(target_env = "gnu")]
const HEAP_AHEAD: usize = 512 << 20;

/// Makes glibc's heap one region marked for huge pages: every block below [`LARGE`] comes
/// from it (from every thread, one arena), it grows by [`HEAP_AHEAD`] at a time, and it is
/// never handed back. Call first thing in `main`, before the link allocates.
#[cfg(target_env = "gnu")]
pub fn huge_heap() {
    // SAFETY: `mallopt` only sets allocator parameters; the block is the allocator's own and
    // is freed at once; the advised range lies in the heap mapping (from the block's page to
    // the program break), and the advice changes how it is backed, not its contents.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, LARGE as libc::c_int);
        libc::mallopt(libc::M_TRIM_THRESHOLD, libc::c_int::MAX);
        libc::mallopt(libc::M_TOP_PAD, HEAP_AHEAD as libc::c_int);
        libc::mallopt(libc::M_ARENA_MAX, 1);
        // A block larger than what is left at the top makes the heap grow, by HEAP_AHEAD.
        let block = libc::malloc(1 << 20);
        let brk = libc::sbrk(0) as usize;
        if !block.is_null() && brk != usize::MAX {
            let start = (block as usize + 4095) & !4095;
            let end = brk & !4095;
            if end > start {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
        libc::free(block);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks keep their contents across growth and shrinking, on either side of [`LARGE`].
    #[test]
    fn realloc_keeps_contents_across_the_threshold() {
        let a = HugeLarge;
        let sizes = [100, LARGE - 1, LARGE, 3 * LARGE + 5, LARGE + 1, 4096, 10];
        // SAFETY: every layout is valid (alignment 8, nonzero size); each block is used within
        // its current size and released with its current layout.
        unsafe {
            let mut layout = Layout::from_size_align(sizes[0], 8).unwrap();
            let mut p = a.alloc_zeroed(layout);
            assert!(!p.is_null());
            assert!(std::slice::from_raw_parts(p, layout.size())
                .iter()
                .all(|&b| b == 0));
            for (i, b) in std::slice::from_raw_parts_mut(p, layout.size())
                .iter_mut()
                .enumerate()
            {
                *b = i as u8;
            }
            for &size in &sizes[1..] {
                let kept = layout.size().min(size);
                p = a.realloc(p, layout, size);
                assert!(!p.is_null());
                layout = Layout::from_size_align(size, 8).unwrap();
                let bytes = std::slice::from_raw_parts_mut(p, size);
                assert!(bytes[..kept].iter().enumerate().all(|(i, &b)| b == i as u8));
                for (i, b) in bytes.iter_mut().enumerate() {
                    *b = i as u8;
                }
            }
            a.dealloc(p, layout);
        }
    }
}

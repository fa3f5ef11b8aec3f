//! Work prepared ahead on another thread (decoding inputs) for a consumer that takes it in
//! order (the merge), without ever waiting for it.
//!
//! The producer computes `f(0)`, `f(1)`, … into slots, at most a queue's length ahead of the
//! consumer. The consumer, at item `i`, takes the slot when it is filled and otherwise computes
//! `f(i)` itself (what the producer then makes of `i` is dropped): `f` is pure, so the items are
//! the same whoever made them, and a producer that is slow to get a CPU (a busy machine) never
//! holds the consumer up. Once the queue is full the producer naps and looks again: the consumer
//! makes no system call to wake it (on a virtual machine that is an interrupt to the other CPU,
//! tens of microseconds each).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::{Mutex, OnceLock, TryLockError};
use std::thread::Thread;
use std::time::Duration;

/// The slots and the consumer's position, shared by reference between the two sides. The
/// consumer never blocks: it takes a slot only when its lock is free.
pub(crate) struct Ahead<T> {
    slots: Vec<Mutex<Slot<T>>>,
    /// The item the consumer is at.
    consumer: AtomicUsize,
    /// The consumer stopped: the producer should too.
    closed: AtomicBool,
    /// The producer's thread, to wake it when the consumer stops.
    producer: OnceLock<Thread>,
    capacity: usize,
}

enum Slot<T> {
    /// Not made yet.
    Empty,
    /// Made by the producer, not taken yet.
    Ready(T),
    /// The consumer has been here.
    Taken,
}

/// How long the producer sleeps when it is a queue's length ahead, before looking again.
const NAP: Duration = Duration::from_micros(300);

impl<T> Ahead<T> {
    /// Slots for `len` items, the producer at most `capacity` (at least 2) ahead.
    pub(crate) fn new(len: usize, capacity: usize) -> Ahead<T> {
        Ahead {
            slots: (0..len).map(|_| Mutex::new(Slot::Empty)).collect(),
            consumer: AtomicUsize::new(0),
            closed: AtomicBool::new(false),
            producer: OnceLock::new(),
            capacity: capacity.max(2),
        }
    }

    /// The producer's side: fills the slots in order with `f`, skipping what the consumer has
    /// passed, until the end or until the consumer [closes](Self::close). While it is a queue's
    /// length ahead it calls `idle` (one step of other work, true while more remains) before
    /// napping.
    pub(crate) fn produce(&self, f: impl Fn(usize) -> T, mut idle: impl FnMut() -> bool) {
        let _ = self.producer.set(std::thread::current());
        let mut i = 0;
        while i < self.slots.len() && !self.closed.load(SeqCst) {
            let consumer = self.consumer.load(SeqCst);
            if i < consumer {
                i = consumer;
                continue;
            }
            if i >= consumer + self.capacity {
                // The consumer never wakes this thread (waking a sleeping thread is a system
                // call, on a virtual machine an interrupt to the other CPU): it looks again
                // after a nap, long before the consumer has used up the queue.
                if !idle() {
                    std::thread::park_timeout(NAP);
                }
                continue;
            }
            let item = f(i);
            let mut slot = self.slots[i].lock().unwrap_or_else(|e| e.into_inner());
            if matches!(*slot, Slot::Empty) {
                *slot = Slot::Ready(item);
            }
            i += 1;
        }
    }

    /// The consumer's side: item `i` (taken in ascending order), the producer's when it is
    /// ready, else `f(i)` made here.
    pub(crate) fn take(&self, i: usize, f: impl FnOnce(usize) -> T) -> T {
        self.consumer.store(i, SeqCst);
        let slot = match self.slots.get(i).map(Mutex::try_lock) {
            Some(Ok(mut slot)) => std::mem::replace(&mut *slot, Slot::Taken),
            Some(Err(TryLockError::Poisoned(e))) => {
                std::mem::replace(&mut *e.into_inner(), Slot::Taken)
            }
            // The producer is storing it right now (or there is no such slot).
            Some(Err(TryLockError::WouldBlock)) | None => Slot::Empty,
        };
        match slot {
            Slot::Ready(item) => item,
            Slot::Empty | Slot::Taken => f(i),
        }
    }

    fn wake_producer(&self) {
        if let Some(t) = self.producer.get() {
            t.unpark();
        }
    }

    /// Stops the producer (its [`produce`](Self::produce) returns).
    pub(crate) fn close(&self) {
        self.closed.store(true, SeqCst);
        self.wake_producer();
    }
}

/// The room `v` holds past its elements, as an address range (start, bytes).
pub(crate) fn room<T>(v: &Vec<T>) -> (usize, usize) {
    let size = std::mem::size_of::<T>();
    (
        v.as_ptr() as usize + v.len() * size,
        (v.capacity() - v.len()) * size,
    )
}

/// Room reserved in lists the consumer fills in place (the state's record columns), mapped in
/// on the producer's thread while it has nothing to decode, so that the consumer's appends
/// find their pages mapped instead of each faulting one in (a page fault on a virtual machine
/// costs microseconds; a large link's merge met thousands). The pages are mapped by address
/// with `madvise(MADV_POPULATE_WRITE)`, which reads and writes no byte: a page the consumer has
/// written meanwhile is simply already mapped, and the consumer's view of its memory never
/// changes. Each step maps the next slice of every range, all ranges advancing together as
/// the consumer's appends do.
pub(crate) struct Prefault {
    ranges: Vec<(usize, usize)>,
    /// Slices mapped so far.
    done: usize,
}

/// Slices each range is mapped in.
const PREFAULT_SLICES: usize = 32;

/// Ranges smaller than this are left alone (their pages fault in soon enough).
const PREFAULT_MIN: usize = 64 << 10;

impl Prefault {
    /// The ranges (start, bytes) to map in.
    pub(crate) fn new(mut ranges: Vec<(usize, usize)>) -> Prefault {
        ranges.retain(|&(_, len)| len >= PREFAULT_MIN);
        Prefault { ranges, done: 0 }
    }

    /// Maps the next slice of every range; true while more remains.
    pub(crate) fn step(&mut self) -> bool {
        if self.done >= PREFAULT_SLICES || self.ranges.is_empty() {
            return false;
        }
        let k = self.done;
        for &(start, len) in &self.ranges {
            let from = start + len * k / PREFAULT_SLICES;
            let to = start + len * (k + 1) / PREFAULT_SLICES;
            populate(from, to);
        }
        self.done += 1;
        self.done < PREFAULT_SLICES
    }
}

/// Maps in the pages of addresses `from..to` (the pages around them included) without
/// touching their bytes; where the system cannot, nothing happens (the pages fault in on
/// first use as before).
fn populate(from: usize, to: usize) {
    #[cfg(target_os = "linux")]
    {
        extern "C" {
            fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
        }
        const MADV_POPULATE_WRITE: i32 = 23;
        const PAGE: usize = 4096;
        let start = from / PAGE * PAGE;
        let end = to.next_multiple_of(PAGE);
        if end > start {
            // SAFETY: the call only maps pages of the process's own address space in (as a
            // first write would, zero-filled where never written) and accesses no memory; an
            // address no longer mapped makes it fail, harmlessly (Linux 5.14+; before, it
            // fails for every range and nothing changes).
            unsafe {
                madvise(
                    start as *mut std::ffi::c_void,
                    end - start,
                    MADV_POPULATE_WRITE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (from, to);
}

/// Calls [`Ahead::close`] when dropped: the consumer's side, so that a consumer that stops
/// early (an error, a panic) never leaves the producer waiting.
pub(crate) struct Close<'a, T>(pub(crate) &'a Ahead<T>);

impl<T> Drop for Close<'_, T> {
    fn drop(&mut self) {
        self.0.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_arrive_in_order_whoever_makes_them() {
        for capacity in [2, 4, 64] {
            let q = Ahead::new(1000, capacity);
            let got: Vec<usize> = std::thread::scope(|s| {
                s.spawn(|| q.produce(|i| i * 3, || false));
                let _close = Close(&q);
                (0..1000).map(|i| q.take(i, |i| i * 3)).collect()
            });
            assert_eq!(got, (0..1000).map(|i| i * 3).collect::<Vec<_>>());
        }
    }

    #[test]
    fn prefaulting_a_list_room_changes_none_of_its_elements() {
        let mut list: Vec<u64> = Vec::with_capacity(1 << 20);
        list.extend(0..1000);
        let (start, bytes) = room(&list);
        assert_eq!(start, list.as_ptr() as usize + 1000 * 8);
        assert_eq!(bytes, (list.capacity() - 1000) * 8);
        let mut prefault = Prefault::new(vec![(start, bytes), (start, 16)]);
        let mut steps = 1;
        while prefault.step() {
            steps += 1;
        }
        assert_eq!(steps, PREFAULT_SLICES);
        assert!(!prefault.step());
        assert!(list.iter().copied().eq(0..1000));
        list.extend(1000..(1 << 20));
        assert!(list.iter().copied().eq(0..(1 << 20)));
    }

    #[test]
    fn a_consumer_that_stops_stops_the_producer() {
        let q = Ahead::new(1_000_000, 2);
        std::thread::scope(|s| {
            let producer = s.spawn(|| q.produce(|i| i, || false));
            {
                let _close = Close(&q);
                assert_eq!(q.take(0, |i| i), 0);
            }
            producer.join().unwrap();
        });
    }
}

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

/// Storage for a list the consumer fills (the merge's relocations), prepared on the producer's
/// thread while it has nothing to decode: allocated at the list's final size and written once
/// per page, so the kernel maps the pages there, then handed to the consumer, whose appends
/// then find them mapped instead of each faulting one in.
pub(crate) struct Prepared<L> {
    ready: Mutex<Option<Vec<L>>>,
}

impl<L> Prepared<L> {
    /// Nothing prepared yet.
    pub(crate) fn new() -> Prepared<L> {
        Prepared {
            ready: Mutex::new(None),
        }
    }

    /// The storage, once prepared (taken: later calls get `None`). Never waits.
    pub(crate) fn try_take(&self) -> Option<Vec<L>> {
        match self.ready.try_lock() {
            Ok(mut ready) => ready.take(),
            Err(TryLockError::Poisoned(e)) => e.into_inner().take(),
            Err(TryLockError::WouldBlock) => None,
        }
    }
}

/// The producer's side of a [`Prepared`] list: the storage being prepared.
pub(crate) struct Preparing<L> {
    storage: Vec<L>,
    capacity: usize,
    /// Elements of the storage's room whose pages are mapped.
    done: usize,
}

/// Bytes of storage prepared per step.
const PREPARE_STEP: usize = 1 << 18;

impl<L> Preparing<L> {
    /// Storage for `capacity` elements, to prepare.
    pub(crate) fn new(capacity: usize) -> Preparing<L> {
        Preparing {
            storage: Vec::new(),
            capacity,
            done: 0,
        }
    }

    /// Prepares the next quarter megabyte, handing the storage to `into` when it is all
    /// prepared; true while more remains.
    pub(crate) fn step(&mut self, into: &Prepared<L>) -> bool {
        if self.capacity == 0 {
            return false;
        }
        if self.storage.capacity() < self.capacity {
            self.storage.reserve_exact(self.capacity);
        }
        let size = std::mem::size_of::<L>().max(1);
        let per_page = (4096 / size).max(1);
        let room = self.storage.spare_capacity_mut();
        let end = (self.done + PREPARE_STEP / size).min(room.len());
        let mut k = self.done;
        while k < end {
            room[k] = std::mem::MaybeUninit::zeroed();
            k += per_page;
        }
        std::hint::black_box(room.as_ptr());
        self.done = end;
        if end < room.len() {
            return true;
        }
        let storage = std::mem::take(&mut self.storage);
        *into.ready.lock().unwrap_or_else(|e| e.into_inner()) = Some(storage);
        self.capacity = 0;
        false
    }
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
    fn prepared_storage_is_handed_over_empty_with_its_room() {
        let prepared = Prepared::<u64>::new();
        let mut preparing = Preparing::new(100_000);
        let mut steps = 0;
        while preparing.step(&prepared) {
            steps += 1;
        }
        assert!(steps >= 2);
        let storage = prepared.try_take().unwrap();
        assert!(storage.is_empty() && storage.capacity() >= 100_000);
        assert!(prepared.try_take().is_none());
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

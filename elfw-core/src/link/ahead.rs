//! A bounded queue between a thread that prepares work ahead (decoding inputs) and the one that
//! consumes it in order (the merge).
//!
//! `std::sync::mpsc::sync_channel` wakes a blocked sender on every receive once the channel is
//! full, so a producer that runs ahead ends up woken once per item; on a virtual machine each
//! wake-up is an interrupt to the other CPU, tens of microseconds the consumer waits for. Here
//! the producer, once the queue is full, sleeps until the consumer has emptied half of it, and
//! the consumer is woken only when it is waiting for an item.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard};

/// The queue (shared by reference between the producer and the consumer).
pub(crate) struct Ahead<T> {
    state: Mutex<Queue<T>>,
    /// Signalled when an item arrives or the producer is done, while the consumer waits.
    ready: Condvar,
    /// Signalled when there is room again (half the queue), or the consumer is gone.
    room: Condvar,
    capacity: usize,
}

struct Queue<T> {
    items: VecDeque<T>,
    /// The producer will send nothing more.
    done: bool,
    /// The consumer stopped taking items.
    closed: bool,
    consumer_waiting: bool,
    producer_waiting: bool,
}

impl<T> Ahead<T> {
    /// An empty queue holding at most `capacity` items (at least 2).
    pub(crate) fn new(capacity: usize) -> Ahead<T> {
        let capacity = capacity.max(2);
        Ahead {
            state: Mutex::new(Queue {
                items: VecDeque::with_capacity(capacity),
                done: false,
                closed: false,
                consumer_waiting: false,
                producer_waiting: false,
            }),
            ready: Condvar::new(),
            room: Condvar::new(),
            capacity,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Queue<T>> {
        // A panic on the other side poisons nothing we rely on: the flags stay consistent.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds `item`, waiting while the queue is full. False when the consumer is gone (the
    /// producer should stop).
    pub(crate) fn push(&self, item: T) -> bool {
        let mut q = self.lock();
        while q.items.len() >= self.capacity && !q.closed {
            q.producer_waiting = true;
            q = self.room.wait(q).unwrap_or_else(|e| e.into_inner());
        }
        if q.closed {
            return false;
        }
        q.items.push_back(item);
        if q.consumer_waiting {
            q.consumer_waiting = false;
            self.ready.notify_one();
        }
        true
    }

    /// Marks the producer done (nothing more will come); the consumer then gets `None` once the
    /// queue is empty.
    pub(crate) fn finish(&self) {
        let mut q = self.lock();
        q.done = true;
        self.ready.notify_one();
    }

    /// The next item, waiting for it; `None` when the producer is done and the queue empty.
    pub(crate) fn pop(&self) -> Option<T> {
        let mut q = self.lock();
        loop {
            if let Some(item) = q.items.pop_front() {
                if q.producer_waiting && q.items.len() <= self.capacity / 2 {
                    q.producer_waiting = false;
                    self.room.notify_one();
                }
                return Some(item);
            }
            if q.done {
                return None;
            }
            q.consumer_waiting = true;
            q = self.ready.wait(q).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Stops the producer: its next [`push`](Self::push) returns false.
    pub(crate) fn close(&self) {
        let mut q = self.lock();
        q.closed = true;
        q.items.clear();
        self.room.notify_one();
    }
}

/// Calls [`Ahead::finish`] when dropped: the producer's side, so that a producer that stops
/// (or panics) never leaves the consumer waiting.
pub(crate) struct Finish<'a, T>(pub(crate) &'a Ahead<T>);

impl<T> Drop for Finish<'_, T> {
    fn drop(&mut self) {
        self.0.finish();
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
    fn items_arrive_in_order() {
        let q = Ahead::new(4);
        std::thread::scope(|s| {
            s.spawn(|| {
                let _done = Finish(&q);
                for i in 0..1000 {
                    assert!(q.push(i));
                }
            });
            let got: Vec<i32> = std::iter::from_fn(|| q.pop()).collect();
            assert_eq!(got, (0..1000).collect::<Vec<_>>());
        });
    }

    #[test]
    fn a_consumer_that_stops_stops_the_producer() {
        let q = Ahead::new(2);
        std::thread::scope(|s| {
            let producer = s.spawn(|| {
                let _done = Finish(&q);
                (0..1_000_000).take_while(|&i| q.push(i)).count()
            });
            {
                let _close = Close(&q);
                assert_eq!(q.pop(), Some(0));
            }
            assert!(producer.join().unwrap() < 1_000_000);
        });
    }
}

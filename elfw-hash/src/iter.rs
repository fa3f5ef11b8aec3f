//! Iterators over a map in its own orders.
//!
//! Two orders exist and both are nvlink's (see the crate doc):
//! - insertion order ([`Iter`], [`IterMut`]): ascending [`EntryId`], i.e. the order entries were
//!   first inserted — the order of nvlink's entry slots, which its bitmap allocator hands out
//!   sequentially while nothing is removed;
//! - bucket order ([`BucketOrder`]): bucket 0, 1, … `bucket_count - 1` of the *current* geometry,
//!   and inside each bucket its chain order, which is ascending [`EntryId`].

use std::iter::{Enumerate, FusedIterator};
use std::slice;

use crate::table::{Entry, EntryId, Slot, Table};

/// Entries in insertion order (ascending [`EntryId`]), yielding `(id, &key, &value)`.
#[derive(Clone, Debug)]
pub struct Iter<'a, K, V> {
    inner: Enumerate<slice::Iter<'a, Entry<K, V>>>,
}

impl<'a, K, V> Iter<'a, K, V> {
    pub(crate) fn new(entries: &'a [Entry<K, V>]) -> Self {
        Self {
            inner: entries.iter().enumerate(),
        }
    }
}

impl<'a, K, V> Iterator for Iter<'a, K, V> {
    type Item = (EntryId, &'a K, &'a V);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.inner
            .next()
            .map(|(i, e)| (EntryId::new(i as u32), &e.key, &e.value))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl<K, V> ExactSizeIterator for Iter<'_, K, V> {}
impl<K, V> FusedIterator for Iter<'_, K, V> {}

/// Entries in insertion order (ascending [`EntryId`]), yielding `(id, &key, &mut value)`.
#[derive(Debug)]
pub struct IterMut<'a, K, V> {
    inner: Enumerate<slice::IterMut<'a, Entry<K, V>>>,
}

impl<'a, K, V> IterMut<'a, K, V> {
    pub(crate) fn new(entries: &'a mut [Entry<K, V>]) -> Self {
        Self {
            inner: entries.iter_mut().enumerate(),
        }
    }
}

impl<'a, K, V> Iterator for IterMut<'a, K, V> {
    type Item = (EntryId, &'a K, &'a mut V);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.inner
            .next()
            .map(|(i, e)| (EntryId::new(i as u32), &e.key, &mut e.value))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl<K, V> ExactSizeIterator for IterMut<'_, K, V> {}
impl<K, V> FusedIterator for IterMut<'_, K, V> {}

/// The entry indices of one chain: its inline part, then its spilled part.
#[derive(Clone, Debug)]
struct ChainIndices<'a> {
    inline: slice::Iter<'a, u32>,
    spilled: slice::Iter<'a, Slot>,
}

impl<'a> ChainIndices<'a> {
    fn new((inline, spilled): (&'a [u32], &'a [Slot])) -> Self {
        Self {
            inline: inline.iter(),
            spilled: spilled.iter(),
        }
    }

    #[inline]
    fn next(&mut self) -> Option<u32> {
        match self.inline.next() {
            Some(&i) => Some(i),
            None => self.spilled.next().map(|s| s.index()),
        }
    }

    fn len(&self) -> usize {
        self.inline.len() + self.spilled.len()
    }
}

/// Entries in bucket order: buckets `0..bucket_count` of the current geometry, each bucket's
/// chain in ascending [`EntryId`]. Yields `(id, &key, &value)`.
#[derive(Clone, Debug)]
pub struct BucketOrder<'a, K, V> {
    table: &'a Table<K, V>,
    next_bucket: usize,
    chain: ChainIndices<'a>,
    remaining: usize,
}

impl<'a, K, V> BucketOrder<'a, K, V> {
    pub(crate) fn new(table: &'a Table<K, V>) -> Self {
        Self {
            table,
            next_bucket: 0,
            chain: ChainIndices::new((&[], &[])),
            remaining: table.len(),
        }
    }
}

impl<'a, K, V> Iterator for BucketOrder<'a, K, V> {
    type Item = (EntryId, &'a K, &'a V);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(index) = self.chain.next() {
                let e = &self.table.entries()[index as usize];
                self.remaining -= 1;
                return Some((EntryId::new(index), &e.key, &e.value));
            }
            if self.remaining == 0 || self.next_bucket >= self.table.bucket_count() {
                return None;
            }
            self.chain = ChainIndices::new(self.table.chain(self.next_bucket));
            self.next_bucket += 1;
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<K, V> ExactSizeIterator for BucketOrder<'_, K, V> {}
impl<K, V> FusedIterator for BucketOrder<'_, K, V> {}

/// The entry ids of one bucket, in chain order (ascending [`EntryId`]).
#[derive(Clone, Debug)]
pub struct BucketEntries<'a> {
    chain: ChainIndices<'a>,
}

impl<'a> BucketEntries<'a> {
    pub(crate) fn new(chain: (&'a [u32], &'a [Slot])) -> Self {
        Self {
            chain: ChainIndices::new(chain),
        }
    }
}

impl Iterator for BucketEntries<'_> {
    type Item = EntryId;

    #[inline]
    fn next(&mut self) -> Option<EntryId> {
        self.chain.next().map(EntryId::new)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.chain.len();
        (n, Some(n))
    }
}

impl ExactSizeIterator for BucketEntries<'_> {}
impl FusedIterator for BucketEntries<'_> {}

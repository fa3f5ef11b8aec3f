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

use crate::table::{Bucket, Entry, EntryId};

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

/// Entries in bucket order: buckets `0..bucket_count` of the current geometry, each bucket's
/// chain in ascending [`EntryId`]. Yields `(id, &key, &value)`.
#[derive(Clone, Debug)]
pub struct BucketOrder<'a, K, V> {
    buckets: slice::Iter<'a, Bucket>,
    chain: slice::Iter<'a, u32>,
    entries: &'a [Entry<K, V>],
    remaining: usize,
}

impl<'a, K, V> BucketOrder<'a, K, V> {
    pub(crate) fn new(buckets: &'a [Bucket], entries: &'a [Entry<K, V>]) -> Self {
        Self {
            buckets: buckets.iter(),
            chain: [].iter(),
            entries,
            remaining: entries.len(),
        }
    }
}

impl<'a, K, V> Iterator for BucketOrder<'a, K, V> {
    type Item = (EntryId, &'a K, &'a V);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(&index) = self.chain.next() {
                let e = &self.entries[index as usize];
                self.remaining -= 1;
                return Some((EntryId::new(index), &e.key, &e.value));
            }
            self.chain = self.buckets.next()?.indices().iter();
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
    inner: slice::Iter<'a, u32>,
}

impl<'a> BucketEntries<'a> {
    pub(crate) fn new(bucket: Option<&'a Bucket>) -> Self {
        Self {
            inner: bucket.map_or(&[][..], Bucket::indices).iter(),
        }
    }
}

impl Iterator for BucketEntries<'_> {
    type Item = EntryId;

    #[inline]
    fn next(&mut self) -> Option<EntryId> {
        self.inner.next().map(|&i| EntryId::new(i))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl ExactSizeIterator for BucketEntries<'_> {}
impl FusedIterator for BucketEntries<'_> {}

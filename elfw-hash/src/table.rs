//! The open-bucket table shared by [`NameMap`](crate::NameMap) and [`IntMap`](crate::IntMap).
//!
//! Shape (seed 01 "Name Lookup Hash Map"; wiki "Symbol Tables & Hash Maps", linker hash table):
//! a power-of-two array of buckets addressed by `hash & mask`; each bucket a growable array of
//! entry indices; one dense entry array holding key and value. Entries are never removed, so an
//! entry's index is its insertion ordinal — the same slot nvlink's bitmap allocator hands out
//! when nothing has been freed — and every bucket lists its entries in ascending index order,
//! both after an append and after a rehash (which re-inserts entries in slot order).
//!
//! Growth rules taken from the wiki: the load bound is four entries per bucket; after an insert
//! leaves `len > 4 * bucket_count`, the bucket array doubles (mask `m` becomes `2m + 1`) and
//! every entry is re-bucketed. The wiki states the bound as "initially 4 * capacity"; we keep it
//! at 4 × the current bucket count after each doubling (an assumption, flagged in the crate doc).

use std::fmt;

/// Largest bucket count the table grows to; past it the chains simply lengthen.
const MAX_BUCKETS: usize = 1 << 31;

/// Entries allowed per bucket, on average, before the table doubles (wiki: "4 * capacity").
pub(crate) const LOAD_FACTOR: usize = 4;

/// Identifies one entry of a map: its insertion ordinal, stable for the map's lifetime.
///
/// Entry ids order like insertion: of two entries, the one inserted first has the smaller id.
/// They are only meaningful for the map that returned them.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EntryId(u32);

impl EntryId {
    #[inline]
    pub(crate) const fn new(index: u32) -> Self {
        Self(index)
    }

    #[inline]
    pub(crate) const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Debug for EntryId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EntryId({})", self.0)
    }
}

/// One stored pair plus the full 32-bit hash it was bucketed by.
#[derive(Clone, Debug)]
pub(crate) struct Entry<K, V> {
    pub(crate) hash: u32,
    pub(crate) key: K,
    pub(crate) value: V,
}

/// One bucket: the entry indices whose `hash & mask` selects it, in ascending order.
///
/// Capacity doubles when full, starting from one slot, as nvlink's chains do (seed 01,
/// "Collision Handling Example": 1 → 2 entries on the first collision).
#[derive(Clone, Debug, Default)]
pub(crate) struct Bucket {
    slots: Vec<u32>,
}

impl Bucket {
    #[inline]
    fn push(&mut self, index: u32) {
        if self.slots.len() == self.slots.capacity() {
            let grow_by = self.slots.capacity().max(1);
            self.slots.reserve_exact(grow_by);
        }
        self.slots.push(index);
    }

    #[inline]
    pub(crate) fn indices(&self) -> &[u32] {
        &self.slots
    }

    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.slots.capacity()
    }
}

/// The table proper; key equality and hashing are the caller's business.
#[derive(Clone, Debug)]
pub(crate) struct Table<K, V> {
    mask: u32,
    buckets: Vec<Bucket>,
    entries: Vec<Entry<K, V>>,
}

impl<K, V> Table<K, V> {
    /// A table of `requested` buckets rounded up to a power of two (nvlink's `ceil_log2`);
    /// zero is treated as one.
    pub(crate) fn with_buckets(requested: usize) -> Self {
        let count = requested.clamp(1, MAX_BUCKETS).next_power_of_two();
        let mut buckets = Vec::with_capacity(count);
        buckets.resize_with(count, Bucket::default);
        Self {
            mask: (count - 1) as u32,
            buckets,
            entries: Vec::new(),
        }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    #[inline]
    pub(crate) fn bucket_count(&self) -> usize {
        self.buckets.len()
    }

    #[inline]
    pub(crate) fn bucket_index(&self, hash: u32) -> usize {
        (hash & self.mask) as usize
    }

    #[inline]
    pub(crate) fn bucket(&self, index: usize) -> Option<&Bucket> {
        self.buckets.get(index)
    }

    #[inline]
    pub(crate) fn buckets(&self) -> &[Bucket] {
        &self.buckets
    }

    #[inline]
    pub(crate) fn entries(&self) -> &[Entry<K, V>] {
        &self.entries
    }

    #[inline]
    pub(crate) fn entries_mut(&mut self) -> &mut [Entry<K, V>] {
        &mut self.entries
    }

    #[inline]
    pub(crate) fn entry(&self, id: EntryId) -> Option<&Entry<K, V>> {
        self.entries.get(id.index())
    }

    #[inline]
    pub(crate) fn entry_mut(&mut self, id: EntryId) -> Option<&mut Entry<K, V>> {
        self.entries.get_mut(id.index())
    }

    /// The entry with this hash whose key satisfies `is_key`, if any.
    #[inline]
    pub(crate) fn find(&self, hash: u32, mut is_key: impl FnMut(&K) -> bool) -> Option<EntryId> {
        let bucket = &self.buckets[self.bucket_index(hash)];
        for &index in bucket.indices() {
            let entry = &self.entries[index as usize];
            if entry.hash == hash && is_key(&entry.key) {
                return Some(EntryId::new(index));
            }
        }
        None
    }

    /// Appends a new entry (the caller has checked the key is absent) and rehashes if the
    /// table passed its load bound.
    ///
    /// # Panics
    /// When the map already holds `u32::MAX` entries (nvlink's indices are 32-bit with
    /// 0xFFFFFFFF reserved as the chain terminator).
    pub(crate) fn push(&mut self, hash: u32, key: K, value: V) -> EntryId {
        let index = u32::try_from(self.entries.len())
            .ok()
            .filter(|&i| i != u32::MAX)
            .expect("a linker hash table holds fewer than 2^32 - 1 entries");
        self.entries.push(Entry { hash, key, value });
        let bucket = self.bucket_index(hash);
        self.buckets[bucket].push(index);
        if self.entries.len() > LOAD_FACTOR * self.buckets.len() && self.buckets.len() < MAX_BUCKETS
        {
            self.double();
        }
        EntryId::new(index)
    }

    /// Doubles the bucket array and re-buckets every entry in index order, so each new chain is
    /// again in ascending index order.
    fn double(&mut self) {
        let count = self.buckets.len() * 2;
        self.mask = (count - 1) as u32;
        self.buckets.clear();
        self.buckets.resize_with(count, Bucket::default);
        for (index, entry) in self.entries.iter().enumerate() {
            let bucket = (entry.hash & self.mask) as usize;
            self.buckets[bucket].push(index as u32);
        }
    }
}

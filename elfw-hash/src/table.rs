//! The open-bucket table shared by [`NameMap`](crate::NameMap) and [`IntMap`](crate::IntMap).
//!
//! Shape (seed 01 "Name Lookup Hash Map"; wiki "Symbol Tables & Hash Maps", linker hash table):
//! a power-of-two array of buckets addressed by `hash & mask`; each bucket a growable array of
//! entry indices (here: seven inline in the bucket's cache line, then a doubling spill vector,
//! see [`Bucket`]); one dense entry array holding key, value and the key's 32-bit hash. Entries are never removed, so an
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

/// One stored reference from a bucket to an entry: the entry's index and its full hash, so a
/// lookup only touches entries whose hash matches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Slot {
    hash: u32,
    index: u32,
}

impl Slot {
    /// The entry this slot refers to.
    #[inline]
    pub(crate) fn index(self) -> u32 {
        self.index
    }
}

/// Chain slots a bucket holds inline, in its own cache line.
const INLINE: usize = 7;

/// One bucket: the entries whose `hash & mask` selects it, in ascending index order.
///
/// The first [`INLINE`] slots live in the bucket itself (one 64-byte cache line: the hashes,
/// the indices, the length and the spill link); later ones spill into a side vector that
/// doubles its capacity whenever it fills. nvlink keeps every chain on the heap, starting at one
/// slot and doubling (seed 01 "Collision Handling Example"); the chain's *contents and order*
/// are the same, only where the slots live differs — which no output can observe, and which
/// saves the lookup a dependent cache miss and the insert an allocation per bucket.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
pub(crate) struct Bucket {
    hashes: [u32; INLINE],
    indices: [u32; INLINE],
    /// Total slots, inline plus spilled.
    len: u32,
    /// `1 + index` into [`Table::spills`] once the bucket has spilled, else 0.
    spill: u32,
}

impl Bucket {
    /// Number of entries chained in this bucket.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    /// The inline part of the chain.
    #[inline]
    pub(crate) fn inline_indices(&self) -> &[u32] {
        &self.indices[..self.len().min(INLINE)]
    }
}

/// The table proper; key equality and hashing are the caller's business.
#[derive(Clone, Debug)]
pub(crate) struct Table<K, V> {
    mask: u32,
    buckets: Vec<Bucket>,
    /// Chain slots past the first [`INLINE`] of a bucket, one vector per spilled bucket.
    spills: Vec<Vec<Slot>>,
    entries: Vec<Entry<K, V>>,
}

impl<K, V> Table<K, V> {
    /// A table of `requested` buckets rounded up to a power of two (nvlink's `ceil_log2`);
    /// zero is treated as one.
    pub(crate) fn with_buckets(requested: usize) -> Self {
        let count = requested.clamp(1, MAX_BUCKETS).next_power_of_two();
        Self {
            mask: (count - 1) as u32,
            buckets: vec![Bucket::default(); count],
            spills: Vec::new(),
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

    /// The chain of bucket `index` as (inline part, spilled part); empty when out of range.
    #[inline]
    pub(crate) fn chain(&self, index: usize) -> (&[u32], &[Slot]) {
        match self.buckets.get(index) {
            Some(bucket) => (bucket.inline_indices(), self.spilled(bucket)),
            None => (&[], &[]),
        }
    }

    /// Slots allocated to bucket `index`: the inline ones plus its spill vector's capacity.
    #[cfg(test)]
    pub(crate) fn chain_capacity(&self, index: usize) -> usize {
        match self.buckets.get(index) {
            Some(b) if b.spill != 0 => INLINE + self.spills[b.spill as usize - 1].capacity(),
            Some(_) => INLINE,
            None => 0,
        }
    }

    #[inline]
    fn spilled(&self, bucket: &Bucket) -> &[Slot] {
        match bucket.spill {
            0 => &[],
            link => &self.spills[link as usize - 1],
        }
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

    /// Reads the bucket of `hash` without using the value, so the CPU fetches its cache line
    /// while other work goes on (a prefetch in safe code).
    #[inline]
    pub(crate) fn touch(&self, hash: u32) {
        std::hint::black_box(self.buckets[self.bucket_index(hash)].len);
    }

    /// Reads, for each inline entry of `hash`'s bucket whose stored hash is `hash`, its key
    /// through `touch` (a second-level prefetch: the entries and key bytes a lookup of the
    /// name would compare).
    #[inline]
    pub(crate) fn touch_matches(&self, hash: u32, mut touch: impl FnMut(&K)) {
        let bucket = &self.buckets[self.bucket_index(hash)];
        for (&h, &index) in bucket.hashes.iter().zip(bucket.inline_indices()) {
            if h == hash {
                touch(&self.entries[index as usize].key);
            }
        }
    }

    /// The entry with this hash whose key satisfies `is_key`, if any.
    #[inline]
    pub(crate) fn find(&self, hash: u32, mut is_key: impl FnMut(&K) -> bool) -> Option<EntryId> {
        let bucket = &self.buckets[self.bucket_index(hash)];
        // Compare all inline hashes without branching, then visit only the matches.
        let mut matches = 0u32;
        for (i, &h) in bucket.hashes.iter().enumerate() {
            matches |= u32::from(h == hash) << i;
        }
        matches &= (1u32 << bucket.len().min(INLINE)) - 1;
        while matches != 0 {
            let index = bucket.indices[matches.trailing_zeros() as usize];
            if is_key(&self.entries[index as usize].key) {
                return Some(EntryId::new(index));
            }
            matches &= matches - 1;
        }
        if bucket.spill != 0 {
            return self.find_spilled(bucket, hash, is_key);
        }
        None
    }

    #[cold]
    fn find_spilled(
        &self,
        bucket: &Bucket,
        hash: u32,
        mut is_key: impl FnMut(&K) -> bool,
    ) -> Option<EntryId> {
        self.spilled(bucket)
            .iter()
            .filter(|slot| slot.hash == hash)
            .find(|slot| is_key(&self.entries[slot.index as usize].key))
            .map(|slot| EntryId::new(slot.index))
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
        self.chain_push(hash, index);
        if self.entries.len() > LOAD_FACTOR * self.buckets.len() && self.buckets.len() < MAX_BUCKETS
        {
            self.double();
        }
        EntryId::new(index)
    }

    /// Appends entry `index` to the end of its bucket's chain.
    #[inline]
    fn chain_push(&mut self, hash: u32, index: u32) {
        let bucket = &mut self.buckets[(hash & self.mask) as usize];
        let len = bucket.len();
        if len < INLINE {
            bucket.hashes[len] = hash;
            bucket.indices[len] = index;
        } else {
            if bucket.spill == 0 {
                self.spills.push(Vec::new());
                bucket.spill = self.spills.len() as u32;
            }
            let spill = &mut self.spills[bucket.spill as usize - 1];
            if spill.len() == spill.capacity() {
                // Double when full (first spill: room for as many again as fit inline).
                spill.reserve_exact(spill.capacity().max(INLINE + 1));
            }
            spill.push(Slot { hash, index });
        }
        bucket.len += 1;
    }

    /// Grows the bucket array (by doubling) until `additional` more entries fit under the load
    /// bound, re-bucketing once, and makes room for them in the entry array.
    pub(crate) fn reserve(&mut self, additional: usize) {
        let want = self.entries.len().saturating_add(additional);
        let mut count = self.buckets.len();
        while want > LOAD_FACTOR * count && count < MAX_BUCKETS {
            count *= 2;
        }
        if count != self.buckets.len() {
            self.rebucket(count);
        }
        self.entries.reserve(additional);
    }

    /// The room reserved in the entry array past its entries, as an address range (start,
    /// bytes).
    pub(crate) fn entry_room(&self) -> (usize, usize) {
        let size = std::mem::size_of::<Entry<K, V>>();
        (
            self.entries.as_ptr() as usize + self.entries.len() * size,
            (self.entries.capacity() - self.entries.len()) * size,
        )
    }

    /// Doubles the bucket array and re-buckets every entry in index order, so each new chain is
    /// again in ascending index order.
    fn double(&mut self) {
        self.rebucket(self.buckets.len() * 2);
    }

    /// Re-buckets every entry into `count` buckets (a power of two), in index order.
    fn rebucket(&mut self, count: usize) {
        self.mask = (count - 1) as u32;
        self.buckets.clear();
        self.buckets.resize(count, Bucket::default());
        self.spills.clear();
        for index in 0..self.entries.len() {
            self.chain_push(self.entries[index].hash, index as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reserving room grows the bucket array once; the entries keep their ids and are found.
    #[test]
    fn reserve_rebuckets_once() {
        let mut table: Table<u32, u32> = Table::with_buckets(4);
        for i in 0..10u32 {
            table.push(i.wrapping_mul(0x9e37_79b9), i, i);
        }
        table.reserve(1000);
        assert_eq!(table.bucket_count(), 256);
        for i in 10..1010u32 {
            table.push(i.wrapping_mul(0x9e37_79b9), i, i);
        }
        assert_eq!(table.bucket_count(), 256);
        for i in 0..1010u32 {
            let id = table
                .find(i.wrapping_mul(0x9e37_79b9), |&k| k == i)
                .unwrap();
            assert_eq!(id.index(), i as usize);
        }
    }

    /// A bucket is one cache line.
    #[test]
    fn bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
    }

    /// Forty entries in one bucket of a large table: the chain keeps all of them in insertion
    /// order; its storage grows from the inline slots by doubling the spill each time it fills.
    #[test]
    fn bucket_grows_by_doubling_and_keeps_order() {
        let mut table: Table<u32, ()> = Table::with_buckets(16);
        let mut capacities = Vec::new();
        for i in 0..40u32 {
            // Same low bits, distinct high bits: one bucket, distinct hashes.
            table.push((i << 8) | 5, i, ());
            if capacities.last() != Some(&table.chain_capacity(5)) {
                capacities.push(table.chain_capacity(5));
            }
        }
        assert_eq!(table.bucket_count(), 16, "40 <= 4 * 16: no rehash yet");
        // 7 inline, then 33 spilled: spill room 8 → 16 → 32 → 64.
        assert_eq!(
            capacities,
            [INLINE, INLINE + 8, INLINE + 16, INLINE + 32, INLINE + 64]
        );
        let (inline, spilled) = table.chain(5);
        let chain: Vec<u32> = inline
            .iter()
            .copied()
            .chain(spilled.iter().map(|s| s.index()))
            .collect();
        assert_eq!(chain, (0..40).collect::<Vec<_>>());
        for i in 0..40u32 {
            assert_eq!(table.find((i << 8) | 5, |&k| k == i), Some(EntryId::new(i)));
        }
        assert_eq!(table.find(5 | (99 << 8), |_| true), None);
        // Equal hashes: the key decides, inline and spilled alike.
        assert_eq!(table.find(5, |&k| k == 0), Some(EntryId::new(0)));
        assert_eq!(table.find(5, |&k| k == 1), None);
    }

    /// Equal full hashes for different keys (inline and spilled) are told apart by the key.
    #[test]
    fn equal_hashes_compare_keys() {
        let mut table: Table<u32, ()> = Table::with_buckets(64);
        for k in 0..12u32 {
            table.push(0xABCD_0003, k, ());
        }
        for k in 0..12u32 {
            assert_eq!(table.find(0xABCD_0003, |&x| x == k), Some(EntryId::new(k)));
        }
        assert_eq!(table.find(0xABCD_0003, |&x| x == 12), None);
    }

    /// Rehash rebuilds spills too: after doubling, every entry is found and chains ascend.
    #[test]
    fn rehash_rebuilds_spilled_chains() {
        let mut table: Table<u32, ()> = Table::with_buckets(2);
        for i in 0..9u32 {
            table.push(i << 1, i, ()); // all even: bucket 0 of 2
        }
        assert_eq!(table.bucket_count(), 4, "9 > 4 * 2: doubled");
        let (b0, s0) = table.chain(0);
        let (b2, s2) = table.chain(2);
        assert!(s0.is_empty() && s2.is_empty());
        assert_eq!(b0, [0, 2, 4, 6, 8]);
        assert_eq!(b2, [1, 3, 5, 7]);
        for i in 0..9u32 {
            assert_eq!(table.find(i << 1, |&k| k == i), Some(EntryId::new(i)));
        }
    }
}

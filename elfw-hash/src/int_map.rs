//! [`IntMap`]: nvlink's integer-keyed linker hash table (modes 1 and 2).

use crate::iter::{BucketEntries, BucketOrder, Iter, IterMut};
use crate::table::{EntryId, Table};
use crate::RELOCATION_TYPE_BUCKETS;

/// How an [`IntMap`] turns its 64-bit key into a 32-bit hash; keys always compare by equality.
///
/// These are nvlink's hash-table modes 1 and 2 (seed 01 "Name Lookup Hash Map", mode table).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum IntHash {
    /// Mode 1, for address-like keys: `(k >> 11) ^ (k >> 8) ^ (k >> 5)`, low 32 bits.
    XorShift,
    /// Mode 2, for small integer ids: the key itself, low 32 bits (bucket = `k & mask`).
    Identity,
}

impl IntHash {
    /// The 32-bit hash of `key` in this mode.
    #[must_use]
    #[inline]
    pub const fn hash(self, key: u64) -> u32 {
        match self {
            Self::XorShift => ((key >> 11) ^ (key >> 8) ^ (key >> 5)) as u32,
            Self::Identity => key as u32,
        }
    }
}

/// An integer-keyed map with nvlink's geometry and orders.
///
/// Same table as [`NameMap`](crate::NameMap) — power-of-two buckets addressed by
/// `hash & mask`, chains of entry indices into one dense entry array, doubling past four
/// entries per bucket — with the hash chosen by [`IntHash`].
#[derive(Clone, Debug)]
pub struct IntMap<V> {
    mode: IntHash,
    table: Table<u64, V>,
}

impl<V> IntMap<V> {
    /// An empty map hashing with `mode`, of `buckets` buckets rounded up to a power of two
    /// (zero counts as one).
    #[must_use]
    pub fn with_buckets(mode: IntHash, buckets: usize) -> Self {
        Self {
            mode,
            table: Table::with_buckets(buckets),
        }
    }

    /// The geometry of nvlink's relocation-type table: identity hash, 8 buckets (seed 03
    /// step 11).
    #[must_use]
    pub fn for_relocation_types() -> Self {
        Self::with_buckets(IntHash::Identity, RELOCATION_TYPE_BUCKETS)
    }

    /// The hash mode this map was built with.
    #[must_use]
    #[inline]
    pub fn mode(&self) -> IntHash {
        self.mode
    }

    /// Inserts `key → value`. A new key gets the next [`EntryId`] and returns `None`; an
    /// existing key keeps its entry id, takes the new value and returns the old one.
    ///
    /// # Panics
    /// If the map already holds `u32::MAX` entries.
    pub fn insert(&mut self, key: u64, value: V) -> (EntryId, Option<V>) {
        if let Some(id) = self.entry_id(key) {
            let slot = &mut self.table.entry_mut(id).expect("id just found").value;
            return (id, Some(std::mem::replace(slot, value)));
        }
        (self.table.push(self.mode.hash(key), key, value), None)
    }

    /// The entry holding `key`, if any.
    #[must_use]
    #[inline]
    pub fn entry_id(&self, key: u64) -> Option<EntryId> {
        self.table.find(self.mode.hash(key), |&k| k == key)
    }

    /// The value stored for `key`, if any.
    #[must_use]
    #[inline]
    pub fn get(&self, key: u64) -> Option<&V> {
        self.entry_id(key).and_then(|id| self.value(id))
    }

    /// The value stored for `key`, for update.
    #[must_use]
    #[inline]
    pub fn get_mut(&mut self, key: u64) -> Option<&mut V> {
        let id = self.entry_id(key)?;
        self.value_mut(id)
    }

    /// True when `key` is stored.
    #[must_use]
    #[inline]
    pub fn contains_key(&self, key: u64) -> bool {
        self.entry_id(key).is_some()
    }

    /// Number of distinct keys stored.
    #[must_use]
    #[inline]
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// True when no key is stored.
    #[must_use]
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.table.len() == 0
    }

    /// Current number of buckets (a power of two; doubles whenever `len` exceeds four per
    /// bucket).
    #[must_use]
    #[inline]
    pub fn bucket_count(&self) -> usize {
        self.table.bucket_count()
    }

    /// The bucket `key` occupies under the current geometry.
    #[must_use]
    #[inline]
    pub fn bucket_of(&self, key: u64) -> usize {
        self.table.bucket_index(self.mode.hash(key))
    }

    /// The entries of bucket `bucket` in chain order (ascending [`EntryId`]); empty when the
    /// bucket is empty or out of range.
    #[must_use]
    pub fn bucket_entries(&self, bucket: usize) -> BucketEntries<'_> {
        BucketEntries::new(self.table.chain(bucket))
    }

    /// The key of entry `id`, or `None` if `id` is not from this map.
    #[must_use]
    #[inline]
    pub fn key(&self, id: EntryId) -> Option<u64> {
        self.table.entry(id).map(|e| e.key)
    }

    /// The value of entry `id`, or `None` if `id` is not from this map.
    #[must_use]
    #[inline]
    pub fn value(&self, id: EntryId) -> Option<&V> {
        self.table.entry(id).map(|e| &e.value)
    }

    /// The value of entry `id` for update, or `None` if `id` is not from this map.
    #[must_use]
    #[inline]
    pub fn value_mut(&mut self, id: EntryId) -> Option<&mut V> {
        self.table.entry_mut(id).map(|e| &mut e.value)
    }

    /// All entries in insertion order (ascending [`EntryId`]).
    #[must_use]
    pub fn iter(&self) -> Iter<'_, u64, V> {
        Iter::new(self.table.entries())
    }

    /// All entries in insertion order, values mutable.
    #[must_use]
    pub fn iter_mut(&mut self) -> IterMut<'_, u64, V> {
        IterMut::new(self.table.entries_mut())
    }

    /// All entries in nvlink's bucket order: bucket 0 to `bucket_count() - 1` of the current
    /// geometry, each bucket's chain in ascending [`EntryId`].
    #[must_use]
    pub fn iter_bucket_order(&self) -> BucketOrder<'_, u64, V> {
        BucketOrder::new(&self.table)
    }
}

impl<'a, V> IntoIterator for &'a IntMap<V> {
    type Item = (EntryId, &'a u64, &'a V);
    type IntoIter = Iter<'a, u64, V>;

    /// Insertion order, as [`IntMap::iter`].
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mode 1 as the seed writes it: `(k >> 11) ^ (k >> 8) ^ (k >> 5)`.
    #[test]
    fn xor_shift_hash() {
        assert_eq!(IntHash::XorShift.hash(0), 0);
        // 0x800 = 1 << 11: (1) ^ (8) ^ (64) = 0x49.
        assert_eq!(IntHash::XorShift.hash(0x800), 0x49);
        // 0xFFFF_FFFF: 0x1F_FFFF ^ 0xFF_FFFF ^ 0x7FF_FFFF — bits 0..=20 set three times,
        // 21..=23 twice, 24..=26 once.
        assert_eq!(IntHash::XorShift.hash(0xFFFF_FFFF), 0x071F_FFFF);
        // Bit 37 lands on bits 26 and 29; the >> 5 copy (bit 32) is cut by the truncation.
        assert_eq!(IntHash::XorShift.hash(1 << 37), 0x2400_0000);
    }

    /// Mode 2: the bucket is `k & mask`.
    #[test]
    fn identity_hash_buckets_by_low_bits() {
        let mut map = IntMap::for_relocation_types();
        assert_eq!(map.bucket_count(), 8);
        assert_eq!(map.mode(), IntHash::Identity);
        for key in [3u64, 11, 19, 4] {
            map.insert(key, key * 10);
        }
        assert_eq!(map.bucket_of(3), 3);
        let b3: Vec<_> = map
            .bucket_entries(3)
            .map(|id| map.key(id).unwrap())
            .collect();
        assert_eq!(b3, [3, 11, 19]);
        let walked: Vec<_> = map.iter_bucket_order().map(|(_, &k, _)| k).collect();
        assert_eq!(walked, [3, 11, 19, 4]);
        assert_eq!(map.get(19), Some(&190));
        assert_eq!(map.get(27), None);
        assert_eq!(map.insert(11, 5).1, Some(110));
        assert_eq!(map.len(), 4);
    }

    /// Mode 1 places keys by the xor-shift hash, and lookups still compare whole keys.
    #[test]
    fn xor_shift_map() {
        let mut map = IntMap::with_buckets(IntHash::XorShift, 8);
        // 0x800 and 0x800 + 1: the low five bits vanish in every shift, so they collide.
        map.insert(0x800, 'a');
        map.insert(0x801, 'b');
        assert_eq!(map.bucket_of(0x800), (0x49 & 7) as usize);
        assert_eq!(map.bucket_of(0x801), map.bucket_of(0x800));
        assert_eq!(map.get(0x800), Some(&'a'));
        assert_eq!(map.get(0x801), Some(&'b'));
        assert_eq!(map.get(0x802), None);
        assert_eq!(map.bucket_entries(1).count(), 2);
    }

    /// Integer tables double like name tables: past 4 × 8 = 32 keys, 16 buckets, and chains
    /// rebuilt in ascending entry order.
    #[test]
    fn rehash_identity_keys() {
        let mut map = IntMap::for_relocation_types();
        for k in 0..32u64 {
            map.insert(k * 8, k);
        }
        assert_eq!(map.bucket_count(), 8);
        assert_eq!(
            map.bucket_entries(0).count(),
            32,
            "multiples of 8 all in bucket 0"
        );
        map.insert(1, 99);
        assert_eq!(map.bucket_count(), 16);
        let b0: Vec<_> = map
            .bucket_entries(0)
            .map(|id| map.key(id).unwrap())
            .collect();
        let b8: Vec<_> = map
            .bucket_entries(8)
            .map(|id| map.key(id).unwrap())
            .collect();
        assert_eq!(b0, (0..32).step_by(2).map(|k| k * 8).collect::<Vec<_>>());
        assert_eq!(b8, (1..32).step_by(2).map(|k| k * 8).collect::<Vec<_>>());
        assert_eq!(map.get(1), Some(&99));
        for k in 0..32u64 {
            assert_eq!(map.get(k * 8), Some(&k));
        }
    }
}

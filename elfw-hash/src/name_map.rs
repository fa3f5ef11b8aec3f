//! [`NameMap`]: nvlink's string-keyed linker hash table (mode 0: MurmurHash3 + strcmp).

use crate::iter::{BucketEntries, BucketOrder, Iter, IterMut};
use crate::murmur3::NameHash;
use crate::table::{EntryId, Table};
use crate::{ENTRY_NAME_BUCKETS, SECTION_NAME_BUCKETS, SYMBOL_NAME_BUCKETS};

/// A name-keyed map with nvlink's geometry and orders.
///
/// Keys are any `K: AsRef<[u8]>`; the map stores the key as given and never copies the bytes.
/// The linker passes `&'arena str` names interned once in its arena, so the map neither owns
/// nor duplicates the string data and a key costs 16 bytes; tools and tests may use `String`
/// or `Box<str>`. Names compare by bytes (nvlink compares with `strcmp`, equivalent for names
/// without interior NUL), and each entry keeps its [`NameHash`] so a rehash never re-hashes and
/// a lookup compares hashes before bytes.
///
/// Every operation has a `*_hashed` twin taking a precomputed [`NameHash`], so a name hashed
/// once at interning time is never hashed again.
///
/// Iteration: [`iter`](Self::iter) yields insertion order, [`iter_bucket_order`](Self::iter_bucket_order)
/// nvlink's bucket walk; see the crate documentation for the exact definitions.
#[derive(Clone, Debug)]
pub struct NameMap<K, V> {
    table: Table<K, V>,
}

impl<K, V> NameMap<K, V> {
    /// An empty map of `buckets` buckets, rounded up to a power of two (zero counts as one),
    /// as nvlink's table constructor rounds its bucket hint.
    #[must_use]
    pub fn with_buckets(buckets: usize) -> Self {
        Self {
            table: Table::with_buckets(buckets),
        }
    }

    /// The geometry of nvlink's symbol-name table (512 buckets; seed 03 step 6).
    #[must_use]
    pub fn for_symbol_names() -> Self {
        Self::with_buckets(SYMBOL_NAME_BUCKETS)
    }

    /// The geometry of nvlink's section-name table (512 buckets; seed 03 step 6).
    #[must_use]
    pub fn for_section_names() -> Self {
        Self::with_buckets(SECTION_NAME_BUCKETS)
    }

    /// The geometry of nvlink's entry-point / syscall-name table (32 buckets; seed 03 step 11).
    #[must_use]
    pub fn for_entry_names() -> Self {
        Self::with_buckets(ENTRY_NAME_BUCKETS)
    }

    /// Number of distinct names stored.
    #[must_use]
    #[inline]
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// True when no name is stored.
    #[must_use]
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.table.len() == 0
    }

    /// Makes room for `additional` more names: the bucket array doubles now as often as those
    /// insertions would have doubled it (one re-bucketing instead of several; a caller that
    /// overestimates gets more buckets than the names need). Insertion order, entry ids and
    /// lookups are unchanged; [`iter_bucket_order`](Self::iter_bucket_order) follows the new
    /// geometry.
    pub fn reserve(&mut self, additional: usize) {
        self.table.reserve(additional);
    }

    /// Where the room [`reserve`](Self::reserve) made for more names lies, as an address range
    /// (start, bytes): for a caller that has the pages mapped in ahead of the insertions.
    #[must_use]
    pub fn reserved_room(&self) -> (usize, usize) {
        self.table.entry_room()
    }

    /// Current number of buckets (a power of two; doubles whenever `len` exceeds four per
    /// bucket).
    #[must_use]
    #[inline]
    pub fn bucket_count(&self) -> usize {
        self.table.bucket_count()
    }

    /// The bucket a name with this hash occupies under the current geometry (`hash & mask`).
    #[must_use]
    #[inline]
    pub fn bucket_of(&self, hash: NameHash) -> usize {
        self.table.bucket_index(hash.value())
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
    pub fn key(&self, id: EntryId) -> Option<&K> {
        self.table.entry(id).map(|e| &e.key)
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

    /// The stored hash of entry `id`'s name.
    #[must_use]
    #[inline]
    pub fn hash(&self, id: EntryId) -> Option<NameHash> {
        self.table.entry(id).map(|e| NameHash::from_stored(e.hash))
    }

    /// All entries in insertion order (ascending [`EntryId`]).
    #[must_use]
    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter::new(self.table.entries())
    }

    /// All entries in insertion order, values mutable.
    #[must_use]
    pub fn iter_mut(&mut self) -> IterMut<'_, K, V> {
        IterMut::new(self.table.entries_mut())
    }

    /// All entries in nvlink's bucket order: bucket 0 to `bucket_count() - 1` of the current
    /// geometry, each bucket's chain in ascending [`EntryId`].
    #[must_use]
    pub fn iter_bucket_order(&self) -> BucketOrder<'_, K, V> {
        BucketOrder::new(&self.table)
    }
}

impl<K: AsRef<[u8]>, V> NameMap<K, V> {
    /// Inserts `key → value`. A new name gets the next [`EntryId`] and returns `None`; an
    /// existing name keeps its entry id and its stored key, takes the new value, and returns the
    /// old one (nvlink's insert-or-update).
    ///
    /// # Panics
    /// If the map already holds `u32::MAX` entries.
    pub fn insert(&mut self, key: K, value: V) -> (EntryId, Option<V>) {
        let hash = NameHash::of(key.as_ref());
        self.insert_hashed(hash, key, value)
    }

    /// [`insert`](Self::insert) with the name's hash supplied by the caller.
    ///
    /// `hash` must be `NameHash::of(&key)` (checked in debug builds); a different hash files the
    /// name under the wrong bucket, where lookups by name will not find it.
    ///
    /// # Panics
    /// If the map already holds `u32::MAX` entries.
    pub fn insert_hashed(&mut self, hash: NameHash, key: K, value: V) -> (EntryId, Option<V>) {
        debug_assert_eq!(hash, NameHash::of(key.as_ref()), "hash of another name");
        if let Some(id) = self.entry_id_hashed(hash, key.as_ref()) {
            let slot = &mut self.table.entry_mut(id).expect("id just found").value;
            return (id, Some(std::mem::replace(slot, value)));
        }
        (self.table.push(hash.value(), key, value), None)
    }

    /// The entry holding `name`, if any.
    #[must_use]
    #[inline]
    pub fn entry_id<Q: AsRef<[u8]> + ?Sized>(&self, name: &Q) -> Option<EntryId> {
        let name = name.as_ref();
        self.entry_id_hashed(NameHash::of(name), name)
    }

    /// [`entry_id`](Self::entry_id) with a precomputed hash of `name`.
    #[must_use]
    #[inline]
    pub fn entry_id_hashed<Q: AsRef<[u8]> + ?Sized>(
        &self,
        hash: NameHash,
        name: &Q,
    ) -> Option<EntryId> {
        let name = name.as_ref();
        self.table.find(hash.value(), |key| key.as_ref() == name)
    }

    /// The value stored for `name`, if any.
    #[must_use]
    #[inline]
    pub fn get<Q: AsRef<[u8]> + ?Sized>(&self, name: &Q) -> Option<&V> {
        self.entry_id(name).and_then(|id| self.value(id))
    }

    /// [`get`](Self::get) with a precomputed hash of `name`.
    #[must_use]
    #[inline]
    pub fn get_hashed<Q: AsRef<[u8]> + ?Sized>(&self, hash: NameHash, name: &Q) -> Option<&V> {
        self.entry_id_hashed(hash, name)
            .and_then(|id| self.value(id))
    }

    /// The value stored for `name`, for update.
    #[must_use]
    #[inline]
    pub fn get_mut<Q: AsRef<[u8]> + ?Sized>(&mut self, name: &Q) -> Option<&mut V> {
        let id = self.entry_id(name)?;
        self.value_mut(id)
    }

    /// [`get_mut`](Self::get_mut) with a precomputed hash of `name`.
    #[must_use]
    #[inline]
    pub fn get_mut_hashed<Q: AsRef<[u8]> + ?Sized>(
        &mut self,
        hash: NameHash,
        name: &Q,
    ) -> Option<&mut V> {
        let id = self.entry_id_hashed(hash, name)?;
        self.value_mut(id)
    }

    /// Starts loading the bucket a name with this hash would occupy, so that a lookup made
    /// shortly after does not wait for it. Callers about to look up many names issue this for
    /// all of them first: the misses then overlap instead of coming one after another. Changes
    /// nothing in the map.
    #[inline]
    pub fn prefetch_hashed(&self, hash: NameHash) {
        self.table.touch(hash.value());
    }

    /// Starts loading the entries whose stored hash is `hash` (in its bucket's inline part)
    /// and the first bytes of their names: what a lookup of a name with this hash compares.
    /// Issued for many names after [`prefetch_hashed`](Self::prefetch_hashed) for all of them,
    /// the buckets are there and these misses overlap too. Changes nothing in the map.
    #[inline]
    pub fn prefetch_entries_hashed(&self, hash: NameHash) {
        self.table.touch_matches(hash.value(), |key| {
            std::hint::black_box(key.as_ref().first().copied());
        });
    }

    /// True when `name` is stored.
    #[must_use]
    #[inline]
    pub fn contains<Q: AsRef<[u8]> + ?Sized>(&self, name: &Q) -> bool {
        self.entry_id(name).is_some()
    }
}

impl<'a, K, V> IntoIterator for &'a NameMap<K, V> {
    type Item = (EntryId, &'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;

    /// Insertion order, as [`NameMap::iter`].
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed 01 "Collision Handling Example": under mask 0x3F, `main_kernel` and `my_kernel`
    /// share bucket 60; the first inserted stays first in the chain and both resolve.
    #[test]
    fn main_kernel_and_my_kernel_collide_in_bucket_60() {
        let mut map = NameMap::with_buckets(64);
        let (main, _) = map.insert("main_kernel", -1);
        let (helper, _) = map.insert("helper_fn", 1);
        let (mine, _) = map.insert("my_kernel", -2);
        assert_eq!(map.bucket_count(), 64);
        assert_eq!(map.bucket_of(NameHash::of("main_kernel")), 60);
        assert_eq!(map.bucket_of(NameHash::of("my_kernel")), 60);
        assert_eq!(map.bucket_of(NameHash::of("helper_fn")), 35);
        assert_eq!(map.bucket_entries(60).collect::<Vec<_>>(), [main, mine]);
        assert_eq!(map.bucket_entries(35).collect::<Vec<_>>(), [helper]);
        assert_eq!(map.get("main_kernel"), Some(&-1));
        assert_eq!(map.get("my_kernel"), Some(&-2));
        assert_eq!(map.get(&b"helper_fn"[..]), Some(&1));
        assert_eq!(map.get("__nv_sqrt"), None);
        // Bucket order: 35 before 60; inside 60, main_kernel before my_kernel.
        let order: Vec<_> = map.iter_bucket_order().map(|(_, k, _)| *k).collect();
        assert_eq!(order, ["helper_fn", "main_kernel", "my_kernel"]);
        let order: Vec<_> = map.iter().map(|(_, k, _)| *k).collect();
        assert_eq!(order, ["main_kernel", "helper_fn", "my_kernel"]);
    }

    #[test]
    fn insert_existing_updates_value_and_keeps_entry() {
        let mut map: NameMap<String, i32> = NameMap::for_symbol_names();
        let (a, old) = map.insert("__nv_sqrt".to_owned(), -2);
        assert_eq!(old, None);
        let (b, old) = map.insert("__nv_sqrt".to_owned(), -5);
        assert_eq!((a, old), (b, Some(-2)));
        assert_eq!(map.len(), 1);
        *map.get_mut("__nv_sqrt").unwrap() += 1;
        assert_eq!(map.get("__nv_sqrt"), Some(&-4));
        assert_eq!(map.entry_id("__nv_sqrt"), Some(a));
        assert_eq!(map.key(a).map(String::as_str), Some("__nv_sqrt"));
        assert_eq!(map.hash(a), Some(NameHash::of("__nv_sqrt")));
    }

    #[test]
    fn hashed_twins_agree() {
        let mut map = NameMap::for_section_names();
        let h = NameHash::of(".nv.info");
        let (id, _) = map.insert_hashed(h, ".nv.info", 7u32);
        assert_eq!(map.entry_id_hashed(h, ".nv.info"), Some(id));
        assert_eq!(map.get_hashed(h, ".nv.info"), Some(&7));
        *map.get_mut_hashed(h, ".nv.info").unwrap() = 8;
        assert_eq!(map.get(".nv.info"), Some(&8));
        assert!(map.contains(".nv.info"));
        assert!(!map.contains(".nv.info.k"));
    }

    /// nvlink's constructors: 512, 512, 32 buckets (seed 03 steps 6 and 11).
    #[test]
    fn nvlink_geometries() {
        assert_eq!(NameMap::<&str, ()>::for_symbol_names().bucket_count(), 512);
        assert_eq!(NameMap::<&str, ()>::for_section_names().bucket_count(), 512);
        assert_eq!(NameMap::<&str, ()>::for_entry_names().bucket_count(), 32);
        // Requests round up to a power of two; zero means one.
        assert_eq!(NameMap::<&str, ()>::with_buckets(0).bucket_count(), 1);
        assert_eq!(NameMap::<&str, ()>::with_buckets(100).bucket_count(), 128);
    }

    /// One bucket takes every name until the load bound: the fifth name doubles the table.
    #[test]
    fn single_bucket_until_load_bound() {
        let mut map = NameMap::with_buckets(1);
        for name in ["a", "b", "c", "d"] {
            map.insert(name, ());
        }
        assert_eq!(map.bucket_count(), 1);
        assert_eq!(map.bucket_entries(0).count(), 4);
        map.insert("e", ());
        assert_eq!(map.bucket_count(), 2, "5 > 4 * 1 buckets: doubled");
        assert_eq!(
            map.bucket_entries(0).count() + map.bucket_entries(1).count(),
            5
        );
    }

    /// The load bound is four entries per bucket: the table doubles on the insert that makes
    /// `len > 4 * buckets`, not before.
    #[test]
    fn rehash_past_four_per_bucket() {
        let names: Vec<String> = (0..4 * 512 + 1).map(|i| format!("_Z6kernel{i}v")).collect();
        let mut map = NameMap::for_symbol_names();
        for (i, name) in names.iter().enumerate() {
            map.insert(name.as_str(), i);
            let want = if i < 4 * 512 { 512 } else { 1024 };
            assert_eq!(map.bucket_count(), want, "after {} names", i + 1);
        }
        for (i, name) in names.iter().enumerate() {
            let id = map.entry_id(name.as_str()).unwrap();
            assert_eq!(map.value(id), Some(&i));
            assert_eq!(
                map.bucket_of(NameHash::of(name)),
                (NameHash::of(name).value() & 1023) as usize
            );
        }
        // After the rehash every chain is in ascending entry order again.
        for b in 0..map.bucket_count() {
            let ids: Vec<_> = map.bucket_entries(b).collect();
            assert!(ids.windows(2).all(|w| w[0] < w[1]), "bucket {b}: {ids:?}");
        }
        let mut by_bucket: Vec<_> = map.iter().map(|(id, _, _)| id).collect();
        by_bucket.sort_by_key(|&id| (map.bucket_of(map.hash(id).unwrap()), id));
        let walked: Vec<_> = map.iter_bucket_order().map(|(id, _, _)| id).collect();
        assert_eq!(walked, by_bucket);
    }

    #[test]
    fn foreign_ids_yield_none() {
        let mut big = NameMap::with_buckets(8);
        for i in 0..10 {
            big.insert(format!("n{i}"), i);
        }
        let far = big.entry_id("n9").unwrap();
        let small: NameMap<String, i32> = NameMap::with_buckets(8);
        assert_eq!(small.key(far), None);
        assert_eq!(small.value(far), None);
        assert_eq!(small.hash(far), None);
        assert_eq!(small.bucket_entries(99).count(), 0);
    }
}

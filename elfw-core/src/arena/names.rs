//! Name lookup: name → index through nvlink's hash map, over names interned once in a bump
//! arena.
//!
//! nvlink keeps one string-keyed map for symbol names and one for section names (seed 01,
//! "Name Lookup Hash Map"; seed 03, ctx+288/+296), both 512 buckets, and copies each distinct
//! name once. [`NameTable`] is a thin wrapper over [`elfw_hash::NameMap`] with `&'a str` keys,
//! so the map never owns string data and a lookup that found an entry can re-point it without a
//! second probe.

use bumpalo::Bump;
use elfw_hash::{EntryId, NameHash, NameMap};

/// A name → `V` map whose keys are `&'a str` interned by the caller.
#[derive(Clone, Debug)]
pub(crate) struct NameTable<'a, V> {
    map: NameMap<&'a str, V>,
}

/// A found entry: its id, so the value can be re-pointed without a second probe.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<'a, V> {
    pub(crate) id: EntryId,
    pub(crate) key: &'a str,
    pub(crate) value: V,
}

impl<'a, V: Copy> NameTable<'a, V> {
    /// An empty table with the geometry of nvlink's symbol-name map.
    pub(crate) fn for_symbols() -> Self {
        NameTable {
            map: NameMap::for_symbol_names(),
        }
    }

    /// An empty table with the geometry of nvlink's section-name map.
    pub(crate) fn for_sections() -> Self {
        NameTable {
            map: NameMap::for_section_names(),
        }
    }

    /// The entry for `name`, whose hash is `hash`.
    pub(crate) fn find_hashed(&self, hash: NameHash, name: &str) -> Option<Entry<'a, V>> {
        let id = self.map.entry_id_hashed(hash, name)?;
        Some(Entry {
            id,
            key: self.map.key(id)?,
            value: *self.map.value(id)?,
        })
    }

    /// The value for `name`.
    pub(crate) fn get(&self, name: &str) -> Option<V> {
        self.map.get(name).copied()
    }

    /// Adds `name`, which must not be present yet.
    pub(crate) fn insert_new(&mut self, name: &'a str, value: V) {
        self.map.insert(name, value);
    }

    /// Adds `name`, whose hash is `hash` and which must not be present yet.
    pub(crate) fn insert_new_hashed(&mut self, hash: NameHash, name: &'a str, value: V) {
        self.map.insert_hashed(hash, name, value);
    }

    /// Re-points an existing entry (found by [`find_hashed`](Self::find_hashed)) to `value`.
    pub(crate) fn set(&mut self, id: EntryId, value: V) {
        if let Some(v) = self.map.value_mut(id) {
            *v = value;
        }
    }

    /// Entries in insertion order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&'a str, V)> + '_ {
        self.map.iter().map(|(_, k, v)| (*k, *v))
    }

    /// A table (same geometry as `empty`) with every value mapped by `f`, dropping the entries
    /// `f` maps to `None`; survivors are re-inserted in insertion order.
    pub(crate) fn filter_map<W: Copy>(
        &self,
        empty: NameTable<'a, W>,
        mut f: impl FnMut(V) -> Option<W>,
    ) -> NameTable<'a, W> {
        let mut out = empty;
        for (name, value) in self.iter() {
            if let Some(w) = f(value) {
                out.insert_new(name, w);
            }
        }
        out
    }
}

/// `known` if one of the maps already holds the name (so a name shared by a section and its
/// section symbol is stored once), else a copy of `name` in `bump`.
pub(crate) fn intern<'a>(bump: &'a Bump, name: &str, known: [Option<&'a str>; 2]) -> &'a str {
    match known {
        [Some(k), _] | [None, Some(k)] => k,
        [None, None] => bump.alloc_str(name),
    }
}

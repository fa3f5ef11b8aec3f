//! elfw-hash: nvlink's name hash and its open-bucket hash table, reproduced exactly.
//!
//! # Contract
//!
//! - [`murmur3_x86_32`] is MurmurHash3_x86_32 (Appleby's reference algorithm) at seed 0, the
//!   hash nvlink gives every symbol and section name; [`murmur3_x86_32_seeded`] takes a seed.
//!   Both are `const fn`, pure, and agree with the published reference vectors.
//! - [`NameMap`] (string keys, MurmurHash3) and [`IntMap`] (integer keys, nvlink's hash modes 1
//!   and 2, see [`IntHash`]) have nvlink's geometry: a power-of-two bucket array addressed by
//!   `hash & mask`, each bucket a growable array of entry indices into one dense entry array.
//!   They start at nvlink's sizes — 512 buckets for symbol names and for section names, 32 for
//!   entry/syscall names, 8 for relocation types — and double when an insert leaves more than
//!   four entries per bucket. Geometry depends only on the sequence of inserts, never on
//!   threads, addresses or the environment.
//! - Two iteration orders, both deterministic functions of the insert sequence:
//!   - *insertion order* ([`NameMap::iter`], [`IntMap::iter`]): ascending [`EntryId`], the order
//!     in which keys were first inserted (updates do not move a key). This is the order of
//!     nvlink's entry slots while nothing is removed.
//!   - *bucket order* ([`NameMap::iter_bucket_order`], [`IntMap::iter_bucket_order`]): buckets
//!     `0..bucket_count()` of the current geometry; within a bucket, ascending [`EntryId`]
//!     (nvlink appends to a chain, and a rehash re-inserts entries in slot order).
//! - Entries are never removed; an [`EntryId`] stays valid, and keeps its key, for the map's
//!   lifetime. Updating an existing key replaces only its value.
//! - No `unsafe`, no I/O, no global state. The only panic is exceeding `u32::MAX - 1` entries.
//!
//! # Sources and assumptions
//!
//! Seed 01 ("Name Lookup Hash Map", "Collision Handling Example") and seed 03 (steps 6 and 11)
//! give the layout, modes and initial sizes. The wiki page "Symbol Tables & Hash Maps" gives
//! the growth rules: chains double when full; the table rehashes when the entry count exceeds a
//! limit of 4 × the bucket count, doubling the bucket array. The page calls the limit "initially"
//! 4 × capacity and does not say how it changes after a rehash; we keep it at 4 × the current
//! bucket count. Tables in nvlink's symbol path stay at their initial size until 2,048 names,
//! so the assumption only matters for links with more names than that — to be confirmed against
//! nvlink output wherever its order follows a table's bucket order.
//!
//! Differences from nvlink that no output can observe: each entry keeps its 32-bit hash (a
//! rehash never re-hashes, a lookup compares hashes before bytes); a bucket keeps the first
//! seven links of its chain (hash and entry index) inline in one cache line and spills the rest
//! to a side vector that doubles when full, where nvlink heap-allocates every chain starting at
//! one slot — same chain contents, same order; and nvlink's free-slot bitmap is not modelled
//! because entries are never removed.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod int_map;
mod iter;
mod murmur3;
mod name_map;
mod table;

pub use int_map::{IntHash, IntMap};
pub use iter::{BucketEntries, BucketOrder, Iter, IterMut};
pub use murmur3::{murmur3_x86_32, murmur3_x86_32_seeded, NameHash};
pub use name_map::NameMap;
pub use table::EntryId;

/// Initial buckets of nvlink's symbol-name table (seed 03 step 6: `create(murmur3, strcmp, 512)`).
pub const SYMBOL_NAME_BUCKETS: usize = 512;

/// Initial buckets of nvlink's section-name table (seed 03 step 6).
pub const SECTION_NAME_BUCKETS: usize = 512;

/// Initial buckets of nvlink's entry-point / syscall-name table (seed 03 step 11).
pub const ENTRY_NAME_BUCKETS: usize = 32;

/// Initial buckets of nvlink's integer-keyed relocation-type table (seed 03 step 11).
pub const RELOCATION_TYPE_BUCKETS: usize = 8;

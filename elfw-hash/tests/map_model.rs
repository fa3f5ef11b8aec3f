//! Property tests: `NameMap` and `IntMap` against a `std::collections::HashMap` model.
//!
//! Random inserts, updates and lookups; after each step the map must answer as the model does,
//! and at the end its two orders and its geometry must follow the documented rules (insertion
//! order = order of first insertion; bucket order = sort by (hash & mask, entry id); bucket
//! count = initial count doubled until len <= 4 × buckets).

use std::collections::HashMap;

use elfw_hash::{EntryId, IntHash, IntMap, NameHash, NameMap};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// Every crate writes its regressions to the top-level `proptest-regressions/` (tests run with
/// the crate directory as the working directory).
fn config(file: &'static str) -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(file))),
        ..ProptestConfig::default()
    }
}

#[derive(Clone, Debug)]
enum Op<K> {
    Insert(K, i32),
    Get(K),
    GetMut(K, i32),
    Hashed(K, i32),
}

/// Names from a small pool (so updates and hits are common) plus arbitrary byte strings;
/// nvlink-shaped prefixes make some share long common prefixes.
fn name() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        (0..40u32).prop_map(|i| format!("_Z6kernel{i}v").into_bytes()),
        (0..40u32).prop_map(|i| format!(".nv.info._Z6kernel{i}v").into_bytes()),
        prop::collection::vec(any::<u8>(), 0..12),
    ]
}

fn name_ops() -> impl Strategy<Value = Vec<Op<Vec<u8>>>> {
    let op = prop_oneof![
        4 => (name(), any::<i32>()).prop_map(|(k, v)| Op::Insert(k, v)),
        3 => name().prop_map(Op::Get),
        1 => (name(), any::<i32>()).prop_map(|(k, v)| Op::GetMut(k, v)),
        1 => (name(), any::<i32>()).prop_map(|(k, v)| Op::Hashed(k, v)),
    ];
    prop::collection::vec(op, 0..400)
}

/// Bucket count the documented rule predicts for `len` entries starting from `initial`.
fn expected_buckets(initial: usize, len: usize) -> usize {
    let mut count = initial.max(1).next_power_of_two();
    while len > 4 * count {
        count *= 2;
    }
    count
}

proptest! {
    #![proptest_config(config("../proptest-regressions/elfw-hash-map_model.txt"))]

    #[test]
    fn name_map_matches_model(initial in 0usize..20, ops in name_ops()) {
        let mut map: NameMap<Vec<u8>, i32> = NameMap::with_buckets(initial);
        let mut model: HashMap<Vec<u8>, i32> = HashMap::new();
        let mut first_seen: Vec<Vec<u8>> = Vec::new();

        for op in ops {
            match op {
                Op::Insert(k, v) | Op::Hashed(k, v) if !model.contains_key(&k) => {
                    first_seen.push(k.clone());
                    model.insert(k.clone(), v);
                    let (id, old) = map.insert_hashed(NameHash::of(&k), k, v);
                    prop_assert_eq!(old, None);
                    prop_assert_eq!(id, map.entry_id(&first_seen[first_seen.len() - 1]).unwrap());
                }
                Op::Insert(k, v) => {
                    let before = map.entry_id(&k);
                    let (id, old) = map.insert(k.clone(), v);
                    prop_assert_eq!(old, model.insert(k, v));
                    prop_assert_eq!(Some(id), before);
                }
                Op::Hashed(k, v) => {
                    let (_, old) = map.insert_hashed(NameHash::of(&k), k.clone(), v);
                    prop_assert_eq!(old, model.insert(k, v));
                }
                Op::Get(k) => {
                    prop_assert_eq!(map.get(&k), model.get(&k));
                    prop_assert_eq!(map.get_hashed(NameHash::of(&k), &k), model.get(&k));
                    prop_assert_eq!(map.contains(&k), model.contains_key(&k));
                }
                Op::GetMut(k, v) => {
                    match (map.get_mut(&k), model.get_mut(&k)) {
                        (Some(a), Some(b)) => { *a = v; *b = v; }
                        (None, None) => {}
                        (a, b) => prop_assert!(false, "get_mut disagrees: {:?} vs {:?}", a, b),
                    }
                }
            }
            prop_assert_eq!(map.len(), model.len());
            prop_assert_eq!(map.bucket_count(), expected_buckets(initial, map.len()));
        }

        // Insertion order: keys in order of first insertion, ids 0, 1, 2, ...
        let order: Vec<&Vec<u8>> = map.iter().map(|(_, k, _)| k).collect();
        prop_assert_eq!(order, first_seen.iter().collect::<Vec<_>>());
        for (i, (id, k, v)) in map.iter().enumerate() {
            prop_assert_eq!(Some(id), map.entry_id(k));
            prop_assert_eq!(Some(v), model.get(k));
            prop_assert_eq!(map.hash(id), Some(NameHash::of(k)));
            if i > 0 {
                prop_assert!(map.iter().nth(i - 1).unwrap().0 < id);
            }
        }

        // Bucket order: by (murmur3(key) & mask, entry id), computed from the keys alone.
        let mask = map.bucket_count() as u32 - 1;
        let mut want: Vec<(u32, usize)> = first_seen
            .iter()
            .enumerate()
            .map(|(i, k)| (elfw_hash::murmur3_x86_32(k) & mask, i))
            .collect();
        want.sort();
        let walked: Vec<&Vec<u8>> = map.iter_bucket_order().map(|(_, k, _)| k).collect();
        let want: Vec<&Vec<u8>> = want.iter().map(|&(_, i)| &first_seen[i]).collect();
        prop_assert_eq!(walked, want);
        prop_assert_eq!(map.iter_bucket_order().len(), map.len());
    }

    #[test]
    fn int_map_matches_model(
        identity in any::<bool>(),
        initial in 0usize..20,
        ops in prop::collection::vec(
            (0u8..3, prop_oneof![0u64..64, any::<u64>(), (0u64..64).prop_map(|k| k << 11)], any::<i32>()),
            0..400,
        ),
    ) {
        let mode = if identity { IntHash::Identity } else { IntHash::XorShift };
        let mut map: IntMap<i32> = IntMap::with_buckets(mode, initial);
        let mut model: HashMap<u64, i32> = HashMap::new();
        let mut first_seen: Vec<u64> = Vec::new();
        for (kind, k, v) in ops {
            match kind {
                0 => {
                    if !model.contains_key(&k) {
                        first_seen.push(k);
                    }
                    prop_assert_eq!(map.insert(k, v).1, model.insert(k, v));
                }
                1 => prop_assert_eq!(map.get(k), model.get(&k)),
                _ => {
                    if let (Some(a), Some(b)) = (map.get_mut(k), model.get_mut(&k)) {
                        *a = v;
                        *b = v;
                    }
                    prop_assert_eq!(map.contains_key(k), model.contains_key(&k));
                }
            }
            prop_assert_eq!(map.len(), model.len());
            prop_assert_eq!(map.bucket_count(), expected_buckets(initial, map.len()));
        }
        let order: Vec<u64> = map.iter().map(|(_, &k, _)| k).collect();
        prop_assert_eq!(&order, &first_seen);

        // Bucket order from the seed's formulas, written out independently of the crate.
        let mask = map.bucket_count() as u64 - 1;
        let hash = |k: u64| -> u64 {
            if identity { k & 0xFFFF_FFFF } else { ((k >> 11) ^ (k >> 8) ^ (k >> 5)) & 0xFFFF_FFFF }
        };
        let mut want: Vec<(u64, usize)> =
            first_seen.iter().enumerate().map(|(i, &k)| (hash(k) & mask, i)).collect();
        want.sort();
        let want: Vec<u64> = want.iter().map(|&(_, i)| first_seen[i]).collect();
        let walked: Vec<u64> = map.iter_bucket_order().map(|(_, &k, _)| k).collect();
        prop_assert_eq!(walked, want);
        let ids: Vec<EntryId> = map.iter().map(|(id, _, _)| id).collect();
        prop_assert!(ids.windows(2).all(|w| w[0] < w[1]));
    }
}

//! The linker's name-table workload: 100,000 distinct nvlink-shaped names inserted, then
//! 1,000,000 lookups of which 90 % hit — `elfw_hash::NameMap` against `FxHashMap<&str, i32>`
//! and `IndexMap<&str, i32>` (issue 2).
//!
//! Names come in fours per kernel, as a cubin names them: the mangled kernel
//! (`_Z10kernel_1234PfS_i`), `.text.<kernel>`, `.nv.info.<kernel>`, `.nv.constant0.<kernel>`.
//! Misses are names of the same shape that were never inserted (`.nv.shared.<kernel>`,
//! `.rel.text.<kernel>`). Inputs are generated once, deterministically, before timing.
//!
//! Variants: `elfw_NameMap` hashes inside `insert`/`get` as the other maps do;
//! `elfw_NameMap_prehashed` passes a [`NameHash`] computed beforehand (the linker hashes each
//! interned name once); `hash_1m_names` times the two hash functions alone.
//!
//! Measured on the project's 2-core VM in a quiet window (criterion medians, two runs):
//! insert 100k — NameMap 3.9–4.3 ms, FxHashMap 3.5–3.7 ms (1.11–1.16×), IndexMap 4.6–4.7 ms;
//! lookup 1M — NameMap 87–93 ms, FxHashMap 41 ms (2.1–2.25×), IndexMap 98–109 ms; prehashed
//! NameMap lookups 41–46 ms (1.0–1.1×). The lookup gap is MurmurHash3 (23 ms per 1M of these
//! names against FxHash's 11.5 ms), which nvlink's bucket order requires, sitting on each
//! lookup's critical path between loading the name and loading its bucket.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use elfw_hash::{NameHash, NameMap};
use indexmap::IndexMap;
use rustc_hash::{FxBuildHasher, FxHashMap};
use std::hash::BuildHasher;

const KERNELS: usize = 25_000;
const NAMES: usize = 4 * KERNELS;
const LOOKUPS: usize = 1_000_000;

/// splitmix64: a fixed, dependency-free generator so every run sees the same inputs.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// An Itanium-mangled kernel name, sometimes inside a namespace.
fn mangled_kernel(rng: &mut SplitMix, i: usize) -> String {
    const STEMS: [&str; 8] = [
        "kernel",
        "reduce",
        "gemm_tile",
        "softmax_fwd",
        "conv2d_nchw",
        "scan_block",
        "histogram",
        "transpose",
    ];
    const PARAMS: [&str; 6] = ["PfS_i", "PKfPfii", "v", "PdS_S_m", "P6float4S0_j", "iiPi"];
    const SPACES: [&str; 3] = ["cub", "thrust", "cutlass"];
    let ident = format!("{}_{i}", STEMS[rng.below(STEMS.len())]);
    let params = PARAMS[rng.below(PARAMS.len())];
    if rng.below(4) == 0 {
        let ns = SPACES[rng.below(SPACES.len())];
        format!("_ZN{}{ns}{}{ident}E{params}", ns.len(), ident.len())
    } else {
        format!("_Z{}{ident}{params}", ident.len())
    }
}

struct Workload {
    names: Vec<String>,
    lookups: Vec<String>,
}

fn workload() -> Workload {
    let mut rng = SplitMix(0x6E76_6C69_6E6B);
    let mut names = Vec::with_capacity(NAMES);
    let mut misses = Vec::with_capacity(2 * KERNELS);
    for i in 0..KERNELS {
        let k = mangled_kernel(&mut rng, i);
        names.push(format!(".text.{k}"));
        names.push(format!(".nv.info.{k}"));
        names.push(format!(".nv.constant0.{k}"));
        misses.push(format!(".nv.shared.{k}"));
        misses.push(format!(".rel.text.{k}"));
        names.push(k);
    }
    let lookups = (0..LOOKUPS)
        .map(|_| {
            if rng.below(10) < 9 {
                names[rng.below(names.len())].clone()
            } else {
                misses[rng.below(misses.len())].clone()
            }
        })
        .collect();
    Workload { names, lookups }
}

fn bench(c: &mut Criterion) {
    let w = workload();
    let names: Vec<&str> = w.names.iter().map(String::as_str).collect();
    let hashes: Vec<NameHash> = names.iter().map(NameHash::of).collect();
    let lookups: Vec<&str> = w.lookups.iter().map(String::as_str).collect();
    let lookup_hashes: Vec<NameHash> = lookups.iter().map(NameHash::of).collect();
    {
        let mut distinct: Vec<&str> = names.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), NAMES, "names must be distinct");
    }

    let build_elfw = || {
        let mut m = NameMap::for_symbol_names();
        for (i, &n) in names.iter().enumerate() {
            m.insert(n, i as i32);
        }
        m
    };
    let build_fx = || {
        let mut m = FxHashMap::default();
        for (i, &n) in names.iter().enumerate() {
            m.insert(n, i as i32);
        }
        m
    };
    let build_index = || {
        let mut m = IndexMap::new();
        for (i, &n) in names.iter().enumerate() {
            m.insert(n, i as i32);
        }
        m
    };
    let build_index_fx = || {
        let mut m: IndexMap<&str, i32, FxBuildHasher> = IndexMap::default();
        for (i, &n) in names.iter().enumerate() {
            m.insert(n, i as i32);
        }
        m
    };

    let mut g = c.benchmark_group("insert_100k");
    g.throughput(Throughput::Elements(NAMES as u64));
    g.bench_function(BenchmarkId::from_parameter("elfw_NameMap"), |b| {
        b.iter(|| build_elfw().len())
    });
    g.bench_function(BenchmarkId::from_parameter("elfw_NameMap_prehashed"), |b| {
        b.iter(|| {
            let mut m = NameMap::for_symbol_names();
            for (i, (&n, &h)) in names.iter().zip(&hashes).enumerate() {
                m.insert_hashed(h, n, i as i32);
            }
            m.len()
        })
    });
    g.bench_function(BenchmarkId::from_parameter("FxHashMap"), |b| {
        b.iter(|| build_fx().len())
    });
    g.bench_function(BenchmarkId::from_parameter("IndexMap_SipHash"), |b| {
        b.iter(|| build_index().len())
    });
    g.bench_function(BenchmarkId::from_parameter("IndexMap_Fx"), |b| {
        b.iter(|| build_index_fx().len())
    });
    g.finish();

    let elfw = build_elfw();
    let fx = build_fx();
    let index = build_index();
    let index_fx = build_index_fx();
    // All four maps must agree on the workload before their speeds mean anything.
    let expected: i64 = lookups
        .iter()
        .filter_map(|n| fx.get(n))
        .map(|&v| i64::from(v))
        .sum();
    let hits = lookups.iter().filter(|n| fx.contains_key(*n)).count();
    assert!((880_000..=920_000).contains(&hits), "hit rate off: {hits}");

    let mut g = c.benchmark_group("lookup_1m_90pct_hits");
    g.throughput(Throughput::Elements(LOOKUPS as u64));
    g.bench_function(BenchmarkId::from_parameter("elfw_NameMap"), |b| {
        b.iter(|| {
            let s: i64 = lookups
                .iter()
                .filter_map(|n| elfw.get(black_box(*n)))
                .map(|&v| i64::from(v))
                .sum();
            assert_eq!(s, expected);
        })
    });
    g.bench_function(BenchmarkId::from_parameter("elfw_NameMap_prehashed"), |b| {
        b.iter(|| {
            let s: i64 = lookups
                .iter()
                .zip(&lookup_hashes)
                .filter_map(|(n, &h)| elfw.get_hashed(h, black_box(*n)))
                .map(|&v| i64::from(v))
                .sum();
            assert_eq!(s, expected);
        })
    });
    g.bench_function(BenchmarkId::from_parameter("FxHashMap"), |b| {
        b.iter(|| {
            let s: i64 = lookups
                .iter()
                .filter_map(|n| fx.get(black_box(*n)))
                .map(|&v| i64::from(v))
                .sum();
            assert_eq!(s, expected);
        })
    });
    g.bench_function(BenchmarkId::from_parameter("IndexMap_SipHash"), |b| {
        b.iter(|| {
            let s: i64 = lookups
                .iter()
                .filter_map(|n| index.get(black_box(*n)))
                .map(|&v| i64::from(v))
                .sum();
            assert_eq!(s, expected);
        })
    });
    g.bench_function(BenchmarkId::from_parameter("IndexMap_Fx"), |b| {
        b.iter(|| {
            let s: i64 = lookups
                .iter()
                .filter_map(|n| index_fx.get(black_box(*n)))
                .map(|&v| i64::from(v))
                .sum();
            assert_eq!(s, expected);
        })
    });
    g.finish();

    // The hash functions alone over the same 1,000,000 lookup names: how much of a lookup is
    // the hash nvlink's bucket order requires (MurmurHash3) versus FxHash.
    let mut g = c.benchmark_group("hash_1m_names");
    g.throughput(Throughput::Elements(LOOKUPS as u64));
    g.bench_function(BenchmarkId::from_parameter("murmur3_x86_32"), |b| {
        b.iter(|| {
            lookups.iter().fold(0u32, |acc, n| {
                acc ^ elfw_hash::murmur3_x86_32(black_box(n.as_bytes()))
            })
        })
    });
    g.bench_function(BenchmarkId::from_parameter("FxHash"), |b| {
        b.iter(|| {
            lookups
                .iter()
                .fold(0u64, |acc, n| acc ^ FxBuildHasher.hash_one(black_box(*n)))
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    // A 2-core, shared machine: few samples, short windows; override on the command line.
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);

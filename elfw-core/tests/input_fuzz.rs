//! A mutation fuzzer over the input parsers and whole loads, seeded with tests/data (real
//! cubins, host objects, fatbins with zstd/LZ4/concatenated entries, archives).
//!
//! `cargo test -p elfw-core --release --test input_fuzz` runs a bounded smoke run (CI);
//! `ELFW_FUZZ_ITERS=1000000 cargo test -p elfw-core --release --test input_fuzz -- --nocapture`
//! runs longer. Any panic fails the test and prints the seed and iteration to reproduce; each
//! crash found becomes a named regression test below.

use elfw_core::elf::SmArch;
use elfw_core::input::{archive, fatbin, host, load, InputSource, InputStore, LoadOptions};
use std::path::PathBuf;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn seeds() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        // (Files only: `sass/` holds the operand decoder's expectations.)
        .filter(|e| e.path().is_file())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

fn mutate(rng: &mut Rng, data: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(4) {
        match rng.below(7) {
            0 if !data.is_empty() => {
                let i = rng.below(data.len());
                data[i] ^= 1 << rng.below(8);
            }
            1 if !data.is_empty() => {
                let i = rng.below(data.len());
                data[i] = rng.next() as u8;
            }
            2 => data.truncate(rng.below(data.len() + 1)),
            3 if data.len() >= 8 => {
                // An interesting 32-bit value at an aligned offset (header and table fields).
                let i = rng.below(data.len() / 4) * 4;
                let v: u32 =
                    [0, 1, 0xff, 0xffff, 0x7fff_ffff, 0xffff_ffff, 0x40, 0x8000][rng.below(8)];
                let end = (i + 4).min(data.len());
                data[i..end].copy_from_slice(&v.to_le_bytes()[..end - i]);
            }
            4 if !data.is_empty() => {
                let i = rng.below(data.len());
                let n = rng.below(16).min(data.len() - i);
                let chunk: Vec<u8> = data[i..i + n].to_vec();
                let at = rng.below(data.len());
                data.splice(at..at, chunk);
            }
            5 if data.len() >= 8 => {
                let i = rng.below(data.len() / 8) * 8;
                let v = rng.next() >> rng.below(64);
                let end = (i + 8).min(data.len());
                data[i..end].copy_from_slice(&v.to_le_bytes()[..end - i]);
            }
            _ => {}
        }
    }
}

/// Everything a hostile input can reach.
fn exercise(name: &str, data: &[u8]) {
    let _ = elfw_core::dump::dump(name, data);
    if let Ok(elf) = elfw_core::elf::ElfFile::parse(data) {
        if elf.validate().is_ok() {
            for s in elf.symbols() {
                let _ = s.unwrap();
            }
        }
        let _ = elf.device_arch();
        let _ = elf.program_headers();
    }
    if let Ok(fb) = fatbin::Fatbin::parse(data) {
        for i in 0..fb.entries.len() {
            let _ = fb.payload(i);
        }
        let _ = fatbin::select(&fb, SmArch::plain(90));
    }
    let _ = archive::members(data);
    let _ = host::scan(data);
    let _ = elfw_core::nvinfo::records(data).count();
    let store = InputStore::new();
    let opts = LoadOptions {
        target: SmArch::plain(90),
        lto: false,
        debug: false,
        ptxas: None,
        ptxas_options: Vec::new(),
    };
    let _ = load(
        &store,
        &[InputSource::Bytes {
            name: name.into(),
            data: data.to_vec(),
        }],
        &opts,
    );
}

fn run(iters: u64, seed: u64) -> u64 {
    let seeds = seeds();
    let mut rng = Rng(seed | 1);
    let mut done = 0;
    for i in 0..iters {
        let (name, base) = &seeds[rng.below(seeds.len())];
        let mut data = base.clone();
        mutate(&mut rng, &mut data);
        let r = std::panic::catch_unwind(|| exercise(name, &data));
        if r.is_err() {
            let path = std::env::temp_dir().join(format!("elfw-fuzz-crash-{seed}-{i}"));
            let _ = std::fs::write(&path, &data);
            panic!(
                "panic on a mutation of {name} (seed {seed}, iteration {i}); input saved to {}",
                path.display()
            );
        }
        done += 1;
    }
    done
}

#[test]
fn mutation_fuzz() {
    let iters: u64 = std::env::var("ELFW_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let threads: u64 = if iters > 10_000 { 2 } else { 1 };
    let start = std::time::Instant::now();
    let total: u64 = std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads)
            .map(|t| s.spawn(move || run(iters / threads, 0x9e37_79b9_7f4a_7c15 ^ (t + 1))))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).sum()
    });
    eprintln!(
        "{total} executions in {:.1}s, no panic",
        start.elapsed().as_secs_f64()
    );
}

/// Every seed loads or fails cleanly as it is.
#[test]
fn seeds_unmutated() {
    for (name, data) in seeds() {
        exercise(&name, &data);
    }
}

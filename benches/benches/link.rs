//! The whole link at 100 × 50 and 500 × 50 (issue 7): `elfw_core::link::link` on generated
//! workloads, with throughput in output sections per second, then a table of the phases
//! (`LinkOutput::times`) over the same links.
//!
//! Workloads are the ones `cargo xtask gen` makes, cached under
//! `$CARGO_TARGET_DIR/huge/<N>x<M>-sm_90-s0` (or `target/huge/...`). On first use they are
//! generated here: with ptxas from the toolchain cache when it is installed, else cloned from
//! the template under `tests/huge/`; when neither is possible the size is skipped with a
//! message. `ELFW_BENCH_SIZES=100x50,500x50` picks the sizes.
//!
//! Inputs are loaded (memory-mapped and parsed) once, outside the timing; each sample is one
//! `link()` call, whose image is dropped outside the timing.

#[allow(dead_code)]
#[path = "../../xtask/src/gen/workload.rs"]
mod workload;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use elfw_core::elf::ElfFile;
use elfw_core::input::{self, InputSource, InputStore, LoadOptions};
use elfw_core::link::{link, InputObject, LinkOptions, PhaseTimes};
use elfw_core::target::Target;
use workload::{Shape, Source};

const ARCH: &str = "sm_90";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("benches/ sits in the workspace")
        .to_path_buf()
}

fn sizes() -> Vec<(usize, usize)> {
    let spec = std::env::var("ELFW_BENCH_SIZES").unwrap_or_else(|_| "100x50,500x50".into());
    spec.split(',')
        .filter_map(|s| {
            let (n, m) = s.trim().split_once('x')?;
            Some((n.parse().ok()?, m.parse().ok()?))
        })
        .collect()
}

/// The cached workload for `shape`, generated on first use; `None` (with a message) when it
/// cannot be made here.
fn workload_for(shape: &Shape) -> Option<workload::Workload> {
    let dir = workload::default_dir(&workspace(), shape);
    if let Some(w) = workload::cached(shape, &dir) {
        return Some(w);
    }
    let template_dir = workspace().join("tests").join("huge");
    let source = match workload::locate_ptxas() {
        Some(ptxas) => Source::Ptxas(ptxas),
        None if template_dir.join(workload::template_name(shape)).is_file() => {
            Source::Template(template_dir)
        }
        None => {
            eprintln!(
                "link bench: skipping {}: no ptxas (cargo xtask toolchain) and no cached workload in {}",
                shape.label(),
                dir.display()
            );
            return None;
        }
    };
    eprintln!(
        "link bench: generating {} in {} (first run only)",
        shape.label(),
        dir.display()
    );
    match workload::ensure(shape, &dir, &source, false, &mut |line| {
        eprintln!("link bench:   {line}")
    }) {
        Ok(w) => Some(w),
        Err(e) => {
            eprintln!("link bench: skipping {}: {e}", shape.label());
            None
        }
    }
}

/// The number of section headers of an image (section 0's `sh_size` when `e_shnum` is 0).
fn section_count(image: &[u8]) -> u64 {
    ElfFile::parse(image).map_or(0, |elf| elf.sections().len() as u64)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn print_phases(label: &str, sections: u64, runs: &[PhaseTimes]) {
    let Some(first) = runs.first() else { return };
    let names: Vec<&str> = first.phases.iter().map(|(n, _)| *n).collect();
    let per_phase: Vec<Duration> = (0..names.len())
        .map(|k| {
            median(
                runs.iter()
                    .filter_map(|t| t.phases.get(k).map(|p| p.1))
                    .collect(),
            )
        })
        .collect();
    let total: Duration = per_phase.iter().sum();
    eprintln!(
        "\nlink/{label}: phases, median of {} links, {sections} output sections",
        runs.len()
    );
    eprintln!(
        "  {:<14} {:>10} {:>7} {:>14}",
        "phase", "ms", "share", "sections/s"
    );
    for (name, d) in names.iter().zip(&per_phase) {
        eprintln!(
            "  {:<14} {:>10.2} {:>6.1}% {:>14.0}",
            name,
            d.as_secs_f64() * 1e3,
            100.0 * d.as_secs_f64() / total.as_secs_f64().max(f64::MIN_POSITIVE),
            sections as f64 / d.as_secs_f64().max(f64::MIN_POSITIVE)
        );
    }
    eprintln!(
        "  {:<14} {:>10.2} {:>7} {:>14.0}\n",
        "sum",
        total.as_secs_f64() * 1e3,
        "",
        sections as f64 / total.as_secs_f64().max(f64::MIN_POSITIVE)
    );
}

fn bench_link(c: &mut Criterion) {
    let target = Target::parse(ARCH).expect("sm_90 is a target");
    for (files, funcs) in sizes() {
        let shape = Shape {
            files,
            funcs,
            arch: ARCH.into(),
            seed: 0,
        };
        if let Err(e) = shape.validate() {
            eprintln!("link bench: skipping {files}x{funcs}: {e}");
            continue;
        }
        let Some(w) = workload_for(&shape) else {
            continue;
        };
        let store = InputStore::new();
        let sources: Vec<InputSource> = w.inputs.iter().cloned().map(InputSource::Path).collect();
        let load_opts = LoadOptions {
            target: target.sm_arch(),
            lto: false,
            debug: false,
            ptxas: None,
            ptxas_options: Vec::new(),
        };
        let loaded = match input::load(&store, &sources, &load_opts) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("link bench: skipping {}: cannot load: {e}", shape.label());
                continue;
            }
        };
        let inputs: Vec<InputObject<'_>> = loaded
            .cubins
            .iter()
            .map(|c| InputObject {
                name: c.name.clone(),
                elf: c.elf.clone(),
            })
            .collect();
        let mut opts = LinkOptions::new(target);
        opts.input_names = inputs.iter().map(|i| i.name.clone()).collect();

        let start = Instant::now();
        let first = match link(&inputs, &opts) {
            Ok(o) => o,
            Err(f) => {
                let why = f
                    .diagnostics
                    .iter()
                    .last()
                    .map(|d| d.message.clone())
                    .unwrap_or_default();
                eprintln!("link bench: skipping {}: link failed: {why}", shape.label());
                continue;
            }
        };
        let once = start.elapsed();
        // Throughput counts the output's sections; an image whose header under-reports them
        // (a linker bug at > 65,279 sections) falls back to what the workload is built to give.
        let expected = shape.expected_function_sections() as u64;
        let mut sections = section_count(&first.image);
        if sections < expected {
            eprintln!(
                "link bench: {}: the image claims {sections} sections, fewer than the workload's \
                 {expected} function sections; using {expected}",
                shape.label()
            );
            sections = expected;
        }
        let mut phase_runs = vec![first.times.clone()];
        drop(first);

        let label = format!("{files}x{funcs}");
        let mut group = c.benchmark_group("link");
        group
            .sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(once.max(Duration::from_millis(500)))
            .measurement_time((once * 12).max(Duration::from_secs(3)))
            .throughput(Throughput::Elements(sections));
        group.bench_function(BenchmarkId::new("whole", &label), |b| {
            b.iter_custom(|iters| {
                let mut spent = Duration::ZERO;
                for _ in 0..iters {
                    let start = Instant::now();
                    let out = link(&inputs, &opts);
                    spent += start.elapsed();
                    if let Ok(out) = out {
                        phase_runs.push(out.times.clone());
                    }
                }
                spent
            })
        });
        group.finish();
        print_phases(&label, sections, &phase_runs);
    }
}

criterion_group!(benches, bench_link);
criterion_main!(benches);

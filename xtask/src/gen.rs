//! `cargo xtask gen`: synthetic huge-link workloads (see [`workload`] for their shape).
//!
//! ```text
//! cargo xtask gen --files N --funcs M [--arch sm_90] [--out DIR] [--seed S]
//!                 [--offline] [--force] [--link]
//! cargo xtask gen --make-template --funcs M [--arch sm_90]
//! ```
//!
//! With ptxas in the toolchain cache the cubins are compiled from generated PTX (two at a
//! time on two cores); without it, or with `--offline`, they are cloned from
//! `tests/huge/template-v<G>-<arch>-m<M>.cubin`. `--link` also links the result with nvlink
//! and prints its wall time, peak RSS and the output's section count.

pub mod workload;

use std::path::{Path, PathBuf};
use std::time::Instant;
use workload::{Shape, Source};

/// The repository root (the parent of the xtask crate).
pub fn repo_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(Path::to_path_buf).unwrap_or(manifest)
}

/// Where committed templates live.
pub fn template_dir() -> PathBuf {
    repo_root().join("tests").join("huge")
}

/// Picks ptxas when installed (unless `offline`), else the committed templates.
pub fn source(offline: bool) -> Source {
    match workload::locate_ptxas() {
        Some(ptxas) if !offline => Source::Ptxas(ptxas),
        _ => Source::Template(template_dir()),
    }
}

/// Makes (or reuses) the workload for `shape` in `dir`, reporting progress on stderr.
pub fn ensure(
    shape: &Shape,
    dir: &Path,
    offline: bool,
    force: bool,
) -> Result<workload::Workload, String> {
    let src = source(offline);
    if let Some(w) = workload::cached(shape, dir).filter(|_| !force) {
        return Ok(w);
    }
    let how = match &src {
        Source::Ptxas(p) => format!("ptxas ({})", p.display()),
        Source::Template(d) => format!(
            "cloning {}",
            d.join(workload::template_name(shape)).display()
        ),
    };
    eprintln!(
        "xtask: generating {} in {} with {how}",
        shape.label(),
        dir.display()
    );
    let start = Instant::now();
    let w = workload::ensure(shape, dir, &src, force, &mut |line| {
        eprintln!("xtask:   {line}")
    })?;
    eprintln!(
        "xtask: generated {} files in {:.1} s",
        w.inputs.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(w)
}

/// `cargo xtask gen ...`.
pub fn command(args: &[String]) -> Result<(), String> {
    let mut files = None;
    let mut funcs = None;
    let mut arch = "sm_90".to_string();
    let mut seed = 0u64;
    let mut out = None;
    let (mut offline, mut force, mut link, mut make_template) = (false, false, false, false);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || -> Result<String, String> {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        let number = |v: String| -> Result<u64, String> {
            v.replace('_', "")
                .parse()
                .map_err(|_| format!("{flag}: not a number: {v}"))
        };
        match flag {
            "--files" => files = Some(number(value()?)? as usize),
            "--funcs" => funcs = Some(number(value()?)? as usize),
            "--arch" => arch = value()?.trim_start_matches("-arch=").to_string(),
            "--seed" => seed = number(value()?)?,
            "--out" => out = Some(PathBuf::from(value()?)),
            "--offline" => offline = true,
            "--force" => force = true,
            "--link" => link = true,
            "--make-template" => make_template = true,
            _ => return Err(format!("gen: unknown argument {arg}")),
        }
    }
    let funcs = funcs.ok_or("gen: --funcs is required")?;
    if make_template {
        let shape = Shape {
            files: 2,
            funcs,
            arch,
            seed: 0,
        };
        shape.validate()?;
        let ptxas = workload::locate_ptxas()
            .ok_or("gen --make-template needs ptxas (cargo xtask toolchain)")?;
        let scratch =
            std::env::temp_dir().join(format!("elfw-gen-template-{}", std::process::id()));
        let bytes = workload::compile_template(&shape, &ptxas, &scratch);
        let _ = std::fs::remove_dir_all(&scratch);
        let bytes = bytes?;
        let path = template_dir().join(workload::template_name(&shape));
        std::fs::create_dir_all(template_dir()).map_err(|e| e.to_string())?;
        std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("{} ({} bytes)", path.display(), bytes.len());
        return Ok(());
    }
    let shape = Shape {
        files: files.ok_or("gen: --files is required")?,
        funcs,
        arch,
        seed,
    };
    shape.validate()?;
    let dir = out.unwrap_or_else(|| workload::default_dir(&repo_root(), &shape));
    let w = ensure(&shape, &dir, offline, force)?;
    println!(
        "{}: {} files ({}), {} function sections expected in the output",
        w.dir.display(),
        w.inputs.len(),
        w.method,
        w.shape.expected_function_sections()
    );
    if link {
        let nvlink = workload::locate_tool("nvlink")
            .ok_or("gen --link needs nvlink (cargo xtask toolchain)")?;
        let out = w.dir.join("nvlink.cubin");
        let mut cmd = std::process::Command::new(&nvlink);
        cmd.arg(format!("-arch={}", shape.arch))
            .args(&w.inputs)
            .arg("-o")
            .arg(&out);
        let run = crate::bench_nvlink::measure(&mut cmd, &w.dir.join("nvlink.log"))?;
        if run.status != 0 {
            return Err(format!(
                "nvlink failed (status {}); see {}",
                run.status,
                w.dir.join("nvlink.log").display()
            ));
        }
        let bytes = std::fs::read(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        let layout = crate::bench_nvlink::SectionCount::of(&bytes)?;
        println!(
            "nvlink: {:.3} s, peak RSS {:.1} MiB, {} sections{}, {} bytes",
            run.wall.as_secs_f64(),
            run.max_rss_kib as f64 / 1024.0,
            layout.sections,
            if layout.extended {
                " (extended: e_shnum = 0)"
            } else {
                ""
            },
            bytes.len()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::workload::*;

    fn shape(files: usize, funcs: usize) -> Shape {
        Shape {
            files,
            funcs,
            arch: "sm_90".into(),
            seed: 7,
        }
    }

    #[test]
    fn every_device_function_is_called_exactly_once() {
        for (files, funcs) in [(1, 50), (2, 50), (7, 23), (100, 50)] {
            let s = shape(files, funcs);
            let mut calls = vec![0usize; files * funcs];
            for i in 0..files {
                for j in 0..funcs {
                    if s.kind(j) != FunctionKind::Leaf {
                        calls[s.callee_file(i, j) * funcs + j + 1] += 1;
                    }
                }
            }
            for i in 0..files {
                for j in 0..funcs {
                    let want = usize::from(s.kind(j) != FunctionKind::Kernel);
                    assert_eq!(
                        calls[i * funcs + j],
                        want,
                        "{files}x{funcs}: file {i} function {j}"
                    );
                }
            }
        }
    }

    #[test]
    fn calls_cross_files_when_there_are_several() {
        let s = shape(5, 50);
        for i in 0..5 {
            for j in 0..50 {
                if s.kind(j) == FunctionKind::Caller {
                    assert_ne!(s.callee_file(i, j), i);
                }
            }
        }
    }

    #[test]
    fn standard_sizes_have_the_issue_section_counts() {
        assert_eq!(shape(100, 50).expected_function_sections(), 15_500);
        assert_eq!(shape(500, 50).expected_function_sections(), 77_500);
        assert_eq!(shape(1000, 50).expected_function_sections(), 155_000);
    }

    /// A clone of the template is what ptxas makes of the same file (needs ptxas).
    #[test]
    fn clones_match_ptxas_output() {
        let Some(ptxas) = locate_ptxas() else {
            eprintln!("skipped: ptxas not installed");
            return;
        };
        let s = Shape {
            files: 9,
            funcs: 23,
            arch: "sm_90".into(),
            seed: 3,
        };
        let scratch = std::env::temp_dir().join(format!("elfw-gen-test-{}", std::process::id()));
        let template = compile_template(&s, &ptxas, &scratch.join("t")).unwrap();
        let dir = scratch.join("w");
        let w = ensure(&s, &dir, &Source::Ptxas(ptxas), true, &mut |_| {}).unwrap();
        for (i, path) in w.inputs.iter().enumerate() {
            let compiled = std::fs::read(path).unwrap();
            assert!(
                compiled == clone_template(&template, &s, i).unwrap(),
                "file {i}"
            );
        }
        let _ = std::fs::remove_dir_all(&scratch);
    }
}

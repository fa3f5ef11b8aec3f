//! `cargo xtask bench-nvlink`: nvlink and elfw on the same generated inputs.
//!
//! ```text
//! cargo xtask bench-nvlink [--sizes 100x50,500x50] [--runs 5] [--arch sm_90] [--seed S]
//!                          [--elfw PATH] [--offline]
//! ```
//!
//! For each size the workload is generated (or reused, see `cargo xtask gen`), then nvlink and
//! elfw run alternately `--runs` times each (so drift on a noisy machine hits both alike); each
//! run's wall time is measured around the child process and its peak RSS comes from `wait4`'s
//! resource usage, as does its CPU time (user + system, all threads: steadier than wall time
//! when other work shares the machine). The copy floor is the time, in this process, to read
//! every input and write a file of the output's size. Medians are reported. Finally `elfw cmp`
//! compares the two outputs and its verdict is printed.

use crate::gen::{self, workload::Shape};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One finished child process.
#[derive(Clone, Copy, Debug)]
pub struct RunStats {
    /// Wall time from spawn to reaping.
    pub wall: Duration,
    /// User plus system CPU time of the child and its threads (`ru_utime + ru_stime`): less
    /// sensitive than wall time to other load on the machine, and above the wall time when
    /// the child runs on several cores.
    pub cpu: Duration,
    /// Peak resident set size of the child, in KiB (`ru_maxrss`).
    pub max_rss_kib: u64,
    /// Exit status; 128 + signal number when killed by a signal.
    pub status: i32,
}

#[repr(C)]
#[derive(Default)]
struct Timeval {
    tv_sec: i64,
    tv_usec: i64,
}

/// `struct rusage` on 64-bit Linux: two timevals and fourteen longs.
#[repr(C)]
#[derive(Default)]
struct Rusage {
    ru_utime: Timeval,
    ru_stime: Timeval,
    ru_maxrss: i64,
    rest: [i64; 13],
}

extern "C" {
    fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut Rusage) -> i32;
}

/// Runs `cmd` with stdout and stderr going to `log`, and measures it.
pub fn measure(cmd: &mut Command, log: &Path) -> Result<RunStats, String> {
    let file = fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = file.try_clone().map_err(|e| e.to_string())?;
    cmd.stdin(Stdio::null()).stdout(file).stderr(err);
    let start = Instant::now();
    let child = cmd
        .spawn()
        .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    let pid = child.id() as i32;
    let mut status = 0i32;
    let mut usage = Rusage::default();
    // SAFETY: `status` and `usage` are valid for writes and laid out as the kernel expects;
    // the child is reaped here and `child` is never waited on afterwards.
    let reaped = loop {
        let r = unsafe { wait4(pid, &mut status, 0, &mut usage) };
        if r == -1 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        break r;
    };
    let wall = start.elapsed();
    drop(child);
    if reaped != pid {
        return Err(format!("wait4 failed: {}", std::io::Error::last_os_error()));
    }
    let status = if status & 0x7f == 0 {
        (status >> 8) & 0xff
    } else {
        128 + (status & 0x7f)
    };
    let tv = |t: &Timeval| Duration::new(t.tv_sec.max(0) as u64, (t.tv_usec.max(0) * 1000) as u32);
    Ok(RunStats {
        wall,
        cpu: tv(&usage.ru_utime) + tv(&usage.ru_stime),
        max_rss_kib: usage.ru_maxrss.max(0) as u64,
        status,
    })
}

/// The section count of an ELF64 image, read the way a loader does.
#[derive(Clone, Copy, Debug)]
pub struct SectionCount {
    /// The number of section headers.
    pub sections: u64,
    /// True when `e_shnum` is 0 and the count lives in section 0's `sh_size`.
    pub extended: bool,
}

impl SectionCount {
    /// Reads the count from `elf`'s header (and section 0 when extended).
    pub fn of(elf: &[u8]) -> Result<SectionCount, String> {
        let bad = || "output is not a 64-bit ELF file".to_string();
        if elf.get(..5) != Some(b"\x7fELF\x02") {
            return Err(bad());
        }
        let u64_at = |o: usize| {
            elf.get(o..o + 8)
                .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
        };
        let shnum = elf.get(0x3c..0x3e).ok_or_else(bad)?;
        let shnum = u16::from_le_bytes([shnum[0], shnum[1]]);
        if shnum != 0 {
            return Ok(SectionCount {
                sections: u64::from(shnum),
                extended: false,
            });
        }
        let shoff = u64_at(0x28).ok_or_else(bad)? as usize;
        let size = u64_at(shoff + 0x20).ok_or_else(bad)?;
        Ok(SectionCount {
            sections: size,
            extended: true,
        })
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Builds elfw in release mode (with the caller's target directory) and returns the binary.
fn build_elfw(root: &Path) -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    eprintln!("xtask: cargo build --release -p elfw-cli");
    let status = Command::new(cargo)
        .args(["build", "--quiet", "--release", "-p", "elfw-cli"])
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("building elfw failed ({status})"));
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    Ok(target.join("release").join("elfw"))
}

/// Reads every input and writes a file of `out_len` bytes: the least any linker must do.
fn copy_floor(inputs: &[PathBuf], out_len: usize, out: &Path) -> Result<Duration, String> {
    let _ = fs::remove_file(out);
    let start = Instant::now();
    let mut image = Vec::with_capacity(out_len);
    for path in inputs {
        let data = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let take = data.len().min(out_len - image.len());
        image.extend_from_slice(&data[..take]);
    }
    image.resize(out_len, 0);
    fs::write(out, &image).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(start.elapsed())
}

/// The figures of one size.
struct Row {
    label: String,
    sections: u64,
    extended: bool,
    nvlink: f64,
    elfw: Option<f64>,
    nvlink_cpu: f64,
    elfw_cpu: Option<f64>,
    floor: f64,
    rss_nvlink: u64,
    rss_elfw: Option<u64>,
    verdict: String,
}

/// `cargo xtask bench-nvlink ...`.
pub fn command(args: &[String]) -> Result<(), String> {
    let mut sizes = vec![(100usize, 50usize), (500, 50)];
    let mut runs = 5usize;
    let mut arch = "sm_90".to_string();
    let mut seed = 0u64;
    let mut elfw = None;
    let mut offline = false;
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
        match flag {
            "--sizes" => {
                sizes = value()?
                    .split(',')
                    .map(|s| {
                        let (n, m) = s
                            .split_once('x')
                            .ok_or(format!("bad size {s} (want NxM)"))?;
                        Ok((
                            n.parse().map_err(|_| format!("bad size {s}"))?,
                            m.parse().map_err(|_| format!("bad size {s}"))?,
                        ))
                    })
                    .collect::<Result<_, String>>()?
            }
            "--runs" => runs = value()?.parse().map_err(|_| "--runs: not a number")?,
            "--arch" => arch = value()?,
            "--seed" => seed = value()?.parse().map_err(|_| "--seed: not a number")?,
            "--elfw" => elfw = Some(PathBuf::from(value()?)),
            "--offline" => offline = true,
            _ => return Err(format!("bench-nvlink: unknown argument {arg}")),
        }
    }
    if runs == 0 {
        return Err("--runs must be at least 1".into());
    }
    let root = gen::repo_root();
    let nvlink = gen::workload::locate_tool("nvlink")
        .ok_or("bench-nvlink needs nvlink (cargo xtask toolchain)")?;
    let elfw = match elfw {
        Some(p) => p,
        None => build_elfw(&root)?,
    };

    let mut rows = Vec::new();
    for (files, funcs) in sizes {
        let shape = Shape {
            files,
            funcs,
            arch: arch.clone(),
            seed,
        };
        shape.validate()?;
        let w = gen::ensure(
            &shape,
            &gen::workload::default_dir(&root, &shape),
            offline,
            false,
        )?;
        let runs_dir = w.dir.join("runs");
        fs::create_dir_all(&runs_dir).map_err(|e| format!("{}: {e}", runs_dir.display()))?;
        let nv_out = runs_dir.join("nvlink.cubin");
        let el_out = runs_dir.join("elfw.cubin");
        let link_out = runs_dir.join("out.cubin");
        let mut nv = Vec::new();
        let mut el = Vec::new();
        let mut elfw_failed = None;
        eprintln!(
            "xtask: {}: {runs} runs of each linker, alternating",
            shape.label()
        );
        for run in 0..runs {
            for which in [0, 1] {
                if which == 1 && elfw_failed.is_some() {
                    continue;
                }
                let (program, out, log) = if which == 0 {
                    (&nvlink, &nv_out, runs_dir.join("nvlink.log"))
                } else {
                    (&elfw, &el_out, runs_dir.join("elfw.log"))
                };
                // Both linkers write the same path (it is recorded in .note.nv.tkinfo), then
                // the image is renamed out of the way.
                let _ = fs::remove_file(&link_out);
                let mut cmd = Command::new(program);
                cmd.arg(format!("-arch={arch}"))
                    .args(&w.inputs)
                    .arg("-o")
                    .arg(&link_out);
                let stats = measure(&mut cmd, &log)?;
                if stats.status == 0 {
                    fs::rename(&link_out, out).map_err(|e| format!("{}: {e}", out.display()))?;
                }
                if stats.status != 0 {
                    let text = fs::read_to_string(&log).unwrap_or_default();
                    let first = text.lines().next().unwrap_or("").to_string();
                    if which == 0 {
                        return Err(format!("nvlink failed (status {}): {first}", stats.status));
                    }
                    elfw_failed = Some(format!("status {}: {first}", stats.status));
                    continue;
                }
                if which == 0 { &mut nv } else { &mut el }.push(stats);
            }
            eprintln!("xtask:   run {}/{runs} done", run + 1);
        }
        let nv_bytes = fs::read(&nv_out).map_err(|e| format!("{}: {e}", nv_out.display()))?;
        let count = SectionCount::of(&nv_bytes)?;
        let floor_out = runs_dir.join("floor.bin");
        let floors = (0..runs)
            .map(|_| copy_floor(&w.inputs, nv_bytes.len(), &floor_out).map(|d| d.as_secs_f64()))
            .collect::<Result<Vec<_>, _>>()?;
        let _ = fs::remove_file(&floor_out);
        let verdict = if let Some(why) = &elfw_failed {
            format!("elfw failed ({why})")
        } else {
            let out = Command::new(&elfw)
                .arg("cmp")
                .arg(&nv_out)
                .arg(&el_out)
                .output()
                .map_err(|e| format!("cannot run elfw cmp: {e}"))?;
            let text = String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr);
            let report = runs_dir.join("cmp.txt");
            fs::write(&report, &text).map_err(|e| e.to_string())?;
            let mut lines = text.lines().map(str::trim);
            let first = lines.next().unwrap_or("(no output)").to_string();
            match lines.next() {
                Some(detail) => format!("{first}\n    {detail}\n    (all: {})", report.display()),
                None => first,
            }
        };
        let max = |v: &[RunStats]| v.iter().map(|s| s.max_rss_kib).max();
        rows.push(Row {
            label: format!("{files}x{funcs}"),
            sections: count.sections,
            extended: count.extended,
            nvlink: median(nv.iter().map(|s| s.wall.as_secs_f64()).collect()),
            elfw: (!el.is_empty())
                .then(|| median(el.iter().map(|s| s.wall.as_secs_f64()).collect())),
            nvlink_cpu: median(nv.iter().map(|s| s.cpu.as_secs_f64()).collect()),
            elfw_cpu: (!el.is_empty())
                .then(|| median(el.iter().map(|s| s.cpu.as_secs_f64()).collect())),
            floor: median(floors),
            rss_nvlink: max(&nv).unwrap_or(0),
            rss_elfw: max(&el),
            verdict,
        });
    }
    print_table(&rows, runs, &arch);
    Ok(())
}

fn print_table(rows: &[Row], runs: usize, arch: &str) {
    let ms = |s: f64| format!("{:.1}", s * 1e3);
    let mib = |k: u64| format!("{:.1}", k as f64 / 1024.0);
    println!(
        "\nnvlink vs elfw, -arch={arch}, median of {runs} alternating runs each \
         (2-core machine: noisy, compare medians only); peak RSS is the largest of the runs"
    );
    println!(
        "{:>9} {:>8} {:>10} {:>10} {:>7} {:>9} {:>10} {:>9} {:>9} {:>10} {:>10}",
        "size",
        "sections",
        "nvlink ms",
        "elfw ms",
        "nv/elfw",
        "floor ms",
        "elfw/floor",
        "nv MiB",
        "elfw MiB",
        "nv ns/sec",
        "elfw ns/sec"
    );
    for r in rows {
        let per = |t: f64| format!("{:.0}", t * 1e9 / r.sections as f64);
        println!(
            "{:>9} {:>7}{} {:>10} {:>10} {:>7} {:>9} {:>10} {:>9} {:>9} {:>10} {:>10}",
            r.label,
            r.sections,
            if r.extended { "x" } else { " " },
            ms(r.nvlink),
            r.elfw.map(ms).unwrap_or("-".into()),
            r.elfw
                .map(|e| format!("{:.2}", r.nvlink / e))
                .unwrap_or("-".into()),
            ms(r.floor),
            r.elfw
                .map(|e| format!("{:.2}", e / r.floor))
                .unwrap_or("-".into()),
            mib(r.rss_nvlink),
            r.rss_elfw.map(mib).unwrap_or("-".into()),
            per(r.nvlink),
            r.elfw.map(per).unwrap_or("-".into()),
        );
    }
    println!("(x: nvlink wrote e_shnum = 0 and the count in section 0's sh_size)");
    for r in rows {
        println!(
            "cpu time (user + sys, median), {}: nvlink {} ms, elfw {} ms, nv/elfw {}",
            r.label,
            ms(r.nvlink_cpu),
            r.elfw_cpu.map(ms).unwrap_or("-".into()),
            r.elfw_cpu
                .map(|e| format!("{:.2}", r.nvlink_cpu / e))
                .unwrap_or("-".into()),
        );
    }
    if let Some(first) = rows.first() {
        for r in &rows[1..] {
            let scale = |a: f64, b: f64| (a / r.sections as f64) / (b / first.sections as f64);
            println!(
                "time per section, {} / {}: nvlink {:.2}, elfw {}",
                r.label,
                first.label,
                scale(r.nvlink, first.nvlink),
                match (r.elfw, first.elfw) {
                    (Some(a), Some(b)) => format!("{:.2}", scale(a, b)),
                    _ => "-".into(),
                }
            );
        }
    }
    for r in rows {
        println!("elfw cmp nvlink elfw, {}: {}", r.label, r.verdict);
    }
}

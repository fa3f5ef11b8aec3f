//! PTX inputs: nvlink compiles them with its embedded ptxas; elfw runs the toolkit's `ptxas`
//! with the same arguments so the image comes out the same.
//!
//! nvlink 13.5.37 records `-arch sm_XX -m 64 -c` in `.note.nv.tkinfo` for PTX it compiles
//! (a `.ptx` file or a fatbin PTX entry, whatever `.target` and fatbin options the PTX has),
//! and `-no-bb-merge -ret-end -g -arch sm_XX -m 64 -c` under `nvlink -g`. Checked: linking
//! `ptxas -arch sm_90 -m 64 -c x.ptx` output gives the same bytes as letting nvlink compile
//! `x.ptx`, for final links and `-r` links.

use crate::elf::arch::{ArchVariant, SmArch};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What went wrong compiling PTX.
#[derive(Debug, thiserror::Error)]
pub enum PtxError {
    /// No ptxas to run.
    #[error(
        "PTX input needs the CUDA toolkit's ptxas, which was not found (looked {looked}); install \
         the CUDA 13.5 toolkit (or the nvidia-cuda-nvcc wheel), put its bin folder on PATH, or \
         pass --ptxas PATH"
    )]
    PtxasNotFound {
        /// Where we looked.
        looked: String,
    },
    /// ptxas could not be started or its files not handled.
    #[error("running {ptxas}: {source}")]
    Io {
        /// The ptxas path.
        ptxas: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// ptxas failed.
    #[error("ptxas exited with status {status}: {stderr}")]
    Failed {
        /// Exit status (-1 when killed by a signal).
        status: i32,
        /// What it printed on standard error.
        stderr: String,
    },
}

/// A ptxas executable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ptxas {
    /// Its path.
    pub path: PathBuf,
}

fn is_executable(p: &Path) -> bool {
    p.is_file()
}

impl Ptxas {
    /// Finds ptxas: `explicit` when given (the `--ptxas PATH` option), else `ptxas` in
    /// `tool_dir` (the folder of the running elfw, a toolkit's `bin/`), else on `path_var`
    /// (the value of `PATH`).
    pub fn locate(
        explicit: Option<&Path>,
        tool_dir: Option<&Path>,
        path_var: Option<&std::ffi::OsStr>,
    ) -> Result<Ptxas, PtxError> {
        let mut looked = Vec::new();
        if let Some(p) = explicit {
            if is_executable(p) {
                return Ok(Ptxas {
                    path: p.to_path_buf(),
                });
            }
            return Err(PtxError::PtxasNotFound {
                looked: format!("at {}", p.display()),
            });
        }
        if let Some(dir) = tool_dir {
            let p = dir.join("ptxas");
            if is_executable(&p) {
                return Ok(Ptxas { path: p });
            }
            looked.push(format!("in {}", dir.display()));
        }
        if let Some(path) = path_var {
            for dir in std::env::split_paths(path) {
                let p = dir.join("ptxas");
                if is_executable(&p) {
                    return Ok(Ptxas { path: p });
                }
            }
            looked.push("on PATH".into());
        }
        Err(PtxError::PtxasNotFound {
            looked: looked.join(" and "),
        })
    }
}

/// The arguments nvlink's embedded ptxas runs with (as recorded in `.note.nv.tkinfo`), minus
/// the input and output files: `-g`'s debug options, the target, then the options the PTX's
/// fatbin entry carries (`entry_options`, nvcc's ptxas options for it, such as
/// `--generate-line-info` or `-maxrregcount=32`; ptxas records them in its own form and
/// order, as nvlink's does: observed).
///
/// Only options that shape code generation or diagnostics pass: a fatbin is input, and an
/// option naming a file (`-o`, `--options-file`), a target or a non-option word would let it
/// steer ptxas elsewhere; those are dropped. The link's own ptxas options (`link_options`:
/// nvlink's `-Xptxas` words, then its `-maxrregcount`) come last, so they win (observed: the
/// link's `-maxrregcount` over `-Xptxas -maxrregcount` over the entry's, each redefinition a
/// ptxas warning).
pub fn ptxas_arguments(
    target: SmArch,
    debug: bool,
    entry_options: &[u8],
    link_options: &[String],
) -> Vec<String> {
    let mut args: Vec<String> = Vec::new();
    if debug {
        args.extend(["-no-bb-merge", "-ret-end", "-g"].map(String::from));
    }
    // A family target's code is compiled for the plain SM (observed: `-arch=sm_100f` records
    // ptxas's `-arch sm_100`, whatever the PTX's `.target`; `a` targets keep their suffix).
    let arch = match target.variant {
        ArchVariant::Family => SmArch::plain(target.sm),
        _ => target,
    };
    args.extend([
        "-arch".into(),
        arch.to_string(),
        "-m".into(),
        "64".into(),
        "-c".into(),
    ]);
    let debug_options = [
        "-g",
        "--device-debug",
        "-no-bb-merge",
        "--dont-merge-basicblocks",
        "-ret-end",
        "--return-at-end",
    ];
    for word in entry_options.split(|b| b.is_ascii_whitespace()) {
        let Ok(word) = std::str::from_utf8(word) else {
            continue;
        };
        let name = word.split('=').next().unwrap_or(word);
        let compile_only = matches!(name, "-c" | "--compile-only");
        if compile_only || (debug && debug_options.contains(&name)) || !forwarded_option(name) {
            continue;
        }
        args.push(word.to_string());
    }
    args.extend(link_options.iter().cloned());
    args
}

/// Whether nvlink's embedded ptxas takes option `name` (the part before any `=`) from a
/// fatbin entry (see [`ptxas_arguments`]).
fn forwarded_option(name: &str) -> bool {
    const OPTIONS: &[&str] = &[
        "--generate-line-info",
        "-lineinfo",
        "--device-debug",
        "-g",
        "--dont-merge-basicblocks",
        "-no-bb-merge",
        "--return-at-end",
        "-ret-end",
        "--maxrregcount",
        "-maxrregcount",
        "--device-function-maxrregcount",
        "-func-maxrregcount",
        "--opt-level",
        "--allow-expensive-optimizations",
        "-allow-expensive-optimizations",
        "--def-load-cache",
        "-dlcm",
        "--def-store-cache",
        "-dscm",
        "--force-load-cache",
        "-flcm",
        "--force-store-cache",
        "-fscm",
        "--fmad",
        "-fmad",
        "--verbose",
        "-v",
        "--disable-warnings",
        "-w",
        "--warn-on-spills",
        "-warn-spills",
        "--warn-on-local-memory-usage",
        "-warn-lmem-usage",
        "--warn-on-double-precision-use",
        "-warn-double-usage",
        "--suppress-stack-size-warning",
        "-suppress-stack-size-warning",
        "--position-independent-code",
        "-pic",
        "--extensible-whole-program",
        "-ewp",
        "--Ofast-compile",
        "-Ofc",
        "--minnctapersm",
        "-minnctapersm",
        "--register-usage-level",
        "-regUsageLevel",
        "--optimize-float-atomics",
        "-opt-fp-atomics",
        "--disable-optimizer-constants",
        "-disable-optimizer-consts",
    ];
    let opt_level = name
        .strip_prefix("-O")
        .is_some_and(|n| n.len() == 1 && n.as_bytes()[0].is_ascii_digit());
    opt_level || OPTIONS.contains(&name)
}

/// What ptxas made of a PTX input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    /// The cubin.
    pub cubin: Vec<u8>,
    /// What ptxas printed on standard error (warnings), as nvlink's embedded ptxas words it;
    /// nvlink prints these lines as they are.
    pub messages: String,
}

/// ptxas's standard error as nvlink's embedded ptxas prints it: the input, which it reads
/// from memory, is `ptxas application ptx input` (observed: `ptxas application ptx input,
/// line 4; error   : ...`).
fn embedded_messages(stderr: &[u8]) -> String {
    String::from_utf8_lossy(stderr)
        .trim_end()
        .replace("ptxas input.ptx,", "ptxas application ptx input,")
}

/// Compiles `ptx` for `target` with `ptxas` and returns the cubin bytes and ptxas's messages. The PTX and cubin go
/// through a fresh private temporary folder, removed afterwards.
pub fn compile(
    ptxas: &Ptxas,
    ptx: &[u8],
    target: SmArch,
    debug: bool,
    entry_options: &[u8],
    link_options: &[String],
) -> Result<Compiled, PtxError> {
    compile_with_arguments(
        ptxas,
        ptx,
        &ptxas_arguments(target, debug, entry_options, link_options),
    )
}

/// Compiles `ptx` with `ptxas` and `arguments` (everything but the input file; the output is
/// ptxas's default `elf.o`), as [`compile`] does.
pub fn compile_with_arguments(
    ptxas: &Ptxas,
    ptx: &[u8],
    arguments: &[String],
) -> Result<Compiled, PtxError> {
    let io = |source| PtxError::Io {
        ptxas: ptxas.path.display().to_string(),
        source,
    };
    let dir = private_temp_dir().map_err(io)?;
    let input = dir.join("input.ptx");
    // ptxas's default output name in its own folder: under `-g` ptxas records the object's
    // name in `.note.nv.tkinfo`, and nvlink's embedded ptxas records this one.
    let output = dir.join("elf.o");
    let run = || -> Result<Compiled, PtxError> {
        // ptxas wants text without the fatbin's NUL padding.
        let end = ptx.iter().position(|&b| b == 0).unwrap_or(ptx.len());
        std::fs::write(&input, &ptx[..end]).map_err(io)?;
        let out = Command::new(&ptxas.path)
            .args(arguments)
            .arg("input.ptx")
            .current_dir(&dir)
            .output()
            .map_err(io)?;
        let messages = embedded_messages(&out.stderr);
        if !out.status.success() {
            return Err(PtxError::Failed {
                status: out.status.code().unwrap_or(-1),
                stderr: messages,
            });
        }
        Ok(Compiled {
            cubin: std::fs::read(&output).map_err(io)?,
            messages,
        })
    };
    let result = run();
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn private_temp_dir() -> std::io::Result<PathBuf> {
    let base = std::env::temp_dir();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    for attempt in 0..100u32 {
        let dir = base.join(format!(
            "elfw-ptxas-{}-{nanos}-{attempt}",
            std::process::id()
        ));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::AlreadyExists,
        "no free temporary folder name",
    ))
}

/// Whether `data` looks like PTX text: after blanks and `//` or `/* */` comments, the first
/// token is `.version` (how nvlink's content classifier recognises PTX).
pub fn is_ptx(data: &[u8]) -> bool {
    let mut rest = data;
    loop {
        let trimmed = rest
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .map_or(&[][..], |i| &rest[i..]);
        if let Some(r) = trimmed.strip_prefix(b"//") {
            rest = r
                .iter()
                .position(|&b| b == b'\n')
                .map_or(&[][..], |i| &r[i..]);
        } else if let Some(r) = trimmed.strip_prefix(b"/*") {
            rest = r
                .windows(2)
                .position(|w| w == b"*/")
                .map_or(&[][..], |i| &r[i + 2..]);
        } else {
            return trimmed.starts_with(b".version");
        }
    }
}

/// The `.target` of a PTX text, e.g. `sm_75` or `sm_100f`, when it can be read.
pub fn ptx_target(data: &[u8]) -> Option<SmArch> {
    let text = &data[..data.len().min(1 << 16)];
    let at = text.windows(8).position(|w| w == b".target")?;
    let rest = &text[at + 7..];
    let start = rest.iter().position(|b| !b.is_ascii_whitespace())?;
    let word = &rest[start..];
    let end = word
        .iter()
        .position(|&b| b.is_ascii_whitespace() || b == b',')
        .unwrap_or(word.len());
    SmArch::parse(std::str::from_utf8(&word[..end]).ok()?)
}

const WARNING: &str = "ptxas warning : ";

/// Whether ptxas's message `line` is a warning that `-Werror` and `--disable-infos` reach.
/// The debug-info writer's (` .debug_abbrev section not found`, with its extra space) are
/// printed whatever the settings (observed: `-g` LTO links under `-Werror`, `-disable-infos`
/// and `-w`).
pub fn is_settable_warning(line: &str) -> bool {
    line.strip_prefix(WARNING)
        .is_some_and(|rest| !(rest.starts_with(' ') && rest.ends_with("section not found")))
}

/// ptxas's messages as `ptxas -Werror` would print them, when they hold a warning: each
/// warning an error, then ptxas's fatal (observed through nvlink's `-Werror`).
/// ([`is_settable_warning`]'s warnings only.)
pub fn warnings_as_errors(messages: &str) -> Option<String> {
    if !messages.lines().any(is_settable_warning) {
        return None;
    }
    let mut out = String::with_capacity(messages.len() + 64);
    for line in messages.lines() {
        match line
            .strip_prefix(WARNING)
            .filter(|_| is_settable_warning(line))
        {
            Some(rest) => out.push_str(&format!("ptxas error   : {rest}\n")),
            None => out.push_str(&format!("{line}\n")),
        }
    }
    out.push_str("ptxas fatal   : Ptx assembly aborted due to errors\n");
    Some(out)
}

#[cfg(test)]
mod werror_tests {
    #[test]
    fn warnings_become_errors_then_fatal() {
        assert_eq!(
            super::warnings_as_errors("ptxas info    : Used 8 registers\n"),
            None
        );
        assert_eq!(
            super::warnings_as_errors("ptxas warning : x\n").as_deref(),
            Some("ptxas error   : x\nptxas fatal   : Ptx assembly aborted due to errors\n")
        );
        assert_eq!(
            super::warnings_as_errors("ptxas warning :  .debug_info section not found\n"),
            None
        );
    }
}

//! Link-time optimization: LTO-IR from `nvcc -dc -dlto` objects compiled at link time with
//! the toolkit's libnvvm ([`libnvvm`]) and assembled with ptxas, as nvlink 13.5.37 does.
//!
//! Observed with nvlink 13.5.37 (a logging stand-in for libnvvm recorded every call):
//! - each fatbin's LTO-IR entry for the target becomes a module; any other device code (a
//!   cubin, compiled PTX) makes the link *partial* (libnvvm gets `--device-c`), and when its
//!   input's name does not contain `cudadevrt` nvlink says `requested LTO but '%s' not built
//!   for LTO so doing partial LTO` (info) and *forces* it (`--force-device-c`); `-r` forces it
//!   too;
//! - libnvvm's options, in order: `-arch=compute_XX`, `-link-lto`, `-maxreg=N`
//!   (`-maxrregcount`), `--device-c`, `--force-device-c`, `-g -opt=0` (`-g`), then unless
//!   forced partial `-has-global-host-info` (host information not ignored) and the host
//!   references: `-host-ref-{ek,ik,ec,ic,eg,ig}=` from the host objects' `.nvHR{KE,KI,CE,CI,
//!   DE,DI}` lists (system libraries included, each list's patterns in reverse input order,
//!   joined by `,`, empty lists left out; none at all when no user object lists anything), or
//!   from `-kernels-used` (`ek`, `ik`) and `-variables-used` (`ec`, `ic`, `eg`, `ig`) as
//!   `*name*`;
//! - libnvvm status 100 (and partial LTO not forced): the whole program was compiled as one; its PTX is compiled by ptxas
//!   as a whole program (`[-maxrregcount N] [-g options] -arch sm_XX -m 64`, no `-c`) and that
//!   cubin *is* the image (byte for byte); the last input must then be libcudadevrt (`expected
//!   libcudadevrt object`, fatal, otherwise);
//! - otherwise (status 0, or partial LTO forced): relocatable PTX, compiled with `-c` into `lto.cubin`, which is linked first,
//!   before every other input;
//! - no LTO-IR at all: `Ignoring -dlto option because no LTO objects found` (warning) and a
//!   plain link;
//! - modules are added to libnvvm as their inputs are read (a refused one: fatal `elfLink nvvm
//!   error` there); NVVM IR files (`.ltoir`, `.nvvm`) are modules as they are;
//! - before compiling, every fatbin module's cicc options (`-ftz`, `-prec_div`, `-prec_sqrt`,
//!   `-fmad`) must equal the first's: fatal `Cicc option values for '-ftz' do not match`
//!   (names `-ftz`, `-prec-div`, `-prec-sqrt`, `-fmad`);
//! - `-split-compile N` (N != 1): libnvvm `-split-compile=N` after `-link-lto`, ptxas
//!   `-split-compile N`; `-split-compile-extended N`: libnvvm only, and it may return several
//!   PTX modules (`__nvvmHandle(61453)` counts them, `(45242)` sizes them), each compiled
//!   with `-c` and linked, in libnvvm's order (which follows its threads);
//! - `-Xnvvm` options come last, followed by the first fatbin module's cicc options in
//!   libnvvm's spelling; `-Xptxas` words go to ptxas after the target;
//! - `-emit-ptx`: libnvvm's PTX is the output;
//! - `-Ofast-compile=L` (not `0`): libnvvm `-Ofast-compile=L` after the split option, ptxas
//!   `-Ofc L`; `-nvvm-latest`: libnvvm `-nvvm-version=nvvm-latest`, last;
//! - a non-empty program log after a successful compile is printed as an info (observed with
//!   `-Ofast-compile=mid`: `opt: Unknown command line argument ...`).

pub mod libnvvm;

use crate::elf::SmArch;
use std::path::PathBuf;

/// How a link does link-time optimization.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LtoOptions {
    /// `-nvvmpath`: the folder with `lib64/libnvvm.so`.
    pub nvvmpath: PathBuf,
    /// `-maxrregcount`.
    pub maxrregcount: Option<u32>,
    /// `-Xnvvm`: options for libnvvm, after nvlink's own.
    pub xnvvm: Vec<String>,
    /// `-Xptxas`: options for ptxas, after the target.
    pub xptxas: Vec<String>,
    /// `-split-compile`.
    pub split_compile: Option<i32>,
    /// `-split-compile-extended`.
    pub split_compile_extended: Option<i32>,
    /// `-emit-ptx`: the link's output is libnvvm's PTX (no ptxas, no merge).
    pub emit_ptx: bool,
    /// `-Ofast-compile` (`max`, `mid`, `min`; `0` or none: off).
    pub fast_compile: Option<String>,
    /// `-nvvm-latest`.
    pub nvvm_latest: bool,
    /// `-v2`: libnvvm's progress lines are printed and ptxas runs with `-v2`.
    pub verbose2: bool,
}

impl LtoOptions {
    /// Options with `-nvvmpath` alone.
    pub fn new(nvvmpath: PathBuf) -> LtoOptions {
        LtoOptions {
            nvvmpath,
            maxrregcount: None,
            xnvvm: Vec::new(),
            xptxas: Vec::new(),
            split_compile: None,
            split_compile_extended: None,
            emit_ptx: false,
            fast_compile: None,
            nvvm_latest: false,
            verbose2: false,
        }
    }

    /// The `-Ofast-compile` level when it is on (not `0`).
    pub fn fast_compile_level(&self) -> Option<&str> {
        self.fast_compile.as_deref().filter(|l| *l != "0")
    }

    /// The split-compile option libnvvm gets (`-split-compile=N` or
    /// `-split-compile-extended=N`; a thread count of 1 means none), and the info nvlink
    /// prints about it when it compiles (observed): both asked for, the extended one is used.
    /// With `-emit-ptx` the extended one is not (its PTX would be several modules) and
    /// `-split-compile` is, with the extended one's count when it alone is given (nvlink
    /// says so with its options: [`LtoOptions::emit_ptx_info`]).
    pub fn nvvm_split(&self) -> (Option<String>, Option<&'static str>) {
        let plain = self.split_compile.filter(|&n| n != 1);
        let extended = self.split_compile_extended.filter(|&n| n != 1);
        match (plain, extended) {
            (_, Some(n)) if self.emit_ptx => {
                (Some(format!("-split-compile={}", plain.unwrap_or(n))), None)
            }
            (_, Some(n)) => (
                Some(format!("-split-compile-extended={n}")),
                plain.map(|_| "Incompatible options '-split-compile' and '-split-compile-extended', using '-split-compile-extended'"),
            ),
            (Some(n), None) => (Some(format!("-split-compile={n}")), None),
            (None, None) => (None, None),
        }
    }

    /// What nvlink says about `-emit-ptx` with `-split-compile-extended` while it reads its
    /// options (before loading libnvvm: observed).
    pub fn emit_ptx_info(&self) -> Option<&'static str> {
        (self.emit_ptx && self.split_compile_extended.is_some_and(|n| n != 1)).then_some(
            "Incompatible options '-emit-ptx' and '-split-compile-extended', using '-split-compile'",
        )
    }
}

/// The four cicc options nvlink compares across LTO-IR modules (fatbin entry spelling), with
/// libnvvm's spelling and the name nvlink's mismatch message uses; in nvlink's checking order.
const CICC_OPTIONS: [(&str, &str, &str); 4] = [
    ("-ftz", "-ftz", "-ftz"),
    ("-prec_div", "-prec-div", "-prec-div"),
    ("-prec_sqrt", "-prec-sqrt", "-prec-sqrt"),
    ("-fmad", "-fma", "-fmad"),
];

/// The floating-point options an LTO-IR module was compiled with (its fatbin entry's
/// options), in `CICC_OPTIONS` order; `None` where the entry does not say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CiccOptions(pub [Option<String>; 4]);

impl Default for CiccOptions {
    /// What libnvvm is told when no module says (only NVVM IR files): nvcc's defaults
    /// (observed: `-ftz=0 -prec-div=1 -prec-sqrt=1 -fma=1`).
    fn default() -> Self {
        CiccOptions(["0", "1", "1", "1"].map(|v| Some(v.to_string())))
    }
}

impl CiccOptions {
    /// Reads a fatbin entry's options string (`-ftz=1 -prec_div=0 -prec_sqrt=0 -fmad=1`).
    pub fn parse(options: &[u8]) -> CiccOptions {
        let text = String::from_utf8_lossy(options);
        let mut out: [Option<String>; 4] = Default::default();
        for word in text.split_ascii_whitespace() {
            let Some((name, value)) = word.split_once('=') else {
                continue;
            };
            if let Some(i) = CICC_OPTIONS.iter().position(|(n, _, _)| *n == name) {
                out[i] = Some(value.to_string());
            }
        }
        CiccOptions(out)
    }

    /// The first option whose value differs from `other`'s, by nvlink's name (`-ftz`,
    /// `-prec-div`, `-prec-sqrt`, `-fmad`): nvlink's fatal `Cicc option values for '%s' do
    /// not match`.
    pub fn mismatch(&self, other: &CiccOptions) -> Option<&'static str> {
        (0..4)
            .find(|&i| self.0[i] != other.0[i])
            .map(|i| CICC_OPTIONS[i].2)
    }

    /// In libnvvm's spelling (`-ftz=0 -prec-div=1 -prec-sqrt=1 -fma=1`), as nvlink appends
    /// them after `-Xnvvm`'s options.
    pub fn nvvm_options(&self) -> Vec<String> {
        self.0
            .iter()
            .zip(CICC_OPTIONS)
            .filter_map(|(v, (_, nvvm, _))| v.as_ref().map(|v| format!("{nvvm}={v}")))
            .collect()
    }
}

/// Whether an LTO-IR module's fatbin entry options (`-generate-line-info -ftz=0 ...`) say it
/// was compiled with `-lineinfo`.
pub fn generates_line_info(options: &[u8]) -> bool {
    options
        .split(|b| b.is_ascii_whitespace())
        .any(|w| w == b"-generate-line-info")
}

/// The register cap an LTO-IR module was compiled with (`nvcc -dlto -maxrregcount=N` writes
/// `-maxreg N` into the fatbin entry's options), `None` when the entry does not say.
pub fn module_maxreg(options: &[u8]) -> Option<u32> {
    let text = String::from_utf8_lossy(options);
    let mut words = text.split_ascii_whitespace();
    let mut found = None;
    while let Some(word) = words.next() {
        if word == "-maxreg" {
            found = words.next().and_then(|v| v.parse().ok());
        }
    }
    found
}

/// What the modules' register caps ([`module_maxreg`]) make of a link without its own
/// `-maxrregcount` (observed, nvlink 13.5): modules that name different caps are refused
/// (`Cicc option values for '-maxrregcount' do not match`, checked over every module before
/// the floating-point options); one cap named by some modules but not others is applied to
/// the whole program with an info; one cap named by all is applied silently. NVVM IR files
/// (no entry options) do not count. A link's own `-maxrregcount` overrides the modules' caps
/// and silences both messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModuleMaxreg {
    /// No module names a cap.
    None,
    /// Every module with entry options names this cap.
    All(u32),
    /// Some modules name this cap, others none: nvlink's info.
    Some(u32),
    /// Two modules name different caps: nvlink's fatal.
    Mismatch,
}

impl ModuleMaxreg {
    /// From the entry options of every module that has them, in input order.
    pub fn of<'a>(options: impl IntoIterator<Item = &'a [u8]>) -> ModuleMaxreg {
        let (mut cap, mut unnamed) = (None, false);
        for caps in options.into_iter().map(module_maxreg) {
            match (caps, cap) {
                (None, _) => unnamed = true,
                (Some(n), None) => cap = Some(n),
                (Some(n), Some(first)) if n != first => return ModuleMaxreg::Mismatch,
                _ => {}
            }
        }
        match cap {
            None => ModuleMaxreg::None,
            Some(n) if unnamed => ModuleMaxreg::Some(n),
            Some(n) => ModuleMaxreg::All(n),
        }
    }
}

/// The host-reference lists libnvvm is told about (nvlink's `-host-ref-*` options), each
/// already joined.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostRefOptions {
    /// `ek`, `ik`, `ec`, `ic`, `eg`, `ig`, in that order.
    pub lists: [String; 6],
}

/// The option names, in [`HostRefOptions::lists`] order.
const HOST_REF_NAMES: [&str; 6] = ["ek", "ik", "ec", "ic", "eg", "ig"];

impl HostRefOptions {
    /// From `-kernels-used` and `-variables-used`: each name as `*name*`.
    pub fn from_used(kernels: &[String], variables: &[String]) -> HostRefOptions {
        let join = |names: &[String]| {
            names
                .iter()
                .map(|n| format!("*{n}*"))
                .collect::<Vec<_>>()
                .join(",")
        };
        let (k, v) = (join(kernels), join(variables));
        HostRefOptions {
            lists: [k.clone(), k, v.clone(), v.clone(), v.clone(), v],
        }
    }

    /// From the host objects' lists, in input order (`true`: a system library's object):
    /// nothing unless some user object lists something.
    pub fn from_objects(objects: &[(bool, crate::input::host::HostReferences<'_>)]) -> Self {
        let any_user = objects
            .iter()
            .any(|(system, r)| !system && (0..6).any(|i| r.patterns(i).next().is_some()));
        let mut out = HostRefOptions::default();
        if !any_user {
            return out;
        }
        for (i, list) in out.lists.iter_mut().enumerate() {
            let patterns: Vec<String> = objects
                .iter()
                .flat_map(|(_, r)| r.patterns(i))
                .map(|p| String::from_utf8_lossy(p).into_owned())
                .collect();
            *list = patterns.into_iter().rev().collect::<Vec<_>>().join(",");
        }
        out
    }
}

/// What decides libnvvm's options.
#[derive(Clone, Debug)]
pub struct NvvmOptionInputs<'a> {
    /// The target.
    pub target: SmArch,
    /// `-maxrregcount`.
    pub maxrregcount: Option<u32>,
    /// Device code other than LTO-IR is linked (`--device-c`).
    pub partial: bool,
    /// Partial LTO is forced (`--force-device-c`): `-r`, or code not built for LTO from an
    /// input other than libcudadevrt.
    pub force_partial: bool,
    /// `-g`.
    pub debug: bool,
    /// Host information is used (not `-ignore-host-info`).
    pub host_info: bool,
    /// The host references.
    pub host_refs: &'a HostRefOptions,
    /// The split-compile option ([`LtoOptions::nvvm_split`]).
    pub split: Option<&'a str>,
    /// `-Xnvvm`'s options.
    pub xnvvm: &'a [String],
    /// The modules' floating-point options (appended, after `-Xnvvm`'s, only with `-Xnvvm`).
    pub cicc: &'a CiccOptions,
    /// `-Ofast-compile`'s level, when on.
    pub fast_compile: Option<&'a str>,
    /// `-nvvm-latest`.
    pub nvvm_latest: bool,
}

/// libnvvm's options, as nvlink builds them.
pub fn nvvm_options(o: &NvvmOptionInputs<'_>) -> Vec<String> {
    let arch = o.target.to_string().replacen("sm_", "compute_", 1);
    let mut v = vec![format!("-arch={arch}"), "-link-lto".to_string()];
    if let Some(split) = o.split {
        v.push(split.to_string());
    }
    if let Some(level) = o.fast_compile {
        v.push(format!("-Ofast-compile={level}"));
    }
    if let Some(n) = o.maxrregcount {
        v.push(format!("-maxreg={n}"));
    }
    if o.partial || o.force_partial {
        v.push("--device-c".into());
    }
    if o.force_partial {
        v.push("--force-device-c".into());
    }
    if o.debug {
        v.push("-g".into());
        v.push("-opt=0".into());
    }
    if !o.force_partial && o.host_info {
        v.push("-has-global-host-info".into());
        for (name, list) in HOST_REF_NAMES.iter().zip(&o.host_refs.lists) {
            if !list.is_empty() {
                v.push(format!("-host-ref-{name}={list}"));
            }
        }
    }
    if !o.xnvvm.is_empty() {
        v.extend(o.xnvvm.iter().cloned());
        v.extend(o.cicc.nvvm_options());
    }
    if o.nvvm_latest {
        v.push("-nvvm-version=nvvm-latest".into());
    }
    v
}

/// ptxas's arguments for libnvvm's PTX (before the input file): `whole` compiles the whole
/// program (no `-c`).
///
/// `-Xptxas`'s words come after the target and before `-maxrregcount` and `-split-compile`
/// (observed through ptxas's last-one-wins: `-Xptxas -arch=sm_100` overrides the target,
/// while `-maxrregcount` and `-split-compile` override `-Xptxas`'s); `-split-compile 1` and
/// `-split-compile-extended` never reach ptxas.
pub fn ptxas_arguments(target: SmArch, debug: bool, lto: &LtoOptions, whole: bool) -> Vec<String> {
    let mut v = Vec::new();
    // (Observed in the image's ptxas record: `-v2  -no-bb-merge  -ret-end  -g ...`.)
    if lto.verbose2 {
        v.push("-v2".into());
    }
    if debug {
        v.extend(["-no-bb-merge", "-ret-end", "-g"].map(String::from));
    }
    v.extend(["-arch".into(), target.to_string(), "-m".into(), "64".into()]);
    if !whole {
        v.push("-c".into());
    }
    v.extend(lto.xptxas.iter().cloned());
    if let Some(n) = lto.maxrregcount {
        v.push("-maxrregcount".to_string());
        v.push(n.to_string());
    }
    if let Some(n) = lto.split_compile.filter(|&n| n != 1) {
        v.push("-split-compile".to_string());
        v.push(n.to_string());
    }
    if let Some(level) = lto.fast_compile_level() {
        v.push("-Ofc".to_string());
        v.push(level.to_string());
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_register_caps_as_nvlink_reads_them() {
        // Entry options as `nvcc -dlto -dc [-maxrregcount=N] [-lineinfo]` writes them.
        let m32: &[u8] = b"-maxreg 32 -ftz=0 -prec_div=1 -prec_sqrt=1 -fmad=1";
        let m48: &[u8] = b"-maxreg 48 -generate-line-info -ftz=0 -prec_div=1 -prec_sqrt=1 -fmad=1";
        let none: &[u8] = b"-ftz=0 -prec_div=1 -prec_sqrt=1 -fmad=1";
        assert_eq!(module_maxreg(m48), Some(48));
        assert_eq!(module_maxreg(none), None);
        assert_eq!(ModuleMaxreg::of([none, none]), ModuleMaxreg::None);
        assert_eq!(ModuleMaxreg::of([m32, m32]), ModuleMaxreg::All(32));
        assert_eq!(ModuleMaxreg::of([none, m32]), ModuleMaxreg::Some(32));
        assert_eq!(ModuleMaxreg::of([m48, none]), ModuleMaxreg::Some(48));
        assert_eq!(ModuleMaxreg::of([none, m32, m48]), ModuleMaxreg::Mismatch);
    }

    fn opts(partial: bool, force: bool, refs: &HostRefOptions) -> Vec<String> {
        nvvm_options(&NvvmOptionInputs {
            target: SmArch::parse("sm_90").unwrap(),
            maxrregcount: None,
            partial,
            force_partial: force,
            debug: false,
            host_info: true,
            host_refs: refs,
            split: None,
            xnvvm: &[],
            cicc: &CiccOptions::default(),
            fast_compile: None,
            nvvm_latest: false,
        })
    }

    #[test]
    fn cicc_options_compare_and_spell_like_nvlink() {
        let plain = CiccOptions::parse(b"-ftz=0 -prec_div=1 -prec_sqrt=1 -fmad=1 ");
        assert_eq!(plain, CiccOptions::default());
        let fast = CiccOptions::parse(b"-ftz=1 -prec_div=0 -prec_sqrt=0 -fmad=1 ");
        assert_eq!(plain.mismatch(&fast), Some("-ftz"));
        let no_fma = CiccOptions::parse(b"-ftz=0 -prec_div=1 -prec_sqrt=0 -fmad=0");
        assert_eq!(plain.mismatch(&no_fma), Some("-prec-sqrt"));
        assert_eq!(
            fast.nvvm_options(),
            ["-ftz=1", "-prec-div=0", "-prec-sqrt=0", "-fma=1"]
        );
    }

    #[test]
    fn split_compile_options() {
        let mut o = LtoOptions::new(PathBuf::new());
        assert_eq!(o.nvvm_split(), (None, None));
        o.split_compile = Some(1);
        assert_eq!(o.nvvm_split(), (None, None));
        o.split_compile = Some(0);
        assert_eq!(o.nvvm_split(), (Some("-split-compile=0".into()), None));
        o.split_compile_extended = Some(3);
        let (split, info) = o.nvvm_split();
        assert_eq!(split.as_deref(), Some("-split-compile-extended=3"));
        assert!(info.is_some_and(|i| i.ends_with("using '-split-compile-extended'")));
        o.emit_ptx = true;
        assert_eq!(o.nvvm_split(), (Some("-split-compile=0".into()), None));
        assert!(o.emit_ptx_info().is_some_and(|i| i.contains("'-emit-ptx'")));
        o.emit_ptx = false;
        let args = ptxas_arguments(SmArch::parse("sm_90").unwrap(), false, &o, true);
        assert_eq!(args, ["-arch", "sm_90", "-m", "64", "-split-compile", "0"]);
    }

    #[test]
    fn whole_program_options_are_nvlinks() {
        let none = HostRefOptions::default();
        assert_eq!(
            opts(true, false, &none),
            [
                "-arch=compute_90",
                "-link-lto",
                "--device-c",
                "-has-global-host-info"
            ]
        );
        assert_eq!(
            opts(true, true, &none),
            [
                "-arch=compute_90",
                "-link-lto",
                "--device-c",
                "--force-device-c"
            ]
        );
        let used = HostRefOptions::from_used(&["_Z1kPi".into()], &[]);
        assert_eq!(
            opts(true, false, &used)[4..],
            ["-host-ref-ek=*_Z1kPi*", "-host-ref-ik=*_Z1kPi*"]
        );
    }

    #[test]
    fn object_lists_are_reversed_and_need_a_user_entry() {
        use crate::input::host::HostReferences;
        let sys = HostReferences {
            lists: [b"\0", b"a*\0b*\0", b"", b"", b"", b""],
        };
        assert_eq!(
            HostRefOptions::from_objects(&[(true, sys)]),
            HostRefOptions::default()
        );
        let user = HostReferences {
            lists: [b"_Z1k*\0", b"", b"", b"", b"", b""],
        };
        let r = HostRefOptions::from_objects(&[(false, user), (true, sys)]);
        assert_eq!(r.lists[0], "_Z1k*");
        assert_eq!(r.lists[1], "b*,a*");
    }
}

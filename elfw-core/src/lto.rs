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
//!   plain link.

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
}

/// libnvvm's options, as nvlink builds them.
pub fn nvvm_options(o: &NvvmOptionInputs<'_>) -> Vec<String> {
    let arch = o.target.to_string().replacen("sm_", "compute_", 1);
    let mut v = vec![format!("-arch={arch}"), "-link-lto".to_string()];
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
    v
}

/// ptxas's arguments for libnvvm's PTX (before the input file): `whole` compiles the whole
/// program (no `-c`).
pub fn ptxas_arguments(
    target: SmArch,
    debug: bool,
    maxrregcount: Option<u32>,
    whole: bool,
) -> Vec<String> {
    let mut v = Vec::new();
    if let Some(n) = maxrregcount {
        v.push("-maxrregcount".to_string());
        v.push(n.to_string());
    }
    if debug {
        v.extend(["-no-bb-merge", "-ret-end", "-g"].map(String::from));
    }
    v.extend(["-arch".into(), target.to_string(), "-m".into(), "64".into()]);
    if !whole {
        v.push("-c".into());
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(partial: bool, force: bool, refs: &HostRefOptions) -> Vec<String> {
        nvvm_options(&NvvmOptionInputs {
            target: SmArch::parse("sm_90").unwrap(),
            maxrregcount: None,
            partial,
            force_partial: force,
            debug: false,
            host_info: true,
            host_refs: refs,
        })
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

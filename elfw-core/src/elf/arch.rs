//! Device architectures: `sm_XX` names with their 'a'/'f' variants, the CUDA `e_flags` word,
//! and the compatibility rules nvlink 13.5 applies between an input and the `-arch` target.
//!
//! What a cubin says about its architecture (checked with ptxas 13.5.37 on every target from
//! sm_75 to sm_121, including 90a, 100a/100f, 103a/103f, 110f, 120a/120f, 121a/121f):
//! - `e_flags = 0x0600_0000 | sm << 8 | low`; bits 8..24 hold the SM number. The low byte is
//!   0x04 up to sm_90 and 0x02 from sm_100. 'a' and 'f' builds write the same `e_flags` as the
//!   plain SM.
//! - The 'a' variant is recorded only in `.nv.compat` (EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET = 1;
//!   cuobjdump prints it as `EF_CUDA_ACCELERATORS`).
//! - An 'f' build is byte-identical to the plain SM build except for the ptxas command line in
//!   `.note.nv.tkinfo` (`-arch sm_100f`); nvlink treats it exactly as the plain SM. Inside a
//!   fatbin, entry flag bit 20 marks 'a' and bit 21 marks 'f'.
//! - The virtual SM (PTX `.target`) is in `.note.nv.cuinfo`, not in `e_flags`.

use std::fmt;

/// The 'a' / 'f' suffix of an architecture name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ArchVariant {
    /// Plain `sm_XX`.
    #[default]
    Plain,
    /// `sm_XXa`: architecture-specific ("accelerated") features; links only to the same 'a' target.
    Accelerated,
    /// `sm_XXf`: family-specific features; nvlink treats inputs as the plain SM.
    Family,
}

/// An `sm_XX[a|f]` architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SmArch {
    /// The SM number, e.g. 90 or 100.
    pub sm: u32,
    /// The suffix.
    pub variant: ArchVariant,
}

impl SmArch {
    /// A plain `sm_<sm>`.
    pub const fn plain(sm: u32) -> SmArch {
        SmArch {
            sm,
            variant: ArchVariant::Plain,
        }
    }

    /// Parses `sm_90`, `sm_90a`, `sm_100f`, `compute_90` (as sm_90) or a bare `90a`.
    pub fn parse(name: &str) -> Option<SmArch> {
        let rest = name
            .strip_prefix("sm_")
            .or_else(|| name.strip_prefix("compute_"))
            .or_else(|| name.strip_prefix("lto_"))
            .unwrap_or(name);
        let (digits, variant) = match rest.as_bytes().last()? {
            b'a' => (&rest[..rest.len() - 1], ArchVariant::Accelerated),
            b'f' => (&rest[..rest.len() - 1], ArchVariant::Family),
            _ => (rest, ArchVariant::Plain),
        };
        if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(SmArch {
            sm: digits.parse().ok()?,
            variant,
        })
    }

    /// The major version (`sm / 10`): 8 for sm_86, 10 for sm_103, 12 for sm_121.
    pub fn major(&self) -> u32 {
        self.sm / 10
    }

    /// Whether nvlink links a cubin built for `self` into an image for `target`.
    ///
    /// Observed with nvlink 13.5.37 (`nvlink -arch sm_T x.cubin`):
    /// - same major and input minor <= target minor: accepted (80 -> 86/89, 86 -> 87,
    ///   100 -> 103, 120 -> 121); a different major is rejected (89 -> 90, 90 -> 100, 100 -> 110);
    /// - an 'a' input only for the identical 'a' target (100a -> 103a rejected, with the
    ///   "arch does not match" message; 90a -> 90 or 100a -> 100f rejected with "cannot link
    ///   accelerated arch to non-accelerated");
    /// - plain and 'f' inputs go into 'a' and 'f' targets of a compatible SM (90 -> 90a,
    ///   100 -> 103f, 100f -> 103).
    pub fn cubin_links_into(&self, target: SmArch) -> Result<(), ArchMismatch> {
        if self.variant == ArchVariant::Accelerated {
            if target.variant != ArchVariant::Accelerated {
                return Err(ArchMismatch::AcceleratedToNonAccelerated);
            }
            if target.sm != self.sm {
                return Err(ArchMismatch::Incompatible);
            }
            return Ok(());
        }
        if self.major() == target.major() && self.sm <= target.sm {
            Ok(())
        } else {
            Err(ArchMismatch::Incompatible)
        }
    }

    /// Whether PTX for `.target self` can be compiled for `target` (ptxas's rule, which nvlink
    /// applies to fatbin PTX entries): plain PTX to any later SM; 'f' PTX within its family
    /// (same major, later minor); 'a' PTX only to the identical 'a' target.
    pub fn ptx_compiles_for(&self, target: SmArch) -> bool {
        match self.variant {
            ArchVariant::Plain => self.sm <= target.sm,
            ArchVariant::Family => self.major() == target.major() && self.sm <= target.sm,
            ArchVariant::Accelerated => *self == target,
        }
    }
}

impl fmt::Display for SmArch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suffix = match self.variant {
            ArchVariant::Plain => "",
            ArchVariant::Accelerated => "a",
            ArchVariant::Family => "f",
        };
        write!(f, "sm_{}{}", self.sm, suffix)
    }
}

/// Why a cubin does not fit the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchMismatch {
    /// nvlink: `Input file '%s' arch does not match target '%s'`.
    Incompatible,
    /// nvlink: `cannot link accelerated arch to non-accelerated`.
    AcceleratedToNonAccelerated,
}

/// The CUDA `e_flags` word of a device ELF (ABI version 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceFlags(pub u32);

impl DeviceFlags {
    /// The value every CUDA 12/13 cubin carries in bits 24..32. nvlink 13.5 refuses any other
    /// value with `must be recompiled with toolkit >= Cuda 12.0`.
    pub const FORMAT_V8: u32 = 0x06;

    /// The SM number (bits 8..24).
    pub fn sm(&self) -> u32 {
        (self.0 >> 8) & 0xffff
    }
    /// The low byte: 0x04 up to sm_90, 0x02 from sm_100 (not decoded further).
    pub fn low_bits(&self) -> u8 {
        self.0 as u8
    }
    /// Bits 24..32: since CUDA 12 the section index of `.note.nv.cuinfo` (0xff when larger),
    /// which is [`Self::FORMAT_V8`] (6) for a cubin without debug sections.
    pub fn format(&self) -> u32 {
        self.0 >> 24
    }
    /// Whether the low byte has bit 0x02, which every ptxas 13.5 cubin from sm_100 on carries.
    /// nvlink warns `Output is limited to run on SM Arch '%s' only due to limitations in input
    /// file %s` when an sm_100+ link takes an input without it.
    pub fn family_portable(&self) -> bool {
        self.0 & 0x02 != 0
    }
    /// Builds the word ptxas 13.5 writes for `sm`.
    pub fn for_sm(sm: u32) -> DeviceFlags {
        let low = if sm >= 100 { 0x02 } else { 0x04 };
        DeviceFlags(Self::FORMAT_V8 << 24 | (sm & 0xffff) << 8 | low)
    }
}

/// Toolkit versions as `.note.nv.cuinfo` stores them: `major * 10 + minor` (0x87 = 135 = 13.5).
pub const TOOLKIT_VERSION: u32 = 135;
/// The oldest toolkit nvlink 13.5 accepts input from (12.0).
pub const OLDEST_TOOLKIT_VERSION: u32 = 120;
/// The `EI_ABIVERSION` nvlink 13.5 requires of device ELF input.
pub const DEVICE_ABI_VERSION: u8 = 8;

#[cfg(test)]
mod tests {
    use super::*;

    fn a(s: &str) -> SmArch {
        SmArch::parse(s).unwrap()
    }

    #[test]
    fn names_round_trip() {
        for n in ["sm_75", "sm_90a", "sm_100f", "sm_121a"] {
            assert_eq!(a(n).to_string(), n);
        }
        assert_eq!(a("compute_90"), SmArch::plain(90));
        assert_eq!(SmArch::parse("sm_"), None);
        assert_eq!(SmArch::parse("sm_9x"), None);
        assert_eq!(SmArch::parse(""), None);
    }

    /// Pairs from running nvlink 13.5.37 on ptxas-built cubins (see the module comment).
    #[test]
    fn nvlink_accepts_and_refuses() {
        let ok = [
            ("90", "90"),
            ("90", "90a"),
            ("80", "86"),
            ("80", "89"),
            ("86", "87"),
            ("88", "89"),
            ("100", "100a"),
            ("100a", "100a"),
            ("100f", "100"),
            ("100f", "103"),
            ("100f", "103f"),
            ("100", "103"),
            ("100", "103f"),
            ("120f", "121"),
            ("120", "121"),
        ];
        for (i, t) in ok {
            assert_eq!(a(i).cubin_links_into(a(t)), Ok(()), "{i} -> {t}");
        }
        let bad = [
            ("90", "89", ArchMismatch::Incompatible),
            ("89", "90", ArchMismatch::Incompatible),
            ("75", "80", ArchMismatch::Incompatible),
            ("90a", "90", ArchMismatch::AcceleratedToNonAccelerated),
            ("100a", "100", ArchMismatch::AcceleratedToNonAccelerated),
            ("100a", "100f", ArchMismatch::AcceleratedToNonAccelerated),
            ("103", "100", ArchMismatch::Incompatible),
            ("103f", "100f", ArchMismatch::Incompatible),
            ("100a", "103a", ArchMismatch::Incompatible),
            ("121f", "120", ArchMismatch::Incompatible),
            ("100f", "110f", ArchMismatch::Incompatible),
            ("90", "100", ArchMismatch::Incompatible),
            ("100", "120", ArchMismatch::Incompatible),
        ];
        for (i, t, e) in bad {
            assert_eq!(a(i).cubin_links_into(a(t)), Err(e), "{i} -> {t}");
        }
    }

    /// e_flags values read from ptxas 13.5.37 output.
    #[test]
    fn flags_of_real_cubins() {
        for (sm, flags) in [
            (75, 0x6004b04),
            (80, 0x6005004),
            (86, 0x6005604),
            (87, 0x6005704),
            (88, 0x6005804),
            (89, 0x6005904),
            (90, 0x6005a04),
            (100, 0x6006402),
            (103, 0x6006702),
            (107, 0x6006b02),
            (110, 0x6006e02),
            (120, 0x6007802),
            (121, 0x6007902),
        ] {
            assert_eq!(DeviceFlags(flags).sm(), sm);
            assert_eq!(DeviceFlags::for_sm(sm).0, flags);
        }
    }
}

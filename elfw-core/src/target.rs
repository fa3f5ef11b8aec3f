//! Link targets: the `sm_XX` names nvlink 13.5 accepts and how they shape an image.
//!
//! Observed (nvlink 13.5.37): `e_flags = 0x0600_0000 | sm << 8 | low`, where `low` is 0x04 up to
//! sm_90 and 0x02 from sm_100; the `a`/`f` variants share the base SM's `e_flags` (the variant
//! lives in `.nv.compat`).

use std::fmt;

/// The architecture-specific variant of a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Plain `sm_XX`: code runs on this and later GPUs.
    Base,
    /// `sm_XXa`: architecture-specific features, this exact GPU only.
    Arch,
    /// `sm_XXf`: family-specific features.
    Family,
}

/// What kind of name selected the target (`-arch=sm_90`, `compute_90`, `lto_90`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArchKind {
    /// `sm_XX`: real code.
    Sm,
    /// `compute_XX`: virtual architecture.
    Compute,
    /// `lto_XX`: link-time optimisation.
    Lto,
}

/// A link target such as `sm_90a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// The SM number (75, 80, ..., 121).
    pub sm: u32,
    /// The variant suffix.
    pub variant: Variant,
    /// The name kind the user gave.
    pub kind: ArchKind,
}

/// SM numbers nvlink 13.5 accepts, with the variants each allows (from `nvlink --help`).
const ACCEPTED: &[(u32, &[Variant])] = &[
    (75, &[Variant::Base]),
    (80, &[Variant::Base]),
    (86, &[Variant::Base]),
    (87, &[Variant::Base]),
    (88, &[Variant::Base]),
    (89, &[Variant::Base]),
    (90, &[Variant::Base, Variant::Arch]),
    (100, &[Variant::Base, Variant::Arch, Variant::Family]),
    (103, &[Variant::Base, Variant::Arch, Variant::Family]),
    (107, &[Variant::Base, Variant::Arch, Variant::Family]),
    (110, &[Variant::Base, Variant::Arch, Variant::Family]),
    (120, &[Variant::Base, Variant::Arch, Variant::Family]),
    (121, &[Variant::Base, Variant::Arch, Variant::Family]),
];

impl Target {
    /// Parses an `-arch` value (`sm_90a`, `compute_100f`, `lto_75`). Returns `None` for names
    /// nvlink 13.5 does not list.
    pub fn parse(name: &str) -> Option<Target> {
        let (kind, rest) = if let Some(r) = name.strip_prefix("sm_") {
            (ArchKind::Sm, r)
        } else if let Some(r) = name.strip_prefix("compute_") {
            (ArchKind::Compute, r)
        } else if let Some(r) = name.strip_prefix("lto_") {
            (ArchKind::Lto, r)
        } else {
            return None;
        };
        let (digits, variant) = match rest.as_bytes().last()? {
            b'a' => (&rest[..rest.len() - 1], Variant::Arch),
            b'f' => (&rest[..rest.len() - 1], Variant::Family),
            _ => (rest, Variant::Base),
        };
        if digits.is_empty()
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return None;
        }
        let sm: u32 = digits.parse().ok()?;
        let (_, variants) = ACCEPTED.iter().find(|(s, _)| *s == sm)?;
        variants
            .contains(&variant)
            .then_some(Target { sm, variant, kind })
    }

    /// A plain `sm_XX` target.
    pub fn sm(sm: u32) -> Target {
        Target {
            sm,
            variant: Variant::Base,
            kind: ArchKind::Sm,
        }
    }

    /// Whether this target uses the Blackwell-era ("Mercury") image layout (sm_100 and later).
    pub fn is_mercury(&self) -> bool {
        self.sm >= 100
    }

    /// The `e_flags` nvlink writes for this target.
    pub fn e_flags(&self) -> u32 {
        let low = if self.is_mercury() { 0x02 } else { 0x04 };
        0x0600_0000 | (self.sm << 8) | low
    }

    /// The SM number encoded in device `e_flags`, if the flags look like a CUDA device ELF's.
    pub fn sm_from_e_flags(flags: u32) -> u32 {
        (flags >> 8) & 0xff
    }

    /// The `sm_XX` name (with its variant suffix), as nvlink prints it.
    pub fn sm_name(&self) -> String {
        format!("sm_{}{}", self.sm, self.suffix())
    }

    /// The same target as the input reader's [`crate::elf::SmArch`].
    pub fn sm_arch(&self) -> crate::elf::SmArch {
        use crate::elf::ArchVariant;
        let variant = match self.variant {
            Variant::Base => ArchVariant::Plain,
            Variant::Arch => ArchVariant::Accelerated,
            Variant::Family => ArchVariant::Family,
        };
        crate::elf::SmArch {
            sm: self.sm,
            variant,
        }
    }

    fn suffix(&self) -> &'static str {
        match self.variant {
            Variant::Base => "",
            Variant::Arch => "a",
            Variant::Family => "f",
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = match self.kind {
            ArchKind::Sm => "sm",
            ArchKind::Compute => "compute",
            ArchKind::Lto => "lto",
        };
        write!(f, "{prefix}_{}{}", self.sm, self.suffix())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_listed_name() {
        for name in [
            "sm_75",
            "sm_90a",
            "sm_100f",
            "sm_121a",
            "compute_89",
            "lto_110f",
            "sm_107",
        ] {
            let t = Target::parse(name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(t.to_string(), name);
        }
    }

    #[test]
    fn refuses_names_nvlink_does_not_list() {
        for name in [
            "sm_70", "sm_89a", "sm_101", "sm_75f", "sm_", "sm_090", "gfx90a", "sm_90x",
        ] {
            assert!(Target::parse(name).is_none(), "{name}");
        }
    }

    #[test]
    fn e_flags_match_ptxas_output() {
        // Values read from cubins ptxas 13.5 wrote for each target.
        let cases = [
            ("sm_75", 0x0600_4b04),
            ("sm_80", 0x0600_5004),
            ("sm_89", 0x0600_5904),
            ("sm_90a", 0x0600_5a04),
            ("sm_100f", 0x0600_6402),
            ("sm_103", 0x0600_6702),
            ("sm_110", 0x0600_6e02),
            ("sm_121", 0x0600_7902),
        ];
        for (name, flags) in cases {
            assert_eq!(Target::parse(name).unwrap().e_flags(), flags, "{name}");
        }
    }
}

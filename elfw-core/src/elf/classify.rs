//! How nvlink reclassifies input sections into CUDA memory spaces before merging
//! (seed 04, "Section Classification" and "Section Type Filter Bitmasks").

use super::consts::*;

/// The reclassified type of an input section with raw `sh_type` and `name` (seed 04,
/// "Complete Dispatch Summary"):
/// - NOBITS `.nv.global*` -> global, `.nv.shared.*` -> shared (this prefix is tested first, so
///   `.nv.shared.reserved.*` stays shared, as nvlink does), `.nv.local.*` -> local;
/// - PROGBITS or generic-constant `.nv.constant<N>*` -> constant bank N (`strtol` of the digits
///   after the prefix: no digits gives bank 0); PROGBITS `.nv.global.init*` -> global.init;
/// - everything else keeps its type.
pub fn reclassify(sh_type: u32, name: &[u8]) -> u32 {
    match sh_type {
        SHT_NOBITS => {
            if name.starts_with(b".nv.global") {
                SHT_CUDA_GLOBAL
            } else if name.starts_with(b".nv.shared.") {
                SHT_CUDA_SHARED
            } else if name.starts_with(b".nv.shared.reserved.") {
                // Unreachable by prefix order; kept to mirror seed 04's table.
                SHT_CUDA_SHARED_RESERVED
            } else if name.starts_with(b".nv.local.") {
                SHT_CUDA_LOCAL
            } else {
                SHT_NOBITS
            }
        }
        SHT_PROGBITS if name.starts_with(b".nv.constant") => {
            SHT_CUDA_CONSTANT0.wrapping_add(constant_bank(name).unwrap_or(0))
        }
        SHT_PROGBITS if name.starts_with(b".nv.global.init") => SHT_CUDA_GLOBAL_INIT,
        SHT_CUDA_CONSTANT => SHT_CUDA_CONSTANT0.wrapping_add(constant_bank(name).unwrap_or(0)),
        t => t,
    }
}

/// The bank number of a `.nv.constant<N>[.<function>]` name, parsed the way `strtol(name + 12,
/// NULL, 10)` does (leading decimal digits; none gives 0). `None` when the name has no
/// `.nv.constant` prefix or the number does not fit.
pub fn constant_bank(name: &[u8]) -> Option<u32> {
    let rest = name.strip_prefix(b".nv.constant")?;
    let mut bank: u32 = 0;
    for &b in rest.iter().take_while(|b| b.is_ascii_digit()) {
        bank = bank.checked_mul(10)?.checked_add((b - b'0') as u32)?;
    }
    Some(bank)
}

/// Whether merge_elf's section pass creates an output section for a (reclassified) type: the
/// 0x5D05 bitmask over `sh_type - 0x70000006` (constant, global.init, uft, 0x70000010,
/// uft.entry, udt, udt.entry) or any type in the constant-bank range 0x70000064..=0x7000007E.
pub fn enters_section_pass(sh_type: u32) -> bool {
    let in_mask = sh_type
        .checked_sub(SHT_CUDA_CONSTANT)
        .filter(|&d| d <= 0xe)
        .is_some_and(|d| (0x5D05u32 >> d) & 1 == 1);
    let in_banks = sh_type
        .checked_sub(SHT_CUDA_CONSTANT0)
        .is_some_and(|d| d <= 0x1a);
    in_mask || in_banks
}

/// Whether a (reclassified) section type has no file bytes: `SHT_NOBITS`, or one of global,
/// local, shared and shared.reserved (the 0x400D bitmask over `sh_type - 0x70000007`).
/// nvlink neither copies nor bounds-checks the data of these sections.
pub fn has_no_data(sh_type: u32) -> bool {
    sh_type == SHT_NOBITS
        || sh_type
            .checked_sub(SHT_CUDA_GLOBAL)
            .filter(|&d| d <= 0xe)
            .is_some_and(|d| (0x400Du32 >> d) & 1 == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_04_dispatch_table() {
        assert_eq!(reclassify(SHT_NOBITS, b".nv.global"), SHT_CUDA_GLOBAL);
        assert_eq!(reclassify(SHT_NOBITS, b".nv.shared.k"), SHT_CUDA_SHARED);
        assert_eq!(
            reclassify(SHT_NOBITS, b".nv.shared.reserved.0"),
            SHT_CUDA_SHARED
        );
        assert_eq!(reclassify(SHT_NOBITS, b".nv.local.k"), SHT_CUDA_LOCAL);
        assert_eq!(reclassify(SHT_NOBITS, b".bss"), SHT_NOBITS);
        assert_eq!(reclassify(SHT_PROGBITS, b".nv.constant0.k"), 0x7000_0064);
        assert_eq!(reclassify(SHT_PROGBITS, b".nv.constant2"), 0x7000_0066);
        assert_eq!(reclassify(SHT_PROGBITS, b".nv.constant17"), 0x7000_0075);
        assert_eq!(reclassify(SHT_CUDA_CONSTANT, b".nv.constant3"), 0x7000_0067);
        assert_eq!(
            reclassify(SHT_PROGBITS, b".nv.global.init"),
            SHT_CUDA_GLOBAL_INIT
        );
        assert_eq!(reclassify(SHT_PROGBITS, b".text.k"), SHT_PROGBITS);
        assert_eq!(reclassify(SHT_CUDA_INFO, b".nv.info"), SHT_CUDA_INFO);
        assert_eq!(constant_bank(b".nv.constant"), Some(0));
        assert_eq!(constant_bank(b".nv.constant99999999999"), None);
    }

    #[test]
    fn bitmasks() {
        let pass: Vec<u32> = (0x7000_0006..=0x7000_0014)
            .filter(|&t| enters_section_pass(t))
            .map(|t| t - 0x7000_0000)
            .collect();
        assert_eq!(pass, [0x06, 0x08, 0x0e, 0x10, 0x11, 0x12, 0x14]);
        assert!(enters_section_pass(0x7000_0064) && enters_section_pass(0x7000_007e));
        assert!(!enters_section_pass(0x7000_007f) && !enters_section_pass(SHT_CUDA_GLOBAL));
        let nodata: Vec<u32> = (0x7000_0007..=0x7000_0015)
            .filter(|&t| has_no_data(t))
            .map(|t| t - 0x7000_0000)
            .collect();
        assert_eq!(nodata, [0x07, 0x09, 0x0a, 0x15]);
        assert!(has_no_data(SHT_NOBITS) && !has_no_data(SHT_PROGBITS));
    }
}

//! `ELECT Px, URn, PT` (`elect.sync` with the elected lane in a register): the learned table only
//! saw `ELECT Px, URZ, PT` (the lane discarded), so the register form is read here as that form
//! plus the uniform destination.
//!
//! Evidence (nvdisasm of sm_100a/sm_120a images of `elect.sync %r|%p, 0xffffffff`): `ELECT P0,
//! UR6, PT` is `0x000000000006782f` with the high body of the `URZ` form (`0x380_0000`): the
//! destination `URn` sits in lo bits 16-23 (255 = `URZ` in the table's form) and the kernel reads
//! it right after (`IMAD.U32 R0, RZ, RZ, UR6`). Everything else is checked by the table's form.

use super::{table_def_use, DefUse, Reg, RegKind};

/// `ELECT`.
pub(super) const ELECT: u64 = 0x82f;

/// The def/use of an `ELECT` body: the table's, plus `URn` when the lane register is not `URZ`.
pub(super) fn elect_def_use(lo: u64, hi: u64) -> Option<DefUse> {
    let lane = (lo >> 16) & 0xff;
    let mut du = table_def_use(lo | 0xff << 16, hi)?;
    if lane != 0xff {
        du.defs.push(Reg {
            kind: RegKind::Ur,
            num: lane as u8,
        });
        du.defs.sort_unstable();
        du.defs.dedup();
    }
    Some(du)
}

#[cfg(test)]
mod tests {
    use super::super::{def_use, Reg, RegKind};

    #[test]
    fn elect_with_a_lane_register_defines_it() {
        // ELECT P0, UR6, PT (sm_100a, `elect.sync %r|%p`)
        let du = def_use(0x0000_0000_0006_782f, 0x000f_c400_0380_0000).unwrap();
        let p0 = Reg {
            kind: RegKind::P,
            num: 0,
        };
        let ur6 = Reg {
            kind: RegKind::Ur,
            num: 6,
        };
        assert_eq!(du.defs, vec![ur6, p0]);
        assert!(du.uses.is_empty());
        // @P0 ELECT P1, URZ, PT: the table's form, unchanged.
        let du = def_use(0x0000_0000_00ff_082f, 0x000f_e200_0382_0000).unwrap();
        assert_eq!(du.defs.len(), 1);
    }
}

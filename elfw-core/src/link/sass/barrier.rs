//! `BAR.ARV id, count` (`bar.arrive` with an immediate barrier and thread count): the learned
//! table only saw the `BAR.SYNC` forms of opcode 0xb1d, so the arrive is read here.
//!
//! Evidence (nvdisasm of sm_100/sm_120 images of fresh p106's `ws_local`, inline PTX
//! `bar.arrive 8, 192;` and `bar.arrive 9, 192;`, guarded and not): `@!P0 BAR.ARV 0x9, 0xc0` is
//! lo `0x0243_0000_0000_8b1d`, high body `0x2000`; `BAR.SYNC.DEFER_BLOCKING 0x9, 0xc0` has the
//! same low word (unguarded) and high body `0x1_0000`. The thread count sits in lo bits 42-53, the
//! barrier id in bits 54-57; the instruction names no register. Every other body bit must be zero
//! (register forms of the barrier operands, `.RED`, ... stay unknown).

use super::{DefUse, Reg, RegKind, BODY_HI};

/// `BAR` (opcode of `BAR.SYNC`, `BAR.ARV`, ...).
pub(super) const BAR: u64 = 0xb1d;
/// The high body of `BAR.ARV` with an immediate id and count.
const ARRIVE_HI: u64 = 0x2000;
/// Low-word bits that must be zero in `BAR.ARV imm, imm`: the register fields (16-41) and the
/// bits above the barrier id (58-63).
const ARRIVE_LO_ZERO: u64 = 0xfc00_03ff_ffff_0000;

/// Whether `(lo, hi)` is `BAR.ARV id, count` with immediates.
pub(crate) fn is_arrive(lo: u64, hi: u64) -> bool {
    lo & 0xfff == BAR && hi & BODY_HI == ARRIVE_HI
}

/// The def/use of `BAR.ARV id, count`: no register, the guard a predicate; `None` for any other
/// body.
pub(super) fn arrive_def_use(lo: u64, hi: u64) -> Option<DefUse> {
    if !is_arrive(lo, hi) || lo & ARRIVE_LO_ZERO != 0 {
        return None;
    }
    let guard = ((lo >> 12) & 7) as u8;
    Some(DefUse {
        guard: (guard != 7).then_some(Reg {
            kind: RegKind::P,
            num: guard,
        }),
        ..DefUse::default()
    })
}

#[cfg(test)]
mod tests {
    use super::super::{def_use, Reg, RegKind};

    #[test]
    fn immediate_arrive_names_no_register() {
        // @!P0 BAR.ARV 0x9, 0xc0 (sm_100, fresh p106 `ws_local`)
        let du = def_use(0x0243_0000_0000_8b1d, 0x000f_e200_0000_2000).unwrap();
        assert!(du.defs.is_empty() && du.uses.is_empty());
        assert_eq!(
            du.guard,
            Some(Reg {
                kind: RegKind::P,
                num: 0
            })
        );
        // BAR.ARV 0x8, 0xc0, unguarded.
        let du = def_use(0x0203_0000_0000_7b1d, 0x000f_e200_0000_2000).unwrap();
        assert_eq!(du.guard, None);
        // A register field set, or another high body: unknown.
        assert!(def_use(0x0203_0000_0004_7b1d, 0x000f_e200_0000_2000).is_none());
        assert!(def_use(0x0203_0000_0000_7b1d, 0x000f_e200_0000_2800).is_none());
    }
}

//! Hand-written forms of 128-bit integer arithmetic (`unsigned __int128` multiply and add,
//! `atomicCAS` on 16 bytes): predicate carries and the 128-bit compare-and-swap the learned
//! table never saw (fresh program p110's `child_mul`, notes `s21-imad.md`).
//!
//! Each carry form is read by the table with its carry field put back to the value every learned
//! example held (`PT` for a carry-out, `!PT` for a carry-in, the `.X` bit clear where the carry-in
//! is the only thing `.X` adds), so every other body bit is still checked against the learned
//! forms; the carry predicate is then added as defined or used. Fields (high word, body bits):
//! carry-out `Pu` bits 17-19, carry-in `Pp` bits 23-25 with its negation at bit 26, `.X` bit 10
//! (nvdisasm of sm_100/sm_120 images: `IMAD.WIDE.U32 R10, P0, R13, UR7, R10` has `0x0f80000a`
//! where `IMAD.WIDE.U32 R8, R13, UR6, RZ` has `0x0f8e00ff`; `IMAD.WIDE.U32.X R16, R15, UR7, R16,
//! P1` has `0x088e0410`; `LOP3.LUT P0, RZ, R0, R5, RZ, 0xfc, P0` has `0x0000fcff` where
//! `LOP3.LUT P0, RZ, R19, R10, R6, 0xf6, !PT` has `0x0780f606`).

use super::{table_def_use, DefUse, Reg, RegKind, BODY_HI};

/// `IMAD.WIDE.U32` with a uniform second source.
pub(super) const IMAD_WIDE_UR: u64 = 0xc25;
/// `IADD` with register sources (sm_120's 64-bit add, `IADD.64`).
pub(super) const IADD: u64 = 0x235;
/// `LOP3.LUT` with register sources.
pub(super) const LOP3: u64 = 0x212;
/// `ATOMG` (global atomic).
pub(super) const ATOMG: u64 = 0x3a9;

/// Carry-out predicate field (high word).
const PU: u32 = 17;
/// Carry-in predicate field (high word) and its negation bit.
const PP: u32 = 23;
const PP_NOT: u32 = 26;
/// `.X` (high word).
const X: u32 = 10;

fn pred(num: u64) -> Reg {
    Reg {
        kind: RegKind::P,
        num: num as u8,
    }
}

/// The def/use of the carry forms above, `None` for every other body (the caller then keeps
/// the table's answer, `None`).
pub(super) fn carry_def_use(lo: u64, hi: u64) -> Option<DefUse> {
    let field = |pos: u32| (hi >> pos) & 7;
    let (pu, pp, pp_not, x) = (field(PU), field(PP), (hi >> PP_NOT) & 1, (hi >> X) & 1);
    let carry_in_clear = (hi & !(0xf << PP)) | (0xf << PP);
    let mut du = match lo & 0xfff {
        // `IMAD.WIDE.U32 Rd, Pu, Ra, URb, Rc`, `IADD.64 Rd, Pu, Ra, Rb`: Pu defined (carry out).
        IMAD_WIDE_UR | IADD if x == 0 && pu != 7 && pp == 7 && pp_not == 1 => {
            let mut du = table_def_use(lo, hi | 7 << PU)?;
            du.defs.push(pred(pu));
            du
        }
        // `IMAD.WIDE.U32.X Rd, Ra, URb, Rc, Pp`, `IADD.64.X Rd, Ra, Rb, Pp`: Pp used (carry
        // in); read as the form without `.X`, whose operands are the same.
        IMAD_WIDE_UR | IADD if x == 1 && pu == 7 && pp != 7 && pp_not == 0 => {
            let mut du = table_def_use(lo, carry_in_clear & !(1 << X))?;
            du.uses.push(pred(pp));
            du
        }
        // `LOP3.LUT Pu, Rd, Ra, Rb, Rc, lut, Pp`: Pp used.
        LOP3 if pp != 7 && pp_not == 0 => {
            let mut du = table_def_use(lo, carry_in_clear)?;
            du.uses.push(pred(pp));
            du
        }
        ATOMG => return compare_and_swap_128(lo, hi),
        _ => return None,
    };
    du.defs.sort_unstable();
    du.defs.dedup();
    du.uses.sort_unstable();
    du.uses.dedup();
    Some(du)
}

/// The high body of `ATOMG.E.CAS.128.STRONG.GPU` (the 32-bit form the table knows has size
/// field 0, bits 9-11, where this one has 4).
const CAS_128_HI: u64 = 0x1e_e90c & !0xff;

/// `ATOMG.E.CAS.128.STRONG.GPU PT, Rd, [Ra], Rb, Rc` (unguarded, no descriptor): read as the
/// 32-bit compare-and-swap the table knows (`Rd` defined; `Ra` in the address as the table has
/// it; `Rb`, `Rc` used) with each data operand widened to four registers.
fn compare_and_swap_128(lo: u64, hi: u64) -> Option<DefUse> {
    let body = hi & BODY_HI;
    if body & !0xff != CAS_128_HI || (lo >> 12) & 0xf != 7 || lo >> 40 != 0 {
        return None;
    }
    let narrow = table_def_use(lo, hi & !(7 << 9))?;
    let field = |w: u64, pos: u32| ((w >> pos) & 0xff) as u8;
    let (rd, ra, rb, rc) = (field(lo, 16), field(lo, 24), field(lo, 32), field(hi, 0));
    let quad = |first: u8| -> Option<Vec<Reg>> {
        if first % 4 != 0 || first > 248 {
            return None;
        }
        Some(
            (first..first + 4)
                .map(|num| Reg {
                    kind: RegKind::R,
                    num,
                })
                .collect(),
        )
    };
    let r = |num: u8| Reg {
        kind: RegKind::R,
        num,
    };
    // The narrow form must read the same registers the wide one names first.
    if narrow.defs != [r(rd)] || narrow.address != [r(ra)] {
        return None;
    }
    let mut uses = [quad(rb)?, quad(rc)?, vec![r(ra)]].concat();
    uses.sort_unstable();
    uses.dedup();
    Some(DefUse {
        defs: quad(rd)?,
        uses,
        guard: None,
        address: vec![r(ra)],
        desc: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::{def_use, regs};
    use super::*;

    #[test]
    fn wide_multiply_carries() {
        // IMAD.WIDE.U32 R10, P0, R13, UR7, R10 (fresh p110 child_mul, sm_100).
        let du = def_use(0x0000_0007_0d0a_7c25, 0x000f_c600_0f80_000a).expect("carry out");
        assert_eq!(
            du.defs,
            [regs(RegKind::R, &[10, 11]), vec![pred(0)]].concat()
        );
        let ur7 = Reg {
            kind: RegKind::Ur,
            num: 7,
        };
        assert_eq!(
            du.uses,
            [regs(RegKind::R, &[10, 11, 13]), vec![ur7]].concat()
        );
        // IMAD.WIDE.U32.X R16, R15, UR7, R16, P1.
        let du = def_use(0x0000_0007_0f10_7c25, 0x001f_ce00_088e_0410).expect("carry in");
        assert_eq!(du.defs, regs(RegKind::R, &[16, 17]));
        assert_eq!(
            du.uses,
            [regs(RegKind::R, &[15, 16, 17]), vec![ur7, pred(1)]].concat()
        );
        // LOP3.LUT P0, RZ, R0, R5, RZ, 0xfc, P0.
        let du = def_use(0x0000_0005_00ff_7212, 0x000f_e200_0000_fcff).expect("lop3 P in");
        assert_eq!(du.defs, vec![pred(0)]);
        assert_eq!(du.uses, [regs(RegKind::R, &[0, 5]), vec![pred(0)]].concat());
        // IADD.64 RZ, P0, R8, R2 and IADD.64.X R14, RZ, R10, P0 (sm_120).
        let du = def_use(0x0000_0002_08ff_7235, 0x0e0f_e400_0780_0200).expect("iadd carry out");
        assert_eq!(du.defs, vec![pred(0)]);
        assert_eq!(du.uses, regs(RegKind::R, &[2, 3, 8, 9]));
        let du = def_use(0x0000_000a_ff0e_7235, 0x000f_e400_000e_0600).expect("iadd carry in");
        assert_eq!(du.defs, regs(RegKind::R, &[14, 15]));
        assert_eq!(
            du.uses,
            [regs(RegKind::R, &[10, 11]), vec![pred(0)]].concat()
        );
        // Never seen: a carry-in and a carry-out on one IMAD.WIDE.U32.X, a negated carry-in.
        assert_eq!(def_use(0x0000_0007_0f10_7c25, 0x001f_ce00_0880_0410), None);
        assert_eq!(def_use(0x0000_0007_0f10_7c25, 0x001f_ce00_0c8e_0410), None);
    }

    #[test]
    fn compare_and_swap_128_quads() {
        // ATOMG.E.CAS.128.STRONG.GPU PT, R8, [R2], R8, R12.
        let du = def_use(0x0000_0008_0208_73a9, 0x000e_a400_001e_e90c).expect("cas 128");
        assert_eq!(du.defs, regs(RegKind::R, &[8, 9, 10, 11]));
        assert_eq!(
            du.uses,
            regs(RegKind::R, &[2, 8, 9, 10, 11, 12, 13, 14, 15])
        );
        assert_eq!(du.address, regs(RegKind::R, &[2]));
        // An odd quad is no 128-bit operand.
        assert_eq!(def_use(0x0000_0008_0209_73a9, 0x000e_a400_001e_e90c), None);
    }
}

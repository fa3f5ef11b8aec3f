//! Hand-written def/use of the bulk-copy, mbarrier-exchange and work-request instructions
//! (`UBLKCP`, `SYNCS.EXCH.64`, `UGETNEXTWORKID`): the learned table reads them by the text rules of the model, which take the
//! first bracketed operand for a destination and give every operand one register, while these
//! instructions define nothing and read register pairs.
//!
//! Evidence (nvdisasm of sm_100/sm_120 images of `cp.async.bulk` and `mbarrier.init` code, data
//! flow around each instruction):
//! - `UBLKCP.S.G [URd], [URs], URn` (global to shared, hi bits 8-11 = 2): `URd` is the shared
//!   destination and `URd+1` the mbarrier that receives the transaction count (`ULEA UR6` = buffer,
//!   `ULEA UR7` = barrier, the same barrier the following `SYNCS.ARRIVE.TRANS64 [UR7]` names);
//!   `URs`, `URs+1` the 64-bit global source (`UIMAD.WIDE.U32 UR4`); `URn` the byte count.
//! - `UBLKCP.G.S [URd], [URs], URn` (shared to global, hi bits 8-11 = 4): `URd`, `URd+1` the
//!   global destination, `URs` the shared source, `URn` the byte count.
//! - `UBLKCP.G.S.DST_G_BYTE_MASK [URd], [URs], URn` (`cp.async.bulk...cp_mask`, hi bit 20 set
//!   too; cub's `DeviceScanKernel` stores partial tiles with it): the same operands, `URn` packing
//!   the byte count (low half) and the byte mask (high half) in one register (`UPRMT URn, URn,
//!   0x5410, URmask` right before it, as the plain `.G.S` of the same kernel packs the count with
//!   `URZ`); `URd` is built with `UIADD3.64 URd` (a pair).
//! - `SYNCS.EXCH.64 URZ, [URa+imm], URb` (`mbarrier.init`): reads the address `URa` and the
//!   64-bit value `URb`, `URb+1`; the destination was `URZ` in every example.
//!
//! - `UGETNEXTWORKID.SELFCAST [URa], [URa+1]` (`clusterlaunchcontrol.try_cancel.async`, the
//!   work-stealing request of cub's scan kernels): `URa` is the shared address of the 16-byte
//!   response and `URa+1` the mbarrier that receives its transaction count; the encoding holds
//!   `URa` only (lo bits 24-31) and nvdisasm prints the pair as two operands. ptxas builds the
//!   pair on purpose (`ULEA UR4` = response, `ULEA UR5` = barrier, the barrier the following
//!   `SYNCS.ARRIVE.TRANS64 [UR5]` names), always even-aligned. It defines no register (the
//!   response lands in shared memory and is read with `LDS` after the barrier's phase check) and
//!   carries no scoreboard in any example (so it only waits, never is waited for).
//!
//! Field positions: `URd` lo bits 32-39, `URs` lo bits 24-31, `URn` hi bits 0-7 (`UBLKCP`);
//! `URa` lo bits 24-31, `URb` lo bits 32-39, destination lo bits 16-23 (`SYNCS.EXCH.64`);
//! `URa` lo bits 24-31 (`UGETNEXTWORKID`).
//! Every other body bit must hold the value seen in all examples (other `UBLKCP` and `SYNCS`
//! forms, the multicast `UGETNEXTWORKID`: `None`).
//! (The learned table never held `UGETNEXTWORKID`: its four bodies in the data all had the
//! same operand, too few to learn a slot from.) None of these registers sits in
//! [`DefUse::address`]: the scoreboard pass counts them all as read through the instruction's
//! read scoreboard (an `S2UR` overwriting the address register of a pending `SYNCS.EXCH.64`
//! waits for it in nvlink's output).

use super::{DefUse, Reg, RegKind};

/// `UBLKCP`.
pub(super) const UBLKCP: u64 = 0x3ba;
/// `SYNCS.EXCH`.
pub(super) const SYNCS_EXCH: u64 = 0x5b2;
/// `UGETNEXTWORKID` (`clusterlaunchcontrol.try_cancel`).
pub(super) const UGETNEXTWORKID: u64 = 0x3ca;

fn ur(num: u64) -> Option<Reg> {
    (num < 255).then_some(Reg {
        kind: RegKind::Ur,
        num: num as u8,
    })
}

/// A register pair starting at `num` (an odd or `URZ` start gives `None`).
fn pair(num: u64) -> Option<[Reg; 2]> {
    if num % 2 == 1 {
        return None;
    }
    Some([ur(num)?, ur(num + 1)?])
}

fn uniform_guard(lo: u64) -> Option<Reg> {
    let g = (lo >> 12) & 0xf;
    // Bits 12-14 name the predicate, bit 15 negates; `UPT` is no guard (`@!UPT` never seen).
    match g {
        7 => None,
        _ => Some(Reg {
            kind: RegKind::Up,
            num: (g & 7) as u8,
        }),
    }
}

fn finish(mut uses: Vec<Reg>, guard: Option<Reg>) -> DefUse {
    uses.sort_unstable();
    uses.dedup();
    DefUse {
        defs: Vec::new(),
        uses,
        guard,
        address: Vec::new(),
        desc: Vec::new(),
    }
}

/// The def/use of a `UBLKCP` body (see the module documentation), `None` for forms not seen.
pub(super) fn bulk_copy_def_use(lo: u64, hi: u64) -> Option<DefUse> {
    let hi = hi & super::BODY_HI;
    if lo & 0xffff_ff00_00ff_0fff != UBLKCP || lo >> 12 & 0xf == 0xf {
        return None;
    }
    let (d, s, n) = ((lo >> 32) & 0xff, (lo >> 24) & 0xff, hi & 0xff);
    let uses = match hi & !0xff {
        // .S.G: shared destination + mbarrier, global source.
        0x800_0200 => [pair(d)?.to_vec(), pair(s)?.to_vec(), vec![ur(n)?]].concat(),
        // .G.S and .G.S.DST_G_BYTE_MASK (hi bit 20): global destination, shared source.
        0x800_0400 | 0x810_0400 => [pair(d)?.to_vec(), vec![ur(s)?, ur(n)?]].concat(),
        _ => return None,
    };
    Some(finish(uses, uniform_guard(lo)))
}

/// The def/use of a `SYNCS.EXCH.64 URZ, [URa+imm], URb` body, `None` for other forms.
pub(super) fn barrier_exchange_def_use(lo: u64, hi: u64) -> Option<DefUse> {
    let hi = hi & super::BODY_HI;
    if lo & 0xffff_e000_00ff_0fff != (0xff_0000 | SYNCS_EXCH)
        || lo >> 12 & 0xf == 0xf
        || hi != 0x800_0100
    {
        return None;
    }
    let (a, b) = ((lo >> 24) & 0xff, (lo >> 32) & 0xff);
    let uses = [vec![ur(a)?], pair(b)?.to_vec()].concat();
    Some(finish(uses, uniform_guard(lo)))
}

/// The def/use of a `UGETNEXTWORKID.SELFCAST [URa], [URa+1]` body (see the module
/// documentation), `None` for other forms.
pub(super) fn next_work_id_def_use(lo: u64, hi: u64) -> Option<DefUse> {
    let hi = hi & super::BODY_HI;
    // Every field but the guard (bits 12-15) and `URa` (bits 24-31) held zero in all examples,
    // and the high body was `0x800_0000` (the `SELFCAST` form).
    // (`.BROADCAST`, the `.multicast::cluster::all` request: hi body `0x800_0100`, same operands.)
    if lo & 0xffff_ffff_00ff_0fff != UGETNEXTWORKID
        || lo >> 12 & 0xf == 0xf
        || (hi != 0x800_0000 && hi != 0x800_0100)
    {
        return None;
    }
    let uses = pair((lo >> 24) & 0xff)?.to_vec();
    Some(finish(uses, uniform_guard(lo)))
}

#[cfg(test)]
mod tests {
    use super::super::{def_use, regs, Reg, RegKind};

    fn ur(v: &[u8]) -> Vec<Reg> {
        regs(RegKind::Ur, v)
    }

    /// Bodies from nvdisasm of sm_100/sm_120 images (the control bits are ignored).
    #[test]
    fn bulk_copies_read_pairs_and_define_nothing() {
        // UBLKCP.S.G [UR6], [UR4], UR8
        let du = def_use(0x0000_0006_0400_73ba, 0x0000_0000_0800_0208).unwrap();
        assert!(du.defs.is_empty());
        assert_eq!(du.uses, ur(&[4, 5, 6, 7, 8]));
        assert!(du.address.is_empty());
        // @!UP1 UBLKCP.S.G [UR30], [UR8], UR32
        let du = def_use(0x0000_001e_0800_93ba, 0x0000_0000_0800_0220).unwrap();
        assert_eq!(du.uses, ur(&[8, 9, 30, 31, 32]));
        assert_eq!(du.guard.map(|g| (g.kind, g.num)), Some((RegKind::Up, 1)));
        // UBLKCP.G.S [UR8], [UR26], UR7
        let du = def_use(0x0000_0008_1a00_73ba, 0x0000_0000_0800_0407).unwrap();
        assert_eq!(du.uses, ur(&[7, 8, 9, 26]));
        // UBLKCP.G.S.DST_G_BYTE_MASK [UR8], [UR30], UR7 (cub's DeviceScanKernel, sm_100)
        let du = def_use(0x0000_0008_1e00_73ba, 0x0007_e200_0810_0407).unwrap();
        assert_eq!((du.defs, du.uses), (vec![], ur(&[7, 8, 9, 30])));
        // The byte-mask bit with the .S.G direction: never seen.
        assert_eq!(def_use(0x0000_0008_1e00_73ba, 0x0000_0000_0810_0207), None);
    }

    #[test]
    fn barrier_init_reads_a_pair() {
        // SYNCS.EXCH.64 URZ, [UR6+0x10], UR10
        let du = def_use(0x0000_100a_06ff_75b2, 0x0000_0000_0800_0100).unwrap();
        assert!(du.defs.is_empty());
        assert_eq!(du.uses, ur(&[6, 10, 11]));
        // A destination other than URZ was never seen.
        assert_eq!(def_use(0x0000_100a_0604_75b2, 0x0000_0000_0800_0100), None);
    }

    #[test]
    fn work_requests_read_the_response_and_barrier_pair() {
        // @!UP0 UGETNEXTWORKID.SELFCAST [UR36], [UR37] (cub's DeviceScanKernel, sm_100)
        let du = def_use(0x0000_0000_2400_83ca, 0x000f_ec00_0800_0000).unwrap();
        assert!(du.defs.is_empty());
        assert_eq!(du.uses, ur(&[36, 37]));
        assert_eq!(du.guard.map(|g| (g.kind, g.num)), Some((RegKind::Up, 0)));
        // UGETNEXTWORKID.SELFCAST [UR4], [UR5] (unguarded)
        let du = def_use(0x0000_0000_0400_73ca, 0x000f_d800_0800_0000).unwrap();
        assert_eq!((du.uses, du.guard), (ur(&[4, 5]), None));
        // Never seen: an odd first register, URZ, another high body, a field set elsewhere.
        assert_eq!(def_use(0x0000_0000_0500_73ca, 0x0800_0000), None);
        assert_eq!(def_use(0x0000_0000_ff00_73ca, 0x0800_0000), None);
        assert_eq!(def_use(0x0000_0000_0400_73ca, 0x0800_0200), None);
        // UGETNEXTWORKID.BROADCAST [UR4], [UR5] (`.multicast::cluster::all`, sm_100a/sm_120a)
        let du = def_use(0x0000_0000_0400_73ca, 0x000f_d800_0800_0100).unwrap();
        assert_eq!((du.uses, du.guard), (ur(&[4, 5]), None));
        assert_eq!(def_use(0x0000_0004_0400_73ca, 0x0800_0000), None);
    }

    #[test]
    fn conversions_from_64_bit_integers() {
        let r = |num| Reg {
            kind: RegKind::R,
            num,
        };
        // I2F.U64 R11, R4 (fresh p81 `tail`) and I2F.S64 R11, R4.
        for hi in [0x0000_0000_0030_1000, 0x0000_0000_0030_1400] {
            let du = def_use(0x0000_0004_000b_7312, hi).unwrap();
            assert_eq!((du.defs, du.uses), (vec![r(11)], vec![r(4), r(5)]));
        }
    }
}

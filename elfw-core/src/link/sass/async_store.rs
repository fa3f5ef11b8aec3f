//! Hand-written def/use of `STAS` (`st.async` into a peer CTA's shared memory, completing the
//! transaction count of the peer's mbarrier): the learned table never held it.
//!
//! Evidence (nvdisasm of sm_100/sm_120 images of `st.async.shared::cluster.mbarrier::
//! complete_tx::bytes` code, `ptxas` of every width PTX allows, and fresh `p105`, data flow
//! around each instruction):
//! - `STAS[.64|.128] [Ra.64], Rb`: `Ra` holds the 32-bit shared::cluster address of the
//!   destination and `Ra+1` that of the mbarrier (ptxas builds the pair on purpose: `MOV R2,
//!   R2; MOV R3, R6` with `R6` the barrier's `PRMT`ed address, the barrier the following
//!   `SYNCS.PHASECHK.TRANS64.TRYWAIT [R11]` waits on); `Rb` onward the data: one register
//!   (`.b32`, `.f32`), two (`.64`: `.b64`, `.f64`, `.v2.b32`, `.v2.f32`) or four (`.128`:
//!   `.v4.b32`, `.v4.f32`, `.v2.b64`), aligned as the width. It defines nothing.
//! - Encoding: `Ra` lo bits 24-31, `Rb` lo bits 32-39; the width is hi bits 9-11 (4: 32
//!   bits, 5: 64, 6: 128); every other body bit held one value in all examples (lo bits
//!   16-23 and 40-63 zero, hi body `0xc000_0000 | width << 9 | 0xff`). ptxas never guarded it
//!   (a predicated `st.async` became a branch around it), so a guard gives `None`.
//!
//! Nothing sits in [`DefUse::address`]: no uniform register is involved.

use super::{DefUse, Reg, RegKind};

/// `STAS`.
pub(super) const STAS: u64 = 0xdbd;

/// The def/use of a `STAS` body (see the module documentation), `None` for forms not seen.
pub(super) fn async_store_def_use(lo: u64, hi: u64) -> Option<DefUse> {
    let hi = hi & super::BODY_HI;
    if lo & 0xffff_ff00_00ff_ffff != (0x7000 | STAS) {
        return None;
    }
    let width = match hi {
        0xc00_08ff => 1,
        0xc00_0aff => 2,
        0xc00_0cff => 4,
        _ => return None,
    };
    let (a, b) = ((lo >> 24) & 0xff, (lo >> 32) & 0xff);
    if a % 2 == 1 || b % width != 0 || a + 1 >= 255 || b + width > 255 {
        return None;
    }
    let r = |num: u64| Reg {
        kind: RegKind::R,
        num: num as u8,
    };
    let mut uses: Vec<Reg> = [r(a), r(a + 1)]
        .into_iter()
        .chain((b..b + width).map(r))
        .collect();
    uses.sort_unstable();
    uses.dedup();
    Some(DefUse {
        defs: Vec::new(),
        uses,
        guard: None,
        address: Vec::new(),
        desc: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::{def_use, mnemonic, regs, Reg, RegKind};

    fn r(v: &[u8]) -> Vec<Reg> {
        regs(RegKind::R, v)
    }

    /// Bodies from nvdisasm of sm_100/sm_120 images (control bits set as ptxas wrote them).
    #[test]
    fn async_stores_read_the_address_pair_and_the_data() {
        // STAS.128 [R2.64], R4 (fresh p105's `ring`, sm_100)
        let du = def_use(0x0000_0004_0200_7dbd, 0x0023_e200_0c00_0cff).unwrap();
        assert!(du.defs.is_empty());
        assert_eq!(du.uses, r(&[2, 3, 4, 5, 6, 7]));
        assert_eq!((du.guard, du.address.is_empty()), (None, true));
        assert_eq!(mnemonic(0x0000_0004_0200_7dbd), Some("STAS"));
        // STAS.64 [R18.64], R8 and STAS [R16.64], R12 (sm_100)
        let du = def_use(0x0000_0008_1200_7dbd, 0x0105_e800_0c00_0aff).unwrap();
        assert_eq!(du.uses, r(&[8, 9, 18, 19]));
        let du = def_use(0x0000_000c_1000_7dbd, 0x0041_e800_0c00_08ff).unwrap();
        assert_eq!(du.uses, r(&[12, 16, 17]));
        // Never seen: guarded, an odd address register, a misaligned quad, another width.
        assert_eq!(def_use(0x0000_0004_0200_0dbd, 0x0c00_0cff), None);
        assert_eq!(def_use(0x0000_0004_0300_7dbd, 0x0c00_0cff), None);
        assert_eq!(def_use(0x0000_0006_0200_7dbd, 0x0c00_0cff), None);
        assert_eq!(def_use(0x0000_0004_0200_7dbd, 0x0c00_0eff), None);
        assert_eq!(def_use(0x0000_1004_0200_7dbd, 0x0c00_0cff), None);
    }
}

//! The public API on cases read off nvlink 13.5.37 links (expected bytes are nvlink's), and its
//! error contract.

use elfw_reloc::types::*;
use elfw_reloc::*;

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn bindless_slot_of_a_sm75_texture_fetch() {
    // texref-sm75: TEX of tex0 at .text.kt+0x20 (.rel, implicit addend 0); nvlink put tex0's
    // header slot at c[0x0][0x174] and wrote the slot in words.
    let mut text = unhex("667b0004ff000010ff019e0000c20f04");
    assert_eq!(implicit_addend(R_CUDA_BINDLESSOFF14_40, &text, 0), Ok(0));
    apply(R_CUDA_BINDLESSOFF14_40, &mut text, 0, 0x174).unwrap();
    assert_eq!(text, unhex("667b0004ff5d0010ff019e0000c20f04"));
}

#[test]
fn constant_field_with_bank_on_sm75() {
    // cbank: c[0x3][cbig + 32000] (.rela addend 32000, cbig at 0 of .nv.constant3).
    let mut text = unhex("107a03030000000002e0ff0700e44f00");
    apply_with_bank(0x40, &mut text, 0, 32000, 3).unwrap();
    assert_eq!(text, unhex("107a03030040df0002e0ff0700e44f00"));
    assert_eq!(bank(0x40, &text, 0), Ok(Some(3)));
    assert_eq!(implicit_addend(0x40, &text, 0), Ok(32000));
}

#[test]
fn shared_offset_of_dynamic_shared_memory() {
    // calls-sm90: R_CUDA_ABS32_32 against `extern __shared__ dyn[]`, placed after 0x100 bytes
    // of static shared memory.
    let mut text = unhex("82780400000000000000000000e40f00");
    apply(R_CUDA_ABS32_32, &mut text, 0, 0x100).unwrap();
    assert_eq!(text, unhex("82780400000100000000000000e40f00"));
}

#[test]
fn debug_frame_range_cleared_for_a_removed_function() {
    // launch-sm75: R_CUDA_UNUSED_CLEAR64 on the FDE of the dead function; the value is ignored.
    let mut frame = unhex("8000000000000000");
    apply(R_CUDA_UNUSED_CLEAR64, &mut frame, 0, 0x1234).unwrap();
    assert_eq!(frame, [0; 8]);
    assert_eq!(
        disposition(R_CUDA_UNUSED_CLEAR64, Target::Removed),
        Ok(Disposition::Apply)
    );
    assert_eq!(
        disposition(R_CUDA_UNUSED_CLEAR64, Target::LoadTime),
        Ok(Disposition::Drop)
    );
}

#[test]
fn offsets_in_the_middle_of_a_section() {
    let mut s = vec![0u8; 48];
    apply(R_CUDA_ABS32_HI_32, &mut s, 0x10, 0x1122_3344_5566_7788).unwrap();
    assert_eq!(&s[0x14..0x18], &[0x44, 0x33, 0x22, 0x11]);
    assert!(s[..0x14].iter().chain(&s[0x18..]).all(|&b| b == 0));
    assert_eq!(
        implicit_addend(R_CUDA_ABS32_HI_32, &s, 0x10),
        Ok(0x1122_3344_0000_0000)
    );
}

#[test]
fn what_nvlink_keeps_for_the_driver() {
    use Disposition::*;
    for (t, target, want) in [
        (R_CUDA_ABS32_LO_32, Target::LoadTime, Keep),
        (R_CUDA_ABS32_LO_32, Target::LinkTime, Apply),
        (R_CUDA_ABS47_34, Target::LoadTime, Keep),
        (R_CUDA_ABS55_16_34, Target::LoadTime, Keep),
        (R_CUDA_ABS56_16_34, Target::LinkTime, Apply),
        (R_CUDA_G64, Target::LinkTime, Keep),
        (R_CUDA_FUNC_DESC32_LO_32, Target::LoadTime, Keep),
        (R_CUDA_TEX_HEADER_INDEX, Target::LinkTime, Keep),
        (R_CUDA_64, Target::LinkTime, Apply),
        (R_CUDA_64, Target::Removed, Drop),
        (R_CUDA_YIELD_OPCODE9_0, Target::LinkTime, Drop),
        (R_CUDA_NONE, Target::LinkTime, Drop),
        (R_MERCURY_ABS_PROG_REL64, Target::LoadTime, Keep),
        (0x10008, Target::LinkTime, ApplyAndKeep), // R_MERCURY_PROG_REL32
    ] {
        assert_eq!(disposition(t, target), Ok(want), "{}", name(t).unwrap());
    }
    assert_eq!(driver_type(R_CUDA_UNIFIED32_LO_32), R_CUDA_ABS32_LO_32);
    assert_eq!(driver_type(R_CUDA_UNIFIED), R_CUDA_64);
    assert_eq!(driver_type(R_MERCURY_UNIFIED32_HI), R_MERCURY_ABS32_HI);
    assert_eq!(driver_type(R_CUDA_ABS47_34), R_CUDA_ABS47_34);
}

#[test]
fn errors_and_nvlink_messages() {
    let mut s = [0u8; 16];
    // nvlink refuses R_CUDA_NONE_LAST and beyond ("sass rtype out of range").
    for t in [R_CUDA_NONE_LAST, 117, 200, u32::MAX] {
        let e = apply(t, &mut s, 0, 1).unwrap_err();
        assert_eq!(e, RelocError::UnknownType { r_type: t });
        assert!(disposition(t, Target::LinkTime).is_err());
    }
    assert_eq!(
        RelocError::UnknownType { r_type: 116 }.nvlink_message(),
        Some("Internal error: sass rtype out of range")
    );
    // An offset at the end of the section: "reloc address not found".
    let e = apply(R_CUDA_64, &mut s, 16, 1).unwrap_err();
    assert_eq!(
        e,
        RelocError::OffsetPastEnd {
            r_type: R_CUDA_64,
            offset: 16,
            len: 16
        }
    );
    assert_eq!(
        e.nvlink_message(),
        Some("Internal error: reloc address not found")
    );
    // Inside, but the word runs off the end: nvlink writes outside the section; elfw refuses.
    let e = apply(R_CUDA_ABS47_34, &mut s, 8, 1).unwrap_err();
    assert_eq!(
        e,
        RelocError::WordPastEnd {
            r_type: R_CUDA_ABS47_34,
            offset: 8,
            span: 11,
            len: 16
        }
    );
    assert_eq!(s, [0; 16]);
    assert_eq!(e.nvlink_message(), None);
    assert!(!e.to_string().is_empty());
    // R_CUDA_NONE writes nothing, but its offset is checked too, with another message.
    assert_eq!(apply(R_CUDA_NONE, &mut s, 15, 1), Ok(()));
    let e = apply(R_CUDA_NONE, &mut s, 99, 1).unwrap_err();
    assert_eq!(
        e.nvlink_message(),
        Some("Internal error: relocation is past end of offset")
    );
}

#[test]
fn families() {
    assert!(check_family(R_CUDA_ABS32_LO_32, Family::Cuda).is_ok());
    assert_eq!(
        check_family(R_MERCURY_ABS64, Family::Cuda),
        Err(RelocError::WrongFamily {
            r_type: R_MERCURY_ABS64
        })
    );
    assert_eq!(
        check_family(R_CUDA_ABS32_LO_32, Family::Mercury),
        Err(RelocError::WrongFamily {
            r_type: R_CUDA_ABS32_LO_32
        })
    );
    assert!(check_family(0, Family::Mercury).is_ok());
    assert!(check_family(R_MERCURY_NONE_LAST, Family::Mercury).is_err());
}

#[test]
fn spans() {
    assert_eq!(lookup(R_CUDA_32).unwrap().span_bytes(), 4);
    assert_eq!(lookup(R_CUDA_ABS32_LO_32).unwrap().span_bytes(), 8);
    assert_eq!(lookup(R_CUDA_ABS47_34).unwrap().span_bytes(), 11);
    assert_eq!(
        lookup(R_CUDA_YIELD_CLEAR_PRED4_87).unwrap().span_bytes(),
        12
    );
    assert_eq!(lookup(0x43).unwrap().span_bytes(), 16); // R_CUDA_INSTRUCTION128
    assert!(lookup(R_CUDA_ABS55_16_34).unwrap().needs_128_bit_word());
    assert_eq!(field_mask(R_CUDA_ABS16_32), Ok(0xffff << 32));
}

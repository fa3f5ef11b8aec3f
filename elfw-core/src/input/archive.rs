//! `ar` archives: GNU (with `//` long names), BSD (`#1/N` names) and GNU thin archives.
//!
//! nvlink reads every member in archive order and ignores the symbol table (seed 02; checked:
//! a member nothing references is still loaded, so a duplicate strong definition in it is a
//! fatal `Multiple definition of '_Z2f1i' in 'libdup.a:m3.o', first defined in 'm1.o'`).

/// Magic of a regular archive.
pub const AR_MAGIC: &[u8; 8] = b"!<arch>\n";
/// Magic of a GNU thin archive.
pub const THIN_MAGIC: &[u8; 8] = b"!<thin>\n";
const MEMBER_HEADER: usize = 60;

/// What is wrong with an archive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArchiveError {
    /// A member header is cut off or lacks its "`\n" terminator.
    #[error("member header at offset {offset:#x} is malformed")]
    BadHeader {
        /// Offset of the header.
        offset: u64,
    },
    /// A member's size field is not a number or runs past the end of the archive.
    #[error("member at offset {offset:#x} has a bad size")]
    BadSize {
        /// Offset of the header.
        offset: u64,
    },
    /// A long-name reference points outside the `//` table.
    #[error("member at offset {offset:#x} has a bad long-name reference")]
    BadName {
        /// Offset of the header.
        offset: u64,
    },
}

/// Where a member's bytes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemberData<'d> {
    /// In the archive.
    Inline(&'d [u8]),
    /// In a file named by the member name, relative to the archive's folder (thin archives).
    External,
}

/// One archive member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member<'d> {
    /// The member name as stored (no trailing `/`).
    pub name: &'d [u8],
    /// Offset of the member header.
    pub offset: u64,
    /// Its bytes.
    pub data: MemberData<'d>,
}

/// Whether `data` is a regular or thin archive.
pub fn is_archive(data: &[u8]) -> bool {
    data.starts_with(AR_MAGIC) || data.starts_with(THIN_MAGIC)
}

fn parse_decimal(field: &[u8]) -> Option<u64> {
    let s = std::str::from_utf8(field).ok()?.trim_end_matches(' ');
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 18 {
        return None;
    }
    s.parse().ok()
}

/// The members of an archive in order, symbol tables and the long-name table left out.
pub fn members(data: &[u8]) -> Result<Vec<Member<'_>>, ArchiveError> {
    let thin = data.starts_with(THIN_MAGIC);
    let mut out = Vec::new();
    let mut long_names: &[u8] = &[];
    let mut pos = AR_MAGIC.len();
    while pos < data.len() {
        // A lone padding byte may end the archive.
        if data.len() - pos == 1 && data[pos] == b'\n' {
            break;
        }
        let offset = pos as u64;
        let h = data
            .get(pos..pos + MEMBER_HEADER)
            .ok_or(ArchiveError::BadHeader { offset })?;
        if &h[58..60] != b"`\n" {
            return Err(ArchiveError::BadHeader { offset });
        }
        let size = parse_decimal(&h[48..58]).ok_or(ArchiveError::BadSize { offset })?;
        let raw_name = &h[..16];
        let body_start = pos + MEMBER_HEADER;
        let is_special = raw_name.starts_with(b"/ ")
            || raw_name.starts_with(b"// ")
            || raw_name.starts_with(b"/SYM64/")
            || raw_name.starts_with(b"__.SYMDEF");
        // Thin archives store only the symbol and long-name tables inline.
        let inline_size = if thin && !is_special { 0 } else { size };
        let body_end = (body_start as u64)
            .checked_add(inline_size)
            .ok_or(ArchiveError::BadSize { offset })?;
        if body_end > data.len() as u64 {
            return Err(ArchiveError::BadSize { offset });
        }
        let body = &data[body_start..body_end as usize];
        let mut name_len_in_body = 0usize;
        let name: &[u8] = if raw_name.starts_with(b"// ") {
            long_names = body;
            None
        } else if is_special {
            None
        } else if raw_name[0] == b'/' && raw_name[1].is_ascii_digit() {
            let at =
                parse_decimal(&raw_name[1..]).ok_or(ArchiveError::BadName { offset })? as usize;
            let rest = long_names
                .get(at..)
                .ok_or(ArchiveError::BadName { offset })?;
            let end = rest
                .iter()
                .position(|&b| b == b'\n' || b == 0)
                .unwrap_or(rest.len());
            Some(rest[..end].strip_suffix(b"/").unwrap_or(&rest[..end]))
        } else if let Some(len) = raw_name.strip_prefix(b"#1/") {
            let len = parse_decimal(len).ok_or(ArchiveError::BadName { offset })? as usize;
            let n = body.get(..len).ok_or(ArchiveError::BadName { offset })?;
            name_len_in_body = len;
            Some(&n[..n.iter().position(|&b| b == 0).unwrap_or(n.len())])
        } else {
            let end = raw_name
                .iter()
                .rposition(|&b| b != b' ')
                .map_or(0, |i| i + 1);
            let n = &raw_name[..end];
            Some(n.strip_suffix(b"/").unwrap_or(n))
        }
        .unwrap_or(b"");
        if !is_special && !raw_name.starts_with(b"// ") {
            let bytes = &body[name_len_in_body.min(body.len())..];
            let is_bsd_symdef = name.starts_with(b"__.SYMDEF");
            if !is_bsd_symdef {
                let data = if thin {
                    MemberData::External
                } else {
                    MemberData::Inline(bytes)
                };
                out.push(Member { name, offset, data });
            }
        }
        // Members start on even offsets.
        let next = body_end + (body_end & 1);
        pos = next.min(data.len() as u64 + 1) as usize;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(name: &str, size: usize) -> Vec<u8> {
        format!("{name:<16}{:<12}{:<6}{:<6}{:<8}{size:<10}`\n", 0, 0, 0, 644).into_bytes()
    }

    #[test]
    fn gnu_long_names_and_padding() {
        let mut a = AR_MAGIC.to_vec();
        a.extend(header("/", 4));
        a.extend([0, 0, 0, 0]);
        let table = b"a_very_long_member_name.o/\n";
        a.extend(header("//", table.len()));
        a.extend(table);
        a.push(b'\n');
        a.extend(header("/0", 3));
        a.extend(b"abc\n");
        a.extend(header("x.o/", 2));
        a.extend(b"hi");
        let m = members(&a).unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].name, b"a_very_long_member_name.o");
        assert_eq!(m[0].data, MemberData::Inline(b"abc"));
        assert_eq!(m[1].name, b"x.o");
    }

    #[test]
    fn bsd_names() {
        let mut a = AR_MAGIC.to_vec();
        a.extend(header("#1/12", 12 + 2));
        a.extend(b"__.SYMDEF\0\0\0ok");
        a.extend(header("#1/9", 9 + 3));
        a.extend(b"long_name");
        a.extend(b"xyz\n");
        let m = members(&a).unwrap();
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].name, b"long_name");
        assert_eq!(m[0].data, MemberData::Inline(b"xyz"));
    }

    #[test]
    fn bad_archives() {
        let mut a = AR_MAGIC.to_vec();
        a.extend(header("x.o/", 99));
        assert_eq!(members(&a), Err(ArchiveError::BadSize { offset: 8 }));
        let mut a = AR_MAGIC.to_vec();
        a.extend(b"short");
        assert_eq!(members(&a), Err(ArchiveError::BadHeader { offset: 8 }));
        let mut a = AR_MAGIC.to_vec();
        a.extend(header("/7", 0));
        assert_eq!(members(&a), Err(ArchiveError::BadName { offset: 8 }));
        assert_eq!(members(AR_MAGIC), Ok(vec![]));
    }
}

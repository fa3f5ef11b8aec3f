//! The section store (seed 04, the 104-byte section record) and the data nodes that make up a
//! section's contents (seed 04, the 40-byte data node and "Data Copy Primitive").
//!
//! A data node does not copy bytes: it borrows them ([`NodeData::Bytes`], e.g. from a mapped
//! input file or the bump arena) or records a zero-filled size. Nodes of a section form a
//! singly linked list in append order, reachable from the section's head and tail.

use bumpalo::Bump;
use elfw_hash::NameHash;

use super::error::ArenaError;
use super::index::{DataNodeIdx, SectionIdx, Space, SymIdx};
use super::names::intern;
use super::Arena;
use crate::elf::consts::SHF_EXECINSTR;

/// A section to create: the arguments of nvlink's `section_create` (seed 04).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct NewSection<'n> {
    /// The name (copied into the bump arena once).
    pub name: &'n str,
    /// `sh_type`.
    pub sh_type: u32,
    /// nvlink's extended type used to dispatch section kinds (record offset 4).
    pub type_ext: u32,
    /// `sh_flags`.
    pub flags: u64,
    /// `sh_info`.
    pub info: u32,
    /// `sh_link`.
    pub link: u32,
    /// `sh_addralign` (raised by appended data that needs more).
    pub addralign: u64,
    /// `sh_entsize`.
    pub entsize: u64,
}

/// A section as read from the arena.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Section<'a, S: Space = super::Merged> {
    /// The interned name.
    pub name: &'a str,
    /// `sh_type`.
    pub sh_type: u32,
    /// nvlink's extended dispatch type.
    pub type_ext: u32,
    /// `sh_flags`.
    pub flags: u64,
    /// `sh_offset` (assigned when the file is laid out).
    pub offset: u64,
    /// `sh_size`: the end of the last data node, or what layout set.
    pub size: u64,
    /// `sh_info`.
    pub info: u32,
    /// `sh_link`.
    pub link: u32,
    /// `sh_addralign`.
    pub addralign: u64,
    /// `sh_entsize`.
    pub entsize: u64,
    /// First data node.
    pub first_node: Option<DataNodeIdx<S>>,
    /// Last data node (nvlink keeps it for O(1) append).
    pub last_node: Option<DataNodeIdx<S>>,
}

/// Where a data node's bytes are.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum NodeData<'a> {
    /// Borrowed bytes: a slice of a mapped input, or bytes built in the bump arena.
    Bytes(&'a [u8]),
    /// `n` bytes of zeros (NOBITS contributions such as `.nv.global`, or padding).
    Zeroed(u64),
}

impl NodeData<'_> {
    /// The number of bytes.
    pub fn len(&self) -> u64 {
        match *self {
            NodeData::Bytes(b) => b.len() as u64,
            NodeData::Zeroed(n) => n,
        }
    }

    /// Whether there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A contribution to append to a section.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct NewDataNode<'a, S: Space = super::Merged> {
    /// The symbol the bytes belong to (provenance; layout moves its value with the node).
    pub source: Option<SymIdx<S>>,
    /// Required alignment (0 is taken as 1).
    pub alignment: u64,
    /// The bytes.
    pub data: NodeData<'a>,
}

/// A data node as read from the arena.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct DataNode<'a, S: Space = super::Merged> {
    /// The symbol the bytes belong to; `None` once dead-code elimination deleted it (its bytes
    /// stay, as nvlink leaves losing weak data as dead bytes).
    pub source: Option<SymIdx<S>>,
    /// Offset within the section.
    pub offset: u64,
    /// Required alignment.
    pub alignment: u64,
    /// The bytes.
    pub data: NodeData<'a>,
    /// The size in bytes.
    pub size: u64,
    /// The next node of the same section.
    pub next: Option<DataNodeIdx<S>>,
}

/// The section records as columns. Slot 0 is the sentinel (`SHN_UNDEF`).
#[derive(Clone, Debug)]
pub(crate) struct SectionColumns<'a, S: Space> {
    pub(crate) name: Vec<&'a str>,
    pub(crate) sh_type: Vec<u32>,
    pub(crate) type_ext: Vec<u32>,
    pub(crate) flags: Vec<u64>,
    pub(crate) offset: Vec<u64>,
    pub(crate) size: Vec<u64>,
    pub(crate) info: Vec<u32>,
    pub(crate) link: Vec<u32>,
    pub(crate) addralign: Vec<u64>,
    pub(crate) entsize: Vec<u64>,
    pub(crate) head: Vec<Option<DataNodeIdx<S>>>,
    pub(crate) tail: Vec<Option<DataNodeIdx<S>>>,
}

impl<'a, S: Space> SectionColumns<'a, S> {
    pub(crate) fn with_sentinel(capacity: usize) -> Self {
        let n = capacity.saturating_add(1);
        let mut c = SectionColumns {
            name: Vec::with_capacity(n),
            sh_type: Vec::with_capacity(n),
            type_ext: Vec::with_capacity(n),
            flags: Vec::with_capacity(n),
            offset: Vec::with_capacity(n),
            size: Vec::with_capacity(n),
            info: Vec::with_capacity(n),
            link: Vec::with_capacity(n),
            addralign: Vec::with_capacity(n),
            entsize: Vec::with_capacity(n),
            head: Vec::with_capacity(n),
            tail: Vec::with_capacity(n),
        };
        c.push(
            &NewSection {
                name: "",
                sh_type: 0,
                type_ext: 0,
                flags: 0,
                info: 0,
                link: 0,
                addralign: 0,
                entsize: 0,
            },
            "",
        );
        c
    }

    pub(crate) fn len(&self) -> usize {
        self.name.len()
    }

    pub(crate) fn push(&mut self, s: &NewSection<'_>, name: &'a str) {
        self.name.push(name);
        self.sh_type.push(s.sh_type);
        self.type_ext.push(s.type_ext);
        self.flags.push(s.flags);
        self.offset.push(0);
        self.size.push(0);
        self.info.push(s.info);
        self.link.push(s.link);
        self.addralign.push(s.addralign);
        self.entsize.push(s.entsize);
        self.head.push(None);
        self.tail.push(None);
    }

    /// Appends a copy of `s` (from another space) with an empty node list.
    pub(crate) fn push_section<T: Space>(&mut self, s: &Section<'a, T>) {
        self.name.push(s.name);
        self.sh_type.push(s.sh_type);
        self.type_ext.push(s.type_ext);
        self.flags.push(s.flags);
        self.offset.push(s.offset);
        self.size.push(s.size);
        self.info.push(s.info);
        self.link.push(s.link);
        self.addralign.push(s.addralign);
        self.entsize.push(s.entsize);
        self.head.push(None);
        self.tail.push(None);
    }

    pub(crate) fn get(&self, pos: usize) -> Option<Section<'a, S>> {
        Some(Section {
            name: self.name.get(pos)?,
            sh_type: *self.sh_type.get(pos)?,
            type_ext: *self.type_ext.get(pos)?,
            flags: *self.flags.get(pos)?,
            offset: *self.offset.get(pos)?,
            size: *self.size.get(pos)?,
            info: *self.info.get(pos)?,
            link: *self.link.get(pos)?,
            addralign: *self.addralign.get(pos)?,
            entsize: *self.entsize.get(pos)?,
            first_node: *self.head.get(pos)?,
            last_node: *self.tail.get(pos)?,
        })
    }
}

/// The data nodes as columns. Slot 0 is unused.
#[derive(Clone, Debug)]
pub(crate) struct NodeColumns<'a, S: Space> {
    pub(crate) source: Vec<Option<SymIdx<S>>>,
    pub(crate) offset: Vec<u64>,
    pub(crate) alignment: Vec<u64>,
    pub(crate) data: Vec<NodeData<'a>>,
    pub(crate) next: Vec<Option<DataNodeIdx<S>>>,
}

impl<'a, S: Space> NodeColumns<'a, S> {
    pub(crate) fn with_sentinel(capacity: usize) -> Self {
        let n = capacity.saturating_add(1);
        let mut c = NodeColumns {
            source: Vec::with_capacity(n),
            offset: Vec::with_capacity(n),
            alignment: Vec::with_capacity(n),
            data: Vec::with_capacity(n),
            next: Vec::with_capacity(n),
        };
        c.push(None, 0, 0, NodeData::Zeroed(0));
        c
    }

    pub(crate) fn len(&self) -> usize {
        self.data.len()
    }

    pub(crate) fn push(
        &mut self,
        source: Option<SymIdx<S>>,
        offset: u64,
        alignment: u64,
        data: NodeData<'a>,
    ) {
        self.source.push(source);
        self.offset.push(offset);
        self.alignment.push(alignment);
        self.data.push(data);
        self.next.push(None);
    }

    pub(crate) fn get(&self, pos: usize) -> Option<DataNode<'a, S>> {
        let data = *self.data.get(pos)?;
        Some(DataNode {
            source: *self.source.get(pos)?,
            offset: *self.offset.get(pos)?,
            alignment: *self.alignment.get(pos)?,
            data,
            size: data.len(),
            next: *self.next.get(pos)?,
        })
    }
}

impl<'a, S: Space> Arena<'a, S> {
    /// Creates a section (seed 04, "Section Creation"). The section name map keeps the first
    /// section of a name, as nvlink registers a name only when it is new.
    ///
    /// Errors: an executable section after the callgraph is complete, or too many sections.
    pub fn add_section(
        &mut self,
        bump: &'a Bump,
        new: &NewSection<'_>,
    ) -> Result<SectionIdx<S>, ArenaError<S>> {
        if self.callgraph_complete && new.flags & SHF_EXECINSTR != 0 {
            return Err(ArenaError::FunctionSectionAfterCallgraph);
        }
        let idx = SectionIdx::from_slot(self.sections.len() as u32)
            .ok_or(ArenaError::TooMany("sections"))?;
        let hash = NameHash::of(new.name);
        let known = self.section_names.find_hashed(hash, new.name);
        let symbol_key = || self.symbol_names.find_hashed(hash, new.name).map(|e| e.key);
        let name = match known {
            Some(e) => e.key,
            None => intern(bump, new.name, [None, symbol_key()]),
        };
        self.sections.push(new, name);
        if known.is_none() {
            self.section_names.insert_new_hashed(hash, name, idx);
        }
        Ok(idx)
    }

    /// The first section created with this name.
    pub fn find_section(&self, name: &str) -> Option<SectionIdx<S>> {
        self.section_names.get(name)
    }

    /// The section at `idx`, or `None` if it is not a section of this arena.
    pub fn get_section(&self, idx: SectionIdx<S>) -> Option<Section<'a, S>> {
        self.sections.get(idx.pos())
    }

    /// The section at `idx`.
    ///
    /// # Panics
    /// If `idx` was minted by another arena and is past this one's end.
    pub fn section(&self, idx: SectionIdx<S>) -> Section<'a, S> {
        match self.get_section(idx) {
            Some(s) => s,
            None => panic!("{idx:?} is not a section of this arena"),
        }
    }

    /// Number of sections, sentinel excluded.
    pub fn section_count(&self) -> usize {
        self.sections.len() - 1
    }

    /// The sections in creation order, sentinel skipped. Allocation-free.
    pub fn sections(&self) -> impl Iterator<Item = (SectionIdx<S>, Section<'a, S>)> + '_ {
        (1..self.sections.len() as u32).filter_map(move |slot| {
            let idx = SectionIdx::from_slot(slot)?;
            Some((idx, self.sections.get(idx.pos())?))
        })
    }

    fn set_section_field<T>(column: &mut [T], idx: SectionIdx<S>, value: T) {
        if let Some(v) = column.get_mut(idx.pos()) {
            *v = value;
        }
    }

    /// Sets `sh_offset`.
    pub fn set_section_offset(&mut self, idx: SectionIdx<S>, offset: u64) {
        Self::set_section_field(&mut self.sections.offset, idx, offset);
    }

    /// Sets `sh_size`.
    pub fn set_section_size(&mut self, idx: SectionIdx<S>, size: u64) {
        Self::set_section_field(&mut self.sections.size, idx, size);
    }

    /// Sets `sh_type` (e.g. CUDA data types become `PROGBITS`/`NOBITS` in a final link).
    pub fn set_section_type(&mut self, idx: SectionIdx<S>, sh_type: u32) {
        Self::set_section_field(&mut self.sections.sh_type, idx, sh_type);
    }

    /// Sets `sh_flags`.
    pub fn set_section_flags(&mut self, idx: SectionIdx<S>, flags: u64) {
        Self::set_section_field(&mut self.sections.flags, idx, flags);
    }

    /// Sets `sh_info`.
    pub fn set_section_info(&mut self, idx: SectionIdx<S>, info: u32) {
        Self::set_section_field(&mut self.sections.info, idx, info);
    }

    /// Sets `sh_link`.
    pub fn set_section_link(&mut self, idx: SectionIdx<S>, link: u32) {
        Self::set_section_field(&mut self.sections.link, idx, link);
    }

    /// Sets `sh_addralign`.
    pub fn set_section_addralign(&mut self, idx: SectionIdx<S>, addralign: u64) {
        Self::set_section_field(&mut self.sections.addralign, idx, addralign);
    }

    /// Appends a contribution to `section` (seed 04, "Copy Algorithm"): raises the section's
    /// alignment to the node's, places the node at the section's size rounded up to the
    /// node's alignment, grows the size, and links the node at the tail. No bytes are copied.
    ///
    /// Errors: too many data nodes. A foreign `section` yields `Ok(None)`, as nvlink silently
    /// skips unmapped sections.
    pub fn append_data(
        &mut self,
        section: SectionIdx<S>,
        node: NewDataNode<'a, S>,
    ) -> Result<Option<DataNodeIdx<S>>, ArenaError<S>> {
        let pos = section.pos();
        if pos >= self.sections.len() {
            return Ok(None);
        }
        let idx = DataNodeIdx::from_slot(self.nodes.len() as u32)
            .ok_or(ArenaError::TooMany("data nodes"))?;
        let alignment = node.alignment.max(1);
        if alignment > self.sections.addralign[pos] {
            self.sections.addralign[pos] = alignment;
        }
        let size = self.sections.size[pos];
        let offset = size.div_ceil(alignment).saturating_mul(alignment);
        self.sections.size[pos] = offset.saturating_add(node.data.len());
        self.nodes.push(node.source, offset, alignment, node.data);
        match self.sections.tail[pos] {
            Some(tail) => self.nodes.next[tail.pos()] = Some(idx),
            None => self.sections.head[pos] = Some(idx),
        }
        self.sections.tail[pos] = Some(idx);
        Ok(Some(idx))
    }

    /// The data node at `idx`, or `None` if it is not a node of this arena.
    pub fn get_data_node(&self, idx: DataNodeIdx<S>) -> Option<DataNode<'a, S>> {
        self.nodes.get(idx.pos())
    }

    /// The data nodes of `section` in list order. Allocation-free.
    pub fn data_nodes(
        &self,
        section: SectionIdx<S>,
    ) -> impl Iterator<Item = (DataNodeIdx<S>, DataNode<'a, S>)> + '_ {
        let mut cursor = self.sections.head.get(section.pos()).copied().flatten();
        core::iter::from_fn(move || {
            let idx = cursor?;
            let node = self.nodes.get(idx.pos())?;
            cursor = node.next;
            Some((idx, node))
        })
    }

    /// Sets a node's offset within its section (the layout engine's placement).
    pub fn set_data_node_offset(&mut self, idx: DataNodeIdx<S>, offset: u64) {
        if let Some(o) = self.nodes.offset.get_mut(idx.pos()) {
            *o = offset;
        }
    }

    /// Re-links `section`'s list in the order of `nodes` (the layout engine sorts nodes by
    /// alignment). `nodes` should hold exactly the section's nodes; nodes left out are
    /// unlinked from the section.
    pub fn relink_data_nodes(&mut self, section: SectionIdx<S>, nodes: &[DataNodeIdx<S>]) {
        let pos = section.pos();
        if pos >= self.sections.len() || nodes.iter().any(|n| n.pos() >= self.nodes.len()) {
            return;
        }
        for pair in nodes.windows(2) {
            self.nodes.next[pair[0].pos()] = Some(pair[1]);
        }
        if let Some(last) = nodes.last() {
            self.nodes.next[last.pos()] = None;
        }
        self.sections.head[pos] = nodes.first().copied();
        self.sections.tail[pos] = nodes.last().copied();
    }
}

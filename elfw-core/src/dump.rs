//! Dump.
